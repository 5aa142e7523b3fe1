//! The command line: clap types, dispatch to the library, reporting and exit codes.
//! The only place that prints, reads the environment or decides the process exit code.

mod diff;
mod exit_code;
mod generate;
mod hook;
mod index;
mod log;
mod progress;
mod schema;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

const AFTER_HELP: &str = "\
Exit codes:
  0  ran, and the policy (--fail-on) is satisfied
  1  ran, and the policy tripped (a breaking change; with --fail-on unknown, also a change without a verdict)
  2  could not run: bad arguments, not a repository, unknown revision, invalid catalog, I/O error";

/// Architecture and schema-compatibility diff for EventCatalog catalogs kept in git.
///
/// With no subcommand, diffs two sides of the repository: `catalog-diff main..HEAD`.
#[derive(Parser, Debug)]
#[command(name = "catalog-diff", version, args_conflicts_with_subcommands = true, after_help = AFTER_HELP)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    diff: diff::DiffArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// The architecture diff between two sides (the default command).
    #[command(after_help = AFTER_HELP)]
    Diff(diff::DiffArgs),
    /// Print the catalog's Index document (the EventCatalog SDK's `buildIndex`) at one revision.
    #[command(after_help = AFTER_HELP)]
    Index(index::IndexArgs),
    /// The compatibility history of a range: one entry per commit that changed the catalog.
    #[command(after_help = AFTER_HELP)]
    Log(log::LogArgs),
    /// Judge two schema files directly (paths on disk): JSON Schema or Protobuf.
    #[command(after_help = AFTER_HELP)]
    Schema(schema::SchemaArgs),
    /// Install or uninstall the git pre-commit hook that runs `catalog-diff --staged`.
    #[command(after_help = AFTER_HELP)]
    Hook(hook::HookArgs),
    /// Write a synthetic catalog repository for benchmarks (hidden: a developer tool).
    #[command(hide = true)]
    Generate(generate::GenerateArgs),
}

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.print();
            return ExitCode::from(if error.use_stderr() {
                exit_code::ERROR
            } else {
                exit_code::OK
            });
        }
    };
    let outcome = match cli.command {
        None => diff::run(cli.diff),
        Some(Command::Diff(args)) => diff::run(args),
        Some(Command::Index(args)) => index::run(args),
        Some(Command::Log(args)) => log::run(args),
        Some(Command::Schema(args)) => schema::run(args),
        Some(Command::Hook(args)) => hook::run(args),
        Some(Command::Generate(args)) => generate::run(args),
    };
    match outcome {
        Ok(code) => ExitCode::from(code),
        Err(error) if is_broken_pipe(&error) => ExitCode::from(exit_code::OK),
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(exit_code::ERROR)
        }
    }
}

/// `catalog-diff ... | head` closing the pipe early is not a failure.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
