//! The binary: parse the command line, run it, turn the outcome into an exit code.

mod cli;

use std::process::ExitCode;

// Parsing a catalog is thousands of small allocations; mimalloc makes them cheap.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    cli::main()
}
