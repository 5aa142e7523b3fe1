//! The binary: parse the command line, run it, turn the outcome into an exit code.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::main()
}
