//! The parse cache on disk, so a run pays only for the blobs no earlier run has seen: front
//! matter parses, content hashes, checks and blob sizes, keyed by blob id, in one file per
//! repository in the platform's cache folder (`--cache-dir`, `CATALOG_DIFF_CACHE`;
//! `--no-cache` turns it off), so a run reads only what its own repository taught. Never inside
//! the repository. A file that is corrupt, truncated or of another version is ignored and
//! rewritten; it is written to a temporary file and renamed into place, so concurrent runs
//! (eight hooks at once) never leave a broken one; each stays under a size bound (what this run
//! did not make goes first), and the folder keeps the most recently used files only. A run that
//! learnt little beside a large file appends a checked block to it in one write instead.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex, OnceLock};

use catalog_diff::catalog::build::ParseCache;
use catalog_diff::catalog::{BlobId, SizeMemory, escape_path};
use catalog_diff::git::Repo;

/// The start of every cache file's name inside the cache folder.
const FILE: &str = catalog_diff::catalog::FILE_STEM;
/// The start of every format's file names; [`tidy`] removes the other formats' files.
const ANY_FORMAT: &str = "parse-cache-v";
/// The most one file may hold.
const LIMIT: usize = 64 << 20;
/// The most cache files the folder keeps (one per repository); older ones are removed.
const FILES: usize = 32;

#[derive(clap::Args, Debug, Clone, Default)]
pub struct CacheArgs {
    /// The folder of the parse cache. Default: $CATALOG_DIFF_CACHE, else the platform's cache
    /// folder (for example ~/.cache/catalog-diff).
    #[arg(long, value_name = "PATH")]
    pub cache_dir: Option<PathBuf>,
    /// Neither read nor write the parse cache.
    #[arg(long)]
    pub no_cache: bool,
}

/// A parse cache and, when it has one, the file it came from and goes back to.
pub struct Cache {
    pub parses: Arc<ParseCache>,
    file: Option<PathBuf>,
    /// Entries when loaded: the file is rewritten only when the run added some.
    loaded: usize,
}

impl Cache {
    /// Starts loading the cache for a run on `repo` on a thread of its own, so the file is read
    /// while the run reads the repository. The repository takes blob sizes from it, waiting
    /// only for the sizes when it first needs one: the file's other entries, which take most
    /// of the loading, are added meanwhile.
    pub fn start(args: &CacheArgs, repo: Option<&Repo>) -> Loading {
        let file = folder(args).and_then(|dir| {
            if let Some(inside) = repo.and_then(|repo| inside_repository(&dir, repo)) {
                stderr!(
                    "note: the cache folder {} is inside the repository ({}); running without a cache\n  hint: point --cache-dir or CATALOG_DIFF_CACHE outside it",
                    escape_path(&dir),
                    escape_path(&inside)
                );
                return None;
            }
            let name = repo.map_or_else(|| "plain".to_owned(), repository_key);
            let file = dir.join(format!("{FILE}-{name}.jsonl"));
            // Looked at before it is opened: opening a FIFO waits for a writer, every run.
            if std::fs::metadata(&file).is_ok_and(|meta| !meta.is_file()) {
                stderr!(
                    "note: the parse cache {} is not a regular file; running without a cache\n  hint: remove it, and the next run writes the cache there",
                    escape_path(&file)
                );
                return None;
            }
            Some(file)
        });
        let parses = Arc::new(ParseCache::default());
        // Sent once the sizes are in; dropped unsent when there are none to wait for.
        let (sizes_in, sizes_awaited) = channel();
        // A thread that cannot start only costs speed: the run goes on without a cache.
        let reading = file.clone().and_then(|file| {
            let parses = parses.clone();
            let load = move || {
                if let Some(bytes) = read_bounded(&file) {
                    // A file we cannot use is simply not used; it is rewritten at the end.
                    parses.import_sizes_first(bytes, || {
                        let _ = sizes_in.send(());
                    });
                }
            };
            std::thread::Builder::new().spawn(load).ok()
        });
        let pending = Arc::new(Pending {
            file,
            parses,
            sizes_awaited: Mutex::new(Some(sizes_awaited)),
            reading: Mutex::new(reading),
            cache: OnceLock::new(),
        });
        if let Some(repo) = repo {
            repo.remember_sizes_in(pending.clone());
        }
        Loading(pending)
    }

    /// Writes the cache back when the run taught it something; failures only cost speed.
    pub fn save(&self) {
        let Some(file) = &self.file else {
            return;
        };
        if self.parses.len() == self.loaded {
            return;
        }
        // A block of what is new, appended to the file read, when that is worth it.
        let appended = self
            .parses
            .append_block(LIMIT)
            .is_some_and(|block| append(file, &block).is_ok());
        if appended {
            return;
        }
        if let Err(error) = write_atomically(file, &self.parses.export(LIMIT)) {
            stderr!(
                "note: could not save the parse cache {}: {error}",
                escape_path(file)
            );
        }
    }
}

/// A cache on its way in ([`Cache::start`]).
pub struct Loading(Arc<Pending>);

impl Loading {
    /// The cache, once its file is read (an empty one if reading it failed in any way).
    pub fn wait(self) -> Loaded {
        self.0.cache();
        Loaded(self.0)
    }
}

/// A loaded cache, shared with the repository that keeps blob sizes in it.
pub struct Loaded(Arc<Pending>);

impl std::ops::Deref for Loaded {
    type Target = Cache;

    fn deref(&self) -> &Cache {
        self.0.cache()
    }
}

/// The cache the reading thread fills: waited for until its sizes are in the first time a
/// blob size is asked for, and joined the first time anything else is.
struct Pending {
    file: Option<PathBuf>,
    parses: Arc<ParseCache>,
    sizes_awaited: Mutex<Option<Receiver<()>>>,
    reading: Mutex<Option<std::thread::JoinHandle<()>>>,
    cache: OnceLock<Cache>,
}

impl Pending {
    fn cache(&self) -> &Cache {
        self.cache.get_or_init(|| {
            let reading = self
                .reading
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .take();
            // A thread that panicked leaves what it added, which is only ever whole entries.
            let _ = reading.map(|reading| reading.join());
            Cache {
                loaded: self.parses.len(),
                parses: self.parses.clone(),
                file: self.file.clone(),
            }
        })
    }
}

impl SizeMemory for Pending {
    fn sizes(&self, ids: &[BlobId]) -> Vec<Option<u64>> {
        let mut awaited = self
            .sizes_awaited
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(sizes_in) = awaited.take() {
            // An error only means the thread ended without sizes to give.
            let _ = sizes_in.recv();
        }
        drop(awaited);
        self.parses.sizes(ids)
    }

    fn learn(&self, id: BlobId, size: u64) {
        self.cache().parses.learn(id, size);
    }
}

/// A short stable name for a repository: its shared git folder, hashed.
fn repository_key(repo: &Repo) -> String {
    use sha2::{Digest, Sha256};
    let dir = std::fs::canonicalize(repo.common_dir()).unwrap_or_else(|_| repo.common_dir().into());
    Sha256::digest(dir.to_string_lossy().as_bytes())[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn folder(args: &CacheArgs) -> Option<PathBuf> {
    if args.no_cache {
        return None;
    }
    if let Some(dir) = &args.cache_dir {
        return Some(dir.clone());
    }
    let env = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(dir) = env("CATALOG_DIFF_CACHE") {
        return Some(dir);
    }
    let base = if cfg!(target_os = "macos") {
        env("HOME").map(|home| home.join("Library/Caches"))
    } else if cfg!(windows) {
        env("LOCALAPPDATA")
    } else {
        // The XDG spec: a relative path there is invalid and ignored.
        env("XDG_CACHE_HOME")
            .filter(|dir| dir.is_absolute())
            .or_else(|| env("HOME").map(|home| home.join(".cache")))
    };
    base.map(|base| base.join("catalog-diff"))
}

/// The repository folder (work tree or git dir) that holds `dir`, if one does.
fn inside_repository(dir: &Path, repo: &Repo) -> Option<PathBuf> {
    let canonical = |path: &Path| {
        // The folder may not exist yet: judge by its nearest existing ancestor.
        path.ancestors()
            .find_map(|p| std::fs::canonicalize(p).ok().map(|c| (c, p)))
            .map(|(c, p)| c.join(path.strip_prefix(p).unwrap_or(Path::new(""))))
    };
    // A relative folder is the current directory's (`CATALOG_DIFF_CACHE=.cache`), which
    // has no ancestor to canonicalize once its own parts are stripped.
    let dir = canonical(&std::path::absolute(dir).ok()?)?;
    [repo.workdir(), Some(repo.git_dir())]
        .into_iter()
        .flatten()
        .filter_map(canonical)
        .find(|root| dir.starts_with(root))
}

/// A cache file's bytes: mapped, so a run touches its pages where they lie in the page cache
/// (reading it copied every byte into fresh memory first, and a warm run on a large catalog
/// faulted in 17 MB for that), or read where it is not mapped.
enum FileBytes {
    Mapped(memmap2::Mmap),
    Read(Vec<u8>),
}

impl AsRef<[u8]> for FileBytes {
    fn as_ref(&self) -> &[u8] {
        match self {
            FileBytes::Mapped(map) => map,
            FileBytes::Read(bytes) => bytes,
        }
    }
}

fn read_bounded(file: &Path) -> Option<FileBytes> {
    use std::io::Read;
    let file = std::fs::File::open(file).ok()?;
    let size = file.metadata().ok()?.len();
    if size > LIMIT as u64 {
        return None;
    }
    // Not on Windows, where a mapped file cannot be replaced, and saving replaces it.
    // SAFETY: the mapped bytes must not change while the run reads them. This program never
    // changes a cache file in place: it replaces one by renaming another over it, or appends
    // to it, which leaves the mapped part as it was. (Another program cutting the file short
    // under a run would stop the run, as it would stop git reading a mapped index or pack.)
    let mapped = cfg!(unix)
        .then(|| unsafe { memmap2::Mmap::map(&file) }.ok())
        .flatten();
    let bytes = match mapped {
        Some(map) => FileBytes::Mapped(map),
        None => {
            // Sized up front: growing the buffer would copy (and fault in) the file twice.
            let mut bytes = Vec::with_capacity(size as usize + 1);
            file.take(LIMIT as u64 + 1).read_to_end(&mut bytes).ok()?;
            FileBytes::Read(bytes)
        }
    };
    (bytes.as_ref().len() <= LIMIT).then_some(bytes)
}

/// Appends `block` to `file` in one write, if the file is there. Runs appending at once each
/// add a whole block; a block cut short or run into is not read back, and the file is then
/// written whole again.
fn append(file: &Path, block: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut file = std::fs::OpenOptions::new().append(true).open(file)?;
    file.write_all(block)
}

/// Writes `bytes` to a temporary file beside `file`, then renames it over `file`.
fn write_atomically(file: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = file.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let unique = format!(
        ".{FILE}.{}.{}.tmp",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    );
    let temp = dir.join(unique);
    let written = std::fs::write(&temp, bytes).and_then(|()| std::fs::rename(&temp, file));
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    tidy(dir);
    written
}

/// Keeps the folder bounded: temporary files of writers that died (older than an hour) go, and
/// so do other formats' files and all but the most recently written cache files.
fn tidy(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let hour = std::time::Duration::from_secs(3600);
    let mut caches = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let modified = entry.metadata().and_then(|m| m.modified()).ok();
        let age = modified.and_then(|t| t.elapsed().ok());
        if name.starts_with(&format!(".{FILE}")) && name.ends_with(".tmp") {
            if age.is_some_and(|age| age > hour) {
                let _ = std::fs::remove_file(entry.path());
            }
        } else if name.starts_with(FILE) && name.ends_with(".jsonl") {
            caches.push((modified, entry.path()));
        } else if name.starts_with(ANY_FORMAT) && name.ends_with(".jsonl") {
            // Another version's format: this one never reads it.
            let _ = std::fs::remove_file(entry.path());
        }
    }
    caches.sort_by_key(|(modified, _)| std::cmp::Reverse(*modified));
    for (_, path) in caches.into_iter().skip(FILES) {
        let _ = std::fs::remove_file(path);
    }
}
