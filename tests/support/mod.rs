//! `TestRepo`: a throw-away git repository built with the git CLI in a hermetic environment
//! (`GIT_CONFIG_GLOBAL=/dev/null`, `GIT_CONFIG_NOSYSTEM=1`, fixed author, committer and dates),
//! so commit ids are the same on every machine. Shared by the integration tests; tests may run
//! `git`, the tool never does.

#![allow(
    dead_code,
    reason = "each test binary uses a different part of the helper"
)]

use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::process::Command;

pub struct TestRepo {
    /// Keeps the temporary folder alive; the repository is `<dir>/repo`, so the folder name
    /// (the default `source`) is always `repo`.
    _dir: tempfile::TempDir,
    root: PathBuf,
    /// Seconds added to the fixed base date for the next commit, so dates are distinct.
    tick: Cell<u64>,
}

/// Copies folder `from` (files and folders, recursively) into `to`.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create dir");
    for entry in std::fs::read_dir(from).expect("readable dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// Writes `files` (`(path, contents)`) below `root`, creating parent folders.
pub fn write_files(root: &Path, files: &[(&str, &str)]) {
    for (path, contents) in files {
        let full = root.join(path);
        std::fs::create_dir_all(full.parent().expect("a file path has a parent"))
            .expect("create dir");
        std::fs::write(&full, contents).expect("write file");
    }
}

/// The parse cache of every run of the tool the tests start, hooks included: in the build's
/// temporary folder, never the user's cache folder (each repository has a file of its own).
pub const PARSE_CACHE: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/parse-cache");

/// A `git` command with the hermetic environment, run in `cwd`.
pub fn git_command(cwd: &Path, tick: u64) -> Command {
    let date = format!("{} +0000", 1_700_000_000 + tick);
    let mut cmd = Command::new("git");
    cmd.current_dir(cwd)
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .env_remove("GIT_OBJECT_DIRECTORY")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", cwd)
        .env("LC_ALL", "C")
        .env("GIT_AUTHOR_NAME", "Test Author")
        .env("GIT_AUTHOR_EMAIL", "author@example.com")
        .env("GIT_COMMITTER_NAME", "Test Committer")
        .env("GIT_COMMITTER_EMAIL", "committer@example.com")
        .env("GIT_AUTHOR_DATE", &date)
        .env("GIT_COMMITTER_DATE", &date)
        .env("GIT_PROTOCOL_FROM_USER", "0")
        .env("GIT_ALLOW_PROTOCOL", "file")
        .env("CATALOG_DIFF_CACHE", PARSE_CACHE);
    cmd
}

/// Runs `git args` in `cwd` and returns trimmed stdout; panics with stderr on failure.
pub fn git_in(cwd: &Path, tick: u64, args: &[&str]) -> String {
    let out = git_command(cwd, tick)
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?} failed in {}:\n{}",
        cwd.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

impl TestRepo {
    /// `git init` on branch `main` in a fresh temporary folder.
    pub fn new() -> TestRepo {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path().join("repo");
        std::fs::create_dir(&root).expect("create repo dir");
        let repo = TestRepo {
            _dir: dir,
            root,
            tick: Cell::new(0),
        };
        repo.git(&["init", "-q", "-b", "main"]);
        repo
    }

    /// `git clone <args> file://<self>` into a fresh temporary folder (`--depth 1`, `--bare`, ...).
    pub fn clone_with(&self, args: &[&str]) -> TestRepo {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path().join("repo");
        let url = format!("file://{}", self.root.display());
        let target = root.to_string_lossy().into_owned();
        let mut all: Vec<&str> = vec!["clone", "-q"];
        all.extend_from_slice(args);
        all.push(&url);
        all.push(&target);
        git_in(dir.path(), 0, &all);
        TestRepo {
            _dir: dir,
            root,
            tick: Cell::new(self.tick.get()),
        }
    }

    /// The work tree root (or the git dir of a bare clone).
    pub fn path(&self) -> PathBuf {
        self.root.clone()
    }

    pub fn git(&self, args: &[&str]) -> String {
        git_in(&self.path(), self.tick.get(), args)
    }

    pub fn write(&self, path: &str, contents: &str) -> &Self {
        write_files(&self.path(), &[(path, contents)]);
        self
    }

    pub fn write_all(&self, files: &[(&str, &str)]) -> &Self {
        write_files(&self.path(), files);
        self
    }

    pub fn remove(&self, path: &str) -> &Self {
        std::fs::remove_file(self.path().join(path)).expect("remove file");
        self
    }

    /// Deletes loose object `hex` from the object database, as a damaged repository would lack it.
    pub fn remove_object(&self, hex: &str) -> &Self {
        let file = self
            .path()
            .join(".git/objects")
            .join(&hex[..2])
            .join(&hex[2..]);
        std::fs::remove_file(file).expect("a loose object");
        self
    }

    #[cfg(unix)]
    pub fn symlink(&self, target: &str, path: &str) -> &Self {
        let full = self.path().join(path);
        std::fs::create_dir_all(full.parent().expect("parent")).expect("create dir");
        std::os::unix::fs::symlink(target, full).expect("symlink");
        self
    }

    /// `git add -A && git commit -m msg`; returns the new commit's full id.
    pub fn commit_all(&self, msg: &str) -> String {
        self.git(&["add", "-A"]);
        self.commit(msg)
    }

    /// `git commit -m msg` of whatever is staged; returns the new commit's full id.
    pub fn commit(&self, msg: &str) -> String {
        self.tick.set(self.tick.get() + 60);
        self.git(&["commit", "-q", "--allow-empty", "-m", msg]);
        self.rev("HEAD")
    }

    pub fn rev(&self, rev: &str) -> String {
        self.git(&["rev-parse", "--verify", &format!("{rev}^{{commit}}")])
    }
}

impl AsRef<Path> for TestRepo {
    fn as_ref(&self) -> &Path {
        &self.root
    }
}

impl Default for TestRepo {
    fn default() -> Self {
        Self::new()
    }
}

/// `../shared` beside the project, when it is there. When it is not, says so on the real
/// stderr (bypassing the test harness's capture, so `cargo test` shows it) and returns None.
pub fn shared_or_skip(test: &str) -> Option<PathBuf> {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared");
    if shared.join("catalogs").is_dir() {
        return Some(shared);
    }
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "skipped {test}: ../shared/catalogs is not there"
    );
    None
}

/// A fresh clone of `../shared/catalogs/examples-default.bundle` (branch `main`) in a temporary
/// folder, or None (said on stderr) when `../shared` is not there.
pub fn examples_default_clone(test: &str) -> Option<(tempfile::TempDir, PathBuf)> {
    let shared = shared_or_skip(test)?;
    let temp = tempfile::tempdir().expect("a temporary folder");
    let clone = temp.path().join("examples-default");
    let status = Command::new("git")
        .args(["clone", "-q", "-b", "main"])
        .arg(shared.join("catalogs/examples-default.bundle"))
        .arg(&clone)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .status()
        .expect("git runs");
    assert!(status.success(), "cloning the examples-default bundle");
    Some((temp, clone))
}
