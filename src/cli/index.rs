//! `catalog-diff index [REV | --staged | --worktree]`: print one side's Index document.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use catalog_diff::catalog::build::{self, Options};
use catalog_diff::catalog::{FileSet, Severity};
use catalog_diff::git::{self, Repo};
use catalog_diff::json_text;

use super::cache::{Cache, Loading};
use super::exit_code;

#[derive(clap::Args, Debug)]
pub struct IndexArgs {
    /// The revision to index (any revision git understands). Default: HEAD.
    #[arg(conflicts_with_all = ["staged", "worktree"])]
    pub rev: Option<String>,
    /// Index what `git commit` would record (the staged index).
    #[arg(long, conflicts_with = "worktree")]
    pub staged: bool,
    /// Index the working tree (files ignored by .gitignore are left out).
    #[arg(long)]
    pub worktree: bool,
    #[command(flatten)]
    pub catalog: CatalogArgs,
    /// Put each schema file's raw text on its entry, as `content`.
    #[arg(long)]
    pub include_schema_content: bool,
    /// Build without hashes, like the SDK's `hashContent: false`.
    #[arg(long)]
    pub no_hash: bool,
}

/// Where the catalog is and how it is named: shared by every command that reads a catalog.
#[derive(clap::Args, Debug)]
pub struct CatalogArgs {
    /// The repository (discovered upwards from PATH, like git).
    #[arg(short = 'C', long = "repo", value_name = "PATH", default_value = ".")]
    pub repo: PathBuf,
    /// The catalog folder, relative to the repository root. Default: found automatically.
    #[arg(long, value_name = "PATH")]
    pub dir: Option<String>,
    /// The `source` string of the Index. Default: the repository folder's name.
    #[arg(long, value_name = "NAME")]
    pub source: Option<String>,
    /// Exit 2 on any catalog warning (dangling references, SDK surprises), not only on errors.
    #[arg(long)]
    pub strict: bool,
    /// Largest file read (front matter, schemas, specifications); a larger one is an error
    /// naming it, never read. Bytes, or with a K, M or G suffix (powers of 1024).
    #[arg(long, value_name = "SIZE", default_value = "64M", value_parser = parse_size)]
    pub max_file_size: u64,
    #[command(flatten)]
    pub cache: super::cache::CacheArgs,
}

impl CatalogArgs {
    /// The repository holding `--repo`, reading files up to `--max-file-size`.
    pub fn discover(&self) -> Result<Repo, git::Error> {
        let mut repo = Repo::discover(&self.repo)?;
        repo.set_max_file_size(self.max_file_size);
        Ok(repo)
    }
}

/// `4096`, `64K`, `64M`, `1G` (powers of 1024; a trailing `B` or `iB` is allowed).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let upper = text.trim().to_ascii_uppercase();
    let trimmed = upper.trim_end_matches("IB").trim_end_matches('B');
    let (digits, shift) = match trimmed.char_indices().last() {
        Some((at, 'K')) => (&trimmed[..at], 10),
        Some((at, 'M')) => (&trimmed[..at], 20),
        Some((at, 'G')) => (&trimmed[..at], 30),
        _ => (trimmed, 0),
    };
    digits
        .trim()
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(1 << shift))
        .filter(|n| *n > 0)
        .ok_or_else(|| {
            let text = catalog_diff::catalog::escape_text(text);
            format!("`{text}` is not a size: use bytes or a number with K, M or G (64M)")
        })
}

/// One catalog side, read: its files, its name and the commit string of its Index.
pub struct Side {
    pub files: FileSet,
    pub source: String,
    pub commit: String,
    /// The repository it was read from (`None` for a plain folder).
    pub repo: Option<Repo>,
}

pub fn run(args: IndexArgs) -> anyhow::Result<u8> {
    let (side, loading) = read_side(&args)?;
    let options = Options {
        source: side.source,
        commit: side.commit,
        hash_content: !args.no_hash,
        include_schema_content: args.include_schema_content,
    };
    let cache = loading.wait();
    let built = build::build(&side.files, &options, &cache.parses);
    if let Some(repo) = &side.repo {
        repo.check_reads()?;
    }
    cache.save();
    let failed = report_diagnostics(&built.diagnostics, args.catalog.strict);
    if failed {
        return Ok(exit_code::ERROR);
    }
    if let Some(dir) = &args.catalog.dir
        && built.index.resources.is_empty()
    {
        return Err(super::diff::no_resources("", dir, "here"));
    }
    let text = json_text::to_pretty(&built.index);
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "{text}").context("writing the index to stdout")?;
    // The process ends here: the OS takes the memory back faster than freeing it piece by piece.
    std::mem::forget((side.files, built, cache));
    Ok(exit_code::OK)
}

/// Prints every diagnostic to stderr; true when the run must fail (an error, or any warning
/// under `--strict`).
pub fn report_diagnostics(diagnostics: &[catalog_diff::catalog::Diagnostic], strict: bool) -> bool {
    let mut stderr = std::io::stderr().lock();
    for diagnostic in diagnostics {
        // stderr is best effort: a closed stderr must not turn into a panic.
        let _ = writeln!(stderr, "{diagnostic}");
    }
    let errors = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = diagnostics.len() - errors;
    if errors > 0 || (strict && warnings > 0) {
        let _ = writeln!(
            stderr,
            "catalog-diff: {errors} error(s), {warnings} warning(s){}",
            if errors == 0 {
                " (failing because of --strict)"
            } else {
                ""
            }
        );
        return true;
    }
    false
}

/// The side `args` name, read while the cache loads (the repository takes blob sizes from it).
fn read_side(args: &IndexArgs) -> anyhow::Result<(Side, Loading)> {
    let catalog = &args.catalog;
    let repo = match catalog.discover() {
        Ok(repo) => repo,
        Err(git::Error::NotARepository { .. })
            if args.rev.is_none() && !args.staged && !args.worktree =>
        {
            let root = match &catalog.dir {
                Some(dir) => catalog.repo.join(dir),
                None => catalog.repo.clone(),
            };
            let loading = Cache::start(&catalog.cache, None);
            let files = git::read_dir(&root, catalog.max_file_size)?;
            let source = catalog.source.clone().unwrap_or_else(|| folder_name(&root));
            let side = Side {
                files,
                source,
                commit: "local".into(),
                repo: None,
            };
            return Ok((side, loading));
        }
        Err(error) => return Err(error.into()),
    };
    let loading = Cache::start(&catalog.cache, Some(&repo));
    let source = catalog
        .source
        .clone()
        .or_else(|| repo.workdir_name())
        .unwrap_or_else(|| folder_name(&catalog.repo));
    if args.staged {
        let dir = repo.detect_catalog_dir(git::Side::Staged, catalog.dir.as_deref())?;
        let side = Side {
            files: repo.read_staged(&dir)?,
            source,
            commit: "staged".into(),
            repo: Some(repo),
        };
        return Ok((side, loading));
    }
    if args.worktree {
        let dir = repo.detect_catalog_dir(git::Side::Worktree, catalog.dir.as_deref())?;
        let side = Side {
            files: repo.read_worktree(&dir)?,
            source,
            commit: "worktree".into(),
            repo: Some(repo),
        };
        return Ok((side, loading));
    }
    let rev = args.rev.as_deref().unwrap_or("HEAD");
    let commit = repo.resolve_commit(rev)?;
    let dir = repo.detect_catalog_dir(git::Side::Commit(commit), catalog.dir.as_deref())?;
    let side = Side {
        files: repo.read_commit(commit, &dir)?,
        source,
        commit: commit.to_string(),
        repo: Some(repo),
    };
    Ok((side, loading))
}

fn folder_name(path: &std::path::Path) -> String {
    std::fs::canonicalize(path)
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "catalog".into())
}
