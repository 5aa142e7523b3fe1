//! `catalog-diff generate OUT_DIR` (hidden): write a synthetic catalog repository for
//! benchmarks. The catalog and its history come from [`catalog_diff::synth`]; this module only
//! checks the target folder and runs `git init`, `git fast-import` and `git reset`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, bail};
use catalog_diff::synth::{Catalog, Params, Stats};

use super::exit_code;

#[derive(clap::Args, Debug)]
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

pub fn run(args: GenerateArgs) -> anyhow::Result<u8> {
    let params = Params {
        messages: args.messages,
        services: args.services,
        domains: args.domains,
        commits: args.commits,
        seed: args.seed,
    };
    let catalog = Catalog::generate(&params)?;
    check_empty(&args.out_dir)?;
    let out = &args.out_dir;
    git(
        git_plain().args(["init", "-q", "-b", "main"]).arg(out),
        "git init",
    )?;
    fast_import(out, &catalog)?;
    git(
        git_in(out).args(["reset", "-q", "--hard", "main"]),
        "git reset --hard main",
    )?;
    let head = String::from_utf8(
        git_in(out)
            .args(["rev-parse", "main"])
            .output()
            .context("running git rev-parse")?
            .stdout,
    )
    .context("git rev-parse printed non-UTF-8")?;
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "{}", summary(out, &catalog.stats, head.trim()))
        .context("writing the summary")?;
    Ok(exit_code::OK)
}

/// Refuses to write into a folder that holds anything: it would mix with the generated tree.
fn check_empty(dir: &Path) -> anyhow::Result<()> {
    match std::fs::read_dir(dir) {
        Ok(mut entries) => match entries.next() {
            Some(_) => bail!(
                "{} exists and is not empty; generate writes a new repository",
                dir.display()
            ),
            None => Ok(()),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e).with_context(|| format!("reading {}", dir.display())),
    }
}

/// `git` with no user or system config, so nothing outside changes what is written.
fn git_plain() -> Command {
    let mut cmd = Command::new("git");
    cmd.env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1");
    cmd
}

fn git_in(dir: &Path) -> Command {
    let mut cmd = git_plain();
    cmd.arg("-C").arg(dir);
    cmd
}

fn git(cmd: &mut Command, what: &str) -> anyhow::Result<()> {
    let status = cmd.status().with_context(|| format!("running {what}"))?;
    if !status.success() {
        bail!("{what} failed ({status})");
    }
    Ok(())
}

fn fast_import(dir: &Path, catalog: &Catalog) -> anyhow::Result<()> {
    let mut child = git_in(dir)
        .args(["fast-import", "--quiet", "--done"])
        .stdin(Stdio::piped())
        .spawn()
        .context("running git fast-import")?;
    let stdin = child.stdin.take().context("git fast-import has no stdin")?;
    let mut stream = std::io::BufWriter::with_capacity(1 << 20, stdin);
    let written = catalog
        .write_fast_import(&mut stream)
        .and_then(|()| stream.flush());
    // Close stdin before waiting, or fast-import waits for more input forever.
    drop(stream);
    let status = child.wait().context("waiting for git fast-import")?;
    written.context("writing the fast-import stream")?;
    if !status.success() {
        bail!("git fast-import failed ({status})");
    }
    Ok(())
}

fn summary(dir: &Path, s: &Stats, head: &str) -> String {
    format!(
        "generated {}: {} files, {} messages ({} events, {} commands, {} queries) in {} versions, \
         {} services in {} domains, {} channels; {} commits on main (head {head}); \
         {} schema bytes ({} per version on average)",
        dir.display(),
        s.files,
        s.messages,
        s.events,
        s.commands,
        s.queries,
        s.versions,
        s.services,
        s.domains,
        s.channels,
        s.commits,
        s.schema_bytes,
        s.schema_bytes / s.versions.max(1),
    )
}
