//! `cargo run --release --example generate -- OUT_DIR [--messages M] ...`: write a new git
//! repository holding a seeded synthetic catalog and a history of small commits, for
//! benchmarks (`scripts/bench-scale.sh`). The same seed gives the same commit ids.

#[allow(
    dead_code,
    reason = "the tests use parts of the generator this program does not"
)]
mod synth;

use std::path::PathBuf;

use clap::Parser;
use synth::{Catalog, Params};

/// Write a synthetic catalog repository for benchmarks.
#[derive(Parser, Debug)]
pub struct GenerateArgs {
    /// The new repository's folder: must not exist, or be empty.
    pub out_dir: PathBuf,
    /// Messages (events, commands and queries), each with 1-3 versions.
    #[arg(long, default_value_t = 200)]
    pub messages: usize,
    #[arg(long, default_value_t = 40)]
    pub services: usize,
    #[arg(long, default_value_t = 8)]
    pub domains: usize,
    /// Commits after the initial import.
    #[arg(long, default_value_t = 100)]
    pub commits: usize,
    /// The same seed gives the same repository, commit ids included.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

fn main() -> anyhow::Result<()> {
    let args = GenerateArgs::parse();
    let params = Params {
        messages: args.messages,
        services: args.services,
        domains: args.domains,
        commits: args.commits,
        seed: args.seed,
    };
    let catalog = Catalog::generate(&params)?;
    let head = synth::repository::write(&args.out_dir, &catalog)?;
    println!(
        "{}",
        synth::repository::summary(&args.out_dir, &catalog.stats, &head)
    );
    Ok(())
}
