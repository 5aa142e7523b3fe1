//! Where the time of one `index` and one `A..B` goes, phase by phase, on a real repository:
//!
//!   cargo run --release --example phases -- REPO [A [B]]
//!
//! Prints wall time per phase (read, build, prepare, diff, serialize). For finding what to
//! optimise; the benchmark figures come from scripts/bench-scale.sh.

use std::time::Instant;

use catalog_diff::catalog::build::{self, ParseCache};
use catalog_diff::diff::{self, Prepared, VerdictCache};
use catalog_diff::git::Repo;
use catalog_diff::json_text;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: phases REPO [A [B]]");
        std::process::exit(2);
    };
    let a = args.get(1).map_or("HEAD", String::as_str);
    let b = args.get(2).map(String::as_str);
    let repo = Repo::discover(path.as_ref()).unwrap_or_else(|e| fail(e));
    let options = build::Options {
        hash_content: true,
        include_schema_content: true,
        ..build::Options::default()
    };
    let cache = ParseCache::default();
    let mut clock = Clock(Instant::now());

    let commit = repo.resolve_commit(a).unwrap_or_else(|e| fail(e));
    let files = repo.read_commit(commit, "").unwrap_or_else(|e| fail(e));
    clock.lap(&format!("read {a} ({} files)", files.files.len()));
    let built = build::build(&files, &options, &cache);
    clock.lap(&format!(
        "build ({} resources)",
        built.index.resources.len()
    ));
    let text = json_text::to_pretty(&built.index.to_value());
    clock.lap(&format!("serialize ({} bytes)", text.len()));
    let Some(b) = b else { return };

    let commit_b = repo.resolve_commit(b).unwrap_or_else(|e| fail(e));
    let files_b = repo.read_commit(commit_b, "").unwrap_or_else(|e| fail(e));
    clock.lap(&format!("read {b}"));
    let built_b = build::build(&files_b, &options, &cache);
    clock.lap("build (parses cached)");
    let (prepared_a, prepared_b) = (Prepared::new(&built.index), Prepared::new(&built_b.index));
    clock.lap("prepare both sides (group, resolve)");
    let diff = diff::diff_prepared(
        &prepared_a,
        &prepared_b,
        &diff::Options::default(),
        &VerdictCache::default(),
    );
    clock.lap(&format!(
        "diff ({} schema changes)",
        diff.schema_changes.len()
    ));
}

/// Prints the time since the previous lap.
struct Clock(Instant);

impl Clock {
    fn lap(&mut self, what: &str) {
        eprintln!("{:>9.1} ms  {what}", self.0.elapsed().as_secs_f64() * 1e3);
        self.0 = Instant::now();
    }
}

fn fail(error: impl std::fmt::Display) -> ! {
    eprintln!("error: {error}");
    std::process::exit(2);
}
