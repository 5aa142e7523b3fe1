//! The part of a catalog that one change can reach, so a history walk diffs that part of two
//! consecutive commits instead of both whole catalogs.
//!
//! An ArchitectureDiff reads, per resource, its type, id, version, name, owners, deprecated flag,
//! schema files and pointers, never its sidecars. Those come from the resource's own front
//! matter, its folder's files, the resources with the same id (version lookup, §4.2) and, for
//! edges, the resources it points at. So for a change it is enough to build:
//! - the resource files that changed, and for any other changed file the resource in whose
//!   folder it lies, those above that name schema or specification files, and those that name
//!   files outside their own folder;
//! - every resource file declaring one of their ids (old or new), and every resource file
//!   pointing at one of those ids;
//! - every resource file declaring an id that a changed resource file points at (the ends of
//!   its edges, before and after); unchanged resources keep their edges on both sides;
//! - and every resource file sharing an id with one of these (content paths are found by id);
//!
//! each with the files of its own folder (not those of nested resource folders). Resources
//! outside that set are the same on both sides, so they add nothing to the diff.
//!
//! Changes this reasoning does not cover make [`Scope::reach`] answer `None`, and the caller
//! builds the whole catalog: symlinks and submodules, ignore rules, teams and users, the
//! directory store, and very wide changes. Assets change only the Index's `assets`, which the
//! diff does not read. A resource whose schema lies outside its folder is in the reach of every
//! change, and its cut then misses that schema, which the caller detects and answers with whole
//! builds too. So is a change to a `.proto` file in a catalog with Protobuf schemas, and to a
//! YAML or JSON file in one whose specifications `$ref` files: imports and `$ref`s name files
//! in any folder, and no front matter does.

use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde_json::Value;

use crate::{FastMap, FastSet};

use super::build::{FILE_KEYS, ParseCache, Parsed, is_resource_file, is_typed_resource_file};
use super::version::SemVer;
use super::{Before, Blob, FileSet};

/// What one resource file says about the graph: its id, the ids it points at, and whether
/// it names schema or specification files (which may lie in folders below its own).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Facts {
    id: Option<String>,
    mentions: BTreeSet<String>,
    names_files: bool,
    /// It names a file outside its own folder (`../shared/schema.json`), so a change anywhere
    /// may reach it.
    names_outside: bool,
    /// It has specifications, which may `$ref` files in any folder.
    has_specifications: bool,
    /// It has Protobuf schemas, which may import files in any folder.
    has_protobuf: bool,
    /// The schema files it names (`schemaPath`, each `schemas` entry's `path` or `file`).
    schema_paths: Vec<String>,
    /// What kind of `version` it declares.
    version: VersionKind,
}

impl Facts {
    pub(crate) fn of(parsed: &Parsed) -> Facts {
        let Ok(Value::Object(map)) = parsed else {
            return Facts::default();
        };
        let mut mentions = BTreeSet::new();
        for (key, value) in map {
            if key != "id" {
                collect_ids(value, &mut mentions);
            }
        }
        let mut named = Vec::new();
        for key in FILE_KEYS {
            collect_strings(map.get(*key), &mut named);
        }
        let mut schema_paths = Vec::new();
        collect_strings(map.get("schemaPath"), &mut schema_paths);
        if let Some(Value::Array(entries)) = map.get("schemas") {
            for entry in entries {
                for key in ["path", "file"] {
                    collect_strings(entry.get(key), &mut schema_paths);
                }
            }
        }
        let schema_paths = schema_paths.into_iter().map(str::to_owned).collect();
        Facts {
            schema_paths,
            id: map.get("id").and_then(Value::as_str).map(str::to_owned),
            version: VersionKind::of(map.get("version")),
            mentions,
            names_files: FILE_KEYS.iter().any(|key| map.contains_key(*key)),
            has_specifications: map.contains_key("specifications"),
            has_protobuf: has_protobuf_schema(map),
            names_outside: named
                .iter()
                .any(|path| path.starts_with('/') || path.split('/').any(|s| s == "..")),
        }
    }
}

/// Whether a resource's schema files include Protobuf, told as the diff tells them: by a
/// declared format, else by the file's name.
fn has_protobuf_schema(map: &serde_json::Map<String, Value>) -> bool {
    use crate::schema::Format;
    let is_protobuf = |format: Option<&Value>, path: Option<&Value>| {
        let path = path.and_then(Value::as_str).unwrap_or_default();
        matches!(
            Format::detect(format.and_then(Value::as_str), path, ""),
            Ok(Format::Protobuf)
        )
    };
    let entries = map.get("schemas").and_then(Value::as_array);
    is_protobuf(None, map.get("schemaPath"))
        || entries.into_iter().flatten().any(|entry| {
            let path = entry.get("path").or_else(|| entry.get("file"));
            is_protobuf(entry.get("format"), path)
        })
}

/// The specification files a resource's front matter names (`specifications` as an object of
/// paths, or a list of `{type, path}` entries or of paths).
fn specification_paths(front_matter: &Value) -> Vec<&str> {
    match front_matter.get("specifications") {
        Some(Value::Object(paths)) => paths.values().filter_map(Value::as_str).collect(),
        Some(Value::Array(entries)) => entries
            .iter()
            .filter_map(|entry| entry.get("path").unwrap_or(entry).as_str())
            .collect(),
        Some(Value::String(path)) => vec![path],
        _ => Vec::new(),
    }
}

/// Whether a YAML or JSON text holds a `$ref` to another file of the catalog: anything but a
/// place in itself (`#/...`) or a remote document (`https://...`), which no change to the
/// catalog touches.
pub(crate) fn refers_to_files(text: &[u8]) -> bool {
    let text = String::from_utf8_lossy(text);
    text.match_indices("$ref").any(|(at, key)| {
        let value = text[at + key.len()..]
            .trim_start_matches(|c: char| c == '"' || c == '\'' || c == ':' || c.is_whitespace());
        let remote = ["http://", "https://"].iter().any(|scheme| {
            value
                .get(..scheme.len())
                .is_some_and(|start| start.eq_ignore_ascii_case(scheme))
        });
        !value.starts_with('#') && !remote
    })
}

/// A resource file's `version` as the SDK's sort of an id's versions sees it: only an id
/// whose versions mix semver with other text, or hold values that are not text, has no
/// consistent order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum VersionKind {
    #[default]
    Absent,
    Semver,
    OtherText,
    NotText,
}

impl VersionKind {
    pub(crate) fn of(version: Option<&Value>) -> VersionKind {
        match version {
            None => VersionKind::Absent,
            Some(Value::String(text)) if SemVer::parse(text).is_some() => VersionKind::Semver,
            Some(Value::String(_)) => VersionKind::OtherText,
            Some(_) => VersionKind::NotText,
        }
    }

    /// Its letter in [`Facts::encode`].
    fn letter(self) -> char {
        match self {
            VersionKind::Absent => '-',
            VersionKind::Semver => 's',
            VersionKind::OtherText => 't',
            VersionKind::NotText => 'n',
        }
    }

    fn from_letter(letter: u8) -> Option<VersionKind> {
        match letter {
            b'-' => Some(VersionKind::Absent),
            b's' => Some(VersionKind::Semver),
            b't' => Some(VersionKind::OtherText),
            b'n' => Some(VersionKind::NotText),
            _ => None,
        }
    }
}

/// How many of one id's resource files declare each [`VersionKind`] (by its position).
pub(crate) type VersionCounts = [usize; 4];

/// Whether the versions of one id, counted by kind, have no consistent order in the SDK's
/// sort: three or more of them (two are compared once, in any algorithm), mixing semver with
/// other text or holding values that are not text. Their place in the Index then depends on
/// every other resource of the catalog, so `build` warns of them and no cut of such a catalog
/// is faithful.
pub(crate) fn unordered(counts: &VersionCounts) -> bool {
    let [_, semver, text, not_text] = *counts;
    semver + text + not_text >= 3 && (semver > 0 && text > 0 || not_text > 0)
}

/// The field separator of [`Facts::encode`]; it, `\n` and `\\` are escaped inside fields.
const FIELD: char = '\t';

impl Facts {
    /// One line of the parse cache: `<flags> <count> <id> <mentions...> <schema paths...>`,
    /// tab-separated, where the flags say whether there is an id, whether it names files,
    /// whether one of them lies outside its folder and what kind of version it has, and the
    /// count is that of the mentions. A warm run decodes every resource file's facts: as
    /// JSON they took 1.7 times the instructions.
    pub(crate) fn encode(&self) -> String {
        let flags = [
            (self.id.is_some(), 'i'),
            (self.names_files, 'f'),
            (self.names_outside, 'o'),
            (self.has_specifications, 's'),
            (self.has_protobuf, 'p'),
        ];
        let mut out: String = flags
            .iter()
            .map(|&(set, flag)| if set { flag } else { '-' })
            .collect();
        out.push(self.version.letter());
        out.push(FIELD);
        out += &self.mentions.len().to_string();
        let fields = std::iter::once(self.id.as_deref().unwrap_or(""))
            .chain(self.mentions.iter().map(String::as_str))
            .chain(self.schema_paths.iter().map(String::as_str));
        for field in fields {
            out.push(FIELD);
            for c in field.chars() {
                match c {
                    '\\' => out += "\\\\",
                    FIELD => out += "\\t",
                    '\n' => out += "\\n",
                    c => out.push(c),
                }
            }
        }
        out
    }

    /// The facts [`Facts::encode`] wrote; `None` for any other text.
    pub(crate) fn decode(text: &str) -> Option<Facts> {
        let mut fields = text.split(FIELD);
        let flags = fields.next()?.as_bytes();
        let [id, files, outside, specifications, protobuf, version] = flags.try_into().ok()?;
        let set = |flag: u8, letter: u8| match flag {
            b'-' => Some(false),
            _ if flag == letter => Some(true),
            _ => None,
        };
        let (has_id, names_files, names_outside) =
            (set(id, b'i')?, set(files, b'f')?, set(outside, b'o')?);
        let (has_specifications, has_protobuf) = (set(specifications, b's')?, set(protobuf, b'p')?);
        let mentions: usize = fields.next()?.parse().ok()?;
        let id = unescape(fields.next()?)?;
        let mentions = fields
            .by_ref()
            .take(mentions)
            .map(unescape)
            .collect::<Option<BTreeSet<String>>>()
            .filter(|set| set.len() == mentions)?;
        Some(Facts {
            id: has_id.then_some(id),
            mentions,
            names_files,
            names_outside,
            has_specifications,
            has_protobuf,
            schema_paths: fields.map(unescape).collect::<Option<_>>()?,
            version: VersionKind::from_letter(version)?,
        })
    }
}

/// A field of [`Facts::encode`] as it was; `None` for an escape it never writes.
fn unescape(field: &str) -> Option<String> {
    if !field.contains('\\') {
        return Some(field.to_owned());
    }
    let mut out = String::with_capacity(field.len());
    let mut chars = field.chars();
    while let Some(c) = chars.next() {
        out.push(match c {
            '\\' => match chars.next()? {
                '\\' => '\\',
                't' => FIELD,
                'n' => '\n',
                _ => return None,
            },
            c => c,
        });
    }
    Some(out)
}

/// Every `id: <string>` below the top level: all pointer shapes, and some that are not
/// pointers, which only makes the reach larger.
fn collect_ids(value: &Value, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(id)) = map.get("id") {
                out.insert(id.clone());
            }
            map.values().for_each(|v| collect_ids(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_ids(v, out)),
        _ => {}
    }
}

fn collect_strings<'a>(value: Option<&'a Value>, out: &mut Vec<&'a str>) {
    match value {
        Some(Value::String(text)) => out.push(text),
        Some(Value::Array(items)) => items.iter().for_each(|v| collect_strings(Some(v), out)),
        Some(Value::Object(map)) => map.values().for_each(|v| collect_strings(Some(v), out)),
        _ => {}
    }
}

/// What the resource files of a catalog declare, point at and read, kept up to date along a
/// history.
#[derive(Default)]
pub struct Scope {
    facts: BTreeMap<String, Arc<Facts>>,
    /// The same, by id and by file, for a walk: it asks at every step. One change asks a few
    /// questions once, and scanning `facts` answers them for less than building these.
    indexes: Option<Indexes>,
    absent: Absent,
}

/// The schema files a catalog's resource files name but it lacks. They follow from the catalog
/// alone, so they are kept with its [`Summary`](super::build::Summary): the scope of a catalog
/// summed up before need not look for them among all its files again.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Absent {
    /// Named schema files the catalog does not have.
    pub missing: BTreeSet<String>,
    /// Resource files naming a schema path that leaves the catalog (never there).
    pub unplaceable: BTreeSet<String>,
}

impl Absent {
    /// What catalog `files` lacks of the schema files its `resource_files` name (`facts`,
    /// in the same order).
    fn find(
        files: &(impl Files + Sync),
        resource_files: &[(&str, &Blob)],
        facts: &[Arc<Facts>],
    ) -> Absent {
        // The schema files each names that the catalog lacks (`None`: one leaves the catalog).
        let lacking: Vec<Vec<Option<String>>> = resource_files
            .par_iter()
            .zip(facts)
            .map(|(&(path, _), facts)| {
                let mut named = schema_files(path, facts);
                named.retain(|file| file.as_ref().is_none_or(|file| files.blob(file).is_none()));
                named
            })
            .collect();
        let mut absent = Absent::default();
        for (&(path, _), lacking) in resource_files.iter().zip(lacking) {
            for file in lacking {
                match file {
                    Some(file) => absent.missing.insert(file),
                    None => absent.unplaceable.insert(path.to_owned()),
                };
            }
        }
        absent
    }
}

/// [`Scope::facts`] turned around.
#[derive(Default)]
struct Indexes {
    declared_by: FastMap<String, BTreeSet<String>>,
    pointed_at_by: FastMap<String, BTreeSet<String>>,
    /// Schema files (catalog paths) and the resource files naming them.
    schema_readers: FastMap<String, BTreeSet<String>>,
    /// The resource files that name files outside their own folder.
    outside_readers: BTreeSet<String>,
    /// The kinds of version each id is declared with, and how many ids are [`unordered`].
    versions: FastMap<String, VersionCounts>,
    unordered_ids: usize,
}

/// The part of the catalog a change can reach.
#[derive(Debug)]
pub struct Reach {
    /// The resource files inside the reach; their diagnostics are the ones the cut-down
    /// builds report faithfully.
    pub resource_files: BTreeSet<String>,
}

impl Reach {
    /// One side of the change (before or after it) cut down to the reach: the resource files
    /// with the files of their own folders, and the ignore file.
    pub fn cut(&self, side: &Before<'_>) -> FileSet {
        cut(side, &self.resource_files)
    }

    /// The resource files of catalog `files` declaring one of `ids`: a cut on them builds
    /// every resource with those ids.
    pub fn declaring(files: &Before<'_>, ids: &BTreeSet<&str>, cache: &ParseCache) -> Reach {
        let (paths, facts) = resource_facts(files, cache);
        let resource_files = paths
            .iter()
            .zip(&facts)
            .filter(|(_, facts)| facts.id.as_deref().is_some_and(|id| ids.contains(id)))
            .map(|(path, _)| (*path).to_owned())
            .collect();
        Reach { resource_files }
    }
}

/// Every id the resource files of catalog `files` declare.
pub fn declared_ids(files: &Before<'_>, cache: &ParseCache) -> BTreeSet<String> {
    let (_, facts) = resource_facts(files, cache);
    facts.iter().filter_map(|facts| facts.id.clone()).collect()
}

/// The resource files of catalog `files`, and their facts.
fn resource_facts<'a>(
    files: &'a Before<'_>,
    cache: &ParseCache,
) -> (Vec<&'a str>, Vec<Arc<Facts>>) {
    let resource_files: Vec<(&str, &Blob)> = files
        .files_from("")
        .filter(|(path, _)| is_resource_file(path))
        .collect();
    let facts = cache.facts(&resource_files);
    (
        resource_files.into_iter().map(|(path, _)| path).collect(),
        facts,
    )
}

/// Paths whose change can affect resources anywhere in the catalog. Assets (`components/`,
/// `public/`) are not among them: they reach only the Index's `assets`, which no diff reads,
/// and otherwise count as any file does (an `index.md` there is a candidate file).
fn is_global(path: &str) -> bool {
    const ROOTS: &[&str] = &["teams/", "users/", ".eventcatalog/"];
    path == ".eventcatalogignore" || ROOTS.iter().any(|root| path.starts_with(root))
}

/// A YAML, JSON, Avro or Protobuf file in a folder of the catalog (not at its root, where
/// `package.json` and the like live), which a specification may bundle or a schema import.
fn is_shared_document(path: &str) -> bool {
    path.contains('/')
        && [".yml", ".yaml", ".json", ".avsc", ".avro", ".proto"]
            .iter()
            .any(|extension| path.to_ascii_lowercase().ends_with(extension))
}

fn is_protobuf_file(path: &str) -> bool {
    path.to_ascii_lowercase().ends_with(".proto")
}

/// A reach wider than this share of the catalog's resource files is [`Scope::is_wide`] (unless
/// it is narrower than [`ALWAYS_CUT`] files, where the cut costs nothing either way).
const WIDEST_REACH: usize = 4;
const ALWAYS_CUT: usize = 32;

/// The most resource files a wide reach into a catalog of `resource_files` holds.
fn widest_reach(resource_files: usize) -> usize {
    (resource_files / WIDEST_REACH).max(ALWAYS_CUT)
}

impl Scope {
    /// The scope of a whole catalog, for one change; `absent` is what its files lack, when an
    /// earlier scope of the same catalog found it.
    pub fn new(files: &FileSet, cache: &ParseCache, absent: Option<&Absent>) -> Scope {
        Scope::of(files, cache, absent)
    }

    /// [`Scope::new`] of a catalog read through another one.
    pub fn of_before(files: &Before<'_>, cache: &ParseCache, absent: Option<&Absent>) -> Scope {
        Scope::of(files, cache, absent)
    }

    fn of(files: &(impl Files + Sync), cache: &ParseCache, absent: Option<&Absent>) -> Scope {
        let mut resource_files: Vec<(&str, &Blob)> = Vec::with_capacity(files.most());
        resource_files.extend(
            files
                .files_from("")
                .filter(|(path, _)| is_resource_file(path)),
        );
        let all_facts = cache.facts(&resource_files);
        let absent = absent
            .cloned()
            .unwrap_or_else(|| Absent::find(files, &resource_files, &all_facts));
        // In path order already: the map is built at once.
        let facts = resource_files
            .into_iter()
            .map(|(path, _)| path.to_owned())
            .zip(all_facts)
            .collect();
        Scope {
            facts,
            indexes: None,
            absent,
        }
    }

    /// What the catalog the scope is now at lacks.
    pub fn absent(&self) -> &Absent {
        &self.absent
    }

    /// This scope with its indexes, for a walk along a history.
    pub fn indexed(mut self) -> Scope {
        // The indexes by id and those by file are independent: built side by side.
        let (by_id, by_file) = rayon::join(
            || {
                let mut indexes = Indexes::default();
                for (path, facts) in &self.facts {
                    indexes.insert_ids(path, facts);
                }
                indexes
            },
            || {
                let mut indexes = Indexes::default();
                for (path, facts) in &self.facts {
                    indexes.insert_files(path, facts);
                }
                indexes
            },
        );
        self.indexes = Some(Indexes {
            declared_by: by_id.declared_by,
            pointed_at_by: by_id.pointed_at_by,
            versions: by_id.versions,
            unordered_ids: by_id.unordered_ids,
            ..by_file
        });
        self
    }

    /// Replaces what the scope knows of resource file `path` with `facts` (`None`: it is gone).
    fn set(&mut self, path: &str, facts: Option<Arc<Facts>>) {
        let old = self.facts.remove(path);
        self.absent.unplaceable.remove(path);
        if facts
            .as_ref()
            .is_some_and(|facts| schema_files(path, facts).contains(&None))
        {
            self.absent.unplaceable.insert(path.to_owned());
        }
        if let Some(indexes) = &mut self.indexes {
            if let Some(old) = &old {
                indexes.remove(path, old);
            }
            if let Some(facts) = &facts {
                indexes.insert_ids(path, facts);
                indexes.insert_files(path, facts);
            }
        }
        if let Some(facts) = facts {
            self.facts.insert(path.to_owned(), facts);
        }
    }

    /// True when some id of the catalog has versions with no consistent order ([`unordered`]).
    fn has_unordered_versions(&self) -> bool {
        if let Some(indexes) = &self.indexes {
            return indexes.unordered_ids > 0;
        }
        // Almost every catalog has semver versions only: one look at each file says so.
        let odd =
            |facts: &Facts| matches!(facts.version, VersionKind::OtherText | VersionKind::NotText);
        if !self.facts.values().any(|facts| odd(facts)) {
            return false;
        }
        let mut versions: FastMap<&str, VersionCounts> = FastMap::default();
        for facts in self.facts.values() {
            if let Some(id) = &facts.id {
                versions.entry(id).or_default()[facts.version as usize] += 1;
            }
        }
        versions.values().any(unordered)
    }

    /// The resource files whose facts pass `test`.
    fn scan(&self, test: impl Fn(&str, &Facts) -> bool) -> BTreeSet<String> {
        self.facts
            .iter()
            .filter(|(path, facts)| test(path, facts))
            .map(|(path, _)| path.clone())
            .collect()
    }

    /// The resource files declaring one of `ids`.
    fn declaring(&self, ids: &BTreeSet<String>) -> BTreeSet<String> {
        match &self.indexes {
            Some(indexes) => look_up(&indexes.declared_by, ids),
            None => self.scan(|_, facts| facts.id.as_ref().is_some_and(|id| ids.contains(id))),
        }
    }

    /// The resource files pointing at one of `ids`.
    fn pointing_at(&self, ids: &BTreeSet<String>) -> BTreeSet<String> {
        match &self.indexes {
            Some(indexes) => look_up(&indexes.pointed_at_by, ids),
            None => self.scan(|_, facts| !facts.mentions.is_disjoint(ids)),
        }
    }

    /// The resource files naming one of schema files `files`.
    fn reading(&self, files: &BTreeSet<String>) -> BTreeSet<String> {
        match &self.indexes {
            Some(indexes) => look_up(&indexes.schema_readers, files),
            None if files.is_empty() => BTreeSet::new(),
            None => self.scan(|path, facts| {
                schema_files(path, facts)
                    .iter()
                    .flatten()
                    .any(|file| files.contains(file))
            }),
        }
    }

    /// Those of `files` that a resource file names as a schema file.
    fn named(&self, files: &BTreeSet<String>) -> BTreeSet<String> {
        match &self.indexes {
            Some(indexes) => files
                .iter()
                .filter(|file| indexes.schema_readers.contains_key(*file))
                .cloned()
                .collect(),
            None if files.is_empty() => BTreeSet::new(),
            None => self
                .facts
                .iter()
                .flat_map(|(path, facts)| schema_files(path, facts).into_iter().flatten())
                .filter(|file| files.contains(file))
                .collect(),
        }
    }

    /// Whether a resource has Protobuf schemas, which may import a `.proto` in any folder.
    fn has_protobuf(&self) -> bool {
        self.facts.values().any(|facts| facts.has_protobuf)
    }

    /// Whether a specification of the catalog `after` the change `$ref`s a file of the catalog,
    /// which may lie in any folder.
    fn specifications_refer_to_files(&self, after: &FileSet, cache: &ParseCache) -> bool {
        let mut with_specifications = self
            .facts
            .iter()
            .filter(|(_, facts)| facts.has_specifications);
        with_specifications.any(|(resource, _)| {
            let Some(blob) = after.get(resource) else {
                return false;
            };
            let parsed = cache.front_matter(resource, blob);
            let Ok(front_matter) = parsed.as_ref() else {
                return false;
            };
            let folder = resource.rsplit_once('/').map_or("", |(folder, _)| folder);
            specification_paths(front_matter).into_iter().any(|named| {
                // A specification outside the catalog cannot be read: nothing to follow.
                super::build::join(folder, named)
                    .and_then(|file| after.get(&file).map(|blob| cache.refers_to_files(blob)))
                    .unwrap_or(false)
            })
        })
    }

    /// The resource files that name files outside their own folder.
    fn outside_readers(&self) -> BTreeSet<String> {
        match &self.indexes {
            Some(indexes) => indexes.outside_readers.clone(),
            None => self.scan(|_, facts| facts.names_outside),
        }
    }

    /// Brings what the scope knows is absent up to date with `after` once `changes` are
    /// applied, and returns the resource files naming a schema file that either side lacks. The
    /// diff reports such a file as a changed schema without a verdict on every diff, as the
    /// reference does, so every reach holds them.
    fn update_missing(
        &mut self,
        after: &FileSet,
        changes: &BTreeMap<String, Option<Blob>>,
        changed: &BTreeSet<String>,
    ) -> BTreeSet<String> {
        let missing_before = std::mem::take(&mut self.absent.missing);
        let mut absent: BTreeSet<String> = missing_before.clone();
        absent.extend(
            changes
                .keys()
                .filter(|path| after.get(path).is_none())
                .cloned(),
        );
        for path in changed {
            if let Some(facts) = self.facts.get(path) {
                absent.extend(schema_files(path, facts).into_iter().flatten());
            }
        }
        absent.retain(|file| after.get(file).is_none());
        self.absent.missing = self.named(&absent);
        let mut either = missing_before;
        either.extend(self.absent.missing.iter().cloned());
        let mut readers = self.absent.unplaceable.clone();
        readers.extend(self.reading(&either));
        readers
    }

    /// True when `reach` holds more than a quarter of the catalog's resource files. Building
    /// the two cuts then costs about what building both sides whole does, and a single diff
    /// builds one side whole besides; a walk, which builds each commit's catalog once, still
    /// gains by the cut.
    pub fn is_wide(&self, reach: &Reach) -> bool {
        reach.resource_files.len() > widest_reach(self.facts.len())
    }

    /// Moves the scope to `after` (the catalog once `changes` are applied; `changes` maps each
    /// changed path to its blob before) and returns the reach of the change, or `None` when
    /// the whole catalog must be built.
    pub fn reach(
        &mut self,
        after: &FileSet,
        changes: &BTreeMap<String, Option<Blob>>,
        cache: &ParseCache,
    ) -> Option<Reach> {
        let before = Before { after, changes };
        // Changed resource files, and the resources that may read a changed file: the one
        // whose folder holds it and those above that name schema or specification files.
        let changed: BTreeSet<String> = changes
            .keys()
            .filter(|p| is_resource_file(p))
            .cloned()
            .collect();
        // A change to more than a quarter of the resource files (of the catalog after it, which
        // has at most this many more) is built whole, so its readers are not looked for: the
        // cut would be wide, and a root commit changes every file. The facts below are kept
        // up to date all the same.
        let too_wide = changed.len() > widest_reach(self.facts.len() + changed.len());
        // Whether the SDK fails on an index file no type takes depends on the whole catalog
        // holding a resource, which a cut may not (see `Builder::parse_all`).
        let untyped_broken = changed.iter().any(|path| {
            !is_typed_resource_file(path)
                && [before.get(path), after.get(path)]
                    .into_iter()
                    .flatten()
                    .any(|blob| cache.front_matter(path, blob).is_err())
        });
        // So does a change that gives the catalog its first resource, or takes its last.
        let typed_flip = changed.iter().any(|path| {
            is_typed_resource_file(path) && before.get(path).is_some() != after.get(path).is_some()
        }) && !(self.facts.keys())
            .any(|path| is_typed_resource_file(path) && !changed.contains(path));
        let mut unreachable =
            too_wide || untyped_broken || typed_flip || self.has_unordered_versions();
        let mut readers = BTreeSet::new();
        let mut other_files = false;
        // Asked once per change, and only of a change to a document.
        let mut specifications_refer: Option<bool> = None;
        for path in changes.keys().filter(|_| !too_wide) {
            if is_global(path) {
                unreachable = true;
            } else if !is_resource_file(path) {
                other_files = true;
                // A file below no resource (a config file, a shared schema) reaches only the
                // resources naming files outside their folder, which are added below.
                let above = resource_files_above(path, &before, after);
                // A specification anywhere may bundle a shared document by a relative `$ref`,
                // and a Protobuf schema import a shared `.proto`, which no front matter names:
                // such a file reaches everywhere. So does one in a resource's folder that an
                // import or a `$ref` from another folder may name.
                if is_shared_document(path) {
                    let imported = || is_protobuf_file(path) && self.has_protobuf();
                    let mut referred = || {
                        *specifications_refer
                            .get_or_insert_with(|| self.specifications_refer_to_files(after, cache))
                    };
                    if above.is_empty() || imported() || referred() {
                        unreachable = true;
                    }
                }
                let nearest = above.first().cloned();
                readers.extend(nearest);
                readers.extend(
                    above
                        .into_iter()
                        .filter(|r| self.facts.get(r).is_some_and(|f| f.names_files)),
                );
            }
        }
        if other_files {
            readers.extend(self.outside_readers());
        }

        // The ids and pointers of the changed files before, then after, the change.
        let mut ids = BTreeSet::new();
        let mut mentions = BTreeSet::new();
        let mut note = |scope: &Scope, files: &BTreeSet<String>, with_mentions: bool| {
            for facts in files.iter().filter_map(|f| scope.facts.get(f)) {
                ids.extend(facts.id.clone());
                if with_mentions {
                    mentions.extend(facts.mentions.iter().cloned());
                }
            }
        };
        note(self, &changed, true);
        let present: Vec<(&str, &Blob)> = changed
            .iter()
            .filter_map(|path| Some((path.as_str(), after.get(path)?)))
            .collect();
        let mut facts: BTreeMap<&str, Arc<Facts>> = present
            .iter()
            .map(|(path, _)| *path)
            .zip(cache.facts(&present))
            .collect();
        for path in &changed {
            self.set(path, facts.remove(path.as_str()));
        }
        // Kept up to date even when this change is built whole: the next step starts from it.
        let missing_readers = self.update_missing(after, changes, &changed);
        if unreachable || self.has_unordered_versions() {
            return None;
        }
        note(self, &changed, true);
        note(self, &readers, false);

        let mut reach: BTreeSet<String> = changed.union(&readers).cloned().collect();
        reach.extend(missing_readers);
        reach.extend(self.pointing_at(&ids));
        ids.extend(mentions);
        reach.extend(self.declaring(&ids));
        // Content paths are looked up by id (§4.2): every resource in the reach brings the
        // others with its id.
        let same_ids: BTreeSet<String> = reach
            .iter()
            .filter_map(|r| self.facts.get(r)?.id.clone())
            .collect();
        reach.extend(self.declaring(&same_ids));
        Some(Reach {
            resource_files: reach,
        })
    }
}

impl Indexes {
    /// Records the ids resource file `path` declares and points at.
    fn insert_ids(&mut self, path: &str, facts: &Facts) {
        if let Some(id) = &facts.id {
            add(&mut self.declared_by, id, path);
            self.count_version(id, facts.version, true);
        }
        for id in &facts.mentions {
            add(&mut self.pointed_at_by, id, path);
        }
    }

    /// Records the files resource file `path` names.
    fn insert_files(&mut self, path: &str, facts: &Facts) {
        if facts.names_outside {
            self.outside_readers.insert(path.to_owned());
        }
        for file in schema_files(path, facts).into_iter().flatten() {
            add(&mut self.schema_readers, &file, path);
        }
    }

    /// Counts (or, not `added`, uncounts) a file declaring `id` with a version of `kind`.
    fn count_version(&mut self, id: &str, kind: VersionKind, added: bool) {
        let counts = match self.versions.get_mut(id) {
            Some(counts) => counts,
            None => self.versions.entry(id.to_owned()).or_default(),
        };
        let was = unordered(counts);
        let count = &mut counts[kind as usize];
        *count = if added {
            *count + 1
        } else {
            count.saturating_sub(1)
        };
        let now = unordered(counts);
        if counts.iter().all(|&n| n == 0) {
            self.versions.remove(id);
        }
        self.unordered_ids = self.unordered_ids + usize::from(now) - usize::from(was);
    }

    /// Forgets what resource file `path` said with `facts`.
    fn remove(&mut self, path: &str, facts: &Facts) {
        self.outside_readers.remove(path);
        if let Some(id) = &facts.id {
            remove(&mut self.declared_by, id, path);
            self.count_version(id, facts.version, false);
        }
        for id in &facts.mentions {
            remove(&mut self.pointed_at_by, id, path);
        }
        for file in schema_files(path, facts).into_iter().flatten() {
            remove(&mut self.schema_readers, &file, path);
        }
    }
}

/// The catalog paths of the schema files resource file `path` names (`None`: one leaves the
/// catalog).
fn schema_files(path: &str, facts: &Facts) -> Vec<Option<String>> {
    let folder = path.rsplit_once('/').map_or("", |(folder, _)| folder);
    facts
        .schema_paths
        .iter()
        .map(|named| super::build::join(folder, named))
        .collect()
}

/// The paths `map` holds under any of `keys`.
fn look_up(map: &FastMap<String, BTreeSet<String>>, keys: &BTreeSet<String>) -> BTreeSet<String> {
    keys.iter()
        .filter_map(|key| map.get(key))
        .flatten()
        .cloned()
        .collect()
}

fn add(map: &mut FastMap<String, BTreeSet<String>>, id: &str, path: &str) {
    match map.get_mut(id) {
        Some(paths) => {
            paths.insert(path.to_owned());
        }
        None => {
            map.insert(id.to_owned(), BTreeSet::from([path.to_owned()]));
        }
    }
}

fn remove(map: &mut FastMap<String, BTreeSet<String>>, id: &str, path: &str) {
    if let Some(paths) = map.get_mut(id) {
        paths.remove(path);
        if paths.is_empty() {
            map.remove(id);
        }
    }
}

/// The files of one side, as far as cutting a reach needs them.
trait Files {
    fn blob(&self, path: &str) -> Option<&Blob>;
    /// The files at or after path `from`, in order.
    fn files_from<'a>(&'a self, from: &str) -> impl Iterator<Item = (&'a str, &'a Blob)>;
    /// At least as many as there are files: room to list them all at once.
    fn most(&self) -> usize;
}

impl Files for FileSet {
    fn blob(&self, path: &str) -> Option<&Blob> {
        self.get(path)
    }
    fn files_from<'a>(&'a self, from: &str) -> impl Iterator<Item = (&'a str, &'a Blob)> {
        range_from(&self.files, from).map(|(path, blob)| (path.as_str(), blob))
    }
    fn most(&self) -> usize {
        self.files.len()
    }
}

impl Files for Before<'_> {
    fn blob(&self, path: &str) -> Option<&Blob> {
        self.get(path)
    }
    fn most(&self) -> usize {
        self.after.files.len() + self.changes.len()
    }
    /// The catalog after the change and the changed paths merged in one pass: a changed
    /// path shows its blob before (or nothing, where it did not exist).
    fn files_from<'a>(&'a self, from: &str) -> impl Iterator<Item = (&'a str, &'a Blob)> {
        let mut after = range_from(&self.after.files, from).peekable();
        let mut changes = range_from(self.changes, from).peekable();
        std::iter::from_fn(move || {
            loop {
                let changed = match (after.peek(), changes.peek()) {
                    (None, None) => return None,
                    (Some(_), None) => false,
                    (Some((a, _)), Some((c, _))) if a < c => false,
                    (Some((a, _)), Some((c, _))) => {
                        if a == c {
                            after.next();
                        }
                        true
                    }
                    (None, Some(_)) => true,
                };
                if !changed {
                    return after.next().map(|(path, blob)| (path.as_str(), blob));
                }
                if let Some((path, Some(blob))) = changes.next() {
                    return Some((path.as_str(), blob));
                }
            }
        })
    }
}

/// The entries of `map` from key `from` on, in order.
fn range_from<'a, V>(
    map: &'a BTreeMap<String, V>,
    from: &str,
) -> std::collections::btree_map::Range<'a, String, V> {
    use std::ops::Bound;
    map.range::<str, _>((Bound::Included(from), Bound::Unbounded))
}

/// The resource files in the folders above `path`, on either side.
fn resource_files_above(path: &str, before: &impl Files, after: &impl Files) -> Vec<String> {
    let mut found = Vec::new();
    let mut dir = path;
    while let Some(slash) = dir.rfind('/') {
        dir = &dir[..slash];
        push_resource_files(dir, before, after, &mut found);
    }
    push_resource_files("", before, after, &mut found);
    found
}

fn push_resource_files(dir: &str, before: &impl Files, after: &impl Files, out: &mut Vec<String>) {
    for name in ["index.md", "index.mdx"] {
        let path = folder_path(dir, name);
        if is_resource_file(&path) && (before.blob(&path).is_some() || after.blob(&path).is_some())
        {
            out.push(path);
        }
    }
}

fn folder_path(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_owned()
    } else {
        format!("{dir}/{name}")
    }
}

/// The resource files of `reach` with the files of their own folders (nested folders that
/// hold a resource of their own excluded), plus the ignore file.
fn cut(files: &impl Files, reach: &BTreeSet<String>) -> FileSet {
    let mut out = FileSet::default();
    // Folders found to hold no resource file: the paths below one come one after another.
    let mut plain = FastSet::default();
    if let Some(blob) = files.blob(".eventcatalogignore") {
        out.files
            .insert(".eventcatalogignore".to_owned(), blob.clone());
    }
    for resource in reach {
        let dir = resource.rsplit_once('/').map_or("", |(dir, _)| dir);
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        // Paths come in order, so a nested resource folder is stepped over whole: the walk
        // starts again at its name followed by '0' ('/' + 1).
        let mut from = prefix.clone();
        loop {
            let mut nested = None;
            for (path, blob) in files.files_from(&from) {
                if !path.starts_with(&prefix) {
                    break;
                }
                nested = nested_resource_folder(path, prefix.len(), files, &mut plain);
                if nested.is_some() {
                    break;
                }
                out.files.insert(path.to_owned(), blob.clone());
            }
            match nested {
                Some(folder) => from = format!("{folder}0"),
                None => break,
            }
        }
    }
    out
}

/// The sub-folder below `prefix` (the first `below` bytes of `path`) that holds a resource
/// file and that `path` lies in, if any. Probes through one buffer, past the folders in
/// `plain` (known to hold none, and extended here): a cut asks this of every path it meets.
fn nested_resource_folder<'a>(
    path: &'a str,
    below: usize,
    files: &impl Files,
    plain: &mut FastSet<&'a str>,
) -> Option<&'a str> {
    let mut probe = String::with_capacity(path.len() + "/index.mdx".len());
    let mut end = below;
    while let Some(slash) = path[end..].find('/') {
        end += slash;
        let dir = &path[..end];
        if !plain.contains(dir) {
            for name in ["/index.md", "/index.mdx"] {
                probe.clear();
                probe.push_str(dir);
                probe.push_str(name);
                if files.blob(&probe).is_some() {
                    return Some(dir);
                }
            }
            plain.insert(dir);
        }
        end += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::BlobId;

    fn blob(n: u8) -> Blob {
        Blob::new(BlobId([n; 20]), Arc::from(&b""[..]))
    }

    /// Facts read back from the cache as they were written, whatever their text holds
    /// (tabs, newlines, backslashes, empty strings), with an id or without one.
    #[test]
    fn facts_read_back_as_written() {
        let texts = [
            "",
            "a",
            "\t",
            "\n",
            "\\",
            "\\t",
            "a\tb\nc\\d",
            "é\u{1b}\r",
            "-",
            "0",
        ];
        let owned = |texts: &[&str]| texts.iter().map(|t| t.to_string()).collect::<Vec<_>>();
        let mut cases = vec![Facts::default()];
        for (n, text) in texts.iter().enumerate() {
            cases.push(Facts {
                id: (n % 2 == 0).then(|| text.to_string()),
                mentions: owned(&texts[..n]).into_iter().collect(),
                names_files: n % 3 == 0,
                names_outside: n % 4 == 0,
                has_specifications: n % 5 == 0,
                has_protobuf: n % 2 == 1,
                schema_paths: owned(&texts[n..]),
                version: [
                    VersionKind::Absent,
                    VersionKind::Semver,
                    VersionKind::OtherText,
                    VersionKind::NotText,
                ][n % 4],
            });
        }
        for facts in cases {
            let line = facts.encode();
            assert!(!line.contains('\n'), "{line:?} is one line");
            assert_eq!(Facts::decode(&line), Some(facts), "{line:?}");
        }
    }

    /// A `$ref` to a place in the same document is no file; any other is, in YAML and JSON.
    #[test]
    fn a_specification_refers_to_files_by_any_ref_outside_itself() {
        for text in [
            "$ref: '#/components/schemas/Order'",
            "{\"$ref\": \"#/definitions/a\"}",
            "$ref: 'https://example.com/a.yaml#/Order'",
            "a: 1",
        ] {
            assert!(!refers_to_files(text.as_bytes()), "{text}");
        }
        for text in [
            "$ref: '../../events/E/schema.json'",
            "{\"$ref\" : \"./body.json#/a\"}",
        ] {
            assert!(refers_to_files(text.as_bytes()), "{text}");
        }
    }

    #[test]
    fn specification_paths_in_each_shape() {
        let value = |text: &str| serde_json::from_str::<Value>(text).unwrap();
        let shapes = [
            (
                r#"{"specifications": {"openapiPath": "o.yml", "asyncapiPath": "a.yml"}}"#,
                2,
            ),
            (
                r#"{"specifications": [{"type": "openapi", "path": "o.yml"}, "a.yml"]}"#,
                2,
            ),
            (r#"{"specifications": "o.yml"}"#, 1),
            (r#"{"id": "S"}"#, 0),
        ];
        for (text, count) in shapes {
            assert_eq!(specification_paths(&value(text)).len(), count, "{text}");
        }
    }

    /// What an earlier scope of a catalog found it lacks is taken as it is, not searched for
    /// again; without it, the catalog's files are searched.
    #[test]
    fn a_scope_takes_what_a_catalog_lacks_when_it_is_known() {
        let mut files = FileSet::default();
        files.files.insert(
            "events/E/index.mdx".to_owned(),
            Blob::new(
                BlobId([1; 20]),
                Arc::from(&b"---\nid: E\nschemaPath: schema.json\n---\n"[..]),
            ),
        );
        let cache = ParseCache::default();
        let found = Scope::new(&files, &cache, None).absent().clone();
        assert_eq!(
            found.missing,
            BTreeSet::from(["events/E/schema.json".to_owned()])
        );
        let known = Absent::default();
        assert_eq!(Scope::new(&files, &cache, Some(&known)).absent(), &known);
    }

    /// Three or more versions of one id mixing semver with other text, or holding a value
    /// that is not text, have no order; fewer, or of one kind, do.
    #[test]
    fn only_versions_of_mixed_kinds_have_no_order() {
        // [absent, semver, other text, not text]
        for ordered in [
            [0, 5, 0, 0],
            [0, 0, 5, 0],
            [0, 1, 1, 0],
            [0, 0, 1, 1],
            [9, 1, 1, 0],
        ] {
            assert!(!unordered(&ordered), "{ordered:?}");
        }
        for unordered_counts in [[0, 2, 1, 0], [0, 1, 2, 0], [0, 0, 2, 1], [0, 3, 0, 1]] {
            assert!(unordered(&unordered_counts), "{unordered_counts:?}");
        }
    }

    /// A facts payload of any other shape is not used (the file is then parsed afresh).
    #[test]
    fn facts_of_another_shape_are_not_read() {
        for text in [
            "",
            "i-",
            "x-----\t0\t",
            "i----\t0\tE",
            "i----x\t0\tE",
            "i--p--\t0\tE",
            "i-----\tone\tE",
            "i-----\t2\tE\ta",
            "i-----\t2\tE\ta\ta",
            "i-----\t0\tE\\",
            "i-----\t0\tE\\x",
            r#"{"id":"E","mentions":[],"names_files":false,"names_outside":false,"schema_paths":[]}"#,
        ] {
            assert_eq!(Facts::decode(text), None, "{text:?}");
        }
        assert!(Facts::decode("i----s\t0\tE").is_some());
    }

    /// A broken index file that no type takes fails the SDK only in a catalog holding a
    /// resource, which its cut may lack: its change is built whole.
    #[test]
    fn a_broken_untyped_index_file_is_built_whole() {
        let file =
            |n: u8, text: &'static str| Blob::new(BlobId([n; 20]), Arc::from(text.as_bytes()));
        let mut after = FileSet::default();
        after.files.insert(
            "events/E/index.mdx".to_owned(),
            file(1, "---\nid: E\n---\n"),
        );
        after
            .files
            .insert("docs/g/index.mdx".to_owned(), file(2, "---\na: [\n---\n"));
        let cache = ParseCache::default();
        let mut scope = Scope::new(&after, &cache, None);
        let changed = |path: &str, n: u8| {
            BTreeMap::from([(path.to_owned(), Some(file(n, "---\na: 1\n---\n")))])
        };
        assert!(
            scope
                .reach(&after, &changed("docs/g/index.mdx", 3), &cache)
                .is_none()
        );
        assert!(
            scope
                .reach(&after, &changed("events/E/index.mdx", 4), &cache)
                .is_some()
        );
    }

    /// The first resource of a catalog of teams and users makes the SDK read its other index
    /// files, which its cut lacks (a broken one fails the whole build): built whole.
    #[test]
    fn a_first_resource_beside_untyped_index_files_is_built_whole() {
        let file =
            |n: u8, text: &'static str| Blob::new(BlobId([n; 20]), Arc::from(text.as_bytes()));
        let mut catalog = FileSet::default();
        catalog
            .files
            .insert("docs/g/index.mdx".to_owned(), file(2, "---\na: [\n---\n"));
        let cache = ParseCache::default();
        let mut scope = Scope::new(&catalog, &cache, None);
        let event = "events/E/index.mdx".to_owned();
        catalog
            .files
            .insert(event.clone(), file(1, "---\nid: E\n---\n"));
        let added = BTreeMap::from([(event.clone(), None)]);
        assert!(scope.reach(&catalog, &added, &cache).is_none());
        // A second resource changes nothing of that.
        let second = "events/F/index.mdx".to_owned();
        catalog
            .files
            .insert(second.clone(), file(3, "---\nid: F\n---\n"));
        let added = BTreeMap::from([(second, None)]);
        assert!(scope.reach(&catalog, &added, &cache).is_some());
    }

    /// The merged walk of a catalog and its changes lists what the catalog before the change
    /// holds: changed paths with their earlier blob, added paths gone, removed paths back.
    #[test]
    fn files_from_a_view_before_a_change_equals_that_catalog() {
        let mut after = FileSet::default();
        for (n, path) in ["a/index.md", "a/new.json", "b/kept.json", "b/x.json", "d"]
            .into_iter()
            .enumerate()
        {
            after.files.insert(path.to_owned(), blob(n as u8));
        }
        let changes: BTreeMap<String, Option<Blob>> = [
            ("a/new.json", None),            // added by the change
            ("b/x.json", Some(blob(20))),    // modified
            ("b/gone.json", Some(blob(21))), // removed
            ("c/gone.json", Some(blob(22))), // removed, between unchanged paths
            ("e/last.json", Some(blob(23))), // removed, after every path of `after`
        ]
        .into_iter()
        .map(|(path, blob)| (path.to_owned(), blob))
        .collect();
        let view = Before {
            after: &after,
            changes: &changes,
        };
        let catalog = view.to_file_set(&BTreeMap::new());
        for from in ["", "a/", "b/", "b/x.json", "c", "z"] {
            let walked: Vec<(&str, BlobId)> =
                view.files_from(from).map(|(p, b)| (p, b.id)).collect();
            let expected: Vec<(&str, BlobId)> =
                catalog.files_from(from).map(|(p, b)| (p, b.id)).collect();
            assert_eq!(walked, expected, "from {from:?}");
        }
    }
}
