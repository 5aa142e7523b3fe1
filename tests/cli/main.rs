//! The command line end to end, as one test binary (one link, one run): every command on real
//! temporary repositories built by the shared hermetic helper (`tests/support`), and the
//! `--help` of every command snapshotted so a changed flag is a visible diff.
//!
//! Snapshots live in `tests/cli/snapshots/`; after a deliberate change, review and accept them
//! with `cargo insta review` (or `INSTA_UPDATE=always cargo test --test cli`).

#[path = "../support/mod.rs"]
mod support;

mod avro;
mod cache;
mod diff;
mod guard;
mod help;
mod hook;
mod index;
mod log;
mod policy;
mod protobuf;
mod reference_rules;
mod spec;
