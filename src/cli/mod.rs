//! The command line: clap types, dispatch to the library, reporting and exit codes.
//! The only place that prints, reads the environment or decides the process exit code.

/// `eprintln!` that never panics: a closed stderr (`2>&1 | head`) must not turn a run into a
/// crash; the run's exit code stays what it decided.
macro_rules! stderr {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// `println!` that never panics, for the one-line confirmations of commands that wrote a file.
macro_rules! stdout {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

mod ack;
mod cache;
mod diff;
mod exit_code;
mod hook;
mod index;
mod log;
mod progress;
mod schema;
mod settings;
mod spec;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// The footer of the commands whose exit code is a policy (`--fail-on`).
const POLICY_HELP: &str = "\
Strategies (schema-registry meanings):
  backward  a reader on the new schema must read data written with the old one (replays)
  forward   a reader on the old schema must read data written with the new one (the consumers in the graph)
  full      both (the default)
  none      report schema changes, never call one breaking (a message removed while in use still breaks)
  backward-transitive, forward-transitive, full-transitive
            the same, against every earlier version of the schema the catalog keeps
            (the diff's --history adds every version in the baseline's git history)

Exit codes:
  0  ran, and the policy (--fail-on) is satisfied
  1  ran, and the policy tripped (a breaking change; with --fail-on unknown, also a change without a verdict)
  2  could not run: bad arguments, not a repository, unknown revision, invalid catalog, I/O error";

/// The footer of the commands that only print or write.
const PLAIN_HELP: &str = "\
Exit codes:
  0  done
  2  could not run: bad arguments, not a repository, unknown revision, invalid catalog, I/O error";

/// Architecture and schema-compatibility diff for EventCatalog catalogs kept in git.
///
/// With no subcommand, diffs two sides of the repository: `catalog-diff main..HEAD`.
#[derive(Parser, Debug)]
#[command(name = "catalog-diff", version, args_conflicts_with_subcommands = true, after_help = POLICY_HELP)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    diff: diff::DiffArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// The architecture diff between two sides (the default command).
    #[command(after_help = POLICY_HELP)]
    Diff(diff::DiffArgs),
    /// Print the catalog's Index document (the EventCatalog SDK's `buildIndex`) at one revision.
    ///
    /// A folder outside any repository (`-C path/to/catalog`) is read as a plain catalog folder.
    #[command(after_help = PLAIN_HELP)]
    Index(index::IndexArgs),
    /// The compatibility history of a range: one entry per commit that changed the catalog.
    #[command(after_help = POLICY_HELP)]
    Log(log::LogArgs),
    /// Judge two schema files directly (paths on disk): JSON Schema, Avro or Protobuf.
    Schema(schema::SchemaArgs),
    /// Judge two AsyncAPI or OpenAPI specification files directly (paths on disk).
    Spec(spec::SpecArgs),
    /// Install or uninstall the git pre-commit hook that runs `catalog-diff --staged`.
    #[command(after_help = PLAIN_HELP)]
    Hook(hook::HookArgs),
    /// Acknowledge a break so it no longer fails the check (appends to catalog-diff.ack.toml).
    #[command(after_help = PLAIN_HELP)]
    Ack(ack::AckArgs),
    /// Print shell completions (bash, zsh, fish, powershell or elvish) to stdout.
    #[command(
        after_help = "Install, for example: catalog-diff completions bash > ~/.local/share/bash-completion/completions/catalog-diff"
    )]
    Completions {
        /// The shell to complete in.
        shell: clap_complete::Shell,
    },
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
        Some(Command::Spec(args)) => spec::run(args),
        Some(Command::Hook(args)) => hook::run(args),
        Some(Command::Ack(args)) => ack::run(args),
        Some(Command::Completions { shell }) => completions(shell),
    };
    match outcome {
        Ok(code) => ExitCode::from(code),
        Err(error) if is_broken_pipe(&error) => ExitCode::from(exit_code::OK),
        Err(error) => {
            // An error may name catalog paths: escaped line by line, as every report is.
            for line in format!("error: {error:#}").lines() {
                stderr!("{}", catalog_diff::catalog::escape_text(line));
            }
            ExitCode::from(exit_code::ERROR)
        }
    }
}

/// The names of the commands (`diff`, `index`, `log`, ...).
fn command_names() -> Vec<String> {
    use clap::CommandFactory;
    let cli = Cli::command();
    cli.get_subcommands()
        .map(|command| command.get_name().to_owned())
        .collect()
}

fn completions(shell: clap_complete::Shell) -> anyhow::Result<u8> {
    use clap::CommandFactory;
    let mut command = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut command, "catalog-diff", &mut out);
    std::io::Write::write_all(&mut std::io::stdout().lock(), &out)?;
    Ok(exit_code::OK)
}

/// `catalog-diff ... | head` closing the pipe early is not a failure.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
