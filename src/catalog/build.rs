//! Catalog files -> the Index document, exactly as SDK 2.27.1 `buildIndex` makes it
//! (catalog-index.md §3-§9). Pure: it reads only the [`FileSet`] it is given.
//!
//! Where the SDK aborts on a dangling reference (a schema, specification or team file that is
//! not there), we keep going: the entry keeps its path without a hash and a warning names the
//! resource file, the field and the missing path (catalog-index.md §12, §12.3). Problems that
//! mean the catalog cannot be read faithfully are errors; the index is still built from the
//! parts that can be read, so every problem is reported in one run.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::sync::{Arc, Mutex, OnceLock};

use rayon::prelude::*;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use super::js::compare_text;
use super::persist::Saved;
use super::scope::{Absent, Facts, Reach, VersionCounts, VersionKind, unordered};
use super::version::{cmp_code_units, index_order, index_value_order, js_sort_by};
use super::{
    Blob, BlobId, Diagnostic, FileSet, IdMap, Index, Resource, Severity, SpecialEntry, frontmatter,
};
use crate::json_text;
use crate::path::{normalize, normalize_relative};
use crate::{FastMap, FastSet};

/// What to build; the defaults are the SDK's (`hashContent: true`).
#[derive(Clone, Debug)]
pub struct Options {
    pub source: String,
    pub commit: String,
    pub hash_content: bool,
    /// Copy each schema file's raw text into its entry as `content` (SDK 2.29 field name).
    pub include_schema_content: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            source: String::new(),
            commit: String::new(),
            hash_content: true,
            include_schema_content: false,
        }
    }
}

/// The Index plus everything worth telling the user about the catalog it came from.
#[derive(Clone, Debug, Default)]
pub struct Built {
    pub index: Index,
    /// Sorted and free of duplicates.
    pub diagnostics: Vec<Diagnostic>,
    /// Catalog paths that front matter names as schema or specification files and that are
    /// not files of the catalog.
    pub unresolved_files: Vec<String>,
}

impl Built {
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
}

/// Whether `diagnostics` say the SDK indexes a message under another file's content path
/// (the same id and version): its schema entries may then lack a hash, and the library lists
/// such an entry as changed on every diff. (A channel or a flow aliased so has no schemas.)
pub fn has_aliased_messages(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(|d| {
        d.field.as_deref() == Some("id")
            && d.message.ends_with(ALIASED)
            && ["event `", "command `", "query `"]
                .iter()
                .any(|kind| d.message.starts_with(kind))
    })
}

/// What a whole build finds besides the Index: the catalog's problems and how many resources
/// it holds. A diff needs no more of a side it does not build whole, so it is kept by the
/// catalog's [`fingerprint`], and a catalog an earlier run summed up is not built whole again.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Summary {
    pub resources: usize,
    /// Sorted and free of duplicates.
    pub diagnostics: Vec<Diagnostic>,
    /// The schema files it lacks, once a scope of it found them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub absent: Option<Absent>,
}

/// How the warning for a resource the SDK indexes under another file's content path ends.
const ALIASED: &str = "so the SDK gives it that file's content path";

impl Summary {
    pub fn of(built: &Built) -> Summary {
        Summary {
            resources: built.index.resources.len(),
            diagnostics: built.diagnostics.clone(),
            absent: None,
        }
    }

    /// The summary of the other side of a change, from this side's and both sides' cuts on
    /// the change's `reach`, `from` (this side's) and `to`: only the reach's resource files
    /// can differ, and the resources outside it are the same on both sides.
    pub fn carried(&self, reach: &Reach, from: &Built, to: &Built) -> Summary {
        let mut diagnostics = self.diagnostics.clone();
        crate::pipeline::carry(&reach.resource_files, &mut diagnostics, &to.diagnostics);
        Summary {
            resources: (self.resources + to.index.resources.len())
                .saturating_sub(from.index.resources.len()),
            diagnostics,
            absent: None,
        }
    }
}

/// One id for catalog `files` as a build under `options` sees it: every path with its blob
/// id, every entry that is not a readable file, and the options its findings may depend on
/// (not the commit label). Equal ids build the same.
pub fn fingerprint(files: &FileSet, options: &Options) -> BlobId {
    let mut hasher = Sha256::new();
    for (path, blob) in &files.files {
        hasher.update(path.as_bytes());
        hasher.update([0]);
        hasher.update(blob.id.0);
    }
    for (path, entry) in &files.special {
        hasher.update(format!("\n{path}\0{entry:?}"));
    }
    sealed(hasher, options)
}

/// The [`fingerprint`] of the catalog read from git tree `tree`, with files over `limit`
/// bytes set aside. A tree id names every path, blob and entry kind below it, so the files
/// need not be hashed one by one. It never equals a fingerprint of files.
pub fn tree_fingerprint(tree: &[u8], limit: u64, options: &Options) -> BlobId {
    let mut hasher = Sha256::new();
    hasher.update(b"git tree\0");
    hasher.update(tree);
    hasher.update(limit.to_be_bytes());
    sealed(hasher, options)
}

/// `hasher` with `options` added, as an id.
fn sealed(mut hasher: Sha256, options: &Options) -> BlobId {
    hasher.update(format!(
        "\n{}\0{}\0{}",
        options.source, options.hash_content, options.include_schema_content
    ));
    let mut id = [0; 20];
    id.copy_from_slice(&hasher.finalize()[..20]);
    BlobId(id)
}

pub(crate) type Parsed = Result<Value, Box<Diagnostic>>;

/// Parsed front matter and content hashes keyed by blob id, shared by every build that sees the
/// same blobs (a history walk parses each file version once). Entries a saved cache holds
/// (`persist`) are kept as text and decoded only when a build asks for that blob.
#[derive(Default)]
pub struct ParseCache {
    front_matter: Mutex<IdMap<BlobId, Arc<Parsed>>>,
    hashes: Mutex<IdMap<BlobId, Arc<str>>>,
    /// Front matter the SDK drops (`lint`), per resource file blob, with an empty file name.
    lints: Mutex<IdMap<BlobId, Arc<[Diagnostic]>>>,
    /// What each resource file says about the graph, for finding the reach of a change.
    facts: Mutex<IdMap<BlobId, Arc<Facts>>>,
    /// Whole catalogs summed up, by [`fingerprint`].
    summaries: Mutex<IdMap<BlobId, Arc<Summary>>>,
    /// Whether each specification file `$ref`s other files (`scope::refers_to_files`).
    refers_to_files: Mutex<IdMap<BlobId, bool>>,
    /// Blob sizes, so a later run need not open each object for the size limit.
    pub(crate) sizes: Mutex<IdMap<BlobId, Size>>,
    /// A saved cache's entries, undecoded, from the one file imported.
    pub(crate) saved: OnceLock<Saved>,
    /// The entries this run made rather than took from `saved`, so a save can append them.
    made: Mutex<Vec<(Stored, BlobId)>>,
}

/// A blob's size, and whether this run read or asked for it (a saved size is decoded as the
/// file is read: sizes are small, and a run asks for most of them).
#[derive(Clone, Copy)]
pub(crate) struct Size {
    pub(crate) bytes: u64,
    pub(crate) used: bool,
}

/// What a saved entry holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Stored {
    FrontMatter,
    FrontMatterError,
    Hash,
    Lint,
    /// A [`Summary`], keyed by catalog fingerprint rather than blob id.
    Summary,
    /// A resource file's [`Facts`].
    Facts,
    /// A blob's size in bytes.
    Size,
}

impl std::fmt::Debug for ParseCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ParseCache({} entries)", self.len())
    }
}

impl ParseCache {
    /// A saved entry of `kind` for `id`, decoded (to be kept in memory), if there is one.
    fn take_stored<T>(
        &self,
        kind: Stored,
        id: BlobId,
        decode: impl FnOnce(&str) -> Option<T>,
    ) -> Option<T> {
        decode(self.saved.get()?.take(kind, id)?)
    }

    /// The entries this run made rather than took from a saved file, in key order.
    pub(crate) fn made(&self) -> Vec<(Stored, BlobId)> {
        let mut made = lock(&self.made).clone();
        made.sort_unstable();
        made.dedup();
        made
    }

    fn mark_made(&self, kind: Stored, id: BlobId) {
        lock(&self.made).push((kind, id));
    }

    pub(crate) fn front_matter_entries(&self) -> Vec<(BlobId, Arc<Parsed>)> {
        in_id_order(&self.front_matter)
    }

    pub(crate) fn hash_entries(&self) -> Vec<(BlobId, Arc<str>)> {
        in_id_order(&self.hashes)
    }

    pub(crate) fn lint_entries(&self) -> Vec<(BlobId, Arc<[Diagnostic]>)> {
        in_id_order(&self.lints)
    }

    pub(crate) fn facts_entries(&self) -> Vec<(BlobId, Arc<Facts>)> {
        in_id_order(&self.facts)
    }

    /// What each of resource files `files` says about the graph; a saved entry spares decoding
    /// its front matter. The facts in memory are locked once to look them all up and once to
    /// keep the new ones, not per file (decoding a large catalog's facts in parallel was mostly
    /// waiting for locks), and saved ones are taken without a lock.
    pub(crate) fn facts(&self, files: &[(&str, &Blob)]) -> Vec<Arc<Facts>> {
        let known: Vec<Option<Arc<Facts>>> = {
            let known = lock(&self.facts);
            files
                .iter()
                .map(|(_, blob)| known.get(&blob.id).cloned())
                .collect()
        };
        // Each with whether it is new to memory, and whether it was made rather than decoded.
        let facts: Vec<(Arc<Facts>, bool, bool)> = files
            .par_iter()
            .zip(known)
            .with_min_len(64)
            .map(|(&(path, blob), known)| match known {
                Some(hit) => (hit, false, false),
                None => {
                    let decoded = self.take_stored(Stored::Facts, blob.id, Facts::decode);
                    let made = decoded.is_none();
                    let facts =
                        decoded.unwrap_or_else(|| Facts::of(&self.front_matter(path, blob)));
                    (Arc::new(facts), true, made)
                }
            })
            .collect();
        let mut known = lock(&self.facts);
        known.reserve(facts.iter().filter(|(_, new, _)| *new).count());
        for ((_, blob), (facts, new, made)) in files.iter().zip(&facts) {
            if *new {
                known.insert(blob.id, facts.clone());
            }
            if *made {
                self.mark_made(Stored::Facts, blob.id);
            }
        }
        facts.into_iter().map(|(facts, ..)| facts).collect()
    }

    /// The sizes this run used, then those it did not, each in id order.
    pub(crate) fn size_entries(&self) -> [Vec<(BlobId, u64)>; 2] {
        let (used, unused) = in_id_order(&self.sizes)
            .into_iter()
            .partition::<Vec<_>, _>(|(_, size)| size.used);
        [used, unused].map(|sizes| {
            sizes
                .into_iter()
                .map(|(id, size)| (id, size.bytes))
                .collect()
        })
    }

    pub(crate) fn summary_entries(&self) -> Vec<(BlobId, Arc<Summary>)> {
        in_id_order(&self.summaries)
    }

    /// The summary of the catalog with fingerprint `key`, if a build summed it up.
    pub fn summary(&self, key: BlobId) -> Option<Arc<Summary>> {
        if let Some(hit) = lock(&self.summaries).get(&key) {
            return Some(hit.clone());
        }
        let saved: Arc<Summary> = self
            .take_stored(Stored::Summary, key, |text| serde_json::from_str(text).ok())
            .map(Arc::new)?;
        lock(&self.summaries).insert(key, saved.clone());
        Some(saved)
    }

    /// Keeps `summary` for the catalog with fingerprint `key`, in place of any saved one.
    pub fn remember(&self, key: BlobId, summary: Summary) {
        if let Some(saved) = self.saved.get() {
            saved.take(Stored::Summary, key);
        }
        lock(&self.summaries).insert(key, Arc::new(summary));
        self.mark_made(Stored::Summary, key);
    }

    /// How many entries the cache holds (parses, hashes, checks, facts, summaries and sizes,
    /// decoded or not).
    pub fn len(&self) -> usize {
        lock(&self.front_matter).len()
            + lock(&self.hashes).len()
            + lock(&self.lints).len()
            + lock(&self.facts).len()
            + lock(&self.summaries).len()
            + lock(&self.sizes).len()
            + self.saved.get().map_or(0, Saved::len)
    }

    /// True when nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The warnings about front matter the SDK silently drops, for a resource file.
    fn lint(&self, path: &str, blob: &Blob, data: &Map<String, Value>) -> Vec<Diagnostic> {
        let in_memory = lock(&self.lints).get(&blob.id).cloned();
        let cached = in_memory.or_else(|| {
            let found: Arc<[Diagnostic]> = self
                .take_stored(Stored::Lint, blob.id, |text| {
                    serde_json::from_str::<Vec<Diagnostic>>(text).ok()
                })?
                .into();
            lock(&self.lints).insert(blob.id, found.clone());
            Some(found)
        });
        let found = cached.unwrap_or_else(|| {
            let data_bytes = blob.data();
            let text = String::from_utf8_lossy(&data_bytes);
            // A computed field (`references`) is never the front matter's.
            let pointers: Vec<&str> = super::resolve::pointer_lists()
                .filter(|field| !COMPUTED.contains(field))
                .collect();
            let mut found = super::lint::dropped_fields("", data, &text, &pointers, KEY_ORDER);
            found.extend(super::lint::not_utf8("", &data_bytes));
            let found: Arc<[Diagnostic]> = found.into();
            lock(&self.lints).insert(blob.id, found.clone());
            self.mark_made(Stored::Lint, blob.id);
            found
        });
        found
            .iter()
            .map(|d| Diagnostic {
                file: path.to_owned(),
                ..d.clone()
            })
            .collect()
    }

    /// Whether specification file `blob` `$ref`s other files; read once per blob.
    pub(crate) fn refers_to_files(&self, blob: &Blob) -> bool {
        if let Some(&known) = lock(&self.refers_to_files).get(&blob.id) {
            return known;
        }
        let refers = super::scope::refers_to_files(&blob.data());
        lock(&self.refers_to_files).insert(blob.id, refers);
        refers
    }

    pub(crate) fn front_matter(&self, path: &str, blob: &Blob) -> Arc<Parsed> {
        let id = blob.id;
        if let Some(hit) = lock(&self.front_matter).get(&id) {
            return hit.clone();
        }
        let saved = self
            .take_stored(Stored::FrontMatter, id, |text| {
                serde_json::from_str::<Value>(text).ok().map(Ok)
            })
            .or_else(|| {
                self.take_stored(Stored::FrontMatterError, id, |text| {
                    serde_json::from_str::<Diagnostic>(text)
                        .ok()
                        .map(|d| Err(Box::new(d)))
                })
            });
        let made = saved.is_none();
        let parsed = Arc::new(saved.unwrap_or_else(|| parse_front_matter(path, &blob.data())));
        lock(&self.front_matter).insert(id, parsed.clone());
        if made {
            let kind = match parsed.as_ref() {
                Ok(_) => Stored::FrontMatter,
                Err(_) => Stored::FrontMatterError,
            };
            self.mark_made(kind, id);
        }
        parsed
    }

    fn hash(&self, blob: &Blob) -> Arc<str> {
        let id = blob.id;
        if let Some(hit) = lock(&self.hashes).get(&id) {
            return hit.clone();
        }
        let saved = self.take_stored(Stored::Hash, id, |text| Some(text.to_owned()));
        if saved.is_none() {
            self.mark_made(Stored::Hash, id);
        }
        let hash: Arc<str> = saved.unwrap_or_else(|| content_hash(&blob.data())).into();
        lock(&self.hashes).insert(id, hash.clone());
        hash
    }
}

impl super::SizeMemory for ParseCache {
    /// Locks the sizes once for all of `ids`.
    fn sizes(&self, ids: &[BlobId]) -> Vec<Option<u64>> {
        let mut sizes = lock(&self.sizes);
        ids.iter()
            .map(|id| {
                let size = sizes.get_mut(id)?;
                size.used = true;
                Some(size.bytes)
            })
            .collect()
    }

    fn learn(&self, id: BlobId, bytes: u64) {
        lock(&self.sizes).insert(id, Size { bytes, used: true });
        self.mark_made(Stored::Size, id);
    }
}

/// The Index's `sha256:<hex>` hash of a file's bytes.
pub fn content_hash(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut hash = String::with_capacity(7 + 64);
    hash.push_str("sha256:");
    for byte in Sha256::digest(bytes) {
        hash.push(HEX[usize::from(byte >> 4)] as char);
        hash.push(HEX[usize::from(byte & 15)] as char);
    }
    hash
}

/// The entries of one of the cache's maps, in id order (how a saved cache lists them).
fn in_id_order<V: Clone>(map: &Mutex<IdMap<BlobId, V>>) -> Vec<(BlobId, V)> {
    let mut all: Vec<_> = lock(map).iter().map(|(id, v)| (*id, v.clone())).collect();
    all.sort_by_key(|(id, _)| *id);
    all
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A poisoned cache only means another thread panicked mid-insert; the map is still valid.
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A diagnostic's file is the catalog path; the parsed value keeps it in the error. Bytes that
/// are not UTF-8 text are read as U+FFFD, as the SDK reads them (and warned about by the lint).
fn parse_front_matter(path: &str, bytes: &[u8]) -> Parsed {
    let text = String::from_utf8_lossy(bytes);
    frontmatter::parse(&text).map_err(|e| -> Box<Diagnostic> {
        Diagnostic {
            line: Some(e.line),
            column: Some(e.column),
            hint: Some("fix the YAML front matter between the `---` lines".into()),
            ..diagnostic(
                Severity::Error,
                path,
                None,
                format!("invalid front matter: {}", e.message),
            )
        }
        .into()
    })
}

fn diagnostic(severity: Severity, file: &str, field: Option<&str>, message: String) -> Diagnostic {
    Diagnostic {
        severity,
        file: file.to_owned(),
        line: None,
        column: None,
        field: field.map(str::to_owned),
        message,
        hint: None,
    }
}

/// Services and agents both stop at the resources they hold (§3.2).
const INSIDE_A_WORKLOAD: &[&str] = &[
    "events",
    "commands",
    "queries",
    "entities",
    "channels",
    "containers",
    "data-products",
    "data-stores",
    "flows",
];

/// The resource types in the order the SDK concatenates them (§3.4), with their folder names
/// and the directory names that exclude a file from the type (§3.2).
const TYPES: &[TypeRule] = &[
    TypeRule {
        kind: "domain",
        folder: "domains",
        excluded: &[
            "services",
            "agents",
            "events",
            "commands",
            "queries",
            "flows",
            "entities",
            "systems",
            "containers",
            "data-products",
            "adrs",
            "diagrams",
            "channels",
        ],
        excluded_after_folder_only: false,
    },
    TypeRule {
        kind: "channel",
        folder: "channels",
        excluded: &[],
        excluded_after_folder_only: false,
    },
    TypeRule {
        kind: "event",
        folder: "events",
        excluded: &[],
        excluded_after_folder_only: false,
    },
    TypeRule {
        kind: "command",
        folder: "commands",
        excluded: &[],
        excluded_after_folder_only: false,
    },
    TypeRule {
        kind: "query",
        folder: "queries",
        excluded: &[],
        excluded_after_folder_only: false,
    },
    TypeRule {
        kind: "service",
        folder: "services",
        excluded: INSIDE_A_WORKLOAD,
        excluded_after_folder_only: false,
    },
    TypeRule {
        kind: "system",
        folder: "systems",
        excluded: &[
            "agents",
            "services",
            "events",
            "commands",
            "queries",
            "flows",
            "channels",
            "entities",
            "containers",
            "diagrams",
            "data-products",
            "adrs",
            "docs",
        ],
        excluded_after_folder_only: true,
    },
    TypeRule {
        kind: "data-product",
        folder: "data-products",
        excluded: &[],
        excluded_after_folder_only: false,
    },
    TypeRule {
        kind: "container",
        folder: "containers",
        excluded: &[],
        excluded_after_folder_only: false,
    },
    TypeRule {
        kind: "entity",
        folder: "entities",
        excluded: &[],
        excluded_after_folder_only: false,
    },
    TypeRule {
        kind: "flow",
        folder: "flows",
        excluded: &[],
        excluded_after_folder_only: false,
    },
    TypeRule {
        kind: "adr",
        folder: "adrs",
        excluded: &[],
        excluded_after_folder_only: false,
    },
    TypeRule {
        kind: "agent",
        folder: "agents",
        excluded: INSIDE_A_WORKLOAD,
        excluded_after_folder_only: false,
    },
];

/// Diagrams come after teams and users in the SDK's concatenation.
const DIAGRAM: TypeRule = TypeRule {
    kind: "diagram",
    folder: "diagrams",
    excluded: &[],
    excluded_after_folder_only: false,
};

/// True when some resource type takes a file in these folders.
fn typed(dirs: &[&str]) -> bool {
    TYPES
        .iter()
        .chain([&DIAGRAM])
        .any(|rule| rule.matches(dirs))
}

/// True for an index file that some resource type takes, by its path alone.
pub(crate) fn is_typed_resource_file(path: &str) -> bool {
    is_resource_file(path) && typed(&directory_segments(path).collect::<Vec<_>>())
}

struct TypeRule {
    kind: &'static str,
    folder: &'static str,
    excluded: &'static [&'static str],
    /// Systems only exclude names that come after a `systems` segment.
    excluded_after_folder_only: bool,
}

impl TypeRule {
    fn matches(&self, dirs: &[&str]) -> bool {
        let Some(first) = dirs.iter().position(|d| *d == self.folder) else {
            return false;
        };
        let scope = if self.excluded_after_folder_only {
            &dirs[first + 1..]
        } else {
            dirs
        };
        !scope.iter().any(|d| self.excluded.contains(d))
    }
}

/// The keys of an IndexResource in emitted order (§5.2).
const KEY_ORDER: &[&str] = &[
    "type",
    "id",
    "version",
    "name",
    "contentPath",
    "contentHash",
    "draft",
    "deprecated",
    "owners",
    "diagrams",
    "schemas",
    "specifications",
    "sidecars",
    "container_type",
    "references",
    "sends",
    "receives",
    "channels",
    "address",
    "protocols",
    "deliveryGuarantee",
    "routes",
    "parameters",
    "services",
    "agents",
    "domains",
    "systems",
    "entities",
    "dataProducts",
    "flows",
    "writesTo",
    "readsFrom",
    "containers",
    "relationships",
    "actors",
    "inputs",
    "outputs",
    "status",
    "appliesTo",
    "supersedes",
    "supersededBy",
    "amends",
    "amendedBy",
    "related",
    "members",
];
/// Each key's place in [`KEY_ORDER`].
fn key_places() -> &'static FastMap<&'static str, usize> {
    static PLACES: std::sync::OnceLock<FastMap<&'static str, usize>> = std::sync::OnceLock::new();
    PLACES.get_or_init(|| {
        KEY_ORDER
            .iter()
            .enumerate()
            .map(|(at, &key)| (key, at))
            .collect()
    })
}

/// Keys the builder computes rather than copies from the front matter.
const COMPUTED: &[&str] = &[
    "type",
    "contentPath",
    "contentHash",
    "schemas",
    "specifications",
    "sidecars",
    "references",
];

/// The front-matter keys that name schema and specification files: what [`Builder::schemas`]
/// and [`Builder::specifications`] read (§5.3, §5.4).
pub(crate) const FILE_KEYS: &[&str] = &[
    "schemaPath",
    "schemas",
    "specifications",
    "asyncapiPath",
    "openapiPath",
    "graphqlPath",
];

/// The directory store the SDK reads teams and users from, besides the local files.
const STORE: &str = ".eventcatalog/store/directory.json";

const SKIPPED_DIRS: &[&str] = &[".git", ".hg", ".svn", "node_modules"];
const SKIPPED_FILES: &[&str] = &[
    ".DS_Store",
    ".gitignore",
    ".gitkeep",
    ".npmignore",
    "Thumbs.db",
    "desktop.ini",
];

/// Builds the Index of `files` (catalog-index.md §3-§9).
pub fn build(files: &FileSet, options: &Options, cache: &ParseCache) -> Built {
    Builder::new(files, options, cache, None).run()
}

/// Builds the Index of `files` as [`build`] does, sharing with `earlier` every resource that
/// comes out the same: two sides of a diff then hold what did not change once.
pub fn build_beside(
    files: &FileSet,
    options: &Options,
    cache: &ParseCache,
    earlier: &Index,
) -> Built {
    Builder::new(files, options, cache, Some(earlier)).run()
}

/// Equal as JSON text: keys in the same order, at every depth.
fn same_json_object(a: &Map<String, Value>, b: &Map<String, Value>) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|((ka, va), (kb, vb))| ka == kb && same_json(va, vb))
}

fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(a), Value::Object(b)) => same_json_object(a, b),
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same_json(a, b))
        }
        _ => a == b,
    }
}

/// A discovered file with its parsed front matter.
struct Candidate<'a> {
    path: &'a str,
    parsed: Arc<Parsed>,
    /// The folder names on the way to the file, split once for every type rule.
    dirs: Vec<&'a str>,
}

impl Candidate<'_> {
    fn data(&self) -> Option<&Value> {
        self.parsed.as_ref().as_ref().ok()
    }
}

struct Builder<'a> {
    files: &'a FileSet,
    options: &'a Options,
    cache: &'a ParseCache,
    ignore: ignore::gitignore::Gitignore,
    diagnostics: Vec<Diagnostic>,
    unresolved_files: Vec<String>,
    /// Another side's resources by content path, to share those that come out the same.
    earlier: FastMap<&'a str, &'a Resource>,
}

/// A resource on its way into the index.
struct Draft<'a> {
    kind: &'static str,
    source_path: &'a str,
    parsed: Arc<Parsed>,
    content_path: String,
}

impl Draft<'_> {
    /// Drafts are only made from front matter that parsed to a mapping.
    fn data(&self) -> &Map<String, Value> {
        static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
        match self.parsed.as_ref() {
            Ok(Value::Object(map)) => map,
            _ => EMPTY.get_or_init(Map::new),
        }
    }
}

impl<'a> Builder<'a> {
    fn new(
        files: &'a FileSet,
        options: &'a Options,
        cache: &'a ParseCache,
        earlier: Option<&'a Index>,
    ) -> Self {
        let mut diagnostics = Vec::new();
        let ignore = ignore_rules(files, &mut diagnostics);
        for (path, entry) in &files.special {
            let (what, hint) = match entry {
                SpecialEntry::Symlink => (
                    "a symbolic link inside the catalog cannot be indexed".to_owned(),
                    "replace the link with the file it points to".to_owned(),
                ),
                SpecialEntry::Submodule => (
                    "a submodule inside the catalog cannot be indexed".to_owned(),
                    "when the catalog lives in the submodule, run catalog-diff inside it (`-C` and its folder); otherwise move the submodule out of the catalog folder".to_owned(),
                ),
                SpecialEntry::Repository => (
                    "a git repository of its own inside the catalog (the folder holds `.git`): git takes none of its files".to_owned(),
                    "remove its `.git` to make its files part of the catalog, or move it out of the catalog folder".to_owned(),
                ),
                SpecialEntry::NameNotUtf8 => (
                    "the name is not UTF-8 text (shown with U+FFFD), so no catalog file can refer to it"
                        .to_owned(),
                    "rename it to a UTF-8 name (`git mv` in a repository)".to_owned(),
                ),
                SpecialEntry::TooLarge { size, limit } => (
                    format!(
                        "the file is {size} bytes, over the limit of {limit} bytes, so it was not read"
                    ),
                    format!(
                        "raise the limit with --max-file-size (for example --max-file-size {})",
                        size.next_power_of_two()
                    ),
                ),
            };
            diagnostics.push(Diagnostic {
                hint: Some(hint),
                ..diagnostic(Severity::Error, path, None, what)
            });
        }
        Builder {
            files,
            options,
            cache,
            ignore,
            diagnostics,
            unresolved_files: Vec::new(),
            earlier: earlier
                .map(|index| {
                    let path = |r: &'a Resource| r.str_field("contentPath").map(|p| (p, r));
                    index.resources.iter().filter_map(path).collect()
                })
                .unwrap_or_default(),
        }
    }

    fn run(mut self) -> Built {
        // The SDK parses the index files no type takes only when it builds its lookup table,
        // which the first resource to locate asks for: a catalog of teams and users alone
        // never reads them.
        let paths = index_files(self.files);
        let located = paths.iter().any(|path| is_typed_resource_file(path));
        let candidates = self.parse_all(paths, |candidate| located || typed(&candidate.dirs));
        let lookup = Lookup::new(&candidates);
        let mut drafts = Vec::new();
        for rule in TYPES {
            self.classify(rule, &candidates, &lookup, &mut drafts);
        }
        self.people("teams", "team", &mut drafts);
        self.people("users", "user", &mut drafts);
        self.classify(&DIAGRAM, &candidates, &lookup, &mut drafts);
        self.warn_aliases(&drafts);
        self.warn_unread(&drafts);

        let resource_dirs: FastSet<&str> = drafts
            .iter()
            .filter(|d| is_index_file(file_name(&d.content_path)))
            .map(|d| parent(&d.content_path))
            .collect();
        let mut resources: Vec<Resource> = drafts
            .par_iter()
            .map(|d| {
                let mut found = Findings::default();
                (self.resource(d, &resource_dirs, &mut found), found)
            })
            .collect::<Vec<_>>()
            .into_iter()
            .map(|(resource, found)| {
                self.diagnostics.extend(found.diagnostics);
                self.unresolved_files.extend(found.unresolved_files);
                resource
            })
            .collect();
        // V8's steps, not any stable sort: the SDK's comparison is no consistent order when
        // versions mix semver with other text or an id is missing.
        js_sort_by(&mut resources, index_resource_order);
        self.diagnostics.extend(unordered_versions(&resources));
        let assets = self.assets();
        let mut diagnostics = self.diagnostics;
        let files = self.files;
        super::lint::place_fields(&mut diagnostics, |file| {
            Some(String::from_utf8_lossy(&files.get(file)?.data()).into_owned())
        });
        diagnostics.sort();
        diagnostics.dedup();
        Built {
            index: Index {
                source: self.options.source.clone(),
                commit: self.options.commit.clone(),
                resources,
                assets,
            },
            diagnostics,
            unresolved_files: self.unresolved_files,
        }
    }

    /// Front matter of every file, in parallel, each blob parsed once per cache. A file that
    /// does not parse is an error, or a warning where `read` says the SDK never reads it.
    fn parse_all(
        &mut self,
        paths: Vec<&'a str>,
        read: impl Fn(&Candidate<'a>) -> bool,
    ) -> Vec<Candidate<'a>> {
        let parsed: Vec<Candidate<'a>> = paths
            .par_iter()
            .filter_map(|path| {
                let blob = self.files.get(path)?;
                Some(Candidate {
                    path,
                    parsed: self.cache.front_matter(path, blob),
                    dirs: directory_segments(path).collect(),
                })
            })
            .collect();
        for candidate in &parsed {
            if let Err(error) = candidate.parsed.as_ref() {
                // The cached error may have been made for the same blob at another path.
                let mut found = Diagnostic {
                    file: candidate.path.to_owned(),
                    ..(**error).clone()
                };
                if !read(candidate) {
                    found.severity = Severity::Warning;
                    found.hint = Some(format!(
                        "{}; the SDK reads this file only once the catalog holds a resource, and then fails on it",
                        found.hint.as_deref().unwrap_or("fix the front matter")
                    ));
                }
                self.diagnostics.push(found);
            }
        }
        parsed
    }

    /// A warning for each file that looks like a resource but that the SDK passes over
    /// without a word (§12.2): an index file below `data-stores/` that no type takes, an index
    /// file named in other capitals where a type would take it, and a team or user file in a
    /// sub-folder.
    fn warn_unread(&mut self, drafts: &[Draft<'a>]) {
        let indexed: FastSet<&str> = drafts.iter().map(|draft| draft.source_path).collect();
        let in_type_folder = |path: &str| typed(&directory_segments(path).collect::<Vec<_>>());
        for path in self.files.files.keys() {
            let name = file_name(path);
            let index_like =
                name.eq_ignore_ascii_case("index.md") || name.eq_ignore_ascii_case("index.mdx");
            let (message, hint) = if is_resource_file(path)
                && directory_segments(path).any(|dir| dir == "data-stores")
                && !indexed.contains(path.as_str())
            {
                (
                    "the SDK indexes no resource from a `data-stores/` folder".to_owned(),
                    "the SDK reads data stores from `containers/` folders: move it to `containers/<id>/index.mdx`",
                )
            } else if index_like
                && !is_resource_file(path)
                && is_scanned(path)
                && in_type_folder(path)
            {
                (
                    format!(
                        "`{name}` is not indexed: the SDK reads only files named exactly `index.md` or `index.mdx`"
                    ),
                    "rename it to `index.mdx`",
                )
            } else if let Some(rest) = path.strip_prefix("teams/").or(path.strip_prefix("users/"))
                && rest.contains('/')
                && (name.ends_with(".md") || name.ends_with(".mdx"))
                && !rest.starts_with('.')
            {
                let folder = &path[..path.find('/').unwrap_or(0)];
                (
                    format!(
                        "this file in a sub-folder of `{folder}/` is not indexed: the SDK reads only the files directly in `{folder}/`"
                    ),
                    "move it to `teams/<id>.mdx` or `users/<id>.mdx`",
                )
            } else {
                continue;
            };
            self.diagnostics.push(Diagnostic {
                hint: Some(hint.to_owned()),
                ..diagnostic(Severity::Warning, path, None, message)
            });
        }
    }

    fn classify(
        &mut self,
        rule: &TypeRule,
        candidates: &[Candidate<'a>],
        lookup: &Lookup<'_>,
        drafts: &mut Vec<Draft<'a>>,
    ) {
        // Located in parallel, kept in discovery order.
        let located: Vec<_> = candidates
            .par_iter()
            .filter(|candidate| rule.matches(&candidate.dirs))
            .filter_map(|candidate| {
                let data = candidate.data()?;
                Some((candidate, locate(rule.kind, candidate.path, data, lookup)))
            })
            .collect();
        for (candidate, located) in located {
            match located {
                Ok(content_path) => drafts.push(Draft {
                    kind: rule.kind,
                    source_path: candidate.path,
                    parsed: candidate.parsed.clone(),
                    content_path,
                }),
                Err(problem) => self.diagnostics.push(*problem),
            }
        }
    }

    /// Teams and users: files directly in the root folder, then the entries of the directory
    /// store; their content path is `<folder>/<id>.mdx` whatever the real file is called
    /// (§3.3, §4.3). With hashing we read the file that is there instead, and say so.
    fn people(&mut self, folder: &str, kind: &'static str, drafts: &mut Vec<Draft<'a>>) {
        let prefix = format!("{folder}/");
        let mut paths: Vec<&'a str> = self
            .files
            .files
            .range(prefix.clone()..)
            .map(|(path, _)| path.as_str())
            .take_while(|path| path.starts_with(&prefix))
            .filter(|path| {
                let name = &path[prefix.len()..];
                !name.contains('/')
                    && !name.starts_with('.')
                    && (name.ends_with(".md") || name.ends_with(".mdx"))
            })
            .collect();
        paths.sort_by(|a, b| b.as_bytes().cmp(a.as_bytes()));
        // The ids of the local files, `None` for one without: the SDK drops a store entry
        // whose id is one of them, as a JavaScript `Set` of them has it.
        let mut local_ids: Vec<Option<Value>> = Vec::new();
        for candidate in self.parse_all(paths, |_| true) {
            if !matches!(candidate.data(), Some(Value::Object(_))) {
                continue;
            }
            let id = candidate.data().and_then(|d| d.get("id")).map(js_string);
            let expected = people_path(folder, id.as_deref());
            let found = self.files.get(&expected).is_some();
            let content_path = if found || !self.options.hash_content {
                expected.clone()
            } else {
                candidate.path.to_owned()
            };
            if expected == candidate.path {
                // Named as the SDK expects.
            } else if found {
                // Another file holds that name (a copied file whose id was left as it was):
                // the SDK reads and hashes it for this one too.
                self.diagnostics.push(Diagnostic {
                    hint: Some(format!(
                        "give the {kind} in `{}` an id of its own, and name its file after it",
                        candidate.path
                    )),
                    ..diagnostic(
                        Severity::Warning,
                        candidate.path,
                        Some("id"),
                        format!(
                            "the SDK takes {kind} `{}` from `{expected}`, another file, as its content",
                            id.as_deref().unwrap_or("undefined")
                        ),
                    )
                });
            } else {
                self.diagnostics.push(Diagnostic {
                    hint: Some(format!("rename the file to `{expected}`: the SDK reads that name and fails without it")),
                    ..diagnostic(
                        Severity::Warning,
                        candidate.path,
                        Some("id"),
                        format!("the SDK expects {kind} `{}` in `{expected}`", id.as_deref().unwrap_or("undefined")),
                    )
                });
            }
            local_ids.push(candidate.data().and_then(|d| d.get("id")).cloned());
            drafts.push(Draft {
                kind,
                source_path: candidate.path,
                parsed: candidate.parsed.clone(),
                content_path,
            });
        }
        for (i, entry) in self.store_entries(folder).into_iter().enumerate() {
            // The SDK reads every entry's `id`: a null entry stops it (a TypeError); any
            // other entry that is no object has no keys, as `{}` would.
            let entry = match entry {
                Value::Object(entry) => entry,
                Value::Null => {
                    self.diagnostics.push(Diagnostic {
                        hint: Some(format!(
                            "remove the null entry from `resources.{folder}` of the store"
                        )),
                        ..diagnostic(
                            Severity::Error,
                            STORE,
                            Some(folder),
                            format!(
                                "`resources.{folder}[{i}]` of the directory store is null: the \
                                 SDK fails reading its id (TypeError)"
                            ),
                        )
                    });
                    continue;
                }
                _ => Map::new(),
            };
            let local = entry.get("id");
            if local_ids
                .iter()
                .any(|id| same_value_zero(id.as_ref(), local))
            {
                continue;
            }
            let id = local.map(js_string);
            let content_path = people_path(folder, id.as_deref());
            if self.options.hash_content && self.files.get(&content_path).is_none() {
                self.diagnostics.push(Diagnostic {
                    hint: Some(format!(
                        "add `{content_path}` to the catalog, or build without hashes"
                    )),
                    ..diagnostic(
                        Severity::Warning,
                        STORE,
                        Some(folder),
                        format!(
                            "{kind} `{}` from the directory store has no file `{content_path}`",
                            id.as_deref().unwrap_or("undefined")
                        ),
                    )
                });
            }
            drafts.push(Draft {
                kind,
                source_path: STORE,
                parsed: Arc::new(Ok(Value::Object(entry))),
                content_path,
            });
        }
    }

    /// `resources.<folder>` of `.eventcatalog/store/directory.json`; an unreadable store is
    /// ignored, as the SDK does.
    fn store_entries(&self, folder: &str) -> Vec<Value> {
        let Some(blob) = self.files.get(STORE) else {
            return Vec::new();
        };
        let Ok(store) = serde_json::from_slice::<Value>(&blob.data()) else {
            return Vec::new();
        };
        match store.get("resources").and_then(|r| r.get(folder)) {
            Some(Value::Array(entries)) => entries.clone(),
            _ => Vec::new(),
        }
    }

    fn warn_aliases(&mut self, drafts: &[Draft<'a>]) {
        for draft in drafts {
            if draft.content_path != draft.source_path && !matches!(draft.kind, "team" | "user") {
                let id = draft.data().get("id").map(js_string).unwrap_or_default();
                self.diagnostics.push(diagnostic(
                    Severity::Warning,
                    draft.source_path,
                    Some("id"),
                    format!(
                        "{} `{id}` has the same id and version as `{}`, {ALIASED}",
                        draft.kind, draft.content_path
                    ),
                ));
            }
        }
    }

    fn resource(
        &self,
        draft: &Draft<'a>,
        resource_dirs: &FastSet<&str>,
        found: &mut Findings,
    ) -> Resource {
        if let Some(blob) = self.files.get(draft.source_path) {
            found
                .diagnostics
                .extend(self.cache.lint(draft.source_path, blob, draft.data()));
        }
        let base = parent(&draft.content_path).to_owned();
        let mut represented = FastSet::default();
        // The front matter's values by place in the Index, found through the few keys it has
        // rather than by looking up each of the many the Index knows.
        let mut copied = vec![None; KEY_ORDER.len()];
        for (key, value) in draft.data() {
            if let Some(&at) = key_places().get(key.as_str()) {
                copied[at] = Some(value);
            }
        }
        // Sized once: growing the map would hash every key again.
        let mut out = Map::with_capacity(copied.iter().flatten().count() + COMPUTED.len());
        for (&key, copied) in KEY_ORDER.iter().zip(copied) {
            let value = match key {
                "type" => Some(Value::from(draft.kind)),
                "contentPath" => Some(Value::from(draft.content_path.clone())),
                "contentHash" if self.options.hash_content => self
                    .files
                    .get(&draft.content_path)
                    .map(|b| Value::from(&*self.cache.hash(b))),
                "schemas" => self.schemas(draft, &base, &mut represented, found),
                "specifications" => self.specifications(draft, &base, &mut represented, found),
                "sidecars" => self.sidecars(&draft.content_path, &represented, resource_dirs),
                "references" => references(draft, found),
                key if COMPUTED.contains(&key) => None,
                _ => copied.cloned(),
            };
            if let Some(value) = value {
                out.insert(key.to_owned(), value);
            }
        }
        match self.earlier.get(draft.content_path.as_str()) {
            Some(earlier) if same_json_object(earlier.fields(), &out) => (*earlier).clone(),
            _ => Resource::new(out),
        }
    }

    /// `schemas`, or `schemaPath` as a one-entry list (§5.3).
    fn schemas(
        &self,
        draft: &Draft<'a>,
        base: &str,
        represented: &mut FastSet<String>,
        found: &mut Findings,
    ) -> Option<Value> {
        let entries = match draft.data().get("schemas") {
            Some(Value::Null) | None => match draft.data().get("schemaPath") {
                Some(path) if truthy(path) => {
                    let mut entry = Map::new();
                    entry.insert("path".into(), path.clone());
                    entry.insert("default".into(), Value::Bool(true));
                    vec![Value::Object(entry)]
                }
                _ => return None,
            },
            Some(Value::Array(list)) => list.clone(),
            Some(_) => {
                found.error(
                    draft.source_path,
                    "schemas",
                    "`schemas` must be a list of schema entries".into(),
                    "write `schemas` as a list of entries, each with a `path` to the schema file",
                );
                return None;
            }
        };
        let mut out = Vec::with_capacity(entries.len());
        for entry in entries {
            let mut entry = match entry {
                Value::Object(entry) => entry,
                Value::Null => {
                    found.error(
                        draft.source_path,
                        "schemas",
                        "a `schemas` entry is empty".into(),
                        "give the entry a `path`, or remove its `-`",
                    );
                    continue;
                }
                // The SDK's `{ file, ...schema }` takes a list's items and a text's characters
                // under their indexes, and nothing of a number or boolean: an entry without a
                // path.
                other => {
                    found.warn(
                        draft.source_path,
                        "schemas",
                        format!(
                            "the `schemas` entry {} is not a mapping: the SDK indexes it as an entry without a path",
                            json_text::to_compact(&other)
                        ),
                        "write the entry as `- path: <file>`",
                    );
                    spread(&other).into_iter().collect()
                }
            };
            let file = entry.shift_remove("file");
            let path = match file {
                Some(file) if !file.is_null() => {
                    match entry.get_mut("path") {
                        Some(slot) => *slot = file.clone(),
                        None => {
                            entry.insert("path".into(), file.clone());
                        }
                    }
                    Some(file)
                }
                _ => entry.get("path").cloned(),
            };
            match path {
                Some(Value::String(path)) if !path.is_empty() => {
                    if let Some(resolved) =
                        self.referenced_file(found, draft, "schemas", base, &path)
                    {
                        if self.options.hash_content {
                            entry.insert("hash".into(), Value::from(&*resolved.0));
                        }
                        if self.options.include_schema_content {
                            entry.insert(
                                "content".into(),
                                Value::from(
                                    String::from_utf8_lossy(&resolved.1.data()).into_owned(),
                                ),
                            );
                        }
                    }
                    if let Some(full) = join(base, &path) {
                        represented.insert(full);
                    }
                }
                Some(Value::String(_)) | Some(Value::Null) | None => {}
                // The SDK reads the file only for a path that is truthy.
                Some(path) if !truthy(&path) => found.warn(
                    draft.source_path,
                    "schemas",
                    format!(
                        "a schema path of {} names no file: the SDK indexes it as it is",
                        json_text::to_compact(&path)
                    ),
                    "give the path of the schema file, or remove the entry",
                ),
                Some(_) => found.error(
                    draft.source_path,
                    "schemas",
                    "a schema `path` must be a string".into(),
                    "write the schema file's path as text: `path: schema.json`",
                ),
            }
            out.push(Value::Object(entry));
        }
        Some(Value::Array(out))
    }

    /// `specifications` as a list, or the `asyncapiPath`/`openapiPath`/`graphqlPath` mapping (§5.4).
    fn specifications(
        &self,
        draft: &Draft<'a>,
        base: &str,
        represented: &mut FastSet<String>,
        found: &mut Findings,
    ) -> Option<Value> {
        let entries: Vec<Map<String, Value>> = match draft.data().get("specifications")? {
            Value::Null => {
                found.error(
                    draft.source_path,
                    "specifications",
                    "`specifications` is empty".into(),
                    "list the specification files, or remove `specifications`",
                );
                return None;
            }
            Value::Array(list) => list
                .iter()
                .filter_map(|entry| match entry {
                    Value::Object(map) if map.get("path").is_some_and(Value::is_string) => {
                        Some(map.clone())
                    }
                    _ => {
                        found.error(
                            draft.source_path,
                            "specifications",
                            "each `specifications` entry needs a string `path`".into(),
"give each entry a `type` and a `path`, as in `- type: openapi` and `path: openapi.yml`",
                        );
                        None
                    }
                })
                .collect(),
            other if !other.is_object() => {
                found.warn(
                    draft.source_path,
                    "specifications",
                    format!(
                        "`specifications` is {}, neither a list nor a mapping: the SDK indexes it as an empty list",
                        json_text::to_compact(other)
                    ),
                    "write it as a list: `specifications:` then `  - type: openapi` and `    path: openapi.yml` below it",
                );
                Vec::new()
            }
            other => [
                ("asyncapiPath", "asyncapi"),
                ("openapiPath", "openapi"),
                ("graphqlPath", "graphql"),
            ]
            .iter()
            .filter_map(|(key, kind)| {
                let path = other.get(key).filter(|v| truthy(v))?;
                // The SDK joins it to the resource's folder, which throws unless it is text.
                if !path.is_string() {
                    found.error(
                        draft.source_path,
                        "specifications",
                        format!("`{key}` must be a path (text)"),
                        "write the specification file's path as text",
                    );
                    return None;
                }
                let mut entry = Map::new();
                entry.insert("type".into(), Value::from(*kind));
                entry.insert("path".into(), path.clone());
                Some(entry)
            })
            .collect(),
        };
        let mut out = Vec::with_capacity(entries.len());
        for mut entry in entries {
            if let Some(Value::String(path)) = entry.get("path").cloned() {
                if let Some((hash, _)) =
                    self.referenced_file(found, draft, "specifications", base, &path)
                    && self.options.hash_content
                {
                    entry.insert("hash".into(), Value::from(&*hash));
                }
                if let Some(full) = join(base, &path) {
                    represented.insert(full);
                }
            }
            out.push(Value::Object(entry));
        }
        Some(Value::Array(out))
    }

    /// The hash and blob of a file named in front matter, or a diagnostic saying why not.
    fn referenced_file(
        &self,
        found: &mut Findings,
        draft: &Draft<'a>,
        field: &str,
        base: &str,
        path: &str,
    ) -> Option<(Arc<str>, &'a Blob)> {
        let Some(full) = join(base, path) else {
            found.diagnostics.push(Diagnostic {
                hint: Some(
                    "schema and specification paths must stay inside the catalog folder".into(),
                ),
                ..diagnostic(
                    Severity::Error,
                    draft.source_path,
                    Some(field),
                    format!("`{path}` points outside the catalog"),
                )
            });
            return None;
        };
        if let Some(blob) = self.files.get(&full) {
            return Some((self.cache.hash(blob), blob));
        }
        found.unresolved_files.push(full.clone());
        if self.files.special.contains_key(&full) {
            // A link, a submodule or an oversized file: its own error already names it.
            return None;
        }
        let what = if self.is_directory(&full) {
            "is a directory, not a file"
        } else {
            "does not exist"
        };
        found.diagnostics.push(Diagnostic {
            hint: Some(format!("add `{full}` or fix the path in the front matter")),
            ..diagnostic(
                Severity::Warning,
                draft.source_path,
                Some(field),
                format!("`{full}` {what}"),
            )
        });
        None
    }

    /// Whether `path` is a folder: one holding files, or only entries left unread (links,
    /// files over the size limit), whose own errors name them.
    fn is_directory(&self, path: &str) -> bool {
        let prefix = format!("{path}/");
        let under = |first: Option<&String>| first.is_some_and(|p| p.starts_with(&prefix));
        under(
            self.files
                .files
                .range(prefix.clone()..)
                .next()
                .map(|(p, _)| p),
        ) || under(
            self.files
                .special
                .range(prefix.clone()..)
                .next()
                .map(|(p, _)| p),
        )
    }

    /// Files beside an `index.md(x)` that no nested resource or filter claims (§7.1).
    fn sidecars(
        &self,
        content_path: &str,
        represented: &FastSet<String>,
        resource_dirs: &FastSet<&str>,
    ) -> Option<Value> {
        if !is_index_file(file_name(content_path)) {
            return None;
        }
        let dir = parent(content_path);
        // The walk starts in the resource's own folder, which the ignore file can rule out too,
        // as it can any folder above it; the folders below are checked on the way down.
        if !dir.is_empty()
            && self
                .ignore
                .matched_path_or_any_parents(dir, true)
                .is_ignore()
        {
            return None;
        }
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        // A folder that blocks the walk blocks everything below it: skip its paths unread.
        let mut blocked: Option<&str> = None;
        let mut found: Vec<&str> = self
            .files
            .files
            .range(prefix.clone()..)
            .map(|(path, _)| path.as_str())
            .take_while(|path| path.starts_with(&prefix))
            .filter(|path| *path != content_path && !represented.contains(*path))
            .filter(|path| {
                if blocked.is_some_and(|b| path.starts_with(b)) {
                    return false;
                }
                let blocking = folders_after(path, prefix.len()).find(|(segment, walked)| {
                    SKIPPED_DIRS.contains(segment)
                        || resource_dirs.contains(walked)
                        || self.ignore.matched(walked, true).is_ignore()
                });
                if let Some((_, walked)) = blocking {
                    blocked = Some(&path[..=walked.len()]);
                    return false;
                }
                let name = file_name(path);
                !SKIPPED_FILES.contains(&name)
                    && !name.ends_with('~')
                    && !is_swap_file(name)
                    && !self.ignore.matched(path, false).is_ignore()
            })
            .collect();
        if found.is_empty() {
            return None;
        }
        found.sort_by(|a, b| cmp_code_units(a, b));
        Some(Value::Array(
            found.into_iter().map(|path| self.file_ref(path)).collect(),
        ))
    }

    /// Every file under `components/` and `public/`, filtered only by `.eventcatalogignore` (§7.2).
    fn assets(&self) -> Vec<Map<String, Value>> {
        let mut found: Vec<&str> = ["components/", "public/"]
            .iter()
            .flat_map(|prefix| {
                self.files
                    .files
                    .range(prefix.to_string()..)
                    .map(|(path, _)| path.as_str())
                    .take_while(move |path| path.starts_with(prefix))
            })
            .filter(|path| {
                !self
                    .ignore
                    .matched_path_or_any_parents(path, false)
                    .is_ignore()
            })
            .collect();
        found.sort_by(|a, b| cmp_code_units(a, b));
        found
            .into_iter()
            .filter_map(|path| match self.file_ref(path) {
                Value::Object(map) => Some(map),
                _ => None,
            })
            .collect()
    }

    fn file_ref(&self, path: &str) -> Value {
        let mut entry = Map::new();
        entry.insert("path".into(), Value::from(path));
        if self.options.hash_content
            && let Some(blob) = self.files.get(path)
        {
            entry.insert("hash".into(), Value::from(&*self.cache.hash(blob)));
        }
        Value::Object(entry)
    }
}

/// What building one resource found wrong: resources are built in parallel, so each one
/// collects its own.
#[derive(Default)]
struct Findings {
    diagnostics: Vec<Diagnostic>,
    unresolved_files: Vec<String>,
}

impl Findings {
    fn error(&mut self, file: &str, field: &str, message: String, hint: &str) {
        self.diagnostics.push(Diagnostic {
            hint: Some(hint.into()),
            ..diagnostic(Severity::Error, file, Some(field), message)
        });
    }

    fn warn(&mut self, file: &str, field: &str, message: String, hint: &str) {
        self.diagnostics.push(Diagnostic {
            hint: Some(hint.into()),
            ..diagnostic(Severity::Warning, file, Some(field), message)
        });
    }
}

fn references(draft: &Draft<'_>, found: &mut Findings) -> Option<Value> {
    let steps = match draft.data().get("steps")? {
        Value::Array(steps) => steps,
        _ => {
            found.error(
                draft.source_path,
                "steps",
                "`steps` must be a list".into(),
                "write `steps` as a list of steps",
            );
            return None;
        }
    };
    const STEP_KEYS: &[(&str, &str)] = &[
        ("service", "service"),
        ("message", "message"),
        ("agent", "agent"),
        ("container", "container"),
        ("dataProduct", "data-product"),
        ("flow", "flow"),
    ];
    let mut out = Vec::new();
    for step in steps {
        // The SDK reads `step.service` and the rest, which throws on an empty step.
        if step.is_null() {
            found.error(
                draft.source_path,
                "steps",
                "a step is empty (a `-` with nothing after it)".into(),
                "describe the step, or remove its `-`",
            );
            continue;
        }
        for (key, kind) in STEP_KEYS {
            let Some(target) = step.get(key).filter(|v| truthy(v)) else {
                continue;
            };
            // `{ kind, ...target }`, in JavaScript's property order.
            let mut entry = Map::new();
            entry.insert("kind".into(), Value::from(*kind));
            entry.extend(spread(target));
            out.push(Value::Object(super::yaml::js_key_order(entry)));
        }
    }
    Some(Value::Array(out))
}

/// JavaScript's SameValueZero on two ids (`None`: undefined), as a `Set` compares them: a
/// number and its text differ, and an object or array is the same as no other.
fn same_value_zero(a: Option<&Value>, b: Option<&Value>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(Value::Number(x)), Some(Value::Number(y))) => x.as_f64() == y.as_f64(),
        (Some(Value::Array(_) | Value::Object(_)), _)
        | (_, Some(Value::Array(_) | Value::Object(_))) => false,
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

/// The properties JavaScript's object spread (`{ ...value }`) takes from `value`: an object's
/// own, an array's items and a string's characters under their indexes, nothing from the rest
/// (a date included).
/// A character outside the Basic Multilingual Plane stays whole under its first index (a
/// UTF-16 half cannot be held in a string here).
fn spread(value: &Value) -> Vec<(String, Value)> {
    match value {
        Value::Object(fields) => fields.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, item)| (i.to_string(), item.clone()))
            .collect(),
        // js-yaml made a Date of an unquoted timestamp: no own properties to spread.
        Value::String(text) if super::yaml::is_iso_timestamp(text) => Vec::new(),
        Value::String(text) => {
            let mut index = 0;
            text.chars()
                .map(|c| {
                    let entry = (index.to_string(), Value::from(c.to_string()));
                    index += c.len_utf16();
                    entry
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// The SDK's `/^\..*\.sw[op]$/` for an editor's swap file: a dot, anything without a line
/// break (JavaScript's `.`), then `.swp` or `.swo`; `.swp` alone is no swap file.
fn is_swap_file(name: &str) -> bool {
    name.strip_prefix('.')
        .and_then(|rest| {
            rest.strip_suffix(".swp")
                .or_else(|| rest.strip_suffix(".swo"))
        })
        .is_some_and(|middle| !middle.contains(['\n', '\r', '\u{2028}', '\u{2029}']))
}

/// The `.eventcatalogignore` rules at the catalog root (gitignore syntax, §7.3).
fn ignore_rules(
    files: &FileSet,
    diagnostics: &mut Vec<Diagnostic>,
) -> ignore::gitignore::Gitignore {
    let mut builder = ignore::gitignore::GitignoreBuilder::new("");
    // The SDK's `ignore` package matches case-insensitively by default.
    builder.case_insensitive(true).expect("no rules added yet");
    // A folder of that name: the SDK reads it as the file and stops (EISDIR). The first path
    // from the folder's name on is in it if any is: a lookup, not a scan, as every build asks.
    const FOLDER: &str = ".eventcatalogignore/";
    let in_folder = |first: Option<&String>| first.is_some_and(|path| path.starts_with(FOLDER));
    if in_folder(
        files
            .files
            .range(FOLDER.to_owned()..)
            .next()
            .map(|(p, _)| p),
    ) || in_folder(
        files
            .special
            .range(FOLDER.to_owned()..)
            .next()
            .map(|(p, _)| p),
    ) {
        diagnostics.push(Diagnostic {
            hint: Some(
                "make `.eventcatalogignore` a file of ignore rules, or move the folder's files \
                 elsewhere"
                    .to_owned(),
            ),
            ..diagnostic(
                Severity::Error,
                ".eventcatalogignore",
                None,
                "`.eventcatalogignore` is a folder; the SDK reads it as the file of ignore rules \
                 and fails (EISDIR)"
                    .to_owned(),
            )
        });
    }
    if let Some(blob) = files.get(".eventcatalogignore") {
        let data = blob.data();
        let text = String::from_utf8_lossy(&data);
        // The `ignore` package drops a byte order mark, as git does.
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        for (number, line) in text.lines().enumerate() {
            let Some(glob) = ignore_glob(line) else {
                continue;
            };
            if let Err(error) = builder.add_line(None, &glob) {
                diagnostics.push(Diagnostic {
                    line: Some(number + 1),
                    ..diagnostic(
                        Severity::Error,
                        ".eventcatalogignore",
                        None,
                        format!("invalid pattern: {error}"),
                    )
                });
            }
        }
    }
    builder
        .build()
        .unwrap_or_else(|_| ignore::gitignore::Gitignore::empty())
}

/// A line of `.eventcatalogignore` as the glob the `ignore` crate matches the way the SDK's
/// `ignore` package does: braces are plain characters (gitignore has no `{a,b}`), bracket
/// classes are read as that package reads them ([`ignore_class`]), and a line ending in an
/// unpaired `\` matches nothing (`None`).
fn ignore_glob(line: &str) -> Option<String> {
    let chars: Vec<char> = line.chars().collect();
    let mut glob = String::with_capacity(line.len() + 4);
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' => {
                glob.push(c);
                glob.push(*chars.get(i + 1)?);
                i += 2;
                continue;
            }
            '{' | '}' => glob.push('\\'),
            // A POSIX class (`[[:alpha:]]`) is left to globset, which reads those as git does.
            '[' if !chars[i..].windows(2).any(|pair| pair == ['[', ':']) => {
                if let Some((class, end)) = ignore_class(&chars, i + 1) {
                    glob.push_str(&class);
                    i = end;
                    continue;
                }
                // Never closed: a plain `[`.
                glob.push('\\');
            }
            _ => {}
        }
        glob.push(c);
        i += 1;
    }
    Some(glob)
}

/// The bracket class whose members start at `chars[start]`, as the `ignore` package reads it,
/// written for globset, with the index after its closing `]`; `None` when it is never closed.
/// A `\` makes the next character a plain member, a range written backwards (`z-a`) is its
/// first character, and a `-` right after a range is a plain member. globset reads `]` only
/// first and `-` only last as members, so those two are written there.
fn ignore_class(chars: &[char], start: usize) -> Option<(String, usize)> {
    let negated = matches!(chars.get(start), Some('!' | '^'));
    let mut i = start + usize::from(negated);
    let mut members: Vec<(char, char)> = Vec::new();
    // A member: a character, or an escaped one.
    let member = |i: &mut usize| -> Option<char> {
        let c = *chars.get(*i)?;
        *i += 1;
        if c != '\\' {
            return Some(c);
        }
        let escaped = *chars.get(*i)?;
        *i += 1;
        Some(escaped)
    };
    loop {
        let at = i;
        let first = chars.get(i)?;
        if *first == ']' && at > start + usize::from(negated) {
            i += 1;
            break;
        }
        let low = member(&mut i)?;
        let ranged = chars.get(i) == Some(&'-') && chars.get(i + 1).is_some_and(|&c| c != ']');
        if ranged {
            i += 1;
            let high = member(&mut i)?;
            members.push((low, if low <= high { high } else { low }));
        } else {
            members.push((low, low));
        }
    }
    // A plain character alone: written escaped, outside any class.
    if let [(low, high)] = members[..]
        && low == high
        && !negated
    {
        return Some((format!("\\{low}"), i));
    }
    let mut bracket = false;
    let mut dash = false;
    let mut middle: Vec<String> = Vec::new();
    for (mut low, mut high) in members {
        // `]` and `-` are taken out of ranges that begin or end with them.
        for (special, flag) in [(']', &mut bracket), ('-', &mut dash)] {
            if low == special {
                *flag = true;
                low = char::from_u32(u32::from(low) + 1).unwrap_or(low);
            }
            if high == special && low <= high {
                *flag = true;
                high = char::from_u32(u32::from(high) - 1).unwrap_or(high);
            }
        }
        match low.cmp(&high) {
            Ordering::Less => middle.push(format!("{low}-{high}")),
            Ordering::Equal if low != ']' && low != '-' => middle.push(low.to_string()),
            _ => {}
        }
    }
    // Not first, where globset reads `!` and `^` as a negation.
    if !bracket && middle.first().is_some_and(|m| m.starts_with(['!', '^'])) {
        middle.rotate_left(1);
    }
    let mut class = String::from(if negated { "[!" } else { "[" });
    if bracket {
        class.push(']');
    }
    class.extend(middle);
    if dash {
        class.push('-');
    }
    class.push(']');
    Some((class, i))
}

/// `index.md`/`index.mdx` files outside hidden folders and the root `node_modules`, in the
/// SDK's discovery order (§3.1, §3.4).
fn index_files(files: &FileSet) -> Vec<&str> {
    let mut paths: Vec<&str> = files
        .files
        .keys()
        .map(String::as_str)
        .filter(|path| is_resource_file(path))
        .collect();
    paths.par_sort_by(|a, b| discovery_order(a, b));
    paths
}

/// True for the files the SDK reads resources from: `index.md`/`index.mdx` it scans.
pub(crate) fn is_resource_file(path: &str) -> bool {
    matches!(file_name(path), "index.md" | "index.mdx") && is_scanned(path)
}

/// True for the paths the SDK's search for resources walks: outside hidden folders and the
/// root `node_modules`.
fn is_scanned(path: &str) -> bool {
    !path.starts_with('.') && !path.contains("/.") && !path.starts_with("node_modules/")
}

/// Depth first; in each directory its files in descending name order, then its
/// sub-directories in descending name order.
fn discovery_order(a: &str, b: &str) -> Ordering {
    // The folders both paths share decide nothing: start at the first segment that differs.
    let same = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    let start = a.as_bytes()[..same]
        .iter()
        .rposition(|&byte| byte == b'/')
        .map_or(0, |slash| slash + 1);
    // Only the first segment past them decides, and whether it is the path's last (a file).
    fn first(rest: &str) -> (&str, bool) {
        rest.split_once('/')
            .map_or((rest, true), |(segment, _)| (segment, false))
    }
    let ((x, x_file), (y, y_file)) = (first(&a[start..]), first(&b[start..]));
    if x == y {
        // The same path, or one is a folder of the other (it comes first).
        return a.len().cmp(&b.len());
    }
    y_file
        .cmp(&x_file)
        .then_with(|| y.as_bytes().cmp(x.as_bytes()))
}

/// Every candidate index file with a truthy id, for locating content paths (§4.1). It borrows
/// the candidates' text: a large catalog has tens of thousands of them.
struct Lookup<'a> {
    entries: FastMap<Cow<'a, str>, Vec<LookupEntry<'a>>>,
}

struct LookupEntry<'a> {
    version: Cow<'a, str>,
    versioned: bool,
    path: &'a str,
}

impl<'a> Lookup<'a> {
    fn new(candidates: &'a [Candidate<'a>]) -> Self {
        let mut entries: FastMap<Cow<'a, str>, Vec<LookupEntry<'a>>> = FastMap::default();
        for candidate in candidates {
            let Some(Value::Object(data)) = candidate.data() else {
                continue;
            };
            let Some(id) = data.get("id").filter(|v| truthy(v)) else {
                continue;
            };
            let version = data
                .get("version")
                .filter(|v| truthy(v))
                .map(js_text)
                .unwrap_or_default();
            entries.entry(js_text(id)).or_default().push(LookupEntry {
                version,
                versioned: candidate.path.contains("versioned"),
                path: candidate.path,
            });
        }
        Lookup { entries }
    }
}

/// Finds a resource's content path by id and version, as the SDK does (§4.2).
fn locate(
    kind: &str,
    path: &str,
    data: &Value,
    lookup: &Lookup<'_>,
) -> Result<String, Box<Diagnostic>> {
    let problem = |field: &str, message: String, hint: &str| {
        Box::new(Diagnostic {
            hint: Some(hint.to_owned()),
            ..diagnostic(Severity::Error, path, Some(field), message)
        })
    };
    let Value::Object(map) = data else {
        return Err(problem(
            "id",
            format!("the front matter of this {kind} is not a mapping"),
            "write `id: <id>` and `version: <version>` in the front matter",
        ));
    };
    let id = match map.get("id") {
        Some(id) if !truthy(id) || id.is_null() => None,
        other => other,
    };
    let Some(id) = id else {
        if map.keys().any(|key| super::lint::hides_bom(key, "id")) {
            return Err(problem(
                "id",
                format!(
                    "this {kind} has no `id`: its key `id` holds an invisible U+FEFF (byte order \
                     mark), which the SDK reads as part of the key"
                ),
                "delete the invisible character in `id:` (retype the key)",
            ));
        }
        return Err(problem(
            "id",
            format!("this {kind} has no `id`"),
            "add `id: <id>` to the front matter",
        ));
    };
    let Value::String(id) = id else {
        return Err(problem(
            "id",
            format!("`id` must be a string, found {}", json_text::to_compact(id)),
            "quote the id",
        ));
    };
    // js-yaml made a Date of an unquoted `id: 2024-01-01`; the SDK cannot locate it.
    if super::yaml::is_iso_timestamp(id) {
        return Err(problem(
            "id",
            format!("`id` is a date ({id}), not a string"),
            "quote the id, for example `id: '2024-01-01'`",
        ));
    }
    let version = map.get("version");
    let entries = lookup
        .entries
        .get(id.as_str())
        .map(Vec::as_slice)
        .unwrap_or_default();
    let found = match version {
        None => entries.iter().find(|e| !e.versioned),
        Some(v) if !truthy(v) || v.as_str() == Some("latest") => {
            entries.iter().find(|e| !e.versioned)
        }
        // js-yaml made a Date of an unquoted `version: 2024-01-01`; the SDK cannot locate it.
        Some(Value::String(v)) if super::yaml::is_iso_timestamp(v) => {
            return Err(problem(
                "version",
                format!("`version` is a date ({v}), not a version string"),
                "quote the version, for example `version: '2024-01-01'`",
            ));
        }
        Some(Value::String(v)) => entries.iter().find(|e| e.version == *v),
        Some(v) => {
            return Err(problem(
                "version",
                format!(
                    "`version` must be a string, found {}",
                    json_text::to_compact(v)
                ),
                "quote the version, for example `version: '1.0.0'`",
            ));
        }
    };
    match found {
        Some(entry) => Ok(entry.path.to_owned()),
        None => Err(problem(
            "version",
            format!(
                "{kind} `{id}` has no version and every file with that id is under a `versioned` folder"
            ),
            "give the resource a `version`, or move its current version out of `versioned/`",
        )),
    }
}

/// `teams/<id>.mdx`, with the id written as JavaScript would (`undefined` when absent).
fn people_path(folder: &str, id: Option<&str>) -> String {
    let path = format!("{folder}/{}.mdx", id.unwrap_or("undefined"));
    // The SDK's path from the catalog folder: an id climbing out of it keeps its `..`.
    normalize_relative(&path)
}

/// The SDK's `compareIndexResources` (§8.1): by type, then id and version as JavaScript
/// compares them, which a resource's text id and version (`""` and `None` otherwise) spare in
/// the common case.
fn index_resource_order(a: &Resource, b: &Resource) -> Ordering {
    cmp_code_units(a.kind(), b.kind())
        .then_with(|| match (a.id(), b.id()) {
            (x, y) if !x.is_empty() && !y.is_empty() => cmp_code_units(x, y),
            _ => compare_text(a.get("id"), b.get("id")),
        })
        .then_with(|| match (a.version(), b.version()) {
            (Some(x), Some(y)) => index_order(Some(x), Some(y)),
            _ => index_value_order(a.get("version"), b.get("version")),
        })
}

/// A warning for each type and id with three or more versions that mix semver with other
/// versions (or values that are not text): the SDK's comparison of them is no consistent
/// order, so where they end up depends on the sort's steps (catalog-index.md §8.1), which
/// [`js_sort_by`] repeats, and on where their files lie.
fn unordered_versions(resources: &[Resource]) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    for group in resources.chunk_by(|a, b| a.kind() == b.kind() && a.id() == b.id()) {
        let versions: Vec<&Value> = group.iter().filter_map(|r| r.get("version")).collect();
        let mut counts: VersionCounts = [0; 4];
        for version in &versions {
            counts[VersionKind::of(Some(version)) as usize] += 1;
        }
        if !unordered(&counts) {
            continue;
        }
        let listed: Vec<String> = versions
            .iter()
            .map(|v| format!("`{}`", js_text(v)))
            .collect();
        let first = &group[0];
        found.push(Diagnostic {
            hint: Some("write every version of it as semver (`1.2.0`)".into()),
            ..diagnostic(
                Severity::Warning,
                first.str_field("contentPath").unwrap_or_default(),
                Some("version"),
                format!(
                    "the versions of {} `{}` ({}) are not all semver, so they have no consistent order: the Index lists them in the order the SDK's sort happens to leave them, which moves when their files move",
                    first.kind(),
                    first.id(),
                    listed.join(", ")
                ),
            )
        });
    }
    found
}

/// JavaScript truthiness of a JSON value.
fn truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

/// JavaScript `String(value)` for the scalars that reach ids and versions.
fn js_string(value: &Value) -> String {
    js_text(value).into_owned()
}

/// `String(value)`, borrowed when the value is a string already (a list is its items joined
/// by commas, a mapping `[object Object]`).
fn js_text(value: &Value) -> Cow<'_, str> {
    super::js::js_to_string(Some(value))
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn parent(path: &str) -> &str {
    path.rfind('/').map_or("", |i| &path[..i])
}

fn directory_segments(path: &str) -> impl Iterator<Item = &str> {
    let dir = parent(path);
    dir.split('/').filter(|s| !s.is_empty())
}

/// The folders of `path` after byte `from` (where a folder starts), each with the path up to
/// it: `a/b/c.md` from 0 gives (`a`, `a`) and (`b`, `a/b`).
fn folders_after(path: &str, from: usize) -> impl Iterator<Item = (&str, &str)> {
    let mut start = from;
    path[from..].match_indices('/').map(move |(at, _)| {
        let end = from + at;
        let folder = &path[start..end];
        start = end + 1;
        (folder, &path[..end])
    })
}

fn is_index_file(name: &str) -> bool {
    name.eq_ignore_ascii_case("index.md") || name.eq_ignore_ascii_case("index.mdx")
}

/// `base/relative` with `.` and `..` resolved lexically; `None` when it leaves the catalog.
/// A leading `/` does not make the path absolute (§6.1).
pub(crate) fn join(base: &str, relative: &str) -> Option<String> {
    let joined = if base.is_empty() {
        relative.to_owned()
    } else {
        format!("{base}/{relative}")
    };
    // Most paths have nothing to resolve: they are kept as they are.
    if joined.split('/').all(|s| !matches!(s, "" | "." | "..")) {
        return Some(joined);
    }
    normalize(joined.trim_start_matches('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog(files: &[(&str, &str)]) -> FileSet {
        let mut set = FileSet::default();
        for (path, text) in files {
            // The cache knows a blob by its id: each text gets an id of its own.
            let mut id = [0u8; 20];
            for (i, byte) in text.bytes().enumerate() {
                id[i % 20] = id[i % 20].wrapping_mul(31).wrapping_add(byte);
            }
            let blob = Blob::new(crate::catalog::BlobId(id), Arc::from(text.as_bytes()));
            set.files.insert((*path).to_owned(), blob);
        }
        set
    }

    /// One type and id with three or more versions, not all semver or not all text, is warned
    /// about once (the SDK's order of them is its sort algorithm's); consistent versions, and
    /// two versions (compared once, whatever the algorithm), are not.
    /// As Node.js tests `/^\..*\.sw[op]$/` on each name.
    #[test]
    fn swap_files_are_the_names_the_sdk_regex_matches() {
        for name in [".x.swp", ".x.swo", "..swp", ".a\tb.swp", ".a\u{85}b.swo"] {
            assert!(is_swap_file(name), "{name:?}");
        }
        for name in [
            ".swp",
            ".swo",
            "x.swp",
            ".x.swpx",
            ".a\nb.swp",
            ".a\u{2028}b.swo",
            ".x.SWP",
        ] {
            assert!(!is_swap_file(name), "{name:?}");
        }
    }

    #[test]
    fn versions_the_sdk_cannot_order_consistently_are_warned_about() {
        let event = |id: &str, version: &str| format!("---\nid: {id}\nversion: {version}\n---\n");
        let (m1, m2, m3) = (
            event("M", "'10.0.0'"),
            event("M", "'2.0'"),
            event("M", "'9.0.0'"),
        );
        let (t1, t2) = (event("T", "'2.0'"), event("T", "'10.0'"));
        let (n1, n2, n3) = (
            event("N", "~"),
            event("N", "'1.0.0'"),
            event("N", "'0.5.0'"),
        );
        let (p1, p2) = (event("P", "~"), event("P", "'1.0.0'"));
        let (s1, s2) = (event("S", "1.0.0"), event("S", "2.0.0"));
        let files = catalog(&[
            ("events/M/index.mdx", &m1),
            ("events/M/versioned/2.0/index.mdx", &m2),
            ("events/M/versioned/9.0.0/index.mdx", &m3),
            ("events/T/index.mdx", &t1),
            ("events/T/versioned/10.0/index.mdx", &t2),
            ("events/N/index.mdx", &n1),
            ("events/N/versioned/1.0.0/index.mdx", &n2),
            ("events/N/versioned/0.5.0/index.mdx", &n3),
            ("events/P/index.mdx", &p1),
            ("events/P/versioned/1.0.0/index.mdx", &p2),
            ("events/S/index.mdx", &s1),
            ("events/S/versioned/2.0.0/index.mdx", &s2),
        ]);
        let built = build(&files, &Options::default(), &ParseCache::default());
        let warned: Vec<&str> = built
            .diagnostics
            .iter()
            .filter(|d| d.message.contains("not all semver"))
            .map(|d| d.message.split('`').nth(1).unwrap_or_default())
            .collect();
        assert_eq!(warned, ["M", "N"], "{:#?}", built.diagnostics);
    }

    /// Files that look like resources but that the SDK passes over are each named once;
    /// files no type would take are left alone.
    #[test]
    fn files_the_sdk_passes_over_are_warned_about() {
        let event = "---\nid: E\nversion: 1.0.0\n---\n";
        let team = "---\nid: t\nname: T\n---\n";
        let files = catalog(&[
            ("events/E/index.mdx", event),
            ("data-stores/D/index.mdx", event),
            ("domains/X/data-stores/Y/index.mdx", event),
            ("events/F/Index.mdx", event),
            ("docs/Index.md", event),
            ("teams/sub/t.mdx", team),
            ("teams/t.mdx", team),
        ]);
        let built = build(&files, &Options::default(), &ParseCache::default());
        let warned: Vec<&str> = built
            .diagnostics
            .iter()
            .filter(|d| d.message.contains("not indexed") || d.message.contains("indexes no"))
            .map(|d| d.file.as_str())
            .collect();
        assert_eq!(
            warned,
            [
                "data-stores/D/index.mdx",
                "events/F/Index.mdx",
                "teams/sub/t.mdx"
            ],
            "{:#?}",
            built.diagnostics
        );
    }

    /// A schema path naming a folder that holds only an unread file is a folder, not missing.
    #[test]
    fn a_schema_path_naming_a_folder_of_unread_files_is_a_folder() {
        let mut files = catalog(&[(
            "events/E/index.mdx",
            "---\nid: E\nversion: 1.0.0\nschemaPath: big\n---\n",
        )]);
        files.special.insert(
            "events/E/big/schema.json".into(),
            SpecialEntry::TooLarge { size: 10, limit: 1 },
        );
        let built = build(&files, &Options::default(), &ParseCache::default());
        let schema: Vec<&str> = built
            .diagnostics
            .iter()
            .filter(|d| d.field.as_deref() == Some("schemas"))
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(
            schema,
            ["`events/E/big` is a directory, not a file"],
            "{built:#?}"
        );
    }

    /// A `schemas` entry the SDK spreads (text, a number, a list) or a falsy path it keeps is
    /// a warning; an empty entry, which stops the SDK, is an error.
    #[test]
    fn schemas_entries_of_other_shapes_are_warned_about_or_refused() {
        let resource =
            |schemas: &str| format!("---\nid: E\nversion: 1.0.0\nschemas:\n{schemas}\n---\n");
        let severities = |schemas: &str| -> Vec<Severity> {
            let files = catalog(&[("events/E/index.mdx", &resource(schemas))]);
            let built = build(&files, &Options::default(), &ParseCache::default());
            built
                .diagnostics
                .iter()
                .filter(|d| d.field.as_deref() == Some("schemas"))
                .map(|d| d.severity)
                .collect()
        };
        let warning = [Severity::Warning];
        assert_eq!(severities("  - schema.json"), warning);
        assert_eq!(severities("  - 5"), warning);
        assert_eq!(severities("  - [a.json]"), warning);
        assert_eq!(severities("  - path: false"), warning);
        assert_eq!(severities("  - file: 0"), warning);
        assert_eq!(severities("  - null"), [Severity::Error]);
        assert_eq!(severities("  - path: 5"), [Severity::Error]);
    }

    /// `specifications` as text indexes as an empty list, as the SDK makes it, and says so.
    #[test]
    fn specifications_given_as_text_are_an_empty_list_with_a_warning() {
        let files = catalog(&[(
            "services/S/index.mdx",
            "---\nid: S\nversion: 1.0.0\nspecifications: openapi.yml\n---\n",
        )]);
        let built = build(&files, &Options::default(), &ParseCache::default());
        assert_eq!(
            built.index.resources[0].get("specifications"),
            Some(&Value::Array(Vec::new()))
        );
        let warned: Vec<_> = built
            .diagnostics
            .iter()
            .filter(|d| d.field.as_deref() == Some("specifications"))
            .collect();
        assert_eq!(warned.len(), 1, "{:#?}", built.diagnostics);
        assert_eq!(warned[0].severity, Severity::Warning);
    }

    /// A side built beside another is the Index it would be alone, and holds what came out
    /// the same (keys in the same order, at every depth) once.
    #[test]
    fn a_side_built_beside_another_shares_the_resources_that_came_out_the_same() {
        let kept = "---\nid: Kept\nversion: 1.0.0\nsends:\n  - {id: E, version: 1.0.0}\n---\n";
        let before = catalog(&[
            ("services/Kept/index.md", kept),
            (
                "services/Renamed/index.md",
                "---\nid: Renamed\nversion: 1.0.0\nname: Old\n---\n",
            ),
            (
                "services/Reordered/index.md",
                "---\nid: Reordered\nversion: 1.0.0\nsends:\n  - {id: E, version: 1.0.0}\n---\n",
            ),
        ]);
        let after = catalog(&[
            ("services/Kept/index.md", kept),
            (
                "services/Renamed/index.md",
                "---\nid: Renamed\nversion: 1.0.0\nname: New\n---\n",
            ),
            (
                "services/Reordered/index.md",
                "---\nid: Reordered\nversion: 1.0.0\nsends:\n  - {version: 1.0.0, id: E}\n---\n",
            ),
            (
                "services/Added/index.md",
                "---\nid: Added\nversion: 1.0.0\n---\n",
            ),
        ]);
        // Without content hashes, a file that changed can come out the same.
        let options = Options {
            hash_content: false,
            ..Options::default()
        };
        let cache = ParseCache::default();
        let earlier = build(&before, &options, &cache);
        let alone = build(&after, &options, &cache);
        let beside = build_beside(&after, &options, &cache, &earlier.index);
        assert_eq!(
            serde_json::to_string(&beside.index).unwrap(),
            serde_json::to_string(&alone.index).unwrap()
        );
        assert_eq!(beside.diagnostics, alone.diagnostics);
        let shared: Vec<&str> = beside
            .index
            .resources
            .iter()
            .filter(|r| earlier.index.resources.iter().any(|e| e.same_fields(r)))
            .map(Resource::id)
            .collect();
        assert_eq!(shared, ["Kept"]);
    }

    #[test]
    fn folders_after_a_point_come_with_the_path_up_to_each() {
        let folders = |path, from| folders_after(path, from).collect::<Vec<_>>();
        assert_eq!(folders("a/b/c.md", 0), [("a", "a"), ("b", "a/b")]);
        assert_eq!(folders("a/b/c.md", 2), [("b", "a/b")]);
        assert_eq!(folders("a/b/c.md", 4), []);
        assert_eq!(folders("c.md", 0), []);
    }

    #[test]
    fn discovery_order_is_depth_first_files_then_folders_each_descending() {
        let mut paths = vec![
            "events/a/b/index.md",
            "events/é/index.md",
            "z/index.md",
            "events/index.md",
            "index.md",
            "events/a/index.md",
            // Shares its first byte with `é` (0xC3): the shared part ends mid-character.
            "events/ê/index.md",
        ];
        paths.sort_by(|a, b| discovery_order(a, b));
        assert_eq!(
            paths,
            [
                "index.md",
                "z/index.md",
                "events/index.md",
                "events/ê/index.md",
                "events/é/index.md",
                "events/a/index.md",
                "events/a/b/index.md",
            ]
        );
        assert_eq!(discovery_order("a/b", "a/b"), Ordering::Equal);
        assert_eq!(discovery_order("a/b", "a/b/c"), Ordering::Less);
        assert_eq!(discovery_order("a/b/c", "a/b"), Ordering::Greater);
    }

    #[test]
    fn resource_files_are_index_files_outside_hidden_folders_and_root_node_modules() {
        for (path, expected) in [
            ("events/E/index.mdx", true),
            ("index.md", true),
            ("v1.2/index.md", true),
            ("events/E./index.md", true),
            ("events/E/README.md", false),
            (".hidden/index.md", false),
            ("events/.draft/index.md", false),
            ("node_modules/x/index.md", false),
            ("events/node_modules/index.md", true),
        ] {
            assert_eq!(is_resource_file(path), expected, "{path}");
        }
    }
}
