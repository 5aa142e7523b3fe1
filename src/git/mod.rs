//! The git edge: revisions, the staged index, the working tree and plain folders ->
//! [`FileSet`], read with gix straight from the object database, the index file and the disk.
//!
//! This is the only module (besides `cli`) that touches a repository or the disk. It never writes
//! into the repository, never checks anything out and never runs a `git` subprocess.
//!
//! - [`Repo`] wraps a gix repository plus a [`BlobCache`]: the FileSets it reads list each blob
//!   (its size checked against the limit at once, from a size an earlier run learnt or else from
//!   its header) and inflate it when its bytes are first used, once however many commits share it.
//! - [`Repo::parse_range`] turns the command line's RANGE into [`Sides`] (cli.md, "Choosing the two
//!   sides"); [`Repo::detect_catalog_dir`] finds the catalog folder on one [`Side`].
//! - [`Repo::read`] / [`Repo::read_commit`] / [`Repo::read_staged`] / [`Repo::read_worktree`] and
//!   the free [`read_dir`] produce [`FileSet`]s that agree on paths, blob ids and bytes for the
//!   same content. Symlinks and submodules are listed in `FileSet::special`, never followed.
//! - [`Repo::tree_id`] and [`Repo::first_parent_walk`] serve the history walk of `log`.
//!
//! Working-tree blob ids are hashed from the bytes on disk, except for a file that is its staged
//! blob with CRLF line endings (`core.autocrlf`, `eol`), which is taken as that blob. Other clean
//! filters (LFS, `ident`) are not applied.
//!
//! Catalog directories are repository-root relative, `/`-separated, without a leading or trailing
//! slash; the repository root itself is the empty string `""`.
//!
//! [`FileSet`]: crate::catalog::FileSet

mod detect;
mod eol;
mod history;
mod index_tree;
mod read;

use crate::catalog::IdMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::catalog::{BlobId, SizeMemory, escape_path, escape_text};

pub use detect::{CATALOG_FOLDERS, CONFIG_FILES, detect_from_paths, normalize_dir};
pub use history::CommitInfo;
pub use read::{Changes, Pair, join, read_dir};

/// Everything that can stop reading a catalog out of git.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{} is not inside a git repository (or any parent directory): {}", escape_path(path), escape_text(&cause.to_string()))]
    NotARepository {
        path: PathBuf,
        /// Shown escaped in the message rather than as a source: it repeats the path.
        cause: gix::Error,
    },
    /// The place to look for a repository is a file.
    #[error(
        "{} is a file, not a folder\n  hint: give the folder to run in: the repository or a folder inside it",
        escape_path(path)
    )]
    NotAFolder { path: PathBuf },
    /// A repository is there, but gix cannot open it: it is not "no repository", which would
    /// send `index` to read the folder as a plain one.
    #[error(
        "the git repository {} cannot be opened\n  hint: {hint}",
        escape_path(git_dir)
    )]
    CannotOpen {
        git_dir: PathBuf,
        hint: String,
        #[source]
        source: Option<gix::Error>,
    },
    #[error(
        "an empty RANGE\n  hint: name a revision or a range such as main..HEAD, or leave RANGE out to compare HEAD with the working tree; in a script, check the variable meant to hold it"
    )]
    EmptyRange,
    #[error("unknown revision `{}`\n  hint: {hint}", escape_text(rev))]
    UnknownRevision {
        rev: String,
        hint: String,
        #[source]
        source: Option<gix::Error>,
    },
    #[error("revision `{}` is a {kind}, not a commit", escape_text(rev))]
    NotACommit { rev: String, kind: String },
    /// Objects a side lists that the object database lacks, each with its path (all of them
    /// at once: a partial clone lacks thousands, and one hint covers them all).
    #[error("{}\n  hint: {hint}", missing_objects(objects))]
    ObjectsMissing {
        /// Object id (hex) and path, in listing order.
        objects: Vec<(String, String)>,
        hint: String,
    },
    #[error(
        "the history of `{}` ends at {commit}, the edge of a shallow clone, so it cannot be judged against every version it had\n  hint: run `git fetch --unshallow` (in CI: `fetch-depth: 0`), or leave out --history",
        escape_text(path)
    )]
    ShallowHistory { path: String, commit: String },
    #[error(
        "`{a}` and `{b}` have no merge base, so `{a}...{b}` has no baseline\n  hint: use `{a}..{b}` to compare the two commits directly",
        a = escape_text(a),
        b = escape_text(b)
    )]
    NoMergeBase { a: String, b: String },
    /// No merge base in a shallow clone: it may be in the history that was not fetched.
    #[error(
        "`{a}` and `{b}` have no merge base in this shallow clone, so `{a}...{b}` has no baseline\n  hint: the merge base may be in the history that was not fetched: run `git fetch --unshallow` (in CI: `fetch-depth: 0`)",
        a = escape_text(a),
        b = escape_text(b)
    )]
    ShallowMergeBase { a: String, b: String },
    #[error(
        "the catalog directory `{}` {} {where_}{}\n  hint: {}{}",
        escape_text(dir),
        if *is_link { "is a symbolic link" } else { "does not exist" },
        if *is_file && !*is_link { " (it is a file)" } else { "" },
        if *is_link {
            "catalog-diff does not follow links: name the folder this one leads to"
        } else {
            // Said of `--dir` and of a configured `dir` alike.
            "the catalog directory is relative to the repository root"
        },
        crate::suggest::hint(&nearby.iter().map(String::as_str).collect::<Vec<_>>())
    )]
    CatalogDirNotFound {
        dir: String,
        /// `on either side`, `in HEAD`, `in the working tree`, ...
        where_: String,
        /// The path names a file, not a folder.
        is_file: bool,
        /// The path names a symbolic link (to a folder, perhaps).
        is_link: bool,
        /// Folders next to where it was looked for, closest first.
        nearby: Vec<String>,
    },
    #[error(
        "the catalog directory `{dir}` is a submodule, a repository of its own, which this one holds as a single entry\n  hint: run catalog-diff inside it: `catalog-diff ... -C {dir}`",
        dir = escape_text(dir)
    )]
    CatalogDirIsSubmodule { dir: String },
    #[error(
        "the catalog directory `{}` lies outside the repository\n  hint: the catalog directory is relative to the repository root",
        escape_text(dir)
    )]
    CatalogDirOutsideRepo { dir: String },
    #[error("several folders hold an eventcatalog.config file: {}\n  hint: choose one with --dir", escape_text(&candidates.join(", ")))]
    AmbiguousCatalogDir { candidates: Vec<String> },
    #[error(
        "{} is {size} bytes, over the limit of {limit} bytes\n  hint: raise the limit with --max-file-size",
        escape_text(path)
    )]
    FileTooLarge { path: String, size: u64, limit: u64 },
    #[error("reading {}", escape_path(path))]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "{} is a bare repository, which has no {what}\n  hint: name two revisions, for example `main..HEAD`",
        escape_path(git_dir)
    )]
    BareRepository {
        git_dir: PathBuf,
        what: &'static str,
    },
    #[error(
        "the index file {} cannot be read\n  hint: `git status` may repair it, or remove it and run `git reset`",
        escape_path(path)
    )]
    InvalidIndex {
        path: PathBuf,
        #[source]
        source: gix::Error,
    },
    #[error("the index has unresolved merge conflicts in {}\n  hint: resolve them and `git add` the files first", escape_text(&paths.join(", ")))]
    Conflict { paths: Vec<String> },
    #[error("{}", escape_text(what))]
    Git {
        what: String,
        #[source]
        source: gix::Error,
    },
    /// Folders nested deeper than git allows (made with plumbing): reading on would exhaust the
    /// stack.
    #[error(
        "`{}`: folders nested more than {MAX_DEPTH} deep, deeper than git itself reads (`core.maxTreeDepth`)\n  hint: a catalog's folders are a few levels deep; remove this tree (made by a tool, or by mistake) from the catalog",
        crate::catalog::escape_text(path)
    )]
    TooDeep { path: String },
    /// More than one of the above, each reported (two unknown revisions of a range).
    #[error("{}", each_with_causes(errors))]
    Several { errors: Vec<Error> },
}

/// The deepest folder nesting read in a catalog tree: git's own limit (`core.maxTreeDepth`),
/// beyond which git cannot stage or check out a tree either.
pub const MAX_DEPTH: usize = 2048;

/// An empty end of `A..B` or `A...B` is HEAD, as in git.
pub fn or_head(end: &str) -> &str {
    if end.is_empty() { "HEAD" } else { end }
}

/// The RANGE given, trimmed; `None` when none was. An empty one (an unset variable in
/// `catalog-diff "$BASE"`) is an error: taking it for no RANGE would judge something else.
pub(crate) fn given_range(range: Option<&str>) -> Result<Option<&str>> {
    match range.map(str::trim) {
        Some("") => Err(Error::EmptyRange),
        range => Ok(range),
    }
}

/// git's shorthands for a commit against a parent, spelt out: `REV^!` and `REV^-` are
/// `REV^..REV`, `REV^-N` is `REV^N..REV`. Any other text is returned as it is.
pub(crate) fn parent_shorthand(range: &str) -> std::borrow::Cow<'_, str> {
    if let Some(rev) = range.strip_suffix("^!") {
        return format!("{rev}^..{rev}").into();
    }
    if let Some((rev, n)) = range.rsplit_once("^-")
        && (n.is_empty() || n.bytes().all(|b| b.is_ascii_digit()))
    {
        let n = if n.is_empty() { "1" } else { n };
        return format!("{rev}^{n}..{rev}").into();
    }
    range.into()
}

/// How many objects the missing-object error names before it only counts the rest.
const MISSING_NAMED: usize = 20;

fn missing_objects(objects: &[(String, String)]) -> String {
    let named = objects.iter().take(MISSING_NAMED);
    match objects {
        // A lookup failed, and looked up again every object was there.
        [] => "an object was missing from the object database while it was read".to_owned(),
        [(id, path)] => format!(
            "object {id} ({}) is missing from the object database",
            escape_text(path)
        ),
        _ => {
            let mut text = format!(
                "{} objects are missing from the object database:",
                objects.len()
            );
            for (id, path) in named {
                text.push_str(&format!("\n  {id} ({})", escape_text(path)));
            }
            if objects.len() > MISSING_NAMED {
                text.push_str(&format!("\n  and {} more", objects.len() - MISSING_NAMED));
            }
            text
        }
    }
}

/// Each error with the causes below it, one `error:` line apiece (the first line's prefix is
/// the caller's, as for any other error).
fn each_with_causes(errors: &[Error]) -> String {
    let lines: Vec<String> = errors
        .iter()
        .map(|error| {
            let mut line = error.to_string();
            let mut cause = std::error::Error::source(error);
            while let Some(inner) = cause {
                line.push_str(&format!(": {inner}"));
                cause = inner.source();
            }
            line
        })
        .collect();
    lines.join("\nerror: ")
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A commit id: [`fmt::Display`] prints the full 40-hex id.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CommitId(pub gix::ObjectId);

impl fmt::Display for CommitId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0.to_hex())
    }
}

impl fmt::Debug for CommitId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CommitId({self})")
    }
}

/// One side of a comparison: where a [`FileSet`](crate::catalog::FileSet) comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The tree of a commit.
    Commit(CommitId),
    /// HEAD of a repository without commits: an empty catalog.
    Unborn,
    /// The staged index (what `git commit` would record).
    Staged,
    /// The working tree, honouring `.gitignore`.
    Worktree,
}

impl Side {
    /// The refs' `commit` value: the full id, `staged`, `worktree`, or `""` for an unborn HEAD.
    pub fn label(&self) -> String {
        match self {
            Side::Commit(id) => id.to_string(),
            Side::Unborn => String::new(),
            Side::Staged => "staged".into(),
            Side::Worktree => "worktree".into(),
        }
    }
}

/// The two sides picked by RANGE (cli.md). A baseline of `None` is HEAD in a repository
/// without commits yet: it reads as an empty catalog ([`Side::Unborn`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sides {
    Commits {
        a: CommitId,
        b: CommitId,
    },
    /// A root commit against the empty catalog before it (`ROOT^!`), as `git show` shows it.
    Root(CommitId),
    CommitVsWorktree(Option<CommitId>),
    CommitVsStaged(Option<CommitId>),
}

impl Sides {
    pub fn baseline(&self) -> Side {
        match *self {
            Sides::Commits { a, .. } => Side::Commit(a),
            Sides::Root(_) => Side::Unborn,
            Sides::CommitVsWorktree(a) | Sides::CommitVsStaged(a) => {
                a.map_or(Side::Unborn, Side::Commit)
            }
        }
    }
    pub fn candidate(&self) -> Side {
        match *self {
            Sides::Commits { b, .. } | Sides::Root(b) => Side::Commit(b),
            Sides::CommitVsWorktree(_) => Side::Worktree,
            Sides::CommitVsStaged(_) => Side::Staged,
        }
    }
}

/// Blob bytes by id, shared by every read of one [`Repo`] (and its clones).
#[derive(Clone, Debug, Default)]
pub struct BlobCache {
    map: Arc<Mutex<IdMap<BlobId, Arc<[u8]>>>>,
}

impl BlobCache {
    pub fn get(&self, id: &BlobId) -> Option<Arc<[u8]>> {
        self.lock().get(id).cloned()
    }
    /// Stores `data` unless the id is known already; returns the shared bytes.
    pub fn insert(&self, id: BlobId, data: Arc<[u8]>) -> Arc<[u8]> {
        self.lock().entry(id).or_insert(data).clone()
    }
    pub fn len(&self) -> usize {
        self.lock().len()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    fn lock(&self) -> std::sync::MutexGuard<'_, IdMap<BlobId, Arc<[u8]>>> {
        // A panic while holding the lock cannot leave the map half-updated: recover it.
        self.map
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Object cache per gix handle (pitfall 7: every handle needs its own).
const OBJECT_CACHE_BYTES: usize = 16 << 20;

/// A handle of its own for one thread, with its object cache.
fn handle(shared: &gix::ThreadSafeRepository) -> gix::Repository {
    let mut repo = shared.to_thread_local();
    repo.object_cache_size_if_unset(OBJECT_CACHE_BYTES);
    repo
}

/// The object database behind deferred [`Blob`](crate::catalog::Blob)s: a blob is inflated
/// the first time its bytes are asked for, then kept in the [`BlobCache`].
struct ObjectStore {
    shared: gix::ThreadSafeRepository,
    cache: BlobCache,
    /// Idle handles, reused so each keeps its object cache warm.
    handles: Mutex<Vec<gix::Repository>>,
    /// The size of every blob whose header was read, so that each is read once a run.
    sizes: Mutex<IdMap<BlobId, u64>>,
    /// The largest of `sizes`: while it is within the limit, no listing is searched for
    /// files over it.
    largest: std::sync::atomic::AtomicU64,
    /// Sizes earlier runs learnt ([`Repo::remember_sizes_in`]).
    memory: std::sync::OnceLock<Arc<dyn SizeMemory>>,
    /// The first read that failed; reported before any result is shown ([`Repo::check_reads`]).
    failure: Mutex<Option<Error>>,
}

impl crate::catalog::BlobStore for ObjectStore {
    fn bytes(&self, id: BlobId) -> Arc<[u8]> {
        if let Some(hit) = self.cache.get(&id) {
            return hit;
        }
        let repo = lock(&self.handles)
            .pop()
            .unwrap_or_else(|| handle(&self.shared));
        let oid = gix::ObjectId::from_bytes_or_panic(&id.0);
        let read = repo.find_blob(oid).map(|mut blob| blob.take_data());
        lock(&self.handles).push(repo);
        match read {
            Ok(data) => self.cache.insert(id, data.into()),
            Err(source) => {
                lock(&self.failure).get_or_insert(Error::Git {
                    what: format!("reading object {id}"),
                    source,
                });
                Arc::from(Vec::new())
            }
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic while holding the lock cannot leave these half-updated: recover them.
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A git repository opened for reading catalogs.
pub struct Repo {
    repo: gix::Repository,
    shared: gix::ThreadSafeRepository,
    store: Arc<ObjectStore>,
    /// Files larger than this (bytes) are not read; the builder reports them.
    max_file_size: u64,
}

impl Clone for Repo {
    fn clone(&self) -> Self {
        Repo {
            repo: handle(&self.shared),
            shared: self.shared.clone(),
            store: self.store.clone(),
            max_file_size: self.max_file_size,
        }
    }
}

impl fmt::Debug for Repo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Repo")
            .field("git_dir", &self.repo.git_dir())
            .finish_non_exhaustive()
    }
}

impl Repo {
    /// Finds the repository holding `path`, searching upwards like git does. `GIT_DIR`,
    /// `GIT_WORK_TREE` and `GIT_INDEX_FILE` are honoured (a pre-commit hook runs with them).
    pub fn discover(path: &Path) -> Result<Repo> {
        if path.is_file() {
            return Err(Error::NotAFolder {
                path: path.to_owned(),
            });
        }
        // Through its real path, as git finds it from its working folder: a repository reached
        // by a symbolic link has a working tree that is a folder, not a link.
        let real = path.canonicalize();
        let mut repo = gix::discover_with_environment_overrides(real.as_deref().unwrap_or(path))
            .map_err(|source| Repo::not_opened(path, source))?;
        repo.object_cache_size_if_unset(OBJECT_CACHE_BYTES);
        // Git reads the index without checking its trailing checksum (only `git fsck` does),
        // and so does this: hashing the whole file cost as much as decoding it.
        let mut config = repo.config_snapshot_mut();
        config
            .set_value(&gix::config::tree::Index::SKIP_HASH, "true")
            .expect("`true` is a valid boolean");
        drop(config);
        let shared = repo.clone().into_sync();
        let store = Arc::new(ObjectStore {
            shared: shared.clone(),
            cache: BlobCache::default(),
            handles: Mutex::new(Vec::new()),
            sizes: Mutex::default(),
            largest: Default::default(),
            memory: std::sync::OnceLock::new(),
            failure: Mutex::new(None),
        });
        Ok(Repo {
            repo,
            shared,
            store,
            max_file_size: crate::catalog::DEFAULT_MAX_FILE_SIZE,
        })
    }

    /// Why `path` gave no repository: there is none, or the one there cannot be opened (its
    /// configuration does not parse, it uses SHA-256 object ids).
    fn not_opened(path: &Path, source: gix::Error) -> Error {
        let git_dir = match std::env::var_os("GIT_DIR") {
            Some(dir) => Some(PathBuf::from(dir)),
            // Above a ceiling there is no repository, whatever is there.
            None if std::env::var_os("GIT_CEILING_DIRECTORIES").is_some() => None,
            None => gix::discover::upwards(path)
                .ok()
                .map(|(found, _)| found.into_repository_and_work_tree_directories().0)
                // A `.git` that leads nowhere (a linked worktree whose repository moved).
                .or_else(|| {
                    let start = std::path::absolute(path).ok()?;
                    start
                        .ancestors()
                        .map(|dir| dir.join(".git"))
                        .find(|git| git.symlink_metadata().is_ok())
                }),
        };
        let Some(git_dir) = git_dir.map(|dir| std::path::absolute(&dir).unwrap_or(dir)) else {
            return Error::NotARepository {
                path: path.to_owned(),
                cause: source,
            };
        };
        // gix says only that the configuration has a value it cannot take.
        if format!("{source:#}").contains("objectFormat") {
            return Error::CannotOpen {
                git_dir,
                hint: "it uses SHA-256 object ids, which catalog-diff does not read yet (it reads \
                       git's default, SHA-1)"
                    .into(),
                source: None,
            };
        }
        Error::CannotOpen {
            git_dir,
            hint: "`git status` says what is wrong with it".into(),
            source: Some(source),
        }
    }

    /// Files larger than this (bytes) are left unread and reported.
    pub fn max_file_size(&self) -> u64 {
        self.max_file_size
    }

    /// Files larger than `bytes` are left unread and reported (`--max-file-size`).
    pub fn set_max_file_size(&mut self, bytes: u64) {
        self.max_file_size = bytes;
    }

    /// Takes blob sizes from `memory` instead of reading each object's header, and teaches it
    /// the sizes read. Set once; later calls are ignored.
    pub fn remember_sizes_in(&self, memory: Arc<dyn SizeMemory>) {
        let _ = self.store.memory.set(memory);
    }

    /// The underlying gix handle.
    pub fn gix(&self) -> &gix::Repository {
        &self.repo
    }

    pub fn cache(&self) -> &BlobCache {
        &self.store.cache
    }

    /// Blob bytes are read when first used (by the build, a comparison); a read that failed
    /// there is reported here, and a command calls this before it shows any result.
    pub fn check_reads(&self) -> Result<()> {
        match lock(&self.store.failure).take() {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }

    /// The work tree root, or `None` for a bare repository.
    pub fn workdir(&self) -> Option<&Path> {
        self.repo.workdir()
    }

    /// The name of the work tree's folder (the default Index `source`); for a bare repository the
    /// git dir's name without a `.git` suffix.
    pub fn workdir_name(&self) -> Option<String> {
        let dir = match self.repo.workdir() {
            Some(w) => w.to_owned(),
            None => self.repo.git_dir().to_owned(),
        };
        let dir = std::fs::canonicalize(&dir).unwrap_or(dir);
        let name = dir.file_name()?.to_string_lossy().into_owned();
        Some(
            name.strip_suffix(".git")
                .filter(|n| !n.is_empty())
                .unwrap_or(&name)
                .to_owned(),
        )
    }

    fn is_shallow(&self) -> bool {
        self.repo.is_shallow().unwrap_or(false)
    }

    fn missing_hint(&self) -> String {
        // Partial clones keep `.promisor` packs (older git also sets `extensions.partialClone`).
        let promisor_pack = std::fs::read_dir(self.repo.common_dir().join("objects").join("pack"))
            .map(|dir| {
                dir.flatten()
                    .any(|e| e.path().extension().is_some_and(|x| x == "promisor"))
            })
            .unwrap_or(false);
        let partial = promisor_pack
            || self
                .repo
                .config_snapshot()
                .string("extensions.partialClone")
                .is_some();
        if self.is_shallow() {
            "this is a shallow clone: run `git fetch --unshallow` (in CI: `fetch-depth: 0`)".into()
        } else if partial {
            "this is a partial clone (`--filter`): run `git fetch --refetch` to download all objects, \
             or use a full clone"
                .into()
        } else {
            "the object database is incomplete: fetch the missing objects or use a full clone"
                .into()
        }
    }

    pub(crate) fn object_missing(&self, id: &gix::oid, path: &str) -> Error {
        Error::ObjectsMissing {
            objects: vec![(id.to_hex().to_string(), path.to_owned())],
            hint: self.missing_hint(),
        }
    }

    /// Turns a gix failure on object `id` into [`Error::ObjectMissing`] when the object is absent.
    pub(crate) fn object_error(&self, id: &gix::oid, path: &str, source: gix::Error) -> Error {
        if self.repo.has_object(id) {
            Error::Git {
                what: format!("reading object {} ({path})", id.to_hex()),
                source,
            }
        } else {
            self.object_missing(id, path)
        }
    }

    /// The branch and tag names (remote ones too) closest to the name `rev` starts with, when
    /// that name is no reference (`mian~2` -> `main`).
    fn names_near(&self, rev: &str) -> Vec<String> {
        let name = rev.split(['~', '^', '@', ':']).next().unwrap_or_default();
        if name.is_empty() || self.repo.find_reference(name).is_ok() {
            return Vec::new();
        }
        let Ok(references) = self.repo.references() else {
            return Vec::new();
        };
        let Ok(all) = references.all() else {
            return Vec::new();
        };
        let names: Vec<String> = all
            .flatten()
            .map(|r| r.name().shorten().to_string())
            .filter(|short| short != "HEAD" && !short.ends_with("/HEAD"))
            .collect();
        crate::suggest::closest(name, names.iter().map(String::as_str))
            .into_iter()
            .map(str::to_owned)
            .collect()
    }

    /// Resolves anything `git rev-parse` accepts to a commit, peeling annotated tags.
    pub fn resolve_commit(&self, rev: &str) -> Result<CommitId> {
        let id = match self.repo.rev_parse_single(rev) {
            Ok(id) => id.detach(),
            Err(source) => {
                let mut source = Some(source);
                let hint = if self.is_shallow() {
                    "this is a shallow clone, so older history may be missing: run `git fetch --unshallow` (in CI: `fetch-depth: 0`)".to_owned()
                } else if rev.starts_with("HEAD") && matches!(self.head_commit(), Ok(None)) {
                    // gix's account of an unborn HEAD says no more than this.
                    source = None;
                    "the repository has no commits yet".to_owned()
                } else {
                    let near = self.names_near(rev);
                    if !near.is_empty() {
                        // A mistyped name: the suggestion says all gix would.
                        source = None;
                    }
                    let near: Vec<&str> = near.iter().map(String::as_str).collect();
                    format!(
                        "use a branch, tag, commit id or an expression like HEAD~2; `git log --oneline` lists commits{}",
                        crate::suggest::hint(&near)
                    )
                };
                return Err(Error::UnknownRevision {
                    rev: rev.to_owned(),
                    hint,
                    source,
                });
            }
        };
        self.peel_to_commit(id, rev)
    }

    /// [`Repo::resolve_commit`] of both ends of a range; when neither resolves, both are
    /// reported.
    fn resolve_both(&self, a: &str, b: &str) -> Result<(CommitId, CommitId)> {
        match (self.resolve_commit(a), self.resolve_commit(b)) {
            (Ok(a), Ok(b)) => Ok((a, b)),
            (Err(first), Err(second)) if a != b => Err(Error::Several {
                errors: vec![first, second],
            }),
            (Err(error), _) | (_, Err(error)) => Err(error),
        }
    }

    fn peel_to_commit(&self, id: gix::ObjectId, rev: &str) -> Result<CommitId> {
        let object = self
            .repo
            .find_object(id)
            .map_err(|e| self.object_error(&id, rev, e))?;
        let kind = object.kind;
        match kind {
            gix::objs::Kind::Commit => Ok(CommitId(id)),
            gix::objs::Kind::Tag => {
                let target = object.peel_to_kind(gix::objs::Kind::Commit).map_err(|_| {
                    Error::NotACommit {
                        rev: rev.to_owned(),
                        kind: "tag of a non-commit".into(),
                    }
                })?;
                Ok(CommitId(target.id))
            }
            other => Err(Error::NotACommit {
                rev: rev.to_owned(),
                kind: other.to_string(),
            }),
        }
    }

    /// HEAD's commit, or `None` while HEAD is unborn (no commits yet).
    pub fn head_commit(&self) -> Result<Option<CommitId>> {
        let head = self.repo.head().map_err(|source| Error::Git {
            what: "reading HEAD".into(),
            source,
        })?;
        match head.id() {
            Some(id) => self.peel_to_commit(id.detach(), "HEAD").map(Some),
            None => Ok(None),
        }
    }

    /// The table of cli.md: no range -> HEAD vs the working tree (or the staged index with
    /// `staged`); `REV` -> REV vs the working tree (or staged); `A..B`; `A...B` (merge base of A
    /// and B vs B); `REV^!`, `REV^-N` (REV's parent vs REV). An empty side of `..`/`...` is HEAD.
    pub fn parse_range(&self, range: Option<&str>, staged: bool) -> Result<Sides> {
        Ok(self.parse_range_noted(range, staged)?.0)
    }

    /// [`Repo::parse_range`], with a note for the user when `A...B` has several best merge
    /// bases (criss-cross merges): the one used, as `git diff A...B` warns.
    pub fn parse_range_noted(
        &self,
        range: Option<&str>,
        staged: bool,
    ) -> Result<(Sides, Option<String>)> {
        let range = given_range(range)?;
        if let Some(root) = self.root_alone(range)? {
            return Ok((Sides::Root(root), None));
        }
        let range = range.map(parent_shorthand);
        let Some(range) = range.as_deref() else {
            let head = self.head_commit()?;
            let sides = if staged {
                Sides::CommitVsStaged(head)
            } else {
                Sides::CommitVsWorktree(head)
            };
            return Ok((sides, None));
        };
        if let Some((a, b)) = range.split_once("...") {
            let (a, b) = (or_head(a).to_owned(), or_head(b).to_owned());
            let (ca, cb) = self.resolve_both(&a, &b)?;
            let bases = self.merge_bases((&a, ca), (&b, cb))?;
            let Some(&base) = bases.first() else {
                return Err(if self.is_shallow() {
                    Error::ShallowMergeBase { a, b }
                } else {
                    Error::NoMergeBase { a, b }
                });
            };
            let note = (bases.len() > 1).then(|| {
                let others: Vec<String> = bases[1..].iter().map(ToString::to_string).collect();
                format!(
                    "`{}` has {} merge bases; using {base}, the one git uses (the others: {})",
                    escape_text(range),
                    bases.len(),
                    others.join(", ")
                )
            });
            return Ok((Sides::Commits { a: base, b: cb }, note));
        }
        if let Some((a, b)) = range.split_once("..") {
            let (a, b) = self.resolve_both(or_head(a), or_head(b))?;
            return Ok((Sides::Commits { a, b }, None));
        }
        let rev = self.resolve_commit(range)?;
        let sides = if staged {
            Sides::CommitVsStaged(Some(rev))
        } else {
            Sides::CommitVsWorktree(Some(rev))
        };
        Ok((sides, None))
    }

    /// The commit `range` names when it is `REV^!` or `REV^-` (REV against its first parent)
    /// and REV is a root commit: it has no parent, so git's `REV^` fails, and it is compared
    /// with the empty catalog instead, as `git show REV` and `git log REV^!` take it.
    pub(crate) fn root_alone(&self, range: Option<&str>) -> Result<Option<CommitId>> {
        let Some(range) = range.map(str::trim) else {
            return Ok(None);
        };
        let Some(rev) = ["^!", "^-", "^-1"]
            .iter()
            .find_map(|suffix| range.strip_suffix(suffix))
        else {
            return Ok(None);
        };
        let id = self.resolve_commit(rev)?;
        Ok(self.first_parent(id)?.is_none().then_some(id))
    }

    /// The first parent of `commit`, as the commit names it (`None` for a root commit; at the
    /// edge of a shallow clone the parent is named but not there, [`Repo::has_commit`]).
    pub fn first_parent(&self, commit: CommitId) -> Result<Option<CommitId>> {
        let found = self
            .repo
            .find_commit(commit.0)
            .map_err(|e| self.object_error(&commit.0, "commit", e))?;
        Ok(found.parent_ids().next().map(|id| CommitId(id.detach())))
    }

    /// Every best merge base of `a` and `b`, the one `A...B` uses (as git does) first.
    fn merge_bases(
        &self,
        (a, ca): (&str, CommitId),
        (b, cb): (&str, CommitId),
    ) -> Result<Vec<CommitId>> {
        let bases = self
            .repo
            .merge_bases_many(ca.0, &[cb.0])
            .map_err(|source| Error::Git {
                what: format!("computing the merge base of `{a}` and `{b}`"),
                source,
            })?;
        Ok(bases.into_iter().map(|id| CommitId(id.detach())).collect())
    }

    /// The id of the tree at `dir` in `commit` (the whole tree for `""`), or `None` when the
    /// commit has no such directory. Equal ids mean an unchanged catalog.
    pub fn tree_id(&self, commit: CommitId, dir: &str) -> Result<Option<gix::ObjectId>> {
        let entry = self.entry_at(commit, dir)?;
        Ok(entry.filter(|(mode, _)| mode.is_tree()).map(|(_, id)| id))
    }

    /// The mode and object of what commit `commit` holds at `dir` (its root tree for `""`).
    fn entry_at(
        &self,
        commit: CommitId,
        dir: &str,
    ) -> Result<Option<(gix::object::tree::EntryMode, gix::ObjectId)>> {
        let commit_obj = self
            .repo
            .find_commit(commit.0)
            .map_err(|e| self.object_error(&commit.0, &commit.to_string(), e))?;
        let root = commit_obj
            .tree_id()
            .map_err(|source| Error::Git {
                what: format!("reading the tree of {commit}"),
                source,
            })?
            .detach();
        if dir.is_empty() {
            return Ok(Some((gix::object::tree::EntryKind::Tree.into(), root)));
        }
        let tree = self
            .repo
            .find_tree(root)
            .map_err(|e| self.object_error(&root, "", e))?;
        let entry = tree.lookup_entry_by_path(dir).map_err(|e| Error::Git {
            what: format!("looking up `{dir}` in {commit}"),
            source: e,
        })?;
        Ok(entry.map(|e| (e.mode(), e.object_id())))
    }

    /// Whether `dir` is a submodule on `side`: a repository of its own, which this one holds
    /// as one entry, not as the files in it.
    pub(crate) fn is_submodule(&self, side: Side, dir: &str) -> Result<bool> {
        Ok(match side {
            Side::Commit(id) => self
                .entry_at(id, dir)?
                .is_some_and(|(mode, _)| mode.is_commit()),
            Side::Unborn => false,
            Side::Staged | Side::Worktree => self.open_index()?.is_some_and(|index| {
                index
                    .entry_by_path(dir.into())
                    .is_some_and(|entry| entry.mode == gix::index::entry::Mode::COMMIT)
            }),
        })
    }

    /// The repository's git folder (`.git`, or the bare repository itself).
    pub fn git_dir(&self) -> &Path {
        self.repo.git_dir()
    }

    /// The git folder linked worktrees share: one repository, whichever worktree it is read in.
    pub fn common_dir(&self) -> &Path {
        self.repo.common_dir()
    }

    /// Whether the object database holds `commit` (a shallow clone lacks the parents of its
    /// oldest commits).
    pub fn has_commit(&self, commit: CommitId) -> bool {
        self.repo.has_object(commit.0)
    }

    /// The folder git runs hooks from: `core.hooksPath` (relative to the work tree root, as git
    /// runs hooks there) or else the common git dir's `hooks`, which linked worktrees share.
    /// Absolute, so messages name it whatever the current directory is.
    pub fn hooks_dir(&self) -> Result<PathBuf> {
        let Some(workdir) = self.repo.workdir() else {
            return Err(Error::BareRepository {
                git_dir: self.repo.git_dir().to_owned(),
                what: "work tree, so no commit runs a hook there",
            });
        };
        let configured = self
            .repo
            .config_snapshot()
            .trusted_path("core.hooksPath")
            .map_err(|e| Error::Git {
                what: "reading core.hooksPath from the git config".into(),
                source: gix::Error::from_error(e),
            })?;
        let dir = match configured {
            Some(dir) if dir.is_absolute() => dir,
            Some(dir) => workdir.join(dir),
            None => self.repo.common_dir().join("hooks"),
        };
        let dir = std::path::absolute(&dir).unwrap_or(dir);
        // A linked worktree's common folder is `.git/worktrees/NAME/../..`: shown without the `..`.
        let normal = gix::path::normalize(dir.as_path().into(), workdir).map(|d| d.into_owned());
        Ok(normal.unwrap_or(dir))
    }

    /// The error for reading a work tree or index out of a bare repository.
    pub(crate) fn bare(&self, what: &'static str) -> Error {
        Error::BareRepository {
            git_dir: self.repo.git_dir().to_owned(),
            what,
        }
    }
}

/// The catalog's [`BlobId`] of a gix object id.
pub(crate) fn blob_id(oid: &gix::oid) -> BlobId {
    let mut bytes = [0u8; 20];
    for (dst, src) in bytes.iter_mut().zip(oid.as_bytes()) {
        *dst = *src;
    }
    BlobId(bytes)
}
