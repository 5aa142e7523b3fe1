//! `catalog-diff hook install | uninstall`: put the pre-commit hook into, or take it out of, the
//! repository's hooks folder. This is the one command that writes into a repository, and it
//! writes only there: the hook itself, its backup and a temporary file renamed into place.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use catalog_diff::catalog::{escape_path, escape_text};
use catalog_diff::git::{self, Repo};
use catalog_diff::hook::{self, BACKUP_NAME, HOOK_NAME};
use catalog_diff::policy;
use catalog_diff::schema::{ProtoRules, Strategy};
use clap::ValueEnum;

use super::diff::{FailOn, parse_proto_rules, parse_strategy};
use super::exit_code;
use super::schema::utf8_text;

#[derive(clap::Args, Debug)]
pub struct HookArgs {
    #[command(subcommand)]
    action: Action,
}

#[derive(clap::Subcommand, Debug)]
enum Action {
    /// Write a pre-commit hook that runs `catalog-diff --staged` and refuses a commit when the
    /// policy trips. The hook runs the absolute path of this binary (or `catalog-diff` on PATH
    /// when that path is gone).
    Install(InstallArgs),
    /// Remove the hook `install` wrote, restoring the hook it replaced if there was one.
    Uninstall(RepoArg),
}

#[derive(clap::Args, Debug)]
struct RepoArg {
    /// The repository (discovered upwards from PATH, like git).
    #[arg(short = 'C', long = "repo", value_name = "PATH", default_value = ".")]
    repo: PathBuf,
}

#[derive(clap::Args, Debug)]
struct InstallArgs {
    #[command(flatten)]
    repo: RepoArg,
    /// Replace a pre-commit hook that catalog-diff did not write; it is kept as
    /// `pre-commit.catalog-diff-backup` and restored by `uninstall`.
    #[arg(long)]
    force: bool,
    /// The hook's --strategy: backward, forward, full, none or a transitive one. Default: none
    /// given, so the configuration file decides each time the hook runs (else full).
    #[arg(long, value_parser = parse_strategy)]
    strategy: Option<Strategy>,
    /// The hook's --fail-on: breaking, unknown or never (never only reports). Default: none
    /// given, so the configuration file decides (else breaking).
    #[arg(long, value_enum)]
    fail_on: Option<FailOn>,
    /// The hook's --proto-rules: wire-json or wire (how Protobuf schemas are judged). Default:
    /// none given, so the configuration file decides (else wire-json).
    #[arg(long, value_name = "RULES", value_parser = parse_proto_rules)]
    proto_rules: Option<ProtoRules>,
    /// The hook's --dir: the catalog folder, relative to the repository root. Default: found
    /// automatically each time the hook runs.
    #[arg(long, value_name = "PATH")]
    dir: Option<String>,
}

impl InstallArgs {
    /// The options the hook passes after `--staged`: only those given here.
    fn hook_args(&self) -> Vec<String> {
        let mut args = Vec::new();
        if let Some(strategy) = self.strategy {
            args.extend(["--strategy".to_owned(), strategy.as_str().to_owned()]);
        }
        if let Some(name) = self.fail_on.and_then(|f| f.to_possible_value()) {
            args.extend(["--fail-on".to_owned(), name.get_name().to_owned()]);
        }
        if let Some(rules) = self.proto_rules {
            args.extend(["--proto-rules".to_owned(), rules.as_str().to_owned()]);
        }
        if let Some(dir) = &self.dir {
            args.extend(["--dir".to_owned(), dir.clone()]);
        }
        args
    }
}

pub fn run(args: HookArgs) -> anyhow::Result<u8> {
    match args.action {
        Action::Install(args) => install(&args),
        Action::Uninstall(args) => uninstall(&args),
    }
}

fn install(args: &InstallArgs) -> anyhow::Result<u8> {
    check_catalog_dir(args)?;
    let dir = hooks_dir(&args.repo.repo)?;
    let hook_path = dir.join(HOOK_NAME);
    let backup = dir.join(BACKUP_NAME);
    let foreign = match read_hook(&hook_path)? {
        Some(contents) => !hook::is_ours(&contents),
        None => false,
    };
    if foreign && !args.force {
        bail!(
            "{} exists and was not written by catalog-diff; it was left alone\n  hint: call `catalog-diff --staged` from it yourself, or rerun with --force to replace it (it is kept as {BACKUP_NAME})",
            escape_path(&hook_path)
        );
    }
    if foreign && is_there(&backup) {
        bail!(
            "{} already holds an earlier hook, so the current {HOOK_NAME} cannot be backed up; nothing was changed\n  hint: restore or remove the backup first",
            escape_path(&backup)
        );
    }
    // A program path we cannot know leaves the hook to find `catalog-diff` on PATH.
    let program = std::env::current_exe().and_then(std::fs::canonicalize).ok();
    let hook_args = args.hook_args();
    let script = hook::render(&hook::Options {
        program: program.as_deref(),
        args: &hook_args,
    });
    std::fs::create_dir_all(&dir).map_err(|e| not_writable(&dir, e))?;
    // Write next to the hook and rename, so a failure never leaves a half-written hook behind.
    let temp = dir.join(format!(".{HOOK_NAME}.catalog-diff-new"));
    write_executable(&temp, &script).map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        not_writable(&dir, e)
    })?;
    if foreign && let Err(e) = std::fs::rename(&hook_path, &backup) {
        let _ = std::fs::remove_file(&temp);
        return Err(not_writable(&dir, e));
    }
    if let Err(e) = std::fs::rename(&temp, &hook_path) {
        let _ = std::fs::remove_file(&temp);
        // Put the previous hook back, so a failed install leaves the folder as it was.
        if foreign {
            let _ = std::fs::rename(&backup, &hook_path);
        }
        return Err(not_writable(&dir, e));
    }
    if foreign {
        stdout!("kept the previous hook as {}", escape_path(&backup));
    }
    stdout!(
        "installed {} (runs `{} --staged{}`)",
        escape_path(&hook_path),
        program
            .as_deref()
            .map_or_else(|| "catalog-diff".into(), escape_path),
        hook_args
            .iter()
            .map(|arg| format!(" {}", escape_text(arg)))
            .collect::<String>(),
    );
    Ok(exit_code::OK)
}

/// Refuses an install whose hook would refuse every commit: a `--dir` or a configured `dir`
/// that is not there, a configuration that is not UTF-8, or no `dir` at all in a repository
/// with several catalogs.
fn check_catalog_dir(args: &InstallArgs) -> anyhow::Result<()> {
    let repo = Repo::discover(&args.repo.repo)?;
    if let Some(dir) = &args.dir {
        return Ok(repo
            .detect_catalog_dir(git::Side::Worktree, Some(dir))
            .map(drop)?);
    }
    // The configuration's `dir` is checked as `--dir` is, named with the line that sets it.
    if let Some((dir, place)) = configured_dir(&repo)? {
        return repo
            .detect_catalog_dir(git::Side::Worktree, Some(&dir))
            .map(drop)
            .with_context(|| format!("{place}: `dir`"));
    }
    let Err(git::Error::AmbiguousCatalogDir { candidates }) =
        repo.detect_catalog_dir(git::Side::Worktree, None)
    else {
        // A folder found by detection alone is found again, on the side the hook reads.
        return Ok(());
    };
    bail!(
        "several folders hold an eventcatalog.config file: {}; the hook would refuse every commit, not knowing which to check; nothing was installed\n  hint: name one: `catalog-diff hook install --dir PATH` (or set `dir` in {})",
        escape_text(&candidates.join(", ")),
        policy::CONFIG_FILE
    )
}

/// The `dir` the configuration sets, with where it sets it (`catalog-diff.toml:3`), read as a
/// run reads it; a configuration that does not parse is left for the run to name.
fn configured_dir(repo: &Repo) -> anyhow::Result<Option<(String, String)>> {
    let file = policy::CONFIG_FILE;
    let Some(bytes) = repo.read_root_file(git::Side::Worktree, file)? else {
        return Ok(None);
    };
    let text = utf8_text(file, "configuration", bytes)?;
    let Ok((config, _)) = policy::Config::parse_partly(file, &text) else {
        return Ok(None);
    };
    let line = config.dir_line(&text).unwrap_or(1);
    Ok(config
        .dir
        .map(|dir| (dir.into_inner(), format!("{file}:{line}"))))
}

fn uninstall(args: &RepoArg) -> anyhow::Result<u8> {
    let dir = hooks_dir(&args.repo)?;
    let hook_path = dir.join(HOOK_NAME);
    let backup = dir.join(BACKUP_NAME);
    let Some(contents) = read_hook(&hook_path)? else {
        stdout!(
            "no {HOOK_NAME} hook in {}; nothing to do",
            escape_path(&dir)
        );
        return Ok(exit_code::OK);
    };
    if !hook::is_ours(&contents) {
        bail!(
            "{} was not written by catalog-diff; it was left alone\n  hint: edit or remove it yourself",
            escape_path(&hook_path)
        );
    }
    if is_there(&backup) {
        std::fs::rename(&backup, &hook_path).map_err(|e| not_writable(&dir, e))?;
        stdout!("restored the previous hook from {}", escape_path(&backup));
    } else {
        std::fs::remove_file(&hook_path).map_err(|e| not_writable(&dir, e))?;
        stdout!("removed {}", escape_path(&hook_path));
    }
    Ok(exit_code::OK)
}

/// The hooks folder of the repository holding `path`, which must be a folder if it exists.
fn hooks_dir(path: &Path) -> anyhow::Result<PathBuf> {
    let dir = match Repo::discover(path)?.hooks_dir() {
        Err(git::Error::BareRepository { git_dir, .. }) => bail!(
            "{} is a bare repository: nothing is committed there, so a pre-commit hook would never run\n  hint: install the hook in a clone with a work tree",
            escape_path(&git_dir)
        ),
        other => other?,
    };
    if dir.exists() && !dir.is_dir() {
        bail!(
            "the hooks folder {} is not a folder; nothing was changed\n  hint: point core.hooksPath at a folder (`git config core.hooksPath`)",
            escape_path(&dir)
        );
    }
    Ok(dir)
}

/// The hook's bytes, or `None` when there is no hook.
fn read_hook(path: &Path) -> anyhow::Result<Option<Vec<u8>>> {
    match std::fs::read(path) {
        Ok(contents) => Ok(Some(contents)),
        // A symbolic link to nothing is still someone's hook (a hook manager's, say): it is
        // foreign, with nothing in it.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(is_there(path).then(Vec::new)),
        Err(e) => Err(e).with_context(|| {
            format!(
                "reading {}; nothing was changed\n  hint: check its permissions",
                escape_path(path)
            )
        }),
    }
}

/// Whether anything is at `path`, a symbolic link to nothing included.
fn is_there(path: &Path) -> bool {
    path.symlink_metadata().is_ok()
}

fn write_executable(path: &Path, contents: &str) -> std::io::Result<()> {
    std::fs::write(path, contents)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))?;
    }
    Ok(())
}

fn not_writable(dir: &Path, error: std::io::Error) -> anyhow::Error {
    anyhow::Error::new(error).context(format!(
        "cannot write in the hooks folder {}; no existing hook was changed\n  hint: make the folder writable for you (or set core.hooksPath to a folder you can write)",
        escape_path(dir)
    ))
}
