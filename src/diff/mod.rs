//! The ArchitectureDiff document (schemaVersion 1): the JSON output contract of
//! spec/architecture-diff.md, as serde types. Field order here is the order in the output;
//! absent values are omitted, never written as null (except a schema change's `breaking` and
//! `direction`).

mod assemble;
mod impact;
mod order;
mod reached;
mod specification;

pub use assemble::{
    MESSAGE_TYPES, Options, Prepared, VerdictCache, diff, diff_cached, diff_prepared,
    diff_with_files, summarize,
};
pub use specification::{SpecificationChange, SpecificationSummary};

use serde::Serialize;

use crate::catalog::Diagnostic;
use crate::schema::{Direction, Strategy};

#[derive(Clone, Debug, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ArchitectureDiff {
    pub schema_version: u32,
    pub refs: Refs,
    pub compatibility: Compatibility,
    pub summary: Summary,
    pub resources: ResourceChanges,
    pub edges: EdgeChanges,
    pub schema_changes: Vec<SchemaChange>,
    pub impact: Vec<Impact>,
    /// Our extension: under a transitive strategy, the candidate schema judged against each
    /// earlier version the catalog keeps (`message.version.a` is that version).
    #[serde(rename = "transitiveChecks", skip_serializing_if = "Vec::is_empty")]
    pub transitive_checks: Vec<SchemaChange>,
    /// Our extension: the AsyncAPI and OpenAPI files that changed, judged, each with the
    /// catalog messages it hurts (only when there are any; see `diff::specification`).
    #[serde(rename = "specificationChanges", skip_serializing_if = "Vec::is_empty")]
    pub specification_changes: Vec<SpecificationChange>,
    /// Our extension: catalog problems found on either side (side `a` or `b`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub diagnostics: Vec<SideDiagnostic>,
    /// Our extension: the policy's decision (fingerprints, acknowledgements), when a
    /// configuration or acknowledgements file was used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub policy: Option<crate::policy::Decision>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Refs {
    pub a: Ref,
    pub b: Ref,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Ref {
    pub source: String,
    pub commit: String,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Compatibility {
    pub strategy: Strategy,
}

#[derive(Clone, Debug, Default, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub breaking: bool,
    pub resources_added: usize,
    pub resources_removed: usize,
    pub resources_changed: usize,
    pub edges_added: usize,
    pub edges_removed: usize,
    pub schema_changes: usize,
    pub schema_breaking: usize,
    pub schema_unknown: usize,
    /// Our extension: `specificationChanges`, `specificationBreaking`, `specificationUnknown`,
    /// present only when there are specification changes. `breaking` above keeps its v1
    /// meaning (message schemas and removals).
    #[serde(flatten)]
    pub specifications: Option<SpecificationSummary>,
}

#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct ResourceChanges {
    pub added: Vec<ResourceRef>,
    pub removed: Vec<ResourceRef>,
    pub changed: Vec<ResourceChange>,
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ResourceRef {
    #[serde(rename = "type")]
    pub kind: String,
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<Version>,
}

/// A resource's version as its Index gives it: text, or, on a user or team (the only resources the
/// SDK indexes with a numeric one), a number (`version: 1.5`), which the document repeats as a
/// number and which differs from the text `"1.5"`, as in the library. It reads as its text (a
/// number as JavaScript's `String` writes it), which is what the library orders versions by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Version {
    Text(String),
    Number {
        value: serde_json::Number,
        text: String,
    },
}

impl Version {
    /// The version of an Index resource's `version` value, when it is text or a number.
    pub fn of(value: &serde_json::Value) -> Option<Version> {
        match value {
            serde_json::Value::String(text) => Some(Version::Text(text.clone())),
            serde_json::Value::Number(value) => Some(Version::Number {
                text: crate::json_text::to_compact(value),
                value: value.clone(),
            }),
            _ => None,
        }
    }

    /// A `version` value as the library's string templates (`${version}`) and version order
    /// read it: text as it is, a number as JavaScript writes it; `None` for anything else.
    pub fn text_of(value: &serde_json::Value) -> Option<std::borrow::Cow<'_, str>> {
        match value {
            serde_json::Value::String(text) => Some(text.as_str().into()),
            serde_json::Value::Number(_) => Some(crate::json_text::to_compact(value).into()),
            _ => None,
        }
    }
}

impl From<String> for Version {
    fn from(text: String) -> Self {
        Version::Text(text)
    }
}

impl From<&str> for Version {
    fn from(text: &str) -> Self {
        Version::Text(text.to_owned())
    }
}

impl std::ops::Deref for Version {
    type Target = str;
    fn deref(&self) -> &str {
        match self {
            Version::Text(text) | Version::Number { text, .. } => text,
        }
    }
}

/// By text, then text before number: an order for sorted sets, not the library's version order
/// (`order::compare_versions`).
impl Ord for Version {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let is_number = |v: &Version| matches!(v, Version::Number { .. });
        (**self)
            .cmp(&**other)
            .then_with(|| is_number(self).cmp(&is_number(other)))
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self)
    }
}

impl Serialize for Version {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Version::Text(text) => serializer.serialize_str(text),
            Version::Number { value, .. } => value.serialize(serializer),
        }
    }
}

/// A `{a, b}` pair where either side may lack a value (the key is then omitted).
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct VersionPair {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub a: Option<Version>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub b: Option<Version>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ResourceChange {
    #[serde(rename = "type")]
    pub kind: String,
    pub id: String,
    pub version: VersionPair,
    pub fields: Vec<&'static str>,
}

#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct EdgeChanges {
    pub added: Vec<Edge>,
    pub removed: Vec<Edge>,
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct Edge {
    pub direction: String,
    pub from: End,
    pub to: End,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

/// One end of an edge; `type` is absent when that end does not resolve.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct End {
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<Version>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SchemaChange {
    pub message: SchemaMessage,
    pub change: FileChange,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before: Option<SchemaFile>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<SchemaFile>,
    // The reference's key order: `strategy` before the verdict.
    pub strategy: Strategy,
    pub breaking: Option<bool>,
    pub direction: Option<Direction>,
    pub ops: Vec<crate::schema::Op>,
    /// Our extension: why no verdict was possible (unsupported format, parse error, ...).
    #[serde(rename = "unknownReason", skip_serializing_if = "Option::is_none")]
    pub unknown_reason: Option<String>,
    /// Our extension, on a transitive check against the history (`--history`): the newest
    /// commit of the baseline's history that held the earlier schema.
    #[serde(rename = "againstCommit", skip_serializing_if = "Option::is_none")]
    pub against_commit: Option<String>,
    /// Not in the document: the schema file is in neither catalog. The reference lists the
    /// pair (as modified, without a verdict), but it is no change the comparison makes: the
    /// policy does not count it, and the catalog's own warning names the missing file.
    #[serde(skip)]
    pub in_neither_catalog: bool,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SchemaMessage {
    #[serde(rename = "type")]
    pub kind: String,
    pub id: String,
    pub version: VersionPair,
}

#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum FileChange {
    Modified,
    Added,
    Removed,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SchemaFile {
    pub path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// The format its schema entry declares (not part of the document): what a check beside
    /// the diff (against the history) reads the file as.
    #[serde(skip)]
    pub format: Option<String>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Impact {
    pub message: ResourceRef,
    pub reason: ImpactReason,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub direction: Option<Direction>,
    pub producers: Vec<Party>,
    pub consumers: Vec<Party>,
}

#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum ImpactReason {
    SchemaBreakingChange,
    MessageRemoved,
    ProducerRemoved,
    ConsumerRemoved,
    /// Our extension, only inside `specificationChanges`: a breaking specification change
    /// reaches this message.
    SpecificationBreakingChange,
}

#[derive(Clone, Debug, Serialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct Party {
    #[serde(rename = "type")]
    pub kind: String,
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<Version>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owners: Option<Vec<String>>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SideDiagnostic {
    pub side: &'static str,
    #[serde(flatten)]
    pub diagnostic: Diagnostic,
}

/// One change's place in the document: type, id, its `{a, b}` versions (in the Index's version
/// order) and its file.
pub(crate) type ChangeKey<'a> = (&'a str, &'a str, Option<&'a str>, Option<&'a str>, &'a str);

/// The order of per-version changes (schema, transitive and specification changes).
pub(crate) fn change_order(x: ChangeKey<'_>, y: ChangeKey<'_>) -> std::cmp::Ordering {
    use crate::catalog::version::{cmp_code_units, index_order};
    cmp_code_units(x.0, y.0)
        .then_with(|| cmp_code_units(x.1, y.1))
        .then_with(|| index_order(x.2, y.2))
        .then_with(|| index_order(x.3, y.3))
        .then_with(|| x.4.cmp(y.4))
}
