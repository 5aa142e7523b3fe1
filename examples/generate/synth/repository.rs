//! Writing a generated [`Catalog`] out as a new git repository: `git init`, the fast-import
//! stream, `git reset`. Runs git with no user or system configuration, so nothing outside
//! changes what is written.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use anyhow::{Context, bail};

use super::{Catalog, Stats};

/// Writes `catalog` as a new repository at `out` (which must not exist, or be empty) and
/// returns the id of its `main`.
pub fn write(out: &Path, catalog: &Catalog) -> anyhow::Result<String> {
    check_empty(out)?;
    git(
        git_plain().args(["init", "-q", "-b", "main"]).arg(out),
        "git init",
    )?;
    fast_import(out, catalog)?;
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
    Ok(head.trim().to_owned())
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

/// One line about what was written.
pub fn summary(dir: &Path, s: &Stats, head: &str) -> String {
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
