//! The in-memory catalog: the files of one side ([`FileSet`]), the Index document the SDK's
//! `buildIndex` makes ([`Index`]) and the diagnostics found while building it.
//! Nothing here touches git or the filesystem.

pub mod build;
pub mod frontmatter;
mod js;
mod js_sort;
mod lint;
mod persist;
pub mod resolve;
pub mod scope;
pub mod version;
pub(crate) mod yaml;

pub use persist::FILE_STEM;

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use serde_json::{Map, Value};

/// Git's blob id (SHA-1 of `blob <len>\0<bytes>`): the cache key for everything parsed from a file.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct BlobId(pub [u8; 20]);

/// In the order of the bytes, the first eight compared as one number: sorting a saved cache's
/// ids byte by byte through `memcmp` was most of saving it, and ids are hashes, so the rest is
/// all but never looked at.
impl Ord for BlobId {
    fn cmp(&self, other: &BlobId) -> std::cmp::Ordering {
        let tail = |id: &BlobId| {
            let [.., i, j, k, l, m, n, o, p, q, r, s, t] = id.0;
            [i, j, k, l, m, n, o, p, q, r, s, t]
        };
        (self.prefix().cmp(&other.prefix())).then_with(|| tail(self).cmp(&tail(other)))
    }
}

impl PartialOrd for BlobId {
    fn partial_cmp(&self, other: &BlobId) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// A blob id is a hash already: its first eight bytes stand for it.
impl std::hash::Hash for BlobId {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let [a, b, c, d, e, f, g, h, ..] = self.0;
        state.write_u64(u64::from_le_bytes([a, b, c, d, e, f, g, h]));
    }
}

/// Hashes keys made of [`BlobId`]s by folding what they write, not by hashing it again.
#[derive(Default)]
pub struct IdHasher(u64);

impl std::hash::Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = self.0.rotate_left(5) ^ n;
    }
}

/// A map keyed by blob ids (alone or with a tag).
pub type IdMap<K, V> = std::collections::HashMap<K, V, std::hash::BuildHasherDefault<IdHasher>>;

impl fmt::Display for BlobId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hex = self.to_hex();
        f.write_str(std::str::from_utf8(&hex).map_err(|_| fmt::Error)?)
    }
}

impl BlobId {
    /// The id's first eight bytes as a number, ordered as the ids are.
    pub fn prefix(&self) -> u64 {
        let [a, b, c, d, e, f, g, h, ..] = self.0;
        u64::from_be_bytes([a, b, c, d, e, f, g, h])
    }

    /// The id's 40 lowercase hexadecimal digits, without formatting machinery: a saved cache
    /// writes an id per line.
    pub fn to_hex(&self) -> [u8; 40] {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let mut hex = [0; 40];
        for (pair, byte) in hex.chunks_exact_mut(2).zip(self.0) {
            pair[0] = DIGITS[usize::from(byte >> 4)];
            pair[1] = DIGITS[usize::from(byte & 0xf)];
        }
        hex
    }

    /// The id from its 40 hexadecimal digits.
    pub fn from_hex(text: &str) -> Option<BlobId> {
        let bytes = text.as_bytes();
        if bytes.len() != 40 {
            return None;
        }
        // A digit's value, or 16 and over for any other byte: no branch per digit, one check
        // at the end (a cache file holds an id per line).
        const VALUE: [u8; 256] = {
            let mut table = [0xff; 256];
            let mut n = 0;
            while n < 10 {
                table[b'0' as usize + n] = n as u8;
                n += 1;
            }
            while n < 16 {
                table[b'a' as usize + n - 10] = n as u8;
                table[b'A' as usize + n - 10] = n as u8;
                n += 1;
            }
            table
        };
        let mut id = [0u8; 20];
        let mut invalid = 0;
        for (byte, pair) in id.iter_mut().zip(bytes.chunks_exact(2)) {
            let (high, low) = (VALUE[usize::from(pair[0])], VALUE[usize::from(pair[1])]);
            invalid |= high | low;
            *byte = high << 4 | low;
        }
        (invalid < 16).then_some(BlobId(id))
    }
}

impl fmt::Debug for BlobId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BlobId({self})")
    }
}

/// One regular file of a catalog: its blob id and its bytes exactly as stored, read when first
/// asked for, so a run whose parses are cached by blob id never inflates those blobs.
#[derive(Clone)]
pub struct Blob {
    pub id: BlobId,
    bytes: Bytes,
}

#[derive(Clone)]
enum Bytes {
    Read(Arc<[u8]>),
    Deferred(Arc<dyn BlobStore>),
}

/// Where the bytes of a blob listed but not yet read come from (the git object database).
pub trait BlobStore: Send + Sync {
    /// The bytes of `id`. A store that cannot read them returns no bytes and keeps the error
    /// for its owner to report before any result is shown.
    fn bytes(&self, id: BlobId) -> Arc<[u8]>;
}

/// Blob sizes kept between runs, so that a run need not open an object to check it against
/// the size limit. A blob's size follows from its id, so a size once learnt never goes stale.
pub trait SizeMemory: Send + Sync {
    /// The size of each of `ids` that an earlier read learnt, asked at once: a listing asks
    /// for every blob of the catalog.
    fn sizes(&self, ids: &[BlobId]) -> Vec<Option<u64>>;
    /// Keeps the size of `id`, just read from its object.
    fn learn(&self, id: BlobId, size: u64);
}

impl Blob {
    /// A blob whose bytes are at hand.
    pub fn new(id: BlobId, data: Arc<[u8]>) -> Blob {
        Blob {
            id,
            bytes: Bytes::Read(data),
        }
    }

    /// A blob read from `store` when its bytes are first asked for.
    pub fn deferred(id: BlobId, store: Arc<dyn BlobStore>) -> Blob {
        Blob {
            id,
            bytes: Bytes::Deferred(store),
        }
    }

    /// Its bytes (shared, never copied).
    pub fn data(&self) -> Arc<[u8]> {
        match &self.bytes {
            Bytes::Read(data) => data.clone(),
            Bytes::Deferred(store) => store.bytes(self.id),
        }
    }
}

impl fmt::Debug for Blob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Blob")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

/// A tree entry that is not read as a file, kept so the builder can report it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecialEntry {
    Symlink,
    Submodule,
    /// A working-tree folder that is a repository of its own (it holds `.git`) and no
    /// submodule yet: git lists none of its files (`git add` records it as a submodule).
    Repository,
    /// A file or folder whose name is not UTF-8 text (its path shows U+FFFD for each bad
    /// byte): no catalog file can refer to it, and two such names could read as one.
    NameNotUtf8,
    /// A file larger than the limit it was read under (bytes), left unread.
    TooLarge {
        size: u64,
        limit: u64,
    },
}

/// How large a file catalog-diff reads by default (schemas, front matter, specifications).
pub const DEFAULT_MAX_FILE_SIZE: u64 = 64 << 20;

/// Every file of one catalog side, keyed by catalog path (relative to the catalog root,
/// `/`-separated). Directories are implied by the paths.
#[derive(Clone, Debug, Default)]
pub struct FileSet {
    pub files: BTreeMap<String, Blob>,
    pub special: BTreeMap<String, SpecialEntry>,
}

impl FileSet {
    pub fn get(&self, path: &str) -> Option<&Blob> {
        self.files.get(path)
    }
}

/// A side's files are where its schemas' imports are found.
impl crate::schema::Files for FileSet {
    fn read(&self, path: &str) -> Option<Arc<[u8]>> {
        self.get(path).map(Blob::data)
    }
}

/// A catalog as it was before some changes, read through the catalog after them and the
/// changed paths' earlier blobs, without copying either.
#[derive(Clone, Copy)]
pub struct Before<'a> {
    pub after: &'a FileSet,
    /// Each changed path with its blob before the change (`None`: it did not exist).
    pub changes: &'a BTreeMap<String, Option<Blob>>,
}

impl Before<'_> {
    pub fn get(&self, path: &str) -> Option<&Blob> {
        match self.changes.get(path) {
            Some(before) => before.as_ref(),
            None => self.after.get(path),
        }
    }

    /// The catalog itself, for a build.
    pub fn to_file_set(&self, special: &BTreeMap<String, SpecialEntry>) -> FileSet {
        let mut files = self.after.files.clone();
        for (path, blob) in self.changes {
            match blob {
                Some(blob) => files.insert(path.clone(), blob.clone()),
                None => files.remove(path),
            };
        }
        FileSet {
            files,
            special: special.clone(),
        }
    }
}

/// No changes: a [`Before`] that is its catalog as it is.
static UNCHANGED: BTreeMap<String, Option<Blob>> = BTreeMap::new();

impl<'a> Before<'a> {
    /// Catalog `files` itself.
    pub fn unchanged(files: &'a FileSet) -> Before<'a> {
        Before {
            after: files,
            changes: &UNCHANGED,
        }
    }

    /// How many files the catalog has.
    pub fn len(&self) -> usize {
        let (mut gone, mut back) = (0, 0);
        for (path, before) in self.changes {
            match (before, self.after.files.contains_key(path)) {
                (None, true) => gone += 1,
                (Some(_), false) => back += 1,
                _ => {}
            }
        }
        self.after.files.len() + back - gone
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The baseline of a comparison: a catalog of its own, or the candidate with the paths where
/// the two differ put back as they were, read through the candidate rather than copied from it.
#[derive(Clone, Copy)]
pub enum Baseline<'a> {
    Whole(&'a FileSet),
    Undone {
        files: Before<'a>,
        special: &'a BTreeMap<String, SpecialEntry>,
    },
}

impl<'a> Baseline<'a> {
    /// Its files, read in place.
    pub fn files(&self) -> Before<'a> {
        match *self {
            Baseline::Whole(files) => Before::unchanged(files),
            Baseline::Undone { files, .. } => files,
        }
    }

    /// The catalog as one FileSet, for a whole build: copied only when it is undone.
    pub fn to_file_set(&self) -> Cow<'a, FileSet> {
        match *self {
            Baseline::Whole(files) => Cow::Borrowed(files),
            Baseline::Undone { files, special } => Cow::Owned(files.to_file_set(special)),
        }
    }
}

impl<'a> From<&'a FileSet> for Baseline<'a> {
    fn from(files: &'a FileSet) -> Baseline<'a> {
        Baseline::Whole(files)
    }
}

impl crate::schema::Files for Before<'_> {
    fn read(&self, path: &str) -> Option<Arc<[u8]>> {
        self.get(path).map(Blob::data)
    }
}

#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The catalog cannot be read faithfully: exit 2.
    Error,
    /// The index was built, but deviates from what the SDK would do or hides a surprise:
    /// exit 2 only under `--strict`.
    Warning,
}

/// A problem found in a catalog, tied to the file (and line) it comes from.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Catalog path of the offending file.
    pub file: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    /// The front-matter field concerned, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    pub message: String,
    /// What the user can do about it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

/// A path made safe to print, as [`escape_text`] makes catalog text: a path the user typed
/// may hold a newline or an escape sequence too.
pub fn escape_path(path: &std::path::Path) -> String {
    escape_text(&path.to_string_lossy()).into_owned()
}

/// Catalog text made safe to print: control characters (newlines, ESC, BEL, C1 controls), the
/// line and paragraph separators, and the invisible bidirectional marks and overrides are shown
/// as `\u{1b}` instead of acting.
pub fn escape_text(text: &str) -> Cow<'_, str> {
    let unsafe_char = |c: char| {
        c.is_control()
            || matches!(
                c,
                '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
            )
    };
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_char(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        // The file, field and texts come from the catalog: escaped, as every report is.
        write!(f, "{level}: {}", escape_text(&self.file))?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        if let Some(field) = &self.field {
            write!(f, ": `{}`", escape_text(field))?;
        }
        write!(f, ": {}", escape_text(&self.message))?;
        if let Some(hint) = &self.hint {
            write!(f, "\n  hint: {}", escape_text(hint))?;
        }
        Ok(())
    }
}

/// The Index document of SDK 2.27.1 (`indexVersion: 1`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Index {
    pub source: String,
    pub commit: String,
    pub resources: Vec<Resource>,
    /// `{path, hash?}` objects; the key is omitted from the document when empty.
    pub assets: Vec<Map<String, Value>>,
}

/// One IndexResource. Its fields are kept as the ordered JSON object the SDK emits, because
/// every front-matter value is copied verbatim in a fixed key order (catalog-index.md §5).
/// Cloning shares the fields, and type, id and version are read once: a diff or a history walk
/// copies, groups and sorts resources many times.
#[derive(Clone, Debug, Default)]
pub struct Resource {
    fields: Arc<Map<String, Value>>,
    kind: Box<str>,
    id: Box<str>,
    /// A numeric `id` (a team's or user's `id: 42`) as JavaScript's `String` writes it.
    id_number: Option<Box<str>>,
    version: Option<Box<str>>,
}

impl Resource {
    pub fn new(fields: Map<String, Value>) -> Self {
        let text = |key: &str| fields.get(key).and_then(Value::as_str).map(Box::from);
        Resource {
            kind: text("type").unwrap_or_default(),
            id: text("id").unwrap_or_default(),
            id_number: fields
                .get("id")
                .filter(|id| id.is_number())
                .map(|id| Box::from(crate::json_text::to_compact(id))),
            version: text("version"),
            fields: Arc::new(fields),
        }
    }
    /// The resource as the ordered JSON object of the Index.
    pub fn fields(&self) -> &Map<String, Value> {
        &self.fields
    }
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.fields.get(key)
    }
    pub fn str_field(&self, key: &str) -> Option<&str> {
        self.get(key).and_then(Value::as_str)
    }
    /// `type`, or `""` when it is not a string.
    pub fn kind(&self) -> &str {
        &self.kind
    }
    /// `id`, or `""` when it is not a string.
    pub fn id(&self) -> &str {
        &self.id
    }
    /// `id` as the diff library's `${id}` reads it: a number as its text (`42`), so that two
    /// teams with numeric ids stay two.
    pub fn id_text(&self) -> &str {
        self.id_number.as_deref().unwrap_or(&self.id)
    }
    /// The version as a string, when the resource has a string version.
    pub fn version(&self) -> Option<&str> {
        self.version.as_deref()
    }
    /// True when both are the same shared fields (a cheap first test before comparing them).
    pub fn same_fields(&self, other: &Resource) -> bool {
        Arc::ptr_eq(&self.fields, &other.fields)
    }
}

impl PartialEq for Resource {
    fn eq(&self, other: &Self) -> bool {
        self.same_fields(other) || self.fields == other.fields
    }
}

/// The same document as [`Index::to_value`], written without copying the resources.
impl serde::Serialize for Index {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let resources: Vec<&Map<String, Value>> =
            self.resources.iter().map(Resource::fields).collect();
        let mut doc = serializer.serialize_map(None)?;
        doc.serialize_entry("indexVersion", &1)?;
        doc.serialize_entry("source", &self.source)?;
        doc.serialize_entry("commit", &self.commit)?;
        doc.serialize_entry("resources", &resources)?;
        if !self.assets.is_empty() {
            doc.serialize_entry("assets", &self.assets)?;
        }
        doc.end()
    }
}

impl Index {
    /// The document as the SDK emits it: `indexVersion, source, commit, resources, assets?`.
    pub fn to_value(&self) -> Value {
        let mut doc = Map::new();
        doc.insert("indexVersion".into(), Value::from(1));
        doc.insert("source".into(), Value::from(self.source.clone()));
        doc.insert("commit".into(), Value::from(self.commit.clone()));
        doc.insert(
            "resources".into(),
            Value::Array(
                self.resources
                    .iter()
                    .map(|r| Value::Object(r.fields().clone()))
                    .collect(),
            ),
        );
        if !self.assets.is_empty() {
            doc.insert(
                "assets".into(),
                Value::Array(self.assets.iter().cloned().map(Value::Object).collect()),
            );
        }
        Value::Object(doc)
    }

    /// Reads an Index document (for example a fixture written by the SDK).
    pub fn from_value(value: &Value) -> Option<Index> {
        let doc = value.as_object()?;
        let resources = doc
            .get("resources")?
            .as_array()?
            .iter()
            .map(|r| r.as_object().cloned().map(Resource::new))
            .collect::<Option<Vec<_>>>()?;
        let assets = match doc.get("assets") {
            Some(list) => list
                .as_array()?
                .iter()
                .map(|a| a.as_object().cloned())
                .collect::<Option<Vec<_>>>()?,
            None => Vec::new(),
        };
        Some(Index {
            source: doc.get("source")?.as_str()?.to_owned(),
            commit: doc.get("commit")?.as_str()?.to_owned(),
            resources,
            assets,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::BlobId;

    #[test]
    fn ids_read_back_from_their_hex_and_nothing_else_is_an_id() {
        for seed in [0u8, 1, 0x5a, 0xa5, 0xff] {
            let id = BlobId(std::array::from_fn(|n| seed.wrapping_mul(n as u8 + 7)));
            let hex = id.to_string();
            assert_eq!(BlobId::from_hex(&hex), Some(id));
            assert_eq!(BlobId::from_hex(&hex.to_uppercase()), Some(id));
        }
        let counting = BlobId(std::array::from_fn(|n| n as u8 * 13));
        assert_eq!(
            counting.to_string(),
            "000d1a2734414e5b6875828f9ca9b6c3d0ddeaf7",
            "lowercase, two digits a byte"
        );
        let mut ids: Vec<BlobId> = (0..64u8)
            .map(|n| {
                BlobId(std::array::from_fn(|i| {
                    n.wrapping_mul((i as u8).wrapping_mul(37).wrapping_add(11)) >> (i % 3)
                }))
            })
            .collect();
        ids.sort();
        assert!(
            ids.windows(2).all(|w| w[0].0 <= w[1].0),
            "ordered as their bytes"
        );
        let zeros = "0".repeat(40);
        for bad in ["g", " ", "/", ":", "@", "`", "G", "é"] {
            let text = format!("{bad}{}", &zeros[bad.len()..]);
            assert_eq!(BlobId::from_hex(&text), None, "{text:?}");
            let text = format!("{}{bad}", &zeros[bad.len()..]);
            assert_eq!(BlobId::from_hex(&text), None, "{text:?}");
        }
        assert_eq!(BlobId::from_hex(&zeros[1..]), None);
        assert_eq!(BlobId::from_hex(&format!("{zeros}0")), None);
    }
}
