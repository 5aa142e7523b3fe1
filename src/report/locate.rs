//! Where each finding of a diff lives in the catalog: the resource file that declares a message
//! or an edge, the schema file (and the line of its first breaking op) of a schema change, and
//! where each of its ops lies (a Protobuf element declared in a file the schema imports: in
//! that file).
//! Taken from the two Indexes the diff was made from, keeping only what the diff names, so a
//! report (or a `log` step) can place findings after the Indexes are gone. Paths are relative
//! to the catalog folder. Pure: the Indexes carry every path, and the schema text is the
//! Index's `content` or else the side's file.

use std::collections::BTreeMap;

use crate::catalog::{Index, Resource};
use crate::diff::{ArchitectureDiff, Impact, ImpactReason, SchemaChange, SchemaFile};
use crate::path::catalog_join;
use crate::schema::{Document, Files, Format};

/// The catalog files behind a diff's findings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Locations {
    /// (type, id, version) -> the resource's file; the candidate's wins over the baseline's.
    resources: BTreeMap<(String, String, Option<String>), String>,
    /// The schema file of each schema change, and the place of each of its ops (in the
    /// schema file, or in a file it imports that declares the element).
    schemas: BTreeMap<SchemaKey, (Place, Vec<Place>)>,
    /// The baseline's schema file of each schema change that has one: where its history is.
    earlier: BTreeMap<SchemaKey, String>,
}

/// A file in the catalog and, where known, the 1-based line of the finding in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    pub file: String,
    pub line: Option<usize>,
}

type Key = (String, String, Option<String>);

/// A schema change's identity: message type and id, both versions, both files with the format
/// their entries declare (two entries may read one file as two formats), and the commit a check
/// against the history compares with.
type SchemaKey = (
    String,
    String,
    Option<String>,
    Option<String>,
    Option<FileKey>,
    Option<FileKey>,
    Option<String>,
);

/// A schema file's path and its entry's declared format.
type FileKey = (String, Option<String>);

fn schema_key(change: &SchemaChange) -> SchemaKey {
    let m = &change.message;
    let file = |f: &SchemaFile| (f.path.clone(), f.format.clone());
    (
        m.kind.clone(),
        m.id.clone(),
        m.version.a.as_deref().map(str::to_owned),
        m.version.b.as_deref().map(str::to_owned),
        change.before.as_ref().map(file),
        change.after.as_ref().map(file),
        change.against_commit.clone(),
    )
}

fn key(kind: &str, id: &str, version: Option<&str>) -> Key {
    (kind.to_owned(), id.to_owned(), version.map(str::to_owned))
}

impl Locations {
    /// The places of every finding of `diff`, made from both sides' Indexes and files.
    pub fn of(
        diff: &ArchitectureDiff,
        before: (&Index, &dyn Files),
        after: (&Index, &dyn Files),
    ) -> Locations {
        let mut wanted: Vec<Key> = Vec::new();
        for impact in &diff.impact {
            let m = &impact.message;
            wanted.push(key(&m.kind, &m.id, m.version.as_deref()));
            if impact.reason == ImpactReason::MessageRemoved {
                for party in impact.consumers.iter().chain(&impact.producers) {
                    wanted.push(key(&party.kind, &party.id, party.version.as_deref()));
                }
            }
        }
        for edge in diff.edges.added.iter().chain(&diff.edges.removed) {
            if let Some(kind) = &edge.from.kind {
                wanted.push(key(kind, &edge.from.id, edge.from.version.as_deref()));
            }
        }
        for r in diff.resources.added.iter().chain(&diff.resources.removed) {
            wanted.push(key(&r.kind, &r.id, r.version.as_deref()));
        }
        for r in &diff.resources.changed {
            wanted.push(key(&r.kind, &r.id, r.version.b.as_deref()));
            wanted.push(key(&r.kind, &r.id, r.version.a.as_deref()));
        }
        wanted.sort();
        wanted.dedup();
        let mut resources = BTreeMap::new();
        if !wanted.is_empty() {
            for index in [before.0, after.0] {
                for resource in &index.resources {
                    let found = key(resource.kind(), resource.id(), resource.version());
                    if wanted.binary_search(&found).is_ok()
                        && let Some(file) = resource.str_field("contentPath")
                    {
                        resources.insert(found, file.to_owned());
                    }
                }
            }
        }
        let schemas = diff
            .schema_changes
            .iter()
            .chain(&diff.transitive_checks)
            .filter_map(|change| {
                let (mut place, ops) = schema_place(change, before, after)?;
                if change.breaking.is_none() && place.line.is_none() {
                    place.line = problem_line(diff, change, &place.file);
                }
                Some((schema_key(change), (place, ops)))
            })
            .collect();
        let earlier = diff
            .schema_changes
            .iter()
            .filter_map(|change| {
                let file = change.before.as_ref()?;
                let version = change.message.version.a.as_deref();
                let resource = find(before.0, change, version)?;
                Some((schema_key(change), schema_path(resource, &file.path)?))
            })
            .collect();
        Locations {
            resources,
            schemas,
            earlier,
        }
    }

    /// The file declaring a resource (any version when `version` is `None` and only one is
    /// known).
    pub fn resource(&self, kind: &str, id: &str, version: Option<&str>) -> Option<&str> {
        self.resources
            .get(&key(kind, id, version))
            .map(String::as_str)
    }

    /// Where a message removed while in use is to be fixed: the file of a resource that still
    /// uses it (a consumer, else a producer), which the candidate holds, unlike the removed
    /// message's own file.
    pub fn removal(&self, impact: &Impact) -> Option<&str> {
        let m = &impact.message;
        let parties = impact.consumers.iter().chain(&impact.producers);
        parties
            .map(|p| self.resource(&p.kind, &p.id, p.version.as_deref()))
            .find(Option::is_some)
            .flatten()
            .or_else(|| self.resource(&m.kind, &m.id, m.version.as_deref()))
    }

    /// The schema file of a schema change of the diff, with the line of its first breaking op.
    pub fn schema(&self, change: &SchemaChange) -> Option<&Place> {
        self.schemas
            .get(&schema_key(change))
            .map(|(place, _)| place)
    }

    /// The baseline's schema file of a schema change of the diff, which the candidate may have
    /// renamed or moved.
    pub fn schema_before(&self, change: &SchemaChange) -> Option<&str> {
        self.earlier.get(&schema_key(change)).map(String::as_str)
    }

    /// Places a schema change judged beside the Indexes (a transitive check against the
    /// history) in `document`, the catalog file after the change (with the files its imports
    /// are read from), of `format`.
    pub fn place_schema(&mut self, change: &SchemaChange, format: Format, document: Document<'_>) {
        let file = document.path;
        let ops = op_places(change, file, format, document);
        let place = Place {
            file: file.to_owned(),
            line: first_line(change, file, &ops),
        };
        self.schemas.insert(schema_key(change), (place, ops));
    }

    /// Where the `op`th op of a schema change lies: the schema file, or the file it imports
    /// that declares the element, and the line.
    pub fn op(&self, change: &SchemaChange, op: usize) -> Option<Place> {
        let (place, ops) = self.schemas.get(&schema_key(change))?;
        Some(ops.get(op).cloned().unwrap_or_else(|| place.clone()))
    }
}

/// The folder of a resource file (`a/b/index.mdx` -> `a/b`).
fn folder(content_path: &str) -> &str {
    content_path.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// The catalog path of `resource`'s schema entry `path`.
fn schema_path(resource: &Resource, path: &str) -> Option<String> {
    Some(catalog_join(
        folder(resource.str_field("contentPath")?),
        path,
    ))
}

fn find<'a>(
    index: &'a Index,
    change: &SchemaChange,
    version: Option<&str>,
) -> Option<&'a Resource> {
    index.resources.iter().find(|r| {
        r.kind() == change.message.kind && r.id() == change.message.id && r.version() == version
    })
}

fn schema_place(
    change: &SchemaChange,
    before: (&Index, &dyn Files),
    after: (&Index, &dyn Files),
) -> Option<(Place, Vec<Place>)> {
    let ((index, files), version, file) = match (&change.after, &change.before) {
        (Some(file), _) => (after, change.message.version.b.as_deref(), file),
        (None, Some(file)) => (before, change.message.version.a.as_deref(), file),
        (None, None) => return None,
    };
    let resource = find(index, change, version)?;
    let path = schema_path(resource, &file.path)?;
    let entry = resource
        .get("schemas")
        .and_then(|list| list.as_array())
        .and_then(|list| {
            list.iter()
                .find(|e| e.get("path").and_then(|p| p.as_str()) == Some(file.path.as_str()))
        });
    let ops: Vec<Place> = entry
        .and_then(|entry| {
            let text = match entry.get("content").and_then(|c| c.as_str()) {
                Some(content) => content.to_owned(),
                None => String::from_utf8_lossy(&files.read(&path)?).into_owned(),
            };
            let format = Format::detect(file.format.as_deref(), &file.path, &text).ok()?;
            let document = Document::new(&path, &text).with_files(files);
            Some(op_places(change, &path, format, document))
        })
        .unwrap_or_default();
    let line = first_line(change, &path, &ops);
    Some((Place { file: path, line }, ops))
}

/// The line of the problem the diff names in `file`, the file of a change without a verdict
/// that has no op to place it: where a schema that does not parse or compile goes wrong.
fn problem_line(diff: &ArchitectureDiff, change: &SchemaChange, file: &str) -> Option<usize> {
    // The file is the candidate's when the change has one (as `schema_place` takes it).
    let side = if change.after.is_some() { "b" } else { "a" };
    diff.diagnostics
        .iter()
        .filter(|d| d.side == side && d.diagnostic.file == file)
        .find_map(|d| d.diagnostic.line)
}

/// The place of each op of a change to the schema file `file` (`document`).
fn op_places(
    change: &SchemaChange,
    file: &str,
    format: Format,
    document: Document<'_>,
) -> Vec<Place> {
    (format.op_places(document, &change.ops).into_iter())
        .map(|(other, line)| Place {
            file: other.unwrap_or_else(|| file.to_owned()),
            line: Some(line),
        })
        .collect()
}

/// The line in the schema file `file` of a change's first breaking op (else of its first
/// op), given each op's place: the change's own place. An op placed in a file the schema
/// imports leaves the schema file at its first line.
fn first_line(change: &SchemaChange, file: &str, ops: &[Place]) -> Option<usize> {
    let first = change
        .ops
        .iter()
        .position(|op| op.breaking)
        .or((!change.ops.is_empty()).then_some(0));
    let op = ops.get(first?)?;
    Some(if op.file == file { op.line? } else { 1 })
}
