//! (baseline Index, candidate Index, Options) -> ArchitectureDiff, with the semantics of the
//! `@eventcatalog/diff` README: resources, edges, schema changes (judged in parallel, verdicts
//! cached by content), impact and summary. Pure: no git, no filesystem.
//!
//! Lists are in the reference's order: resources sorted by type and id (`localeCompare`) then
//! version (oldest first), schema changes in the baseline Index's message order (per message:
//! same versions oldest first, then the latest pair), impact as `impact.rs` says. A resource's
//! latest version is the reference's (`valid`, else `coerce`, else text). An in-place bump (the
//! latest version replaced by a newer one) is a `changed` resource, never a removed one, so it
//! raises no `message_removed`.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;
use serde_json::{Map, Value};

use super::impact::{self, Graph};
use super::order::{compare_versions, locale_cmp};
use super::specification::{SpecificationSummary, specification_changes};
use super::*;
use crate::catalog::version::js_sort_by;
use crate::catalog::{Diagnostic, Index, Resource, Severity};
use crate::schema::format::StandIn;
use crate::schema::{self, Document, Files, Format, Strategy, Verdict};

pub const MESSAGE_TYPES: &[&str] = &["event", "command", "query"];

#[derive(Clone, Debug, Default)]
pub struct Options {
    pub strategy: Strategy,
    /// Copy the raw before/after schema text onto each schema change.
    pub include_schema_content: bool,
    /// Strategies set per message id (`[messages."id"]` in the configuration), which win over
    /// `strategy` for that message's schema changes.
    pub message_strategies: BTreeMap<String, Strategy>,
    /// Strategy-independent schema knobs (which buf category judges Protobuf).
    pub schema: schema::Options,
}

impl Options {
    /// The strategy a message's schema changes are judged under.
    pub fn strategy_for(&self, message_id: &str) -> Strategy {
        self.message_strategies
            .get(message_id)
            .copied()
            .unwrap_or(self.strategy)
    }
}

/// Verdicts keyed by the two schema entries (hash, declared format and path: the same text
/// is another format under another name) and the strategy and schema options: a history walk
/// judges each pair of schema contents once. A format that imports other files (Protobuf)
/// records what it read on each side, and a verdict is reused only where those files read
/// the same again.
#[derive(Default)]
pub struct VerdictCache {
    verdicts: Mutex<HashMap<VerdictKey, Vec<Cached>>>,
}

type VerdictKey = ([EntryKey; 2], Strategy, schema::Options);

/// What of a schema entry its verdict depends on: its hash, declared format and path.
type EntryKey = (String, Option<String>, String);

/// One cached verdict and the imports it was judged with.
#[derive(Clone)]
struct Cached {
    reads: [Reads; 2],
    judgement: Judgement,
}

/// Files a comparison read on one side, with what it found.
type Reads = Vec<(String, Option<Arc<[u8]>>)>;

/// A side's files, recording every read so the cache can tell when imports change.
struct Recording<'a> {
    files: Option<&'a dyn Files>,
    reads: Mutex<Reads>,
}

impl<'a> Recording<'a> {
    fn new(files: Option<&'a dyn Files>) -> Self {
        Recording {
            files,
            reads: Mutex::new(Vec::new()),
        }
    }

    fn into_reads(self) -> Reads {
        self.reads.into_inner().unwrap_or_else(|p| p.into_inner())
    }
}

impl Files for Recording<'_> {
    fn read(&self, path: &str) -> Option<Arc<[u8]>> {
        let found = self.files.and_then(|files| files.read(path));
        self.reads
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push((path.to_owned(), found.clone()));
        found
    }
}

/// Whether `files` still holds what `reads` found.
fn reads_again(reads: &Reads, files: Option<&dyn Files>) -> bool {
    reads.iter().all(|(path, found)| {
        let now = files.and_then(|files| files.read(path));
        now.as_deref() == found.as_deref()
    })
}

#[derive(Clone, Debug)]
enum Judgement {
    /// A verdict, and a warning for each side's file read with U+FFFD (not UTF-8 text).
    Judged(Verdict, Vec<SideDiagnostic>),
    Unknown(String),
    /// Unknown because the schema file is in neither catalog: why, as for [`Judgement::Unknown`].
    InNeither(String),
    /// Unknown because a side's file does not compile: the reason, and the problem of each
    /// side that does not as a diagnostic of that side, pointing at the file and line.
    Invalid(String, Vec<SideDiagnostic>),
}

/// Diffs baseline `a` against candidate `b`.
pub fn diff(a: &Index, b: &Index, options: &Options) -> ArchitectureDiff {
    diff_cached(a, b, options, &VerdictCache::default())
}

pub fn diff_cached(
    a: &Index,
    b: &Index,
    options: &Options,
    cache: &VerdictCache,
) -> ArchitectureDiff {
    let (a, b) = rayon::join(|| Prepared::new(a), || Prepared::new(b));
    diff_prepared(&a, &b, options, cache)
}

/// [`diff_cached`] with the files of each side at hand, so schemas that import other files
/// (Protobuf) resolve them in their own revision.
pub fn diff_with_files(
    a: (&Index, &dyn Files),
    b: (&Index, &dyn Files),
    options: &Options,
    cache: &VerdictCache,
) -> ArchitectureDiff {
    let (a, b) = rayon::join(
        || Prepared::new(a.0).with_files(a.1),
        || Prepared::new(b.0).with_files(b.1),
    );
    diff_prepared(&a, &b, options, cache)
}

/// One side of a diff with its resources grouped and its graph resolved, so a history walk
/// does that once per commit and uses the result as candidate and then as baseline.
pub struct Prepared<'a> {
    pub(super) index: &'a Index,
    side: Side<'a>,
    pub(super) graph: Graph<'a>,
    /// The side's catalog files, where schema imports and specifications are read (none: only
    /// built-in imports resolve, and a changed specification gets no verdict).
    pub(super) files: Option<&'a dyn Files>,
}

impl<'a> Prepared<'a> {
    pub fn new(index: &'a Index) -> Self {
        Prepared {
            index,
            side: Side::new(index),
            graph: Graph::new(index),
            files: None,
        }
    }

    /// The same side, resolving schema imports in `files` (the catalog it was built from).
    pub fn with_files(self, files: &'a dyn Files) -> Self {
        Prepared {
            files: Some(files),
            ..self
        }
    }
}

/// [`diff_cached`] on sides prepared beforehand.
pub fn diff_prepared(
    a: &Prepared<'_>,
    b: &Prepared<'_>,
    options: &Options,
    cache: &VerdictCache,
) -> ArchitectureDiff {
    let (side_a, side_b) = (&a.side, &b.side);
    let resources = resource_changes(side_a, side_b);
    let edges = impact::edge_changes(&a.graph, &b.graph);
    let files = [a.files, b.files];
    let (schema_changes, diagnostics) = schema_changes(side_a, side_b, files, options, cache);
    let transitive_checks = transitive_checks(side_b, &schema_changes, files, options, cache);
    let impact = impact::impact(
        &a.graph,
        &schema_changes,
        &resources.removed,
        &edges.removed,
    );
    let specification_changes = specification_changes(a, b, options.strategy, &options.schema);
    let (a, b) = (a.index, b.index);

    let mut summary = summarize(&resources, &edges, &schema_changes, &impact);
    summary.specifications = SpecificationSummary::of(&specification_changes);
    ArchitectureDiff {
        schema_version: 1,
        refs: Refs {
            a: Ref {
                source: a.source.clone(),
                commit: a.commit.clone(),
            },
            b: Ref {
                source: b.source.clone(),
                commit: b.commit.clone(),
            },
        },
        compatibility: Compatibility {
            strategy: options.strategy,
        },
        summary,
        resources,
        edges,
        schema_changes,
        impact,
        transitive_checks,
        specification_changes,
        diagnostics,
        policy: None,
    }
}

/// The summary of a diff's parts: used by [`diff_cached`] and again for any filtered view of a
/// diff, so the two cannot count differently.
pub fn summarize(
    resources: &ResourceChanges,
    edges: &EdgeChanges,
    schema_changes: &[SchemaChange],
    impact: &[Impact],
) -> Summary {
    let schema_breaking = schema_changes
        .iter()
        .filter(|c| c.breaking == Some(true))
        .count();
    Summary {
        breaking: schema_breaking > 0
            || impact
                .iter()
                .any(|i| i.reason == ImpactReason::MessageRemoved),
        resources_added: resources.added.len(),
        resources_removed: resources.removed.len(),
        resources_changed: resources.changed.len(),
        edges_added: edges.added.len(),
        edges_removed: edges.removed.len(),
        schema_changes: schema_changes.len(),
        schema_breaking,
        schema_unknown: schema_changes
            .iter()
            .filter(|c| c.breaking.is_none())
            .count(),
        specifications: None,
    }
}

/// One side's resources grouped by (type, id): keys in the order the Index first lists them,
/// versions in Index order.
pub(super) struct Side<'a> {
    keys: Vec<(&'a str, &'a str)>,
    groups: HashMap<(&'a str, &'a str), Vec<&'a Resource>>,
}

impl<'a> Side<'a> {
    fn new(index: &'a Index) -> Self {
        let mut keys = Vec::new();
        let mut groups: HashMap<(&'a str, &'a str), Vec<&'a Resource>> = HashMap::new();
        for resource in &index.resources {
            let key = (resource.kind(), resource.id_text());
            groups
                .entry(key)
                .or_insert_with(|| {
                    keys.push(key);
                    Vec::new()
                })
                .push(resource);
        }
        Side { keys, groups }
    }

    fn versions<'k>(&'k self, key: &(&'k str, &'k str)) -> &'k [&'a Resource] {
        // The keys are borrowed strings, so shorten their lifetime to the lookup key's.
        let groups: &HashMap<(&'k str, &'k str), Vec<&'a Resource>> = &self.groups;
        groups.get(key).map(Vec::as_slice).unwrap_or_default()
    }
}

/// The reference's latest version: the first of the highest by `compareVersions`.
fn latest<'a>(versions: &[&'a Resource]) -> Option<&'a Resource> {
    versions
        .iter()
        .copied()
        .fold(None, |best: Option<&Resource>, next| match best {
            Some(current)
                if compare_versions(
                    version_text(current).as_deref(),
                    version_text(next).as_deref(),
                )
                .is_ge() =>
            {
                Some(current)
            }
            _ => Some(next),
        })
}

/// A field as `JSON.stringify(value ?? null)` prints it, for comparing owners and deprecated.
fn stable(value: Option<&Value>) -> String {
    crate::json_text::to_compact(value.unwrap_or(&Value::Null))
}

/// A resource's version as the document names it: text, or a user's number (see [`Version`]).
fn version_of(resource: &Resource) -> Option<Version> {
    resource.get("version").and_then(Version::of)
}

/// The text the library orders a resource's version by (a number's as `String` writes it).
fn version_text(resource: &Resource) -> Option<std::borrow::Cow<'_, str>> {
    match resource.version() {
        Some(text) => Some(text.into()),
        None => resource.get("version").and_then(Version::text_of),
    }
}

/// Whether two resources have the same version, as the library's `===` sees it: the text
/// `"1.5"` is not the number `1.5`.
fn same_version(x: &Resource, y: &Resource) -> bool {
    match (x.version(), y.version()) {
        (Some(a), Some(b)) => a == b,
        _ => version_of(x) == version_of(y),
    }
}

fn reference(resource: &Resource) -> ResourceRef {
    ResourceRef {
        kind: resource.kind().to_owned(),
        id: resource.id_text().to_owned(),
        version: version_of(resource),
    }
}

fn resource_changes(a: &Side<'_>, b: &Side<'_>) -> ResourceChanges {
    let mut changes = ResourceChanges::default();
    let keys = a
        .keys
        .iter()
        .chain(b.keys.iter().filter(|key| !a.groups.contains_key(*key)));
    for key in keys {
        let (before, after) = (a.versions(key), b.versions(key));
        match (latest(before), latest(after)) {
            (None, _) => changes.added.extend(after.iter().map(|r| reference(r))),
            (_, None) => changes.removed.extend(before.iter().map(|r| reference(r))),
            (Some(old), Some(new)) => {
                let mut fields = Vec::new();
                if !same_version(old, new) {
                    fields.push("version");
                }
                // By value, where the reference's `!==` finds any two mappings different: it
                // would list such a name as changed in every diff, reached or not.
                if old.get("name") != new.get("name") {
                    fields.push("name");
                }
                for field in ["owners", "deprecated"] {
                    if stable(old.get(field)) != stable(new.get(field)) {
                        fields.push(field);
                    }
                }
                if !fields.is_empty() {
                    changes.changed.push(ResourceChange {
                        kind: key.0.to_owned(),
                        id: key.1.to_owned(),
                        version: VersionPair {
                            a: version_of(old),
                            b: version_of(new),
                        },
                        fields,
                    });
                }
                // Old versions appearing or disappearing on their own; the latest ones are
                // covered by the `changed` entry (so an in-place bump removes nothing).
                let has = |list: &[&Resource], resource: &Resource| {
                    list.iter().any(|r| same_version(r, resource))
                };
                changes.added.extend(
                    after
                        .iter()
                        .filter(|r| !std::ptr::eq(**r, new) && !has(before, r))
                        .map(|r| reference(r)),
                );
                changes.removed.extend(
                    before
                        .iter()
                        .filter(|r| !std::ptr::eq(**r, old) && !has(after, r))
                        .map(|r| reference(r)),
                );
            }
        }
    }
    let order =
        |kind: (&str, &str), other: (&str, &str), versions: (Option<&str>, Option<&str>)| {
            locale_cmp(kind.0, other.0)
                .then_with(|| locale_cmp(kind.1, other.1))
                .then_with(|| compare_versions(versions.0, versions.1))
        };
    let by_ref = |x: &ResourceRef, y: &ResourceRef| {
        order(
            (&x.kind, &x.id),
            (&y.kind, &y.id),
            (x.version.as_deref(), y.version.as_deref()),
        )
    };
    js_sort_by(&mut changes.added, by_ref);
    js_sort_by(&mut changes.removed, by_ref);
    js_sort_by(&mut changes.changed, |x, y| {
        order(
            (&x.kind, &x.id),
            (&y.kind, &y.id),
            (x.version.a.as_deref(), y.version.a.as_deref()),
        )
    });
    changes
}

/// The message version pairs whose schemas are compared: every version on both sides with
/// itself (oldest first), then latest against latest when they differ; messages in the order
/// the baseline Index lists them.
fn message_pairs<'a>(a: &Side<'a>, b: &Side<'a>) -> Vec<(&'a Resource, &'a Resource)> {
    let mut pairs = Vec::new();
    for key in &a.keys {
        if !MESSAGE_TYPES.contains(&key.0) {
            continue;
        }
        let (before, after) = (a.versions(key), b.versions(key));
        if after.is_empty() {
            continue;
        }
        let mut sorted: Vec<&Resource> = before.to_vec();
        js_sort_by(&mut sorted, |x, y| {
            compare_versions(x.version(), y.version())
        });
        for old in sorted {
            // Of several candidates with one version, the last listed wins (a JavaScript Map).
            if let Some(new) = after.iter().rev().find(|r| r.version() == old.version()) {
                pairs.push((old, *new));
            }
        }
        if let (Some(old), Some(new)) = (latest(before), latest(after))
            && old.version() != new.version()
        {
            pairs.push((old, new));
        }
    }
    pairs
}

/// A schema entry of an IndexResource.
struct Entry<'a>(&'a Map<String, Value>);

impl<'a> Entry<'a> {
    fn str(&self, key: &str) -> Option<&'a str> {
        self.0.get(key).and_then(Value::as_str)
    }
    /// Whether `default` is set to anything JavaScript takes for true, as the reference asks.
    fn is_default(&self) -> bool {
        match self.0.get("default") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(flag)) => *flag,
            Some(Value::Number(n)) => n.as_f64().is_some_and(|n| n != 0.0),
            Some(Value::String(text)) => !text.is_empty(),
            Some(Value::Array(_) | Value::Object(_)) => true,
        }
    }

    /// The value of `field` as a pairing key, `None` when it is absent.
    fn key(&self, field: &str) -> Option<Key<'_>> {
        self.0.get(field).map(Key::of)
    }
    fn file(&self, include_content: bool) -> SchemaFile {
        SchemaFile {
            path: self.str("path").unwrap_or_default().to_owned(),
            hash: self.str("hash").map(str::to_owned),
            content: if include_content {
                self.str("content").map(str::to_owned)
            } else {
                None
            },
            format: self.str("format").map(str::to_owned),
        }
    }
}

fn schema_entries(resource: &Resource) -> Vec<Entry<'_>> {
    match resource.get("schemas") {
        Some(Value::Array(list)) => list
            .iter()
            .filter_map(Value::as_object)
            .map(Entry)
            .collect(),
        _ => Vec::new(),
    }
}

/// A schema entry's `id`, `path` or `default` as the reference pairs by it, with JavaScript's
/// `===`: any scalar equals its equal, an object or array nothing.
#[derive(Clone, Copy)]
enum Key<'a> {
    Null,
    Bool(bool),
    Number(f64),
    Text(&'a str),
    Unique,
}

impl<'a> Key<'a> {
    fn of(value: &'a Value) -> Key<'a> {
        match value {
            Value::Null => Key::Null,
            Value::Bool(flag) => Key::Bool(*flag),
            Value::Number(n) => Key::Number(n.as_f64().unwrap_or(f64::NAN)),
            Value::String(text) => Key::Text(text),
            Value::Array(_) | Value::Object(_) => Key::Unique,
        }
    }
}

impl PartialEq for Key<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Key::Null, Key::Null) => true,
            (Key::Bool(a), Key::Bool(b)) => a == b,
            (Key::Number(a), Key::Number(b)) => a == b,
            (Key::Text(a), Key::Text(b)) => a == b,
            _ => false,
        }
    }
}

/// Pairs schema files by `id`, then `path`, then `default`, then by elimination (one left each).
fn pair_files<'a>(
    before: Vec<Entry<'a>>,
    after: Vec<Entry<'a>>,
) -> Vec<(Option<Entry<'a>>, Option<Entry<'a>>)> {
    let mut left: Vec<Option<Entry<'a>>> = before.into_iter().map(Some).collect();
    let mut right: Vec<Option<Entry<'a>>> = after.into_iter().map(Some).collect();
    let mut pairs = Vec::new();
    let keys: [for<'e> fn(&'e Entry<'_>) -> Option<Key<'e>>; 3] = [
        |e| e.key("id"),
        |e| e.key("path"),
        |e| e.is_default().then_some(Key::Text("default")),
    ];
    for key in keys {
        for slot in left.iter_mut() {
            let Some(wanted) = slot.as_ref().and_then(key) else {
                continue;
            };
            let found = right
                .iter_mut()
                .find(|other| other.as_ref().and_then(key) == Some(wanted));
            if let Some(other) = found {
                pairs.push((slot.take(), other.take()));
            }
        }
    }
    let rest_left: Vec<Entry<'a>> = left.into_iter().flatten().collect();
    let rest_right: Vec<Entry<'a>> = right.into_iter().flatten().collect();
    if rest_left.len() == 1 && rest_right.len() == 1 {
        pairs.extend(
            rest_left
                .into_iter()
                .map(Some)
                .zip(rest_right.into_iter().map(Some)),
        );
    } else {
        pairs.extend(rest_left.into_iter().map(|e| (Some(e), None)));
        pairs.extend(rest_right.into_iter().map(|e| (None, Some(e))));
    }
    pairs
}

fn schema_changes(
    a: &Side<'_>,
    b: &Side<'_>,
    files: [Option<&dyn Files>; 2],
    options: &Options,
    cache: &VerdictCache,
) -> (Vec<SchemaChange>, Vec<SideDiagnostic>) {
    let pairs = message_pairs(a, b);
    // In the reference's order: no sorting after the (order-keeping) parallel judging.
    let (changes, problems): (Vec<SchemaChange>, Vec<Vec<SideDiagnostic>>) = pairs
        .par_iter()
        .flat_map_iter(|(old, new)| {
            pair_files(schema_entries(old), schema_entries(new))
                .into_iter()
                .filter_map(|(before, after)| {
                    schema_change(old, new, before, after, files, options, cache)
                })
                .collect::<Vec<_>>()
        })
        .unzip();
    let mut diagnostics: Vec<SideDiagnostic> = problems.into_iter().flatten().collect();
    diagnostics.sort_by(|x, y| (x.side, &x.diagnostic).cmp(&(y.side, &y.diagnostic)));
    diagnostics.dedup();
    (changes, diagnostics)
}

/// The order of transitive checks (our extension): message type, id, versions, file.
fn schema_change_order(x: &SchemaChange, y: &SchemaChange) -> std::cmp::Ordering {
    change_order(schema_change_key(x), schema_change_key(y))
}

fn schema_change_key(change: &SchemaChange) -> ChangeKey<'_> {
    let m = &change.message;
    (
        &m.kind,
        &m.id,
        m.version.a.as_deref(),
        m.version.b.as_deref(),
        file_path(change),
    )
}

/// Under a transitive strategy, a message version whose schema changed (the latest, or an
/// older one edited in place) is also judged against every earlier version the candidate
/// catalog keeps (versioned folders), except the one the plain comparison already used: one
/// entry per schema file pair, the earlier version as `a`.
fn transitive_checks(
    b: &Side<'_>,
    changes: &[SchemaChange],
    files: [Option<&dyn Files>; 2],
    options: &Options,
    cache: &VerdictCache,
) -> Vec<SchemaChange> {
    let mut changed: HashMap<(&str, &str, Option<&str>), Vec<&SchemaChange>> = HashMap::new();
    for c in changes.iter().filter(|c| c.after.is_some()) {
        let m = &c.message;
        changed
            .entry((&m.kind, &m.id, m.version.b.as_deref()))
            .or_default()
            .push(c);
    }
    let mut checks = Vec::new();
    for (key, versions) in &b.groups {
        if !MESSAGE_TYPES.contains(&key.0) || !options.strategy_for(key.1).is_transitive() {
            continue;
        }
        for (n, new) in versions.iter().enumerate() {
            // Of several resources with one version, the first, as `latest` takes it.
            let Some(changed) = changed.get(&(key.0, key.1, new.version())) else {
                continue;
            };
            if versions[..n].iter().any(|r| r.version() == new.version()) {
                continue;
            }
            // Earlier as `latest` orders versions, so `9` is before `10`.
            for old in versions.iter().filter(|old| {
                old.version() != new.version()
                    && compare_versions(version_text(old).as_deref(), version_text(new).as_deref())
                        .is_le()
                    && !changed
                        .iter()
                        .any(|c| c.message.version.a.as_deref() == old.version())
            }) {
                checks.extend(
                    pair_files(schema_entries(old), schema_entries(new))
                        .into_iter()
                        .filter(|(before, after)| before.is_some() && after.is_some())
                        .filter_map(|(before, after)| {
                            // Both versions are the candidate's, so both read its files.
                            schema_change(old, new, before, after, [files[1]; 2], options, cache)
                                .map(|(change, _)| change)
                        }),
                );
            }
        }
    }
    js_sort_by(&mut checks, schema_change_order);
    checks
}

fn file_path(change: &SchemaChange) -> &str {
    change
        .before
        .as_ref()
        .or(change.after.as_ref())
        .map(|f| f.path.as_str())
        .unwrap_or_default()
}

fn schema_change(
    old: &Resource,
    new: &Resource,
    before: Option<Entry<'_>>,
    after: Option<Entry<'_>>,
    files: [Option<&dyn Files>; 2],
    options: &Options,
    cache: &VerdictCache,
) -> Option<(SchemaChange, Vec<SideDiagnostic>)> {
    let change = match (&before, &after) {
        (Some(x), Some(y)) if x.str("hash").is_some() && x.str("hash") == y.str("hash") => {
            let sides = [(x, old, files[0]), (y, new, files[1])].map(|(entry, resource, files)| {
                SchemaSide {
                    entry,
                    resource,
                    files,
                }
            });
            if !imports_changed(sides) {
                return None;
            }
            FileChange::Modified
        }
        (Some(_), Some(_)) => FileChange::Modified,
        (None, Some(_)) => FileChange::Added,
        (Some(_), None) => FileChange::Removed,
        (None, None) => return None,
    };
    let strategy = options.strategy_for(new.id());
    let judgement = match (&before, &after) {
        (Some(x), Some(y)) => judge(
            SchemaSide {
                entry: x,
                resource: old,
                files: files[0],
            },
            SchemaSide {
                entry: y,
                resource: new,
                files: files[1],
            },
            strategy,
            options,
            cache,
        ),
        _ => Judgement::Unknown(format!(
            "the schema file was {}",
            if change == FileChange::Added {
                "added"
            } else {
                "removed"
            }
        )),
    };
    let mut problems = Vec::new();
    let in_neither_catalog = matches!(judgement, Judgement::InNeither(_));
    let (breaking, direction, ops, unknown_reason) = match judgement {
        Judgement::Judged(verdict, warnings) => {
            problems = warnings;
            (Some(verdict.breaking), verdict.direction, verdict.ops, None)
        }
        Judgement::Unknown(reason) | Judgement::InNeither(reason) => {
            (None, None, Vec::new(), Some(reason))
        }
        Judgement::Invalid(reason, diagnostics) => {
            problems = diagnostics;
            (None, None, Vec::new(), Some(reason))
        }
    };
    let change = SchemaChange {
        message: SchemaMessage {
            kind: new.kind().to_owned(),
            id: new.id().to_owned(),
            version: VersionPair {
                a: old.version().map(Version::from),
                b: new.version().map(Version::from),
            },
        },
        change,
        before: before.map(|e| e.file(options.include_schema_content)),
        after: after.map(|e| e.file(options.include_schema_content)),
        breaking,
        strategy,
        direction,
        ops,
        unknown_reason,
        against_commit: None,
        in_neither_catalog,
    };
    Some((change, problems))
}

/// One side of a schema pair: the entry, the resource naming it and the side's files.
#[derive(Clone, Copy)]
struct SchemaSide<'e, 'r> {
    entry: &'e Entry<'r>,
    resource: &'r Resource,
    files: Option<&'r dyn Files>,
}

impl<'e> SchemaSide<'e, '_> {
    /// The schema's text: the Index's `content`, or else the file read from the side's files
    /// (a catalog built without content holds each schema once, in its blob). A file that is
    /// not UTF-8 text is read as the SDK reads it, each bad sequence as U+FFFD, and judged so,
    /// as the reference judges it; the second value is where it stops being UTF-8 text.
    fn text(&self) -> Option<(std::borrow::Cow<'e, str>, Option<usize>)> {
        let not_utf8_at = |bytes: &[u8]| std::str::from_utf8(bytes).err().map(|e| e.valid_up_to());
        if let Some(content) = self.entry.str("content") {
            // The SDK's content shows U+FFFD where its file is not UTF-8 text.
            let at = content
                .contains('\u{fffd}')
                .then(|| not_utf8_at(&self.files?.read(&self.catalog_path())?))
                .flatten();
            return Some((content.into(), at));
        }
        let bytes = self.files?.read(&self.catalog_path())?;
        let at = not_utf8_at(&bytes);
        Some((String::from_utf8_lossy(&bytes).into_owned().into(), at))
    }

    /// The schema file's catalog path: its entry's `path` from the resource's folder.
    fn catalog_path(&self) -> String {
        let content = self.resource.str_field("contentPath").unwrap_or_default();
        let base = content.rfind('/').map_or("", |i| &content[..i]);
        crate::path::catalog_join(base, self.entry.str("path").unwrap_or_default())
    }
}

/// Whether a Protobuf schema file whose own text is the same on both sides imports a file that
/// changed (directly or through another import): it compiles to another schema, so it is a
/// modified schema, judged. `@eventcatalog/diff` reads no Protobuf and lists nothing there.
fn imports_changed([before, after]: [SchemaSide<'_, '_>; 2]) -> bool {
    // Declared, or told by the name alone (`.proto`), which needs no text.
    let path = after.entry.str("path").unwrap_or_default();
    let is_protobuf = matches!(
        Format::detect(after.entry.str("format"), path, ""),
        Ok(Format::Protobuf)
    );
    let (Some(a), Some(b)) = (before.files, after.files) else {
        return false;
    };
    let start = after.catalog_path();
    if !is_protobuf || before.catalog_path() != start {
        return false;
    }
    let schema = start.clone();
    let names = |file: &str, text: &str| crate::schema::protobuf::imports(b, &schema, file, text);
    super::reached::reached_file_changed(start, a, b, &names)
}

/// A pair of schema files (JSON Schema, Avro, Protobuf) gets a verdict; anything else says why
/// it has none.
fn judge(
    before: SchemaSide<'_, '_>,
    after: SchemaSide<'_, '_>,
    strategy: Strategy,
    options: &Options,
    cache: &VerdictCache,
) -> Judgement {
    let (Some(old_hash), Some(new_hash)) = (before.entry.str("hash"), after.entry.str("hash"))
    else {
        // One side hashed and the other not: that file is missing from its catalog.
        if let Some(missing) = [before.entry, after.entry]
            .into_iter()
            .find(|e| e.str("hash").is_none())
            .filter(|_| before.entry.str("hash").is_some() || after.entry.str("hash").is_some())
        {
            return Judgement::Unknown(format!(
                "`{}` is not in the catalog on one side",
                missing.str("path").unwrap_or_default()
            ));
        }
        // Built without hashes: judged from the content, if any.
        let (old_files, new_files) = (Recording::new(before.files), Recording::new(after.files));
        return judge_uncached(before, &old_files, after, &new_files, strategy, options);
    };
    let entry_key = |entry: &Entry<'_>, hash: &str| {
        (
            hash.to_owned(),
            entry.str("format").map(str::to_owned),
            entry.str("path").unwrap_or_default().to_owned(),
        )
    };
    let key = (
        [
            entry_key(before.entry, old_hash),
            entry_key(after.entry, new_hash),
        ],
        strategy,
        options.schema,
    );
    if let Some(hit) = cache
        .verdicts
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get(&key)
        .and_then(|entries| {
            entries.iter().find(|cached| {
                reads_again(&cached.reads[0], before.files)
                    && reads_again(&cached.reads[1], after.files)
            })
        })
    {
        return hit.judgement.clone();
    }
    let (old_files, new_files) = (Recording::new(before.files), Recording::new(after.files));
    let judgement = judge_uncached(before, &old_files, after, &new_files, strategy, options);
    cache
        .verdicts
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .entry(key)
        .or_default()
        .push(Cached {
            reads: [old_files.into_reads(), new_files.into_reads()],
            judgement: judgement.clone(),
        });
    judgement
}

/// A warning naming the file, line and column where a schema file of `side` stops being UTF-8
/// text (at byte `at`): it was read with U+FFFD there.
fn not_utf8(schema: &SchemaSide<'_, '_>, side: &'static str, at: usize) -> SideDiagnostic {
    let file = schema.catalog_path();
    let bytes = schema
        .files
        .and_then(|files| files.read(&file))
        .unwrap_or_default();
    // All before `at` is UTF-8 text.
    let before = std::str::from_utf8(&bytes[..at.min(bytes.len())]).unwrap_or_default();
    let line = before.matches('\n').count() + 1;
    let column = before[before.rfind('\n').map_or(0, |n| n + 1)..]
        .chars()
        .count()
        + 1;
    let diagnostic = Diagnostic {
        severity: Severity::Warning,
        file,
        line: Some(line),
        column: Some(column),
        field: Some("schemas".into()),
        message: format!(
            "the schema is not UTF-8 text from byte {at} on; it is read with U+FFFD there, as the SDK reads it"
        ),
        hint: Some("save the file as UTF-8 text".to_owned()),
    };
    SideDiagnostic { side, diagnostic }
}

/// The judgement on a pair where some sides could not be read: the first side's reason, and
/// every side's problem that has a place.
fn refused(failures: Vec<(String, Option<SideDiagnostic>)>) -> Judgement {
    let reason = failures
        .first()
        .map(|(reason, _)| reason.clone())
        .unwrap_or_default();
    let diagnostics: Vec<SideDiagnostic> = failures.into_iter().filter_map(|(_, d)| d).collect();
    if diagnostics.is_empty() {
        Judgement::Unknown(reason)
    } else {
        Judgement::Invalid(reason, diagnostics)
    }
}

fn judge_uncached(
    before: SchemaSide<'_, '_>,
    old_files: &dyn Files,
    after: SchemaSide<'_, '_>,
    new_files: &dyn Files,
    strategy: Strategy,
    options: &Options,
) -> Judgement {
    let ((old_text, old_at), (new_text, new_at)) = match (before.text(), after.text()) {
        (Some(old), Some(new)) => (old, new),
        (old, new) => {
            let path = after.entry.str("path").unwrap_or_default();
            // Read from the catalog, a text is missing only where its file is.
            return match (before.files.and(after.files), old, new) {
                (None, ..) => {
                    Judgement::Unknown("the index was built without schema content".to_owned())
                }
                (Some(_), None, None) => {
                    Judgement::InNeither(format!("`{path}` is in neither catalog"))
                }
                _ => Judgement::Unknown(format!("`{path}` is not in the catalog on one side")),
            };
        }
    };
    // A file that holds no text (an Avro data file) is named as what it is, not as text to save
    // as UTF-8.
    let warnings = [
        (&before, "a", old_at, &old_text),
        (&after, "b", new_at, &new_text),
    ]
    .into_iter()
    .filter(|(.., text)| StandIn::of(text.as_bytes()).is_none())
    .filter_map(|(schema, side, at, _)| Some(not_utf8(schema, side, at?)))
    .collect();
    let (old, new) = (
        Document::new(before.entry.str("path").unwrap_or_default(), &old_text),
        Document::new(after.entry.str("path").unwrap_or_default(), &new_text),
    );
    with_warnings(
        judge_texts(
            (before, old, old_files),
            (after, new, new_files),
            strategy,
            options,
        ),
        warnings,
    )
}

/// `judgement`, with `warnings` among its diagnostics.
fn with_warnings(judgement: Judgement, warnings: Vec<SideDiagnostic>) -> Judgement {
    if warnings.is_empty() {
        return judgement;
    }
    match judgement {
        Judgement::Judged(verdict, mut diagnostics) => {
            diagnostics.extend(warnings);
            Judgement::Judged(verdict, diagnostics)
        }
        Judgement::Unknown(reason) => Judgement::Invalid(reason, warnings),
        // Read from neither side, so no warning about what was read.
        Judgement::InNeither(_) => judgement,
        Judgement::Invalid(reason, mut diagnostics) => {
            diagnostics.extend(warnings);
            Judgement::Invalid(reason, diagnostics)
        }
    }
}

/// The judgement of a pair of schema texts, `old` of side `before` and `new` of `after`.
fn judge_texts(
    (before, old, old_files): (SchemaSide<'_, '_>, Document<'_>, &dyn Files),
    (after, new, new_files): (SchemaSide<'_, '_>, Document<'_>, &dyn Files),
    strategy: Strategy,
    options: &Options,
) -> Judgement {
    let (old_path, new_path) = (before.catalog_path(), after.catalog_path());
    // A declared format that is not text names no format: no verdict, as in the reference.
    let odd_format = [before.entry, after.entry]
        .into_iter()
        .find_map(|entry| entry.0.get("format").filter(|f| !f.is_string()));
    if let Some(declared) = odd_format {
        let shown = crate::json_text::to_compact(declared);
        return Judgement::Unknown(format!("format `{shown}` is not supported"));
    }
    // Each side is of the format its own entry declares or its own file shows, as the
    // reference reads them: a pair of two formats has no verdict.
    let found = [
        Format::detect(before.entry.str("format"), old.path, old.text),
        Format::detect(after.entry.str("format"), new.path, new.text),
    ];
    let format = match &found {
        [Ok(a), Ok(b)] if a == b => *a,
        [Ok(a), Ok(b)] => {
            return Judgement::Unknown(format!("the schema format changed from {a} to {b}"));
        }
        [Err(why), _] | [_, Err(why)] => {
            let reason = why.reason.clone();
            // A side that does not parse is named at its line, as one that does not compile is.
            let failures: Vec<_> = [("a", &old_path), ("b", &new_path)]
                .into_iter()
                .zip(found)
                .filter_map(|((side, path), found)| match found.err()?.kind {
                    crate::schema::format::UndetectedKind::Parse(error) => {
                        Some(refusal(error, side, path.clone()))
                    }
                    _ => None,
                })
                .collect();
            return match failures.is_empty() {
                true => Judgement::Unknown(reason),
                false => refused(failures),
            };
        }
    };
    // Imports resolve from the file's own folder, so a format that imports is handed the
    // catalog path and the side's files.
    let (old, new) = match format {
        Format::Protobuf => (
            Document::new(&old_path, old.text).with_files(old_files),
            Document::new(&new_path, new.text).with_files(new_files),
        ),
        Format::JsonSchema | Format::Avro => (old, new),
    };
    let error = match format.compare(old, new, strategy, &options.schema) {
        Ok(verdict) => {
            // What the verdict rests on that the writer may not expect, on the side that has it.
            let notes = [("a", &old_path, old.text), ("b", &new_path, new.text)]
                .into_iter()
                .flat_map(|(side, file, text)| {
                    format.notes(text).into_iter().map(move |(line, why)| {
                        let diagnostic = Diagnostic {
                            severity: Severity::Warning,
                            file: file.clone(),
                            line: Some(line),
                            column: None,
                            field: Some("schemas".into()),
                            message: why,
                            hint: Some("define what it names, or correct the reference".into()),
                        };
                        SideDiagnostic { side, diagnostic }
                    })
                })
                .collect();
            return Judgement::Judged(verdict, notes);
        }
        Err(error) => error,
    };
    // Both sides usually share a path, so the error alone cannot say which side it is from;
    // when the baseline's file is broken, the candidate's may be too, and both are named.
    let failures = match format.check(old) {
        Err(old_error) => {
            let mut failures = vec![refusal(old_error, "a", old_path)];
            failures.extend(
                format
                    .check(new)
                    .err()
                    .map(|new_error| refusal(new_error, "b", new_path)),
            );
            failures
        }
        Ok(()) => vec![refusal(error, "b", new_path)],
    };
    refused(failures)
}

/// Why a schema file (catalog path `file`, of `side`) that does not compile has no verdict,
/// and, where `error` has a place, a warning naming it.
fn refusal(
    error: schema::Error,
    side: &'static str,
    file: String,
) -> (String, Option<SideDiagnostic>) {
    let warning =
        |file: String, line: usize, column: Option<usize>, message: String, hint: &str| {
            let diagnostic = Diagnostic {
                severity: Severity::Warning,
                file,
                line: Some(line),
                column,
                field: Some("schemas".into()),
                message,
                hint: Some(hint.to_owned()),
            };
            Some(SideDiagnostic { side, diagnostic })
        };
    match error {
        schema::Error::Parse {
            format: Format::Protobuf,
            file: named,
            syntax,
            line,
            column,
            message,
        } => (
            // The error may be in an imported file: name the one the compiler named.
            format!("`{named}` is not valid {syntax} (line {line}, column {column}): {message}"),
            warning(
                named,
                line,
                Some(column),
                format!("the Protobuf schema does not compile: {message}"),
                "fix the .proto file; until then its changes have no verdict",
            ),
        ),
        schema::Error::Parse {
            file: named,
            syntax,
            line,
            column,
            message,
            ..
        } => (
            format!("`{named}` is not valid {syntax} (line {line}, column {column}): {message}"),
            warning(
                file,
                line,
                Some(column),
                format!("the schema is not valid {syntax}: {message}"),
                "fix the schema file; until then changes to it get no verdict",
            ),
        ),
        schema::Error::Invalid {
            format,
            file: named,
            line,
            message,
        } => (
            format!("`{named}` is not a valid {format} schema (line {line}): {message}"),
            warning(
                file,
                line,
                None,
                format!("not a valid {format} schema: {message}"),
                "fix the schema file; until then changes to it get no verdict",
            ),
        ),
        schema::Error::Unsupported {
            file: named,
            line,
            column,
            what,
            ..
        } => (
            format!("`{named}` uses {what}, which catalog-diff cannot read yet"),
            warning(
                named,
                line,
                Some(column),
                format!("the schema uses {what}, which catalog-diff cannot read yet"),
                if what.ends_with(crate::schema::protobuf::NO_TOOL_JUDGES) {
                    "its changes have no verdict here"
                } else {
                    "its changes have no verdict here; `buf breaking` judges them"
                },
            ),
        ),
        error => (error.to_string(), None),
    }
}
