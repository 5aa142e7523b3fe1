//! catalog-diff: read an EventCatalog catalog straight out of git, build the SDK's Index
//! natively, resolve the graph and judge schema compatibility between two revisions.
//!
//! The pipeline, in order:
//! - [`git`]: a revision, the staged index, the working tree or a plain folder -> [`catalog::FileSet`]
//! - [`catalog::build`]: FileSet -> [`catalog::Index`] (the SDK's `buildIndex`), pure
//! - [`catalog::resolve`]: Index -> edges (the SDK's `resolve`), pure
//! - [`schema`]: two schema documents (JSON Schema, Protobuf) -> a [`schema::Verdict`], pure
//! - [`diff`]: two Indexes -> an [`diff::ArchitectureDiff`], pure
//! - [`history`]: a first-parent commit list -> one ArchitectureDiff per changed commit (`log`)
//! - [`report`]: an ArchitectureDiff -> text, markdown or GitHub annotations, pure
//! - [`hook`]: the git pre-commit hook script, pure
//! - [`synth`]: a seeded synthetic catalog and history, as a `git fast-import` stream (benchmarks)
//! - `cli`: the thin command line on top.

pub mod catalog;
pub mod diff;
pub mod git;
pub mod history;
pub mod hook;
pub mod json_text;
pub mod report;
pub mod schema;
pub mod synth;
