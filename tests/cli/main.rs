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

use std::path::Path;
use std::process::{Command, Output};

/// The binary, to be run in `cwd` without colour, with the tests' parse cache.
fn binary(cwd: impl AsRef<Path>) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_catalog-diff"));
    command
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .env("CATALOG_DIFF_CACHE", support::PARSE_CACHE);
    command
}

/// Runs the binary with `args` in `cwd`, its stdout and stderr pipes whose reader is gone
/// before it starts (`| head -0`), and gives its exit code.
fn run_unread(cwd: impl AsRef<Path>, args: &[&str]) -> Option<i32> {
    let (out_reader, out_writer) = std::io::pipe().expect("a pipe");
    let (err_reader, err_writer) = std::io::pipe().expect("a pipe");
    drop((out_reader, err_reader));
    binary(cwd)
        .args(args)
        .stdout(out_writer)
        .stderr(err_writer)
        .status()
        .expect("the binary runs")
        .code()
}

/// Runs the binary with `args` in `cwd`.
fn run(cwd: impl AsRef<Path>, args: &[&str]) -> Output {
    binary(cwd).args(args).output().expect("the binary runs")
}

/// stdout read as JSON; when it is not, the panic shows both streams.
fn json(output: &Output) -> serde_json::Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}
