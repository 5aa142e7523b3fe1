//! The command line: clap types, dispatch to the library, reporting and exit codes.
//! The only place that prints, reads the environment or decides the process exit code.

mod exit_code;
mod index;
mod schema;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(name = "catalog-diff", version, about = "Architecture and schema-compatibility diff for EventCatalog catalogs kept in git")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print the catalog's Index document (the EventCatalog SDK's `buildIndex`) at one revision.
    Index(index::IndexArgs),
    /// Judge two schema files directly (paths on disk).
    Schema(schema::SchemaArgs),
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Index(args) => index::run(args),
        Command::Schema(args) => schema::run(args),
    };
    match outcome {
        Ok(code) => code.into(),
        Err(error) => {
            eprintln!("error: {error:#}");
            exit_code::ERROR.into()
        }
    }
}
