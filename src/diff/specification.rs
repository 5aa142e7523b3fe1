//! Specification changes: the AsyncAPI and OpenAPI files of each resource paired between the
//! two sides (by `type` and `path`, then `type`, then elimination), the pairs whose hashes differ
//! judged by `spec`, and each breaking change joined to the catalog: an AsyncAPI message to the
//! catalog message with its id, an OpenAPI operation to the command or query whose front matter
//! `operation: {method, path}` names it, with that message's producers and consumers (and their
//! owners) from the baseline graph. An extension of the ArchitectureDiff document
//! (`specificationChanges`); the v1 keys keep their meaning.
//!
//! The Index carries no specification text, so this part reads each side's files (`Files`);
//! a diff made from Indexes alone reports a changed specification without a verdict.

use std::collections::{BTreeMap, BTreeSet};

use rayon::prelude::*;
use serde::Serialize;
use serde_json::{Map, Value};

use super::assemble::{MESSAGE_TYPES, Prepared};
use super::*;
use crate::catalog::version::{index_order, is_higher, js_sort_by};
use crate::catalog::{Resource, frontmatter};
use crate::schema::verdict::OpKind;
use crate::schema::{Files, Op};
use crate::spec::{self, Caller, Element, Source, Unknown};

/// The text of a catalog path of one side (invalid UTF-8 shown as U+FFFD, as for front matter).
fn text(files: &dyn Files, path: &str) -> Option<String> {
    files
        .read(path)
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
}

/// One specification file that changed between the two sides, judged.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SpecificationChange {
    /// The resource the specification belongs to.
    pub resource: SchemaMessage,
    /// The entry's `type` (`asyncapi`, `openapi`, ...).
    #[serde(rename = "type")]
    pub kind: String,
    pub change: FileChange,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before: Option<SchemaFile>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<SchemaFile>,
    pub breaking: Option<bool>,
    pub strategy: Strategy,
    pub direction: Option<Direction>,
    pub ops: Vec<Op>,
    /// Parts that could not be judged (a remote `$ref`, a payload format we do not read).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unknown: Vec<Unknown>,
    #[serde(rename = "unknownReason", skip_serializing_if = "Option::is_none")]
    pub unknown_reason: Option<String>,
    /// Who a breaking change hurts: one entry per catalog message it reaches (reason
    /// `specification_breaking_change`). Elements matching no catalog message have none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub impact: Vec<Impact>,
    /// The catalog file its first breaking op (else its first op) lies in, and the line.
    #[serde(skip)]
    pub place: Option<(String, usize)>,
    /// The catalog file and line of each op, in op order.
    #[serde(skip)]
    pub op_places: Vec<(String, usize)>,
    /// The catalog file and line of its first unknown part, if it has one.
    #[serde(skip)]
    pub unknown_place: Option<(String, usize)>,
}

impl SpecificationChange {
    /// Whether something in it was not judged: it has no verdict, or a part beside its
    /// verdict (a break) could not be judged. Reports show it and `--fail-on unknown` counts
    /// it, whatever else the change holds.
    pub fn is_unjudged(&self) -> bool {
        self.breaking.is_none() || !self.unknown.is_empty()
    }
}

impl ArchitectureDiff {
    /// Whether anything breaks: `summary.breaking` (message schemas and removals, its v1
    /// meaning), a transitive check, or a breaking specification change.
    pub fn is_breaking(&self) -> bool {
        self.summary.breaking
            || self
                .transitive_checks
                .iter()
                .any(|c| c.breaking == Some(true))
            || self
                .summary
                .specifications
                .as_ref()
                .is_some_and(|s| s.specification_breaking > 0)
    }

    /// How many changes have something nobody judged: schema changes without a verdict, and
    /// specification changes without one or with a part beside a break that could not be judged.
    /// A schema file in neither catalog is no change, and not counted here.
    pub fn unknown_count(&self) -> usize {
        self.schema_counts().1
            + self
                .summary
                .specifications
                .as_ref()
                .map_or(0, |s| s.specification_unknown)
    }

    /// How many schema changes there are, and how many of them have no verdict, as the summary
    /// counts them less the schema files in neither catalog: the document lists those as
    /// changes without a verdict, but they are none.
    pub fn schema_counts(&self) -> (usize, usize) {
        let in_neither = self.in_neither_catalog().count();
        let s = &self.summary;
        (
            s.schema_changes.saturating_sub(in_neither),
            s.schema_unknown.saturating_sub(in_neither),
        )
    }

    /// The schema changes whose file is in neither catalog: listed as the reference lists
    /// them, without a verdict, but no change the comparison makes.
    pub fn in_neither_catalog(&self) -> impl Iterator<Item = &SchemaChange> {
        self.schema_changes.iter().filter(|c| c.in_neither_catalog)
    }
}

/// The summary counters of specification changes (present only when there are any).
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SpecificationSummary {
    pub specification_changes: usize,
    pub specification_breaking: usize,
    pub specification_unknown: usize,
}

impl SpecificationSummary {
    pub fn of(changes: &[SpecificationChange]) -> Option<SpecificationSummary> {
        (!changes.is_empty()).then(|| SpecificationSummary {
            specification_changes: changes.len(),
            specification_breaking: changes.iter().filter(|c| c.breaking == Some(true)).count(),
            specification_unknown: changes.iter().filter(|c| c.is_unjudged()).count(),
        })
    }
}

/// Every resource version with specifications, grouped by (type, id), newest first.
fn groups<'a>(prepared: &Prepared<'a>) -> BTreeMap<(&'a str, &'a str), Vec<&'a Resource>> {
    let mut groups: BTreeMap<(&str, &str), Vec<&Resource>> = BTreeMap::new();
    for resource in &prepared.index.resources {
        if resource.get("specifications").is_some() {
            groups
                .entry((resource.kind(), resource.id()))
                .or_default()
                .push(resource);
        }
    }
    for versions in groups.values_mut() {
        js_sort_by(versions, |x, y| index_order(x.version(), y.version()));
    }
    groups
}

fn latest<'a>(versions: &[&'a Resource]) -> Option<&'a Resource> {
    versions
        .iter()
        .copied()
        .fold(None, |best: Option<&Resource>, next| match best {
            Some(current) if !is_higher(next.version(), current.version()) => Some(current),
            _ => Some(next),
        })
}

/// Resource version pairs whose specifications are compared: each version on both sides with
/// itself, then latest against latest when they differ (as schema files are).
fn resource_pairs<'a>(a: &Prepared<'a>, b: &Prepared<'a>) -> Vec<(&'a Resource, &'a Resource)> {
    let (before, after) = (groups(a), groups(b));
    let mut pairs = Vec::new();
    for (key, old_versions) in &before {
        let Some(new_versions) = after.get(key) else {
            continue;
        };
        for old in old_versions {
            if let Some(new) = new_versions.iter().find(|r| r.version() == old.version()) {
                pairs.push((*old, *new));
            }
        }
        if let (Some(old), Some(new)) = (latest(old_versions), latest(new_versions))
            && old.version() != new.version()
        {
            pairs.push((old, new));
        }
    }
    pairs
}

fn entries(resource: &Resource) -> Vec<&Map<String, Value>> {
    match resource.get("specifications") {
        Some(Value::Array(list)) => list.iter().filter_map(Value::as_object).collect(),
        _ => Vec::new(),
    }
}

fn field<'a>(entry: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    entry.get(key).and_then(Value::as_str)
}

type Entry<'a> = &'a Map<String, Value>;

/// Pairs specification entries by `type` and `path`, then `type` (one left of it on each side),
/// then by elimination (one left on each side).
fn pair_entries<'a>(
    before: Vec<Entry<'a>>,
    after: Vec<Entry<'a>>,
) -> Vec<(Option<Entry<'a>>, Option<Entry<'a>>)> {
    let mut left: Vec<Option<Entry<'a>>> = before.into_iter().map(Some).collect();
    let mut right: Vec<Option<Entry<'a>>> = after.into_iter().map(Some).collect();
    let mut pairs = Vec::new();
    let type_and_path = |e: &Entry<'_>| {
        (
            field(e, "type").map(str::to_owned),
            field(e, "path").map(str::to_owned),
        )
    };
    for slot in left.iter_mut() {
        let Some(wanted) = slot.as_ref().map(type_and_path) else {
            continue;
        };
        if let Some(other) = right
            .iter_mut()
            .find(|o| o.as_ref().map(type_and_path).as_ref() == Some(&wanted))
        {
            pairs.push((slot.take(), other.take()));
        }
    }
    let kinds: BTreeSet<Option<String>> = left
        .iter()
        .flatten()
        .map(|e| field(e, "type").map(str::to_owned))
        .collect();
    for kind in kinds {
        let of_kind = |e: &Option<Entry<'_>>| {
            e.as_ref()
                .is_some_and(|e| field(e, "type").map(str::to_owned) == kind)
        };
        if left.iter().filter(|e| of_kind(e)).count() == 1
            && right.iter().filter(|e| of_kind(e)).count() == 1
        {
            let l = left.iter_mut().find(|e| of_kind(e)).and_then(Option::take);
            let r = right.iter_mut().find(|e| of_kind(e)).and_then(Option::take);
            pairs.push((l, r));
        }
    }
    let rest_left: Vec<Entry<'a>> = left.into_iter().flatten().collect();
    let rest_right: Vec<Entry<'a>> = right.into_iter().flatten().collect();
    if rest_left.len() == 1 && rest_right.len() == 1 {
        pairs.push((Some(rest_left[0]), Some(rest_right[0])));
    } else {
        pairs.extend(rest_left.into_iter().map(|e| (Some(e), None)));
        pairs.extend(rest_right.into_iter().map(|e| (None, Some(e))));
    }
    pairs
}

/// Whether a specification whose own text did not change (`before` and `after`, one path)
/// bundles a file that did: one it names by a relative `$ref`, or one such a file names.
fn bundle_changed(
    old: &Resource,
    new: &Resource,
    before: Entry<'_>,
    after: Entry<'_>,
    a: &Prepared<'_>,
    b: &Prepared<'_>,
) -> bool {
    let path = |resource, entry| catalog_path(resource, field(entry, "path")?);
    let (Some(start), Some(a_files), Some(b_files)) = (path(new, after), a.files, b.files) else {
        return false;
    };
    if path(old, before).as_ref() != Some(&start) {
        return false;
    }
    let names = |file: &str, text: &str| {
        let dir = super::reached::folder_of(file);
        file_refs(text)
            .filter_map(|target| crate::path::normalize(&format!("{dir}/{target}")))
            .collect()
    };
    super::reached::reached_file_changed(start, a_files, b_files, &names)
}

/// The files a YAML or JSON text names by a relative `$ref` (`'./messages/x.yml#/X'` gives
/// `./messages/x.yml`); local (`#/...`) and remote (`https://...`) refs name none. Read from
/// the text as written, so a file that no longer parses is followed all the same.
fn file_refs(text: &str) -> impl Iterator<Item = &str> {
    text.match_indices("$ref").filter_map(|(at, _)| {
        let rest = text[at + 4..].trim_start_matches(['"', '\'']).trim_start();
        let rest = rest.strip_prefix(':')?.trim_start();
        let rest = rest.trim_start_matches(['"', '\'']);
        let end = rest
            .find(['"', '\'', '\n', '\r', ',', '}', ' ', '#'])
            .unwrap_or(rest.len());
        let target = &rest[..end];
        (!target.is_empty() && !target.contains("://")).then_some(target)
    })
}

/// The folder of a resource file (`a/b/index.mdx` -> `a/b`).
fn folder(resource: &Resource) -> &str {
    resource
        .str_field("contentPath")
        .and_then(|p| p.rsplit_once('/'))
        .map_or("", |(dir, _)| dir)
}

/// The catalog path of a specification entry of `resource`.
fn catalog_path(resource: &Resource, path: &str) -> Option<String> {
    let dir = folder(resource);
    let joined = if dir.is_empty() {
        path.to_owned()
    } else {
        format!("{dir}/{path}")
    };
    crate::path::normalize(&joined)
}

/// The specification changes of a diff, payloads judged with the diff's schema `options`;
/// `None` files on a side make every changed specification a change without a verdict.
pub(super) fn specification_changes(
    a: &Prepared<'_>,
    b: &Prepared<'_>,
    strategy: Strategy,
    options: &crate::schema::Options,
) -> Vec<SpecificationChange> {
    let pairs = resource_pairs(a, b);
    let mut changes: Vec<SpecificationChange> = pairs
        .par_iter()
        .flat_map_iter(|(old, new)| {
            pair_entries(entries(old), entries(new))
                .into_iter()
                .filter_map(|(before, after)| {
                    let change = judge(old, new, before, after, a, b, strategy, options)?;
                    Some(change)
                })
                .collect::<Vec<_>>()
        })
        .collect();
    js_sort_by(&mut changes, |x, y| {
        change_order(specification_key(x), specification_key(y))
    });
    changes
}

fn specification_key(change: &SpecificationChange) -> ChangeKey<'_> {
    let r = &change.resource;
    (
        &r.kind,
        &r.id,
        r.version.a.as_deref(),
        r.version.b.as_deref(),
        file_of(change),
    )
}

fn file_of(change: &SpecificationChange) -> &str {
    change
        .before
        .as_ref()
        .or(change.after.as_ref())
        .map_or("", |f| f.path.as_str())
}

fn file(entry: Entry<'_>) -> SchemaFile {
    SchemaFile {
        path: field(entry, "path").unwrap_or_default().to_owned(),
        hash: field(entry, "hash").map(str::to_owned),
        content: None,
        format: None,
    }
}

#[allow(
    clippy::too_many_arguments,
    reason = "one pair of entries with both sides' context"
)]
fn judge(
    old: &Resource,
    new: &Resource,
    before: Option<Entry<'_>>,
    after: Option<Entry<'_>>,
    a: &Prepared<'_>,
    b: &Prepared<'_>,
    strategy: Strategy,
    options: &crate::schema::Options,
) -> Option<SpecificationChange> {
    let change = match (before, after) {
        (Some(x), Some(y))
            if field(x, "hash") == field(y, "hash") && !bundle_changed(old, new, x, y, a, b) =>
        {
            return None;
        }
        (Some(_), Some(_)) => FileChange::Modified,
        (None, Some(_)) => FileChange::Added,
        (Some(_), None) => FileChange::Removed,
        (None, None) => return None,
    };
    let kind = after
        .or(before)
        .and_then(|e| field(e, "type"))
        .unwrap_or_default()
        .to_owned();
    let mut result = SpecificationChange {
        resource: SchemaMessage {
            kind: new.kind().to_owned(),
            id: new.id().to_owned(),
            version: VersionPair {
                a: old.version().map(Version::from),
                b: new.version().map(Version::from),
            },
        },
        kind: kind.clone(),
        change,
        before: before.map(file),
        after: after.map(file),
        breaking: None,
        strategy,
        direction: None,
        ops: Vec::new(),
        unknown: Vec::new(),
        unknown_reason: None,
        impact: Vec::new(),
        place: None,
        op_places: Vec::new(),
        unknown_place: None,
    };
    let (Some(before), Some(after)) = (before, after) else {
        result.unknown_reason = Some(format!(
            "the specification file was {}",
            if change == FileChange::Added {
                "added"
            } else {
                "removed"
            }
        ));
        result.place = after
            .or(before)
            .and_then(|e| catalog_path(new, field(e, "path")?))
            .map(|f| (f, 1));
        return Some(result);
    };
    let paths = (
        catalog_path(old, field(before, "path").unwrap_or_default()),
        catalog_path(new, field(after, "path").unwrap_or_default()),
    );
    result.place = paths.1.clone().map(|f| (f, 1));
    // An entry without a `type` is told from its content.
    let verdict = match (&kind[..], paths, a.files, b.files) {
        (
            "asyncapi" | "openapi" | "",
            (Some(before_path), Some(after_path)),
            Some(a_files),
            Some(b_files),
        ) => match (text(a_files, &before_path), text(b_files, &after_path)) {
            (Some(old_text), Some(new_text)) => {
                let load_a = |path: &str| {
                    text(a_files, path).ok_or_else(|| format!("`{path}` is not in the catalog"))
                };
                let load_b = |path: &str| {
                    text(b_files, path).ok_or_else(|| format!("`{path}` is not in the catalog"))
                };
                let sources = [
                    Source {
                        path: &before_path,
                        text: &old_text,
                        load: &load_a,
                    },
                    Source {
                        path: &after_path,
                        text: &new_text,
                        load: &load_b,
                    },
                ];
                let verdict = spec::compare(sources[0], sources[1], strategy, options);
                match verdict {
                    Ok(verdict) => {
                        // The unknown parts are placed after the ops: a change with no op
                        // is shown where its first unknown part is.
                        // A removed element's path names it in the baseline.
                        let paths = (verdict.ops.iter())
                            .map(|op| (op.path.as_str(), op.op == OpKind::Remove));
                        let unknown = (verdict.unknown.iter())
                            .map(|u| (u.path.as_str(), false))
                            .take(1);
                        let mut places =
                            places(paths.chain(unknown), &after_path, &new_text, b_files);
                        let first = verdict
                            .ops
                            .iter()
                            .position(|op| op.breaking)
                            .or((!places.is_empty()).then_some(0));
                        if let Some(at) = first {
                            result.place = Some(places[at].clone());
                        }
                        result.unknown_place = places.get(verdict.ops.len()).cloned();
                        places.truncate(verdict.ops.len());
                        result.op_places = places;
                        Ok(verdict)
                    }
                    // Where both sides are broken, both are named (they often share a path).
                    Err(error) => match sources.map(|source| spec::check(source).err()) {
                        [Some(a), Some(b)] => Err(format!("baseline: {a}; candidate: {b}")),
                        _ => Err(error.to_string()),
                    },
                }
            }
            _ => Err("the specification is not in the catalog on one side".to_owned()),
        },
        ("asyncapi" | "openapi" | "", _, Some(_), Some(_)) => {
            Err("the specification path points outside the catalog".to_owned())
        }
        ("asyncapi" | "openapi" | "", ..) => {
            Err("the catalog files were not read, only their Index".to_owned())
        }
        (other, ..) => Err(format!("{other} specifications are not compared")),
    };
    match verdict {
        Ok(verdict) => {
            result.impact = impact(old, &verdict, a);
            result.breaking = verdict.breaking;
            result.direction = verdict.direction;
            result.ops = verdict.ops;
            result.unknown = verdict.unknown;
            result.unknown_reason = verdict.unknown_reason;
        }
        Err(reason) => result.unknown_reason = Some(reason),
    }
    Some(result)
}

/// Where each of `paths` (op and unknown-part paths) lies: the specification, or a file it
/// bundles (`file#pointer` paths), at the line of the node (of a removed one, flagged `true`:
/// of the nearest node of the candidate that surely survives, never a sibling that took its
/// index). Each file's text is located once.
fn places<'p>(
    paths: impl Iterator<Item = (&'p str, bool)>,
    file: &str,
    after: &str,
    files: &dyn Files,
) -> Vec<(String, usize)> {
    let mut trees: BTreeMap<String, Option<crate::schema::located::Located>> = BTreeMap::new();
    paths
        .map(|(path, removed)| {
            let (other, pointer) = spec::document::split_display(path);
            let in_file = other.unwrap_or(file);
            let tree = trees
                .entry(in_file.to_owned())
                .or_insert_with(|| match other {
                    Some(other) => text(files, other).and_then(|t| spec::lines::locate(&t)),
                    None => spec::lines::locate(after),
                });
            let line = tree.as_ref().map_or(1, |tree| match removed {
                true => spec::lines::removed_line(tree, pointer),
                false => spec::lines::pointer_line(tree, pointer),
            });
            (in_file.to_owned(), line)
        })
        .collect()
}

/// Lower case, letters and digits only: `OrderCreated`, `order-created` and `order_created`
/// are the same name.
fn loose(id: &str) -> String {
    id.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The catalog messages a breaking change reaches, with their parties.
fn impact(owner: &Resource, verdict: &spec::Verdict, a: &Prepared<'_>) -> Vec<Impact> {
    if verdict.breaking != Some(true) {
        return Vec::new();
    }
    // The directions each touched element is broken in.
    let mut broken: BTreeMap<&Element, (bool, bool)> = BTreeMap::new();
    for (op, elements) in verdict.ops.iter().zip(&verdict.elements) {
        let Some(direction) = op.direction else {
            continue;
        };
        for element in elements {
            let flags = broken.entry(element).or_default();
            flags.0 |= matches!(direction, Direction::Backward | Direction::Both);
            flags.1 |= matches!(direction, Direction::Forward | Direction::Both);
        }
    }
    let owned = Owned::new(owner, a);
    let mut by_message: BTreeMap<(String, String, Option<String>), (bool, bool)> = BTreeMap::new();
    for (element, flags) in broken {
        for message in owned.join(element) {
            let slot = by_message
                .entry((
                    message.kind,
                    message.id,
                    message.version.as_deref().map(str::to_owned),
                ))
                .or_default();
            slot.0 |= flags.0;
            slot.1 |= flags.1;
        }
    }
    by_message
        .into_iter()
        .map(|((kind, id, version), (backward, forward))| {
            let version = version.map(Version::from);
            (ResourceRef { kind, id, version }, backward, forward)
        })
        .map(|(message, backward, forward)| Impact {
            producers: a
                .graph
                .parties("sends", &message.id, message.version.as_deref()),
            consumers: a
                .graph
                .parties("receives", &message.id, message.version.as_deref()),
            message,
            reason: ImpactReason::SpecificationBreakingChange,
            direction: Direction::from_flags(backward, forward),
        })
        .collect()
}

/// The baseline catalog as the owner of a specification sees it, for the join.
struct Owned<'a> {
    owner: &'a Resource,
    a: &'a Prepared<'a>,
    /// Every message of the baseline.
    messages: Vec<&'a Resource>,
    /// The ids the owner points at and the messages in its folder: where loose names and
    /// operations are looked for.
    near: BTreeSet<&'a str>,
}

impl<'a> Owned<'a> {
    fn new(owner: &'a Resource, a: &'a Prepared<'a>) -> Owned<'a> {
        let messages: Vec<&Resource> = a
            .index
            .resources
            .iter()
            .filter(|r| MESSAGE_TYPES.contains(&r.kind()))
            .collect();
        let mut near: BTreeSet<&str> = BTreeSet::new();
        for key in ["sends", "receives"] {
            if let Some(Value::Array(list)) = owner.get(key) {
                near.extend(
                    list.iter()
                        .filter_map(|p| p.get("id").and_then(Value::as_str)),
                );
            }
        }
        let prefix = format!("{}/", folder(owner));
        near.extend(
            messages
                .iter()
                .filter(|m| {
                    m.str_field("contentPath")
                        .is_some_and(|p| p.starts_with(&prefix) || prefix == "/")
                })
                .map(|m| m.id()),
        );
        Owned {
            owner,
            a,
            messages,
            near,
        }
    }

    /// The catalog messages an element names (one version each).
    fn join(&self, element: &Element) -> Vec<ResourceRef> {
        let found: Vec<&Resource> = match element {
            Element::Message(id) => {
                let exact: Vec<&Resource> = self
                    .messages
                    .iter()
                    .copied()
                    .filter(|m| m.id() == id)
                    .collect();
                let lower = id.to_lowercase();
                let generated: Vec<&Resource> = self
                    .messages
                    .iter()
                    .copied()
                    .filter(|m| m.id() == lower)
                    .collect();
                let wanted = loose(id);
                let near: Vec<&Resource> = self
                    .messages
                    .iter()
                    .copied()
                    .filter(|m| self.near.contains(m.id()) && loose(m.id()) == wanted)
                    .collect();
                [exact, generated, near]
                    .into_iter()
                    .find(|found| !found.is_empty())
                    .unwrap_or_default()
            }
            Element::Operation {
                method,
                path,
                caller: Caller::Clients,
            } => self
                .messages
                .iter()
                .copied()
                .filter(|m| {
                    self.near.contains(m.id())
                        && self.operation_of(m).is_some_and(|(mm, mp)| {
                            mm.eq_ignore_ascii_case(method) && shape(&mp) == shape(path)
                        })
                })
                .collect(),
            Element::Operation { .. } => Vec::new(),
        };
        let ids: BTreeSet<(&str, &str)> = found.iter().map(|m| (m.kind(), m.id())).collect();
        ids.into_iter()
            .filter_map(|(kind, id)| self.version_of(kind, id, &found))
            .collect()
    }

    /// The `operation: {method, path}` front matter of a message (not part of the Index).
    fn operation_of(&self, message: &Resource) -> Option<(String, String)> {
        let files = self.a.files?;
        let source = text(files, message.str_field("contentPath")?)?;
        let data = frontmatter::parse(&source).ok()?;
        let operation = data.get("operation")?;
        Some((
            operation.get("method")?.as_str()?.to_owned(),
            operation.get("path")?.as_str()?.to_owned(),
        ))
    }

    /// The version the owner's pointer resolves to, else the latest.
    fn version_of(&self, kind: &str, id: &str, found: &[&Resource]) -> Option<ResourceRef> {
        let versions: Vec<&Resource> = found
            .iter()
            .copied()
            .filter(|m| m.kind() == kind && m.id() == id)
            .collect();
        let owner = (self.owner.id(), self.owner.version());
        let version = match self.a.graph.resolved_from(owner, id) {
            Some(version) if versions.iter().any(|m| m.version() == version.as_deref()) => version,
            _ => latest(&versions)?.version().map(str::to_owned),
        };
        Some(ResourceRef {
            kind: kind.to_owned(),
            id: id.to_owned(),
            version: version.map(Version::from),
        })
    }
}

/// `/orders/{}`: a path template with parameter names and a trailing `/` left out.
fn shape(template: &str) -> String {
    crate::spec::path_shape(template)
        .trim_end_matches('/')
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_loosely() {
        assert_eq!(loose("OrderCreated"), loose("order-created"));
        assert_eq!(loose("order_created"), "ordercreated");
        assert_eq!(shape("/orders/{id}/"), shape("/orders/{orderId}"));
    }

    fn entry(kind: &str, path: &str) -> Map<String, Value> {
        let mut map = Map::new();
        map.insert("type".into(), Value::from(kind));
        map.insert("path".into(), Value::from(path));
        map
    }

    #[test]
    fn entries_pair_by_type_and_path_then_type_then_elimination() {
        let (a1, a2) = (
            entry("asyncapi", "asyncapi.yml"),
            entry("openapi", "openapi.yml"),
        );
        let (b1, b2) = (
            entry("openapi", "v2/openapi.yml"),
            entry("asyncapi", "asyncapi.yml"),
        );
        let pairs = pair_entries(vec![&a1, &a2], vec![&b1, &b2]);
        assert_eq!(pairs.len(), 2);
        assert!(pairs.iter().all(|(x, y)| x.is_some() && y.is_some()));
        let (c1, c2) = (entry("asyncapi", "a.yml"), entry("asyncapi", "b.yml"));
        let (d1, d2) = (entry("asyncapi", "c.yml"), entry("asyncapi", "d.yml"));
        let pairs = pair_entries(vec![&c1, &c2], vec![&d1, &d2]);
        assert_eq!(pairs.len(), 4, "two of a type each side stay unpaired");
    }
}
