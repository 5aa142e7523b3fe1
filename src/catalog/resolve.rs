//! `resolve(indexes)`: Index documents -> entities, assets, edges, conflicts, warnings and
//! externals, exactly as SDK 2.27.1 computes them (catalog-index.md §10).
//!
//! The SDK works on untyped JavaScript objects, so the comparisons here follow JavaScript's
//! `<` and `===` on JSON values (a version may be a number or null). The one deliberate
//! deviation: pointer lists of the wrong shape, on which the SDK crashes or emits garbage
//! edges, are skipped and reported as [`ResolveProblem`]s (§10.8). Pure, no I/O.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;

use serde_json::{Map, Value};

use super::js::{compare_text, js_to_string, strict_eq};
use super::version::{Range, SemVer, cmp_code_units, js_sort_by};
use super::{Index, Resource};
use crate::FastMap;

/// The `{source, commit}` an entity, asset or edge target came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResolvedFrom<'a> {
    pub source: &'a str,
    pub commit: &'a str,
}

impl ResolvedFrom<'_> {
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("source".into(), Value::from(self.source));
        map.insert("commit".into(), Value::from(self.commit));
        Value::Object(map)
    }
}

/// A resource of one index, tagged with where it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Entity<'a> {
    pub resource: &'a Resource,
    pub resolved_from: ResolvedFrom<'a>,
    /// The raw `id`, `version` and `type` values, looked up once: sorting compares them often.
    id_value: Option<&'a Value>,
    version_value: Option<&'a Value>,
    type_value: Option<&'a Value>,
}

impl<'a> Entity<'a> {
    fn new(resource: &'a Resource, resolved_from: ResolvedFrom<'a>) -> Self {
        Entity {
            resource,
            resolved_from,
            id_value: resource.get("id"),
            version_value: resource.get("version"),
            type_value: resource.get("type"),
        }
    }

    pub fn id(&self) -> &'a str {
        self.resource.id()
    }

    fn version(&self) -> Option<&'a Value> {
        self.version_value
    }

    pub fn to_value(&self) -> Value {
        let mut map = self.resource.fields().clone();
        // Like `{...resource, resolvedFrom}`: appended last unless the key already exists.
        map.insert("resolvedFrom".into(), self.resolved_from.to_value());
        Value::Object(map)
    }
}

/// The winning copy of one asset path.
#[derive(Clone, Debug, PartialEq)]
pub struct ResolvedAsset<'a> {
    /// The asset object as the index had it (`path`, `hash`?).
    pub asset: Map<String, Value>,
    pub resolved_from: ResolvedFrom<'a>,
    /// Present when several indexes agree on the asset: the other sources.
    pub contributors: Option<Vec<String>>,
}

impl ResolvedAsset<'_> {
    pub fn path(&self) -> Option<&str> {
        self.asset.get("path").and_then(Value::as_str)
    }

    pub fn to_value(&self) -> Value {
        let mut map = self.asset.clone();
        map.insert("resolvedFrom".into(), self.resolved_from.to_value());
        if let Some(contributors) = &self.contributors {
            map.insert("contributors".into(), strings(contributors));
        }
        Value::Object(map)
    }
}

/// `asset-collision`: indexes disagree on (or cannot prove) an asset's content.
#[derive(Clone, Debug, PartialEq)]
pub struct AssetCollision {
    pub path: Value,
    pub sources: Vec<String>,
    pub winner: String,
}

impl AssetCollision {
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("kind".into(), Value::from("asset-collision"));
        map.insert("path".into(), self.path.clone());
        map.insert("sources".into(), strings(&self.sources));
        map.insert("winner".into(), Value::from(self.winner.clone()));
        Value::Object(map)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConflictKind {
    TypeCollision,
    DuplicateSource,
    PointerTypeMismatch,
}

impl ConflictKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ConflictKind::TypeCollision => "type-collision",
            ConflictKind::DuplicateSource => "duplicate-source",
            ConflictKind::PointerTypeMismatch => "pointer-type-mismatch",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Conflict {
    pub kind: ConflictKind,
    pub id: String,
    pub sources: Vec<String>,
    pub detail: Option<String>,
}

impl Conflict {
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("kind".into(), Value::from(self.kind.as_str()));
        map.insert("id".into(), Value::from(self.id.clone()));
        map.insert("sources".into(), strings(&self.sources));
        if let Some(detail) = &self.detail {
            map.insert("detail".into(), Value::from(detail.clone()));
        }
        Value::Object(map)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeStatus {
    Resolved,
    /// The id exists but no version matches.
    Unresolved,
    /// The id exists nowhere.
    External,
}

impl EdgeStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            EdgeStatus::Resolved => "resolved",
            EdgeStatus::Unresolved => "unresolved",
            EdgeStatus::External => "external",
        }
    }
}

/// One pointer, resolved (§10.6), borrowed from the indexes: a walk resolves every commit's cut.
#[derive(Clone, Debug, PartialEq)]
pub struct Edge<'a> {
    pub from: &'a str,
    /// The holding entity's version, `null` when it has none.
    pub from_version: &'a Value,
    pub from_resolved_from: ResolvedFrom<'a>,
    pub to: &'a str,
    pub direction: &'static str,
    pub via: Option<&'static str>,
    /// The pointer's `label`, when the pointer has that key.
    pub label: Option<&'a Value>,
    /// The pointer's `version`, `null` when absent.
    pub pointer: &'a Value,
    /// The target's version; `null` when it has none or nothing was resolved.
    pub resolved: &'a Value,
    /// Only for resolved edges.
    pub resolved_from: Option<ResolvedFrom<'a>>,
    pub status: EdgeStatus,
    /// The holding entity's `type` (not in the SDK's output; the diff needs typed ends).
    pub from_type: &'a str,
    /// The target's `type` when resolved.
    pub to_type: Option<&'a str>,
}

/// What an absent version reads as.
static NULL: Value = Value::Null;

impl Edge<'_> {
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("from".into(), Value::from(self.from));
        map.insert("fromVersion".into(), self.from_version.clone());
        map.insert(
            "fromResolvedFrom".into(),
            self.from_resolved_from.to_value(),
        );
        map.insert("to".into(), Value::from(self.to));
        map.insert("direction".into(), Value::from(self.direction));
        if let Some(via) = self.via {
            map.insert("via".into(), Value::from(via));
        }
        if let Some(label) = self.label {
            map.insert("label".into(), label.clone());
        }
        map.insert("pointer".into(), self.pointer.clone());
        map.insert("resolved".into(), self.resolved.clone());
        if let Some(from) = &self.resolved_from {
            map.insert("resolvedFrom".into(), from.to_value());
        }
        map.insert("status".into(), Value::from(self.status.as_str()));
        Value::Object(map)
    }
}

/// A pointer id nothing in the indexes defines (§10.7).
#[derive(Clone, Debug, PartialEq)]
pub struct External {
    pub id: String,
    /// The pointer's version when the first such pointer had that key (may be `null`).
    pub version: Option<Value>,
    pub referenced_by: Vec<String>,
}

impl External {
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("id".into(), Value::from(self.id.clone()));
        if let Some(version) = &self.version {
            map.insert("version".into(), version.clone());
        }
        map.insert("referencedBy".into(), strings(&self.referenced_by));
        Value::Object(map)
    }
}

/// What is wrong with a pointer field the SDK cannot handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProblemKind {
    /// The field is not a list (a string is iterated per character by the SDK, or crashes it).
    NotAList,
    /// A list entry is not an object.
    NotAPointer,
    /// A pointer object without a string `id`.
    MissingId,
}

impl fmt::Display for ProblemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ProblemKind::NotAList => "is not a list of pointers",
            ProblemKind::NotAPointer => "is not a pointer object",
            ProblemKind::MissingId => "is a pointer without a string `id`",
        })
    }
}

/// A pointer that was skipped because of its shape (§10.8); no edge is made for it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{index_source}: {entity_type} `{entity}`: `{field}` {kind}")]
pub struct ResolveProblem {
    /// Source of the index holding the entity.
    pub index_source: String,
    pub entity_type: String,
    pub entity: String,
    pub entity_version: Option<String>,
    /// The field path, e.g. `sends`, `sends[1]`, `receives[0].triggers`.
    pub field: String,
    pub kind: ProblemKind,
}

/// The result of [`resolve`]: the SDK's document plus the problems it would trip over.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Resolved<'a> {
    pub entities: Vec<Entity<'a>>,
    pub assets: Vec<ResolvedAsset<'a>>,
    pub edges: Vec<Edge<'a>>,
    pub conflicts: Vec<Conflict>,
    pub warnings: Vec<AssetCollision>,
    pub externals: Vec<External>,
    /// Not part of the SDK document.
    pub problems: Vec<ResolveProblem>,
}

impl Resolved<'_> {
    /// The document exactly as the SDK returns it (keys in order).
    pub fn to_value(&self) -> Value {
        let mut doc = Map::new();
        let list = |items: Vec<Value>| Value::Array(items);
        doc.insert(
            "entities".into(),
            list(self.entities.iter().map(Entity::to_value).collect()),
        );
        doc.insert(
            "assets".into(),
            list(self.assets.iter().map(ResolvedAsset::to_value).collect()),
        );
        doc.insert(
            "edges".into(),
            list(self.edges.iter().map(Edge::to_value).collect()),
        );
        doc.insert(
            "conflicts".into(),
            list(self.conflicts.iter().map(Conflict::to_value).collect()),
        );
        doc.insert(
            "warnings".into(),
            list(self.warnings.iter().map(AssetCollision::to_value).collect()),
        );
        doc.insert(
            "externals".into(),
            list(self.externals.iter().map(External::to_value).collect()),
        );
        Value::Object(doc)
    }
}

fn strings(items: &[String]) -> Value {
    Value::Array(items.iter().cloned().map(Value::from).collect())
}

/// How a pointer list is reached from an entity (§10.4).
#[derive(Clone, Copy)]
enum Reach {
    /// `entity[field]` is the list.
    Direct(&'static str),
    /// Every `sub` of every entry of `entity[field]` (`sends[].to` and friends).
    Nested(&'static str, &'static str),
}

/// §10.4, in scan order: (how to reach the list, direction, via).
#[rustfmt::skip]
const POINTER_FIELDS: [(Reach, &str, Option<&str>); 28] = [
    (Reach::Direct("sends"), "sends", None),
    (Reach::Direct("receives"), "receives", None),
    (Reach::Direct("writesTo"), "writesTo", None),
    (Reach::Direct("readsFrom"), "readsFrom", None),
    (Reach::Direct("services"), "contains", Some("services")),
    (Reach::Direct("agents"), "contains", Some("agents")),
    (Reach::Direct("domains"), "contains", Some("domains")),
    (Reach::Direct("dataProducts"), "contains", Some("dataProducts")),
    (Reach::Direct("systems"), "contains", Some("systems")),
    (Reach::Direct("entities"), "contains", Some("entities")),
    (Reach::Direct("containers"), "contains", Some("containers")),
    (Reach::Direct("flows"), "contains", Some("flows")),
    (Reach::Direct("relationships"), "relatesTo", Some("relationships")),
    (Reach::Direct("inputs"), "receives", Some("inputs")),
    (Reach::Direct("outputs"), "sends", Some("outputs")),
    (Reach::Direct("references"), "references", Some("steps")),
    (Reach::Direct("appliesTo"), "appliesTo", None),
    (Reach::Direct("related"), "relatesTo", Some("related")),
    (Reach::Direct("supersedes"), "relatesTo", Some("supersedes")),
    (Reach::Direct("supersededBy"), "relatesTo", Some("supersededBy")),
    (Reach::Direct("amends"), "relatesTo", Some("amends")),
    (Reach::Direct("amendedBy"), "relatesTo", Some("amendedBy")),
    (Reach::Direct("diagrams"), "relatesTo", Some("diagrams")),
    (Reach::Direct("channels"), "references", Some("channels")),
    (Reach::Direct("routes"), "references", Some("routes")),
    (Reach::Nested("sends", "to"), "sends", Some("sends.to")),
    (Reach::Nested("receives", "from"), "receives", Some("receives.from")),
    (Reach::Nested("receives", "triggers"), "sends", Some("receives.triggers")),
];

/// The fields that must hold a list of pointers (the SDK ignores any other value).
pub(crate) fn pointer_lists() -> impl Iterator<Item = &'static str> {
    POINTER_FIELDS.iter().filter_map(|(reach, ..)| match reach {
        Reach::Direct(field) => Some(*field),
        Reach::Nested(..) => None,
    })
}

/// The lists each entry of pointer list `field` may hold (`to` for `sends`); the SDK reaches
/// them with `.flatMap` on `field`, which fails unless `field` is a list.
pub(crate) fn nested_pointer_lists(field: &str) -> impl Iterator<Item = &'static str> + '_ {
    POINTER_FIELDS
        .iter()
        .filter_map(move |(reach, ..)| match reach {
            Reach::Nested(list, sub) if *list == field => Some(*sub),
            _ => None,
        })
}

/// Each pointer list's places in [`POINTER_FIELDS`] (`sends` is read as it is and nested).
fn pointer_places() -> &'static FastMap<&'static str, Vec<usize>> {
    static PLACES: std::sync::OnceLock<FastMap<&'static str, Vec<usize>>> =
        std::sync::OnceLock::new();
    PLACES.get_or_init(|| {
        let mut places: FastMap<&str, Vec<usize>> = FastMap::default();
        for (at, (reach, ..)) in POINTER_FIELDS.iter().enumerate() {
            let (Reach::Direct(field) | Reach::Nested(field, _)) = reach;
            places.entry(field).or_default().push(at);
        }
        places
    })
}

/// Resolves the indexes against each other, in the given order (SDK `resolve`).
pub fn resolve(indexes: &[Index]) -> Resolved<'_> {
    let (assets, warnings) = resolve_assets(indexes);
    let mut problems = Vec::new();

    let mut entities: Vec<Entity> = indexes
        .iter()
        .flat_map(|index| {
            let from = ResolvedFrom {
                source: &index.source,
                commit: &index.commit,
            };
            index.resources.iter().map(move |r| Entity::new(r, from))
        })
        .collect();
    let empty = Value::from("");
    js_sort_by(&mut entities, |a, b| {
        compare_text(a.id_value, b.id_value)
            .then_with(|| {
                compare_text(
                    Some(nullish_or(a.version(), &empty)),
                    Some(nullish_or(b.version(), &empty)),
                )
            })
            .then_with(|| compare_text(a.type_value, b.type_value))
            .then_with(|| {
                a.resolved_from
                    .source
                    .encode_utf16()
                    .cmp(b.resolved_from.source.encode_utf16())
            })
    });

    // `entitiesById`, in first-seen order.
    let mut by_id: FastMap<&str, Vec<usize>> = FastMap::default();
    let mut id_order: Vec<&str> = Vec::new();
    for (i, entity) in entities.iter().enumerate() {
        by_id.entry(entity.id()).or_insert_with(|| {
            id_order.push(entity.id());
            Vec::new()
        });
        if let Some(list) = by_id.get_mut(entity.id()) {
            list.push(i);
        }
    }

    let mut conflicts = Conflicts::default();
    for id in &id_order {
        let matches = &by_id[id];
        if matches.len() < 2 {
            continue; // one entity conflicts with nothing
        }
        let sources = unique(
            matches
                .iter()
                .map(|&i| entities[i].resolved_from.source.to_owned()),
        );
        let types = unique(matches.iter().map(|&i| js_key(entities[i].type_value)));
        if types.len() > 1 {
            conflicts.add(ConflictKind::TypeCollision, id, sources, None);
        } else if sources.len() > 1 {
            conflicts.add(ConflictKind::DuplicateSource, id, sources, None);
        }
    }

    let mut edges = Vec::new();
    let mut externals: Vec<External> = Vec::new();
    let mut external_keys: FastMap<String, usize> = FastMap::default();
    for entity in &entities {
        // Each list's value, found through the few fields the resource has rather than by
        // looking up all the places a pointer may sit.
        let mut lists = [None; POINTER_FIELDS.len()];
        for (key, value) in entity.resource.fields() {
            for &at in pointer_places().get(key.as_str()).into_iter().flatten() {
                lists[at] = Some(value);
            }
        }
        for ((reach, direction, via), list) in POINTER_FIELDS.into_iter().zip(lists) {
            for pointer in pointers(entity, reach, list, &mut problems) {
                let (Some(pointer_id), pointer_map) =
                    (pointer.get("id").and_then(Value::as_str), pointer)
                else {
                    continue;
                };
                let version = pointer_map.get("version");
                let base = Edge {
                    from: entity.id(),
                    from_version: entity.version().unwrap_or(&NULL),
                    from_resolved_from: entity.resolved_from,
                    to: pointer_id,
                    direction,
                    via,
                    label: pointer_map.get("label"),
                    pointer: version.unwrap_or(&NULL),
                    resolved: &NULL,
                    resolved_from: None,
                    status: EdgeStatus::Unresolved,
                    from_type: entity.resource.kind(),
                    to_type: None,
                };
                let candidates = by_id.get(pointer_id).map(Vec::as_slice);
                let target = candidates.and_then(|c| select_target(&entities, c, version));
                match (candidates, target) {
                    (_, Some(t)) => {
                        let target = &entities[t];
                        let pointer_type = pointer_map.get("type");
                        let target_type = target.type_value;
                        if pointer_type.is_some() && !strict_eq(pointer_type, target_type) {
                            let detail = format!(
                                "Expected {} but found {}",
                                js_to_string(pointer_type),
                                js_to_string(target_type)
                            );
                            let sources = vec![
                                entity.resolved_from.source.to_owned(),
                                target.resolved_from.source.to_owned(),
                            ];
                            conflicts.add(
                                ConflictKind::PointerTypeMismatch,
                                pointer_id,
                                unique(sources),
                                Some(detail),
                            );
                        }
                        edges.push(Edge {
                            to: target.id(),
                            resolved: target.version().unwrap_or(&NULL),
                            resolved_from: Some(target.resolved_from),
                            status: EdgeStatus::Resolved,
                            to_type: Some(target.resource.kind()),
                            ..base
                        });
                    }
                    (Some(_), None) => edges.push(base),
                    (None, None) => {
                        let shown = match version {
                            None | Some(Value::Null) => Cow::Borrowed(""),
                            v => js_to_string(v),
                        };
                        let key = format!("{pointer_id}@{shown}");
                        let slot = *external_keys.entry(key).or_insert_with(|| {
                            externals.push(External {
                                id: pointer_id.to_owned(),
                                version: version.cloned(),
                                referenced_by: Vec::new(),
                            });
                            externals.len() - 1
                        });
                        let referenced_by = &mut externals[slot].referenced_by;
                        if !referenced_by.iter().any(|r| r == entity.id()) {
                            referenced_by.push(entity.id().to_owned());
                        }
                        edges.push(Edge {
                            status: EdgeStatus::External,
                            ..base
                        });
                    }
                }
            }
        }
    }

    Resolved {
        entities,
        assets,
        edges,
        conflicts: conflicts.finish(),
        warnings,
        externals,
        problems,
    }
}

fn resolve_assets(indexes: &[Index]) -> (Vec<ResolvedAsset<'_>>, Vec<AssetCollision>) {
    // Candidates grouped by path, groups in first-seen order (a JavaScript Map).
    let mut groups: Vec<(Value, Vec<ResolvedAsset>)> = Vec::new();
    let mut slots: FastMap<String, usize> = FastMap::default();
    for index in indexes {
        let from = ResolvedFrom {
            source: &index.source,
            commit: &index.commit,
        };
        for asset in &index.assets {
            let path = asset.get("path");
            let slot = *slots.entry(js_key(path)).or_insert_with(|| {
                groups.push((path.cloned().unwrap_or(Value::Null), Vec::new()));
                groups.len() - 1
            });
            groups[slot].1.push(ResolvedAsset {
                asset: asset.clone(),
                resolved_from: from,
                contributors: None,
            });
        }
    }
    let mut assets = Vec::new();
    let mut warnings = Vec::new();
    for (path, mut candidates) in groups {
        js_sort_by(&mut candidates, |a, b| {
            cmp_code_units(a.resolved_from.source, b.resolved_from.source)
                .then_with(|| cmp_code_units(a.resolved_from.commit, b.resolved_from.commit))
        });
        let mut sources = unique(candidates.iter().map(|c| c.resolved_from.source.to_owned()));
        js_sort_by(&mut sources, |a, b| cmp_code_units(a, b));
        let hashes = unique(candidates.iter().map(|c| js_key(c.asset.get("hash"))));
        let comparable = candidates.iter().all(|c| c.asset.contains_key("hash"));
        let several = candidates.len() > 1;
        let collision = several && (!comparable || hashes.len() > 1);
        let mut winner = candidates.swap_remove(0);
        if collision {
            warnings.push(AssetCollision {
                path,
                sources: sources.clone(),
                winner: winner.resolved_from.source.to_owned(),
            });
        } else if several {
            winner.contributors = Some(
                sources
                    .into_iter()
                    .filter(|s| *s != winner.resolved_from.source)
                    .collect(),
            );
        }
        assets.push(winner);
    }
    js_sort_by(&mut assets, |a, b| {
        compare_text(a.asset.get("path"), b.asset.get("path"))
    });
    js_sort_by(&mut warnings, |a, b| {
        compare_text(Some(&a.path), Some(&b.path))
    });
    (assets, warnings)
}

/// Conflicts merged by (kind, id), in first-added order until sorted.
#[derive(Default)]
struct Conflicts {
    list: Vec<Conflict>,
    slots: FastMap<(ConflictKind, String), usize>,
}

impl Conflicts {
    fn add(&mut self, kind: ConflictKind, id: &str, sources: Vec<String>, detail: Option<String>) {
        let key = (kind, id.to_owned());
        if let Some(&slot) = self.slots.get(&key) {
            let conflict = &mut self.list[slot];
            let mut merged = unique(conflict.sources.iter().cloned().chain(sources));
            js_sort_by(&mut merged, |a, b| cmp_code_units(a, b));
            conflict.sources = merged;
            if conflict.detail.is_none() {
                conflict.detail = detail;
            }
            return;
        }
        let mut sources = unique(sources);
        js_sort_by(&mut sources, |a, b| cmp_code_units(a, b));
        self.slots.insert(key, self.list.len());
        self.list.push(Conflict {
            kind,
            id: id.to_owned(),
            sources,
            detail,
        });
    }

    fn finish(self) -> Vec<Conflict> {
        let mut list = self.list;
        js_sort_by(&mut list, |a, b| {
            cmp_code_units(&a.id, &b.id)
                .then_with(|| cmp_code_units(a.kind.as_str(), b.kind.as_str()))
        });
        list
    }
}

/// The pointer objects of one field of `entity` (`list`: its value of the field `reach`
/// starts from); entries of the wrong shape become problems.
fn pointers<'a>(
    entity: &Entity<'a>,
    reach: Reach,
    list: Option<&'a Value>,
    problems: &mut Vec<ResolveProblem>,
) -> Vec<&'a Map<String, Value>> {
    let mut problem = |field: String, kind| {
        problems.push(ResolveProblem {
            index_source: entity.resolved_from.source.to_owned(),
            entity_type: entity.resource.kind().to_owned(),
            entity: entity.id().to_owned(),
            entity_version: entity.resource.version().map(str::to_owned),
            field,
            kind,
        })
    };
    // Where each entry sits, spelled out only for a problem: most pointers are fine.
    let mut entries: Vec<(Place, &Value)> = Vec::new();
    match reach {
        Reach::Direct(field) => match list {
            None | Some(Value::Null) => {}
            Some(Value::Array(list)) => entries.extend(
                list.iter()
                    .enumerate()
                    .map(|(i, v)| (Place::Item(field, i), v)),
            ),
            Some(_) => problem(field.to_owned(), ProblemKind::NotAList),
        },
        Reach::Nested(field, sub) => {
            // A non-list `field` was already reported by its `Direct` scan.
            if let Some(Value::Array(list)) = list {
                // Scalar entries have no `to`; the `Direct` scan already reported them.
                for (i, map) in list
                    .iter()
                    .enumerate()
                    .filter_map(|(i, v)| Some((i, v.as_object()?)))
                {
                    match map.get(sub) {
                        None | Some(Value::Null) => {}
                        // `flatMap` spreads a list and keeps any other value as one entry.
                        Some(Value::Array(list)) => entries.extend(
                            list.iter()
                                .enumerate()
                                .map(|(j, v)| (Place::NestedItem(field, i, sub, j), v)),
                        ),
                        Some(v) => entries.push((Place::Nested(field, i, sub), v)),
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    for (place, value) in entries {
        match value {
            Value::Object(map) if map.get("id").is_some_and(Value::is_string) => out.push(map),
            Value::Object(_) => problem(place.to_string(), ProblemKind::MissingId),
            _ => problem(place.to_string(), ProblemKind::NotAPointer),
        }
    }
    out
}

/// Where a pointer entry sits in its entity: `sends[2]`, `receives[0].from`, ...
#[derive(Clone, Copy)]
enum Place {
    Item(&'static str, usize),
    Nested(&'static str, usize, &'static str),
    NestedItem(&'static str, usize, &'static str, usize),
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Place::Item(field, i) => write!(f, "{field}[{i}]"),
            Place::Nested(field, i, sub) => write!(f, "{field}[{i}].{sub}"),
            Place::NestedItem(field, i, sub, j) => write!(f, "{field}[{i}].{sub}[{j}]"),
        }
    }
}

/// SDK `selectTarget` (§10.5): the index of the chosen entity.
fn select_target(
    entities: &[Entity<'_>],
    candidates: &[usize],
    version: Option<&Value>,
) -> Option<usize> {
    let (&first, rest) = candidates.split_first()?;
    let version_of = |i: usize| entities[i].version();
    if version.is_none() || version.and_then(Value::as_str) == Some("latest") {
        return Some(rest.iter().fold(first, |best, &c| {
            if is_higher(version_of(c), version_of(best)) {
                c
            } else {
                best
            }
        }));
    }
    if let Some(&exact) = candidates
        .iter()
        .find(|&&c| strict_eq(version_of(c), version))
    {
        return Some(exact);
    }
    let range = Range::parse(version.and_then(Value::as_str)?)?;
    candidates.iter().fold(None, |best, &c| {
        let Some(v) = version_of(c)
            .and_then(Value::as_str)
            .and_then(SemVer::parse)
        else {
            return best;
        };
        if !range.satisfies(&v) {
            return best;
        }
        match best {
            Some(b) if !is_higher(version_of(c), version_of(b)) => Some(b),
            _ => Some(c),
        }
    })
}

/// SDK `isHigherVersion` on raw JSON values (versions may be numbers or null).
fn is_higher(candidate: Option<&Value>, current: Option<&Value>) -> bool {
    if candidate.is_none() || strict_eq(candidate, current) {
        return false;
    }
    if current.is_none() {
        return true;
    }
    let semver = |v: Option<&Value>| v.and_then(Value::as_str).and_then(SemVer::parse);
    if let (Some(a), Some(b)) = (semver(candidate), semver(current)) {
        return a > b;
    }
    compare_text(candidate, current) == Ordering::Greater
}

/// `value ?? fallback`.
fn nullish_or<'a>(value: Option<&'a Value>, fallback: &'a Value) -> &'a Value {
    match value {
        None | Some(Value::Null) => fallback,
        Some(v) => v,
    }
}

/// Distinct values in first-seen order (`[...new Set(values)]`).
fn unique<T: PartialEq>(values: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut out = Vec::new();
    for v in values {
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// A key with JavaScript `Map`/`Set` identity: primitives by value, objects and arrays by
/// reference (their address stands in for the reference).
fn js_key(value: Option<&Value>) -> String {
    match value {
        None => "u".to_owned(),
        Some(Value::String(s)) => format!("s{s}"),
        Some(Value::Number(n)) => format!("n{}", n.as_f64().unwrap_or(f64::NAN)),
        Some(v @ (Value::Null | Value::Bool(_))) => format!("p{v}"),
        Some(v) => format!("o{:p}", v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(resources: Value) -> Index {
        let doc = serde_json::json!({"indexVersion": 1, "source": "s", "commit": "c", "resources": resources});
        Index::from_value(&doc).expect("index")
    }

    #[test]
    fn bad_pointer_shapes_are_problems_not_crashes() {
        let indexes = [index(serde_json::json!([
            {"type": "event", "id": "E", "version": "1.0.0"},
            {"type": "service", "id": "S", "version": "1.0.0",
             "sends": "E",
             "receives": [{"id": "E"}, {"version": "1.0.0"}, null, {"id": "E", "from": "Q", "triggers": [{"id": "E"}, 7]}],
             "channels": {"id": "E"}}
        ]))];
        let r = resolve(&indexes);
        let found: Vec<(&str, ProblemKind)> = r
            .problems
            .iter()
            .map(|p| (p.field.as_str(), p.kind))
            .collect();
        assert_eq!(
            found,
            vec![
                ("sends", ProblemKind::NotAList),
                ("receives[1]", ProblemKind::MissingId),
                ("receives[2]", ProblemKind::NotAPointer),
                ("channels", ProblemKind::NotAList),
                ("receives[3].from", ProblemKind::NotAPointer),
                ("receives[3].triggers[1]", ProblemKind::NotAPointer),
            ]
        );
        assert!(
            r.problems
                .iter()
                .all(|p| p.entity == "S" && p.index_source == "s")
        );
        // The well-formed pointers still give the SDK's edges.
        let edges: Vec<(&str, Option<&str>)> =
            r.edges.iter().map(|e| (e.direction, e.via)).collect();
        assert_eq!(
            edges,
            vec![
                ("receives", None),
                ("receives", None),
                ("sends", Some("receives.triggers"))
            ]
        );
        assert_eq!(
            r.problems[0].to_string(),
            "s: service `S`: `sends` is not a list of pointers"
        );
    }

    #[test]
    fn single_object_under_to_is_one_pointer() {
        // `flatMap` keeps a non-list value as one entry, so the SDK resolves it.
        let indexes = [index(serde_json::json!([
            {"type": "channel", "id": "Q", "version": "1.0.0"},
            {"type": "service", "id": "S", "sends": [{"id": "Q", "to": {"id": "Q"}}]}
        ]))];
        let r = resolve(&indexes);
        assert!(r.problems.is_empty());
        assert_eq!(r.edges.len(), 2);
        assert_eq!(r.edges[1].via, Some("sends.to"));
        assert_eq!(r.edges[1].status, EdgeStatus::Resolved);
    }
}
