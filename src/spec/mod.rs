//! API specifications (AsyncAPI 2.x / 3.x, OpenAPI 3.0 / 3.1): read one ([`document`]), walk
//! two of the same kind for what changed (`asyncapi`, `openapi`; bodies and payloads go
//! through the schema engines, `payload`), and judge the changes with the rules tables of
//! [`rules`] through the one `judge` every format shares. The walkers say what changed and
//! where; the tables say whether it breaks; nothing here reads files (a [`Load`] does) or prints.
//! A change to a part no walker judges is an unknown part (`unjudged`), never "no change".
//!
//! A verdict also says which elements each op touches ([`Element`]: an AsyncAPI message, an
//! OpenAPI operation), so a diff can join a change to the catalog's messages and their parties.

mod asyncapi;
pub mod document;
pub mod lines;
mod openapi;
mod payload;
pub mod rules;
mod traits;
mod unjudged;

use std::fmt;

use serde::Serialize;

use crate::schema::verdict::{Change, OpKind, Rule, judge};
use crate::schema::{Direction, Op, Strategy};

pub use document::{Kind, Load};
pub use openapi::shape as path_shape;
pub use rules::Role;

/// The specification languages, as tables and fixture folders know them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Spec {
    AsyncApi,
    OpenApi,
}

impl Spec {
    pub const ALL: [Spec; 2] = [Spec::AsyncApi, Spec::OpenApi];

    pub fn name(self) -> &'static str {
        match self {
            Spec::AsyncApi => "AsyncAPI",
            Spec::OpenApi => "OpenAPI",
        }
    }

    /// The folder of its fixtures under `testdata/` and its id in README markers.
    pub fn id(self) -> &'static str {
        match self {
            Spec::AsyncApi => "asyncapi",
            Spec::OpenApi => "openapi",
        }
    }

    /// Its rules table (the structural rows; bodies and payloads use their format's rows).
    pub fn rules(self) -> &'static [Rule] {
        match self {
            Spec::AsyncApi => &rules::ASYNCAPI_RULES,
            Spec::OpenApi => &rules::OPENAPI_RULES,
        }
    }

    fn of(kind: Kind) -> Spec {
        if kind.is_asyncapi() {
            Spec::AsyncApi
        } else {
            Spec::OpenApi
        }
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Everything that stops two specifications from being compared at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The text does not parse in its syntax.
    #[error("`{file}` is not valid {syntax} (line {line}, column {column}): {message}")]
    Parse {
        file: String,
        syntax: &'static str,
        line: usize,
        column: usize,
        message: String,
    },
    /// It parses, but it is no API specification.
    #[error("`{file}` is not an AsyncAPI or OpenAPI document: {reason}")]
    NotASpecification { file: String, reason: String },
    /// Nesting deeper than the limit every format shares.
    #[error("`{file}` nests deeper than {limit} levels")]
    TooDeep { file: String, limit: usize },
    /// The two files are different languages.
    #[error(
        "`{before}` is {before_kind} but `{after}` is {after_kind}; compare two documents of the same kind"
    )]
    KindChanged {
        before: String,
        before_kind: &'static str,
        after: String,
        after_kind: &'static str,
    },
}

impl Error {
    /// The file the error is about.
    pub fn file(&self) -> &str {
        match self {
            Error::Parse { file, .. }
            | Error::NotASpecification { file, .. }
            | Error::TooDeep { file, .. } => file,
            Error::KindChanged { after, .. } => after,
        }
    }
}

/// One specification file to compare: its path (catalog path in a diff, the path given on the
/// command line for `catalog-diff spec`), its text, and how to read the files its relative
/// `$ref`s name (joined to the path; each side reads from its own tree).
#[derive(Clone, Copy)]
pub struct Source<'a> {
    pub path: &'a str,
    pub text: &'a str,
    pub load: Load<'a>,
}

/// What an op is about, for the join to the catalog.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Element {
    /// An AsyncAPI message, by its id (3.x: its key in the channel; 2.x: `messageId`, else its
    /// name in `components.messages`, else its `name`).
    Message(String),
    /// An OpenAPI operation: upper-case method and the path template as written (a webhook's
    /// name for a webhook, the URL expression for a callback), and who calls it.
    Operation {
        method: String,
        path: String,
        caller: Caller,
    },
}

/// Who calls an OpenAPI operation.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Caller {
    /// The service's clients: an operation of `paths`.
    Clients,
    /// The service: a webhook (3.1 `webhooks`).
    Webhook,
    /// The service, at a URL a request gave it: a callback, by its name and the operation
    /// that registers it (`paymentSettled of POST /payments`).
    Callback(String),
}

impl fmt::Display for Element {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Element::Message(id) => write!(f, "message {id}"),
            Element::Operation {
                method,
                path,
                caller,
            } => match caller {
                Caller::Clients => write!(f, "{method} {path}"),
                Caller::Webhook => write!(f, "webhook {path} {method}"),
                Caller::Callback(of) => write!(f, "callback {of}: {method} {path}"),
            },
        }
    }
}

/// A part of a specification that could not be judged, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Unknown {
    pub path: String,
    pub reason: String,
    #[serde(skip)]
    pub elements: Vec<Element>,
}

/// The outcome of judging two specifications under one strategy. Serialises as `{breaking,
/// direction, ops}` (plus `unknown` and `unknownReason` when there are any), the op shape of
/// schema changes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// `null` when something could not be judged and nothing that was judged breaks.
    pub breaking: Option<bool>,
    pub direction: Option<Direction>,
    pub ops: Vec<Op>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unknown: Vec<Unknown>,
    /// Why there is no verdict at all (a specification we do not judge), or a summary of the
    /// unknown parts.
    #[serde(rename = "unknownReason", skip_serializing_if = "Option::is_none")]
    pub unknown_reason: Option<String>,
    /// The elements each op touches, in op order (not part of the JSON).
    #[serde(skip)]
    pub elements: Vec<Vec<Element>>,
    /// Which language the documents are, when they were read.
    #[serde(skip)]
    pub kind: Option<Kind>,
}

impl Verdict {
    /// No verdict at all, for `reason`.
    pub fn unknown(reason: String) -> Verdict {
        Verdict {
            breaking: None,
            direction: None,
            ops: Vec::new(),
            unknown: Vec::new(),
            unknown_reason: Some(reason),
            elements: Vec::new(),
            kind: None,
        }
    }
}

/// What a walker found, unjudged: changes with the elements each touches, and unknown parts.
#[derive(Default)]
pub(crate) struct Found {
    changes: Vec<Change>,
    elements: Vec<Vec<Element>>,
    unknown: Vec<Unknown>,
}

impl Found {
    fn push(
        &mut self,
        rule: &'static Rule,
        op: OpKind,
        path: &str,
        what: String,
        elements: Vec<Element>,
    ) {
        self.push_about(rule, op, (path, None), what, elements);
    }

    /// [`Found::push`] of a change the path does not name (a message of an operation's list,
    /// a parameter by its position): `subject` does.
    fn push_about(
        &mut self,
        rule: &'static Rule,
        op: OpKind,
        (path, subject): (&str, Option<String>),
        what: String,
        elements: Vec<Element>,
    ) {
        let path = document::display(path);
        // The same change reached from many places (a message in several channels): one op,
        // every element. Changes that only share a place (two messages removed from one
        // operation's list, a default content type every message inherits) are one op each.
        if let Some(at) = self
            .changes
            .iter()
            .position(|c| c.rule == rule && c.op == op && c.path == path && c.what == what)
        {
            add_elements(&mut self.elements[at], elements);
            return;
        }
        self.changes.push(Change {
            rule,
            op,
            path,
            what,
            reference: None,
            subject,
        });
        self.elements.push(elements);
    }

    /// Forgets the changes at `pointer` or below it (covered by an unknown part there).
    fn drop_within(&mut self, pointer: &str) {
        let shown = document::display(pointer);
        (self.changes, self.elements) = std::mem::take(&mut self.changes)
            .into_iter()
            .zip(std::mem::take(&mut self.elements))
            .filter(|(change, _)| !within(&shown, &change.path))
            .unzip();
    }

    fn unknown(&mut self, path: &str, reason: String, elements: Vec<Element>) {
        let path = document::display(path);
        // The same part found again (through another operation, a message shared by several)
        // adds what it touches, as a change reached from many places does.
        match self
            .unknown
            .iter_mut()
            .find(|u| u.path == path && u.reason == reason)
        {
            Some(known) => add_elements(&mut known.elements, elements),
            None => self.unknown.push(Unknown {
                path,
                reason,
                elements,
            }),
        }
    }
}

/// Parts of one document of the wrong shape, by pointer, with why: the specification does not
/// say what they mean, so they are unknown parts, never read as absent or as empty elements.
pub(crate) type Malformed = std::collections::BTreeMap<String, String>;

/// Adds to the elements a finding touches those of `more` it does not name yet. A finding
/// touches a few elements: a list keeps them in the order found.
fn add_elements(elements: &mut Vec<Element>, more: Vec<Element>) {
    for element in more {
        if !elements.contains(&element) {
            elements.push(element);
        }
    }
}

/// Records in `malformed` that part `what` (at `at`) is not `shape` (`a map`, `a list`), as
/// `spec` requires it to be. Every part of the wrong shape is recorded through here.
fn wrong_shape(malformed: &mut Malformed, at: &str, (what, shape): (&str, &str), spec: Spec) {
    malformed.insert(
        at.to_owned(),
        format!("{what} is not {shape}, as {spec} requires, so it cannot be judged"),
    );
}

/// Element `what` of a specification (a path item, an operation, a parameter, a channel, a
/// message, ...) written at `at`, its refs followed: the node when it is a map, as the
/// specification requires, or the ref that leads nowhere, as [`document::follow`] gives them.
/// Anything else (`5`, `"q"`, a list) is recorded in `malformed` where the refs lead and gives
/// `None`: the walkers read no element from it, so it is an unknown part, never one added.
fn object<'v>(
    parsed: &'v document::Parsed,
    (node, at): (&'v serde_json::Value, &str),
    what: impl FnOnce() -> String,
    malformed: &mut Malformed,
) -> Option<document::Target<'v>> {
    match document::follow(parsed, node, at) {
        document::Target::Found(value, place) if !value.is_object() => {
            let (what, spec) = (what(), Spec::of(parsed.kind));
            wrong_shape(malformed, &place, (&what, "a map"), spec);
            // Where a ref led elsewhere, the place it is written at too: the element is
            // known there on the other side (an operation written in place), and what is
            // found below it must not be read as removed.
            if place != at {
                wrong_shape(malformed, at, (&what, "a map"), spec);
            }
            None
        }
        target => Some(target),
    }
}

/// Parts of the wrong shape (pointer, why) read on each side, `old` in `before` and `new` in
/// `after`: each that differs between the sides (or is on one side only) is an unknown part,
/// its reason worded by `reason`, naming the `elements` it may hold. A part alike on both sides
/// changed nothing. Gives the parts reported, whose findings below them are not to be kept.
fn malformed_parts(
    (before, old): (&document::Parsed, &Malformed),
    (after, new): (&document::Parsed, &Malformed),
    found: &mut Found,
    reason: impl Fn(&str, &str) -> String,
    elements: impl Fn(&str) -> Vec<Element>,
) -> Vec<String> {
    let places: std::collections::BTreeSet<&String> = old.keys().chain(new.keys()).collect();
    let mut covered = Vec::new();
    for at in places {
        let was = old.get(at).and(before.root.pointer(at));
        let is = new.get(at).and(after.root.pointer(at));
        if was.is_some() && was == is {
            continue;
        }
        let why = new.get(at).or(old.get(at)).map_or("", String::as_str);
        found.unknown(at, reason(at, why), elements(at));
        covered.push(at.clone());
    }
    covered
}

/// A media type as the two sides of an exchange read it: type and subtype without regard to
/// case, parameters by lower-case name in order, and JSON's `charset` left out (RFC 8259
/// defines none: JSON is UTF-8), so `Application/JSON; charset=utf-8` is `application/json`.
fn media_type(text: &str) -> String {
    let mut parts = text.split(';').map(str::trim);
    let essence = parts.next().unwrap_or_default().to_ascii_lowercase();
    let json = essence == "application/json" || essence.ends_with("+json");
    let mut parameters: Vec<String> = parts
        .filter(|part| !part.is_empty())
        .map(|part| match part.split_once('=') {
            Some((name, value)) => format!(
                "{}={}",
                name.trim().to_ascii_lowercase(),
                value.trim().trim_matches('"')
            ),
            None => part.to_ascii_lowercase(),
        })
        .filter(|parameter| !(json && parameter.starts_with("charset=")))
        .collect();
    parameters.sort();
    std::iter::once(essence)
        .chain(parameters)
        .collect::<Vec<_>>()
        .join("; ")
}

/// Whether media types `a` and `b` (as [`media_type`] gives them) are one type, one of them
/// written bare: `text/plain` and `text/plain; charset=utf-8` (a bare type says nothing of the
/// parameters), not `...; version=1` and `...; version=2`.
fn same_type(a: &str, b: &str) -> bool {
    let split = |m: &str| {
        let (essence, parameters) = m.split_once(';').unwrap_or((m, ""));
        (essence.to_owned(), parameters.is_empty())
    };
    let ((a, a_bare), (b, b_bare)) = (split(a), split(b));
    a == b && (a_bare || b_bare)
}

/// Whether `range` (`*/*`, `application/*`) is a media range that covers media type `media`
/// (both as [`media_type`] gives them); a concrete type covers nothing but itself, parameters
/// included (`text/plain; charset=iso-8859-1` is not `text/plain; charset=utf-8`). Only a
/// range looks past the parameters.
fn covers(range: &str, media: &str) -> bool {
    let essence = |m: &str| m.split(';').next().unwrap_or_default().to_owned();
    match essence(range).split_once('/') {
        Some(("*", "*")) => true,
        Some((kind, "*")) => essence(media)
            .split_once('/')
            .is_some_and(|(k, _)| k == kind),
        _ => range == media,
    }
}

/// Whether displayed path `inner` is `outer` or lies below it.
fn within(outer: &str, inner: &str) -> bool {
    inner == outer || inner.starts_with(&format!("{}/", outer.trim_end_matches('/')))
}

/// A rule of a specification table by id (the walkers name rows by id; a test checks each
/// exists).
fn rule(spec: Spec, id: &str) -> &'static Rule {
    spec.rules()
        .iter()
        .find(|rule| rule.id == id)
        .unwrap_or_else(|| panic!("the {spec} rules table has a row `{id}`"))
}

/// Whether a text reads as a specification: the error [`compare`] gives for it, if any (to
/// name every broken file of a failed comparison).
pub fn check(source: Source<'_>) -> Result<(), Error> {
    document::read(source.path, source.text, source.load).map(drop)
}

/// Compare two specifications and judge the changes under `strategy`; payloads and bodies in
/// a schema format are judged with that format's `options` (`--proto-rules` for Protobuf), as
/// message schemas are. A specification catalog-diff does not judge (Swagger 2.0, AsyncAPI
/// 1.x) gives an unknown verdict with the reason; text that is not a specification, or two
/// different languages, is an error.
pub fn compare(
    before: Source<'_>,
    after: Source<'_>,
    strategy: Strategy,
    options: &crate::schema::Options,
) -> Result<Verdict, Error> {
    let old = document::read(before.path, before.text, before.load)?;
    let new = document::read(after.path, after.text, after.load)?;
    let (mut old, mut new) = match (old, new) {
        (Ok(old), Ok(new)) => (old, new),
        (Err(reason), _) | (_, Err(reason)) => return Ok(Verdict::unknown(reason)),
    };
    if Spec::of(old.kind) != Spec::of(new.kind) {
        return Err(Error::KindChanged {
            before: before.path.to_owned(),
            before_kind: old.kind.name(),
            after: after.path.to_owned(),
            after_kind: new.kind.name(),
        });
    }
    if old.kind != new.kind && old.kind.is_asyncapi() {
        // AsyncAPI 3 moved operations out of channels and messages into them: a converted
        // document would read as everything removed and added, so, like the established
        // tools, the two are not paired up.
        return Ok(Verdict::unknown(format!(
            "`{}` is {} before and `{}` is {} after: documents of different AsyncAPI major versions are not compared (operations, channels and messages are laid out differently)",
            before.path,
            old.kind.name(),
            after.path,
            new.kind.name()
        )));
    }
    document::ref_siblings_as_all_of(&mut old, &mut new);
    document::strict_bounds_across_versions(&mut old, &mut new);
    let kind = new.kind;
    let found = if kind.is_asyncapi() {
        asyncapi::compare(&mut old, &mut new, after.path, options)
    } else {
        openapi::compare(&mut old, &mut new, after.path, options)
    }
    .map_err(|error| match error {
        crate::schema::Error::TooDeep { limit, .. } => Error::TooDeep {
            file: after.path.to_owned(),
            limit,
        },
        other => Error::NotASpecification {
            file: after.path.to_owned(),
            reason: other.to_string(),
        },
    })?;
    let mut found = found;
    if kind.is_asyncapi() {
        unjudged::asyncapi(&old, &new, &mut found);
    } else {
        unjudged::openapi(&old, &new, &mut found);
    }
    // A local ref that names nothing covers nothing that can be judged (one that stands the
    // same on both sides covers the same nothing), unless a walker said so already around it:
    // what it covers is an unknown part, not a schema relaxed to "anything".
    let (was, is) = (
        document::dangling_refs(&old.root),
        document::dangling_refs(&new.root),
    );
    for (path, reference) in was.symmetric_difference(&is) {
        let shown = document::display(path);
        if found
            .unknown
            .iter()
            .any(|u| within(&u.path, &shown) || within(&shown, &u.path))
        {
            continue;
        }
        found.drop_within(path);
        let side = if is.contains(&(path.clone(), reference.clone())) {
            &new
        } else {
            &old
        };
        found.unknown(path, side.names_nothing(reference), Vec::new());
    }
    // The same ref naming two different files neither side could read (`catalog-diff spec`
    // on two folders) hides whatever differs between them.
    for (reference, file) in &new.unread {
        if old.unread.get(reference).is_none_or(|was| was == file) {
            continue;
        }
        let why = new.unresolved.get(reference).cloned().unwrap_or_default();
        for (at, map) in crate::path::objects(&new.root) {
            if map.get("$ref").and_then(serde_json::Value::as_str) == Some(reference) {
                found.unknown(&at, why.clone(), Vec::new());
            }
        }
    }
    let judged = judge(found.changes, strategy);
    let unknown_reason = match found.unknown.as_slice() {
        [] => None,
        [one] => Some(format!("{} could not be judged: {}", one.path, one.reason)),
        [first, rest @ ..] => Some(format!(
            "{} parts could not be judged, first {}: {}",
            rest.len() + 1,
            first.path,
            first.reason
        )),
    };
    Ok(Verdict {
        breaking: if judged.breaking {
            Some(true)
        } else if found.unknown.is_empty() {
            Some(false)
        } else {
            None
        },
        direction: judged.direction,
        ops: judged.ops,
        unknown: found.unknown,
        unknown_reason,
        elements: found.elements,
        kind: Some(kind),
    })
}

/// The 1-based line where the node an op path names starts, in the text of the file the path
/// lies in (`file#pointer` paths lie in a bundled file, which `text_of` reads). 1 when it
/// cannot be placed.
pub fn line_of(text: &str, path: &str) -> usize {
    let (_, pointer) = document::split_display(path);
    lines::locate(text).map_or(1, |root| lines::pointer_line(&root, pointer))
}

/// A one-line summary, then one sentence per op and per part that could not be judged; the
/// names the specifications hold are escaped, as in every report.
pub fn explain(verdict: &Verdict) -> String {
    use crate::catalog::escape_text;
    let total = verdict.ops.len();
    let breaking = verdict.ops.iter().filter(|op| op.breaking).count();
    let mut out = match (verdict.breaking, verdict.direction) {
        (Some(true), direction) => format!(
            "Breaking ({}): {breaking} of {total} change(s) break compatibility.",
            direction.map_or("?", Direction::as_str)
        ),
        (Some(false), _) if total == 0 => {
            "No changes: the specifications describe the same exchanges.".to_owned()
        }
        (Some(false), _) => format!("Compatible: {total} change(s), none breaking."),
        (None, _) if total == 0 && verdict.unknown.is_empty() => format!(
            "No verdict: {}.",
            escape_text(verdict.unknown_reason.as_deref().unwrap_or("unknown"))
        ),
        (None, _) => format!(
            "No verdict: {} part(s) could not be judged; {total} change(s), none breaking.",
            verdict.unknown.len()
        ),
    };
    out.push('\n');
    for op in &verdict.ops {
        let (path, explanation) = (escape_text(&op.path), escape_text(&op.explanation));
        match op.direction {
            Some(direction) => out.push_str(&format!(
                "BREAKING ({}) {path}: {explanation}\n",
                direction.as_str()
            )),
            None => out.push_str(&format!("ok {path}: {explanation}\n")),
        }
    }
    for unknown in &verdict.unknown {
        let (path, reason) = (escape_text(&unknown.path), escape_text(&unknown.reason));
        out.push_str(&format!("unknown {path}: {reason}\n"));
    }
    out
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// `before` against `after`, both at `path`, under `full`: `load` reads the files they
    /// `$ref`.
    pub(in crate::spec) fn judged(
        path: &str,
        (before, after): (&str, &str),
        load: Load<'_>,
    ) -> Verdict {
        let source = |text| Source { path, text, load };
        compare(
            source(before),
            source(after),
            Strategy::Full,
            &Default::default(),
        )
        .expect("judged")
    }

    /// What a file `$ref` reads where there are no files.
    pub(in crate::spec) fn no_files(_: &str) -> Result<String, String> {
        Err("no files".to_owned())
    }

    /// One part found unjudgeable through two operations is one unknown part touching both.
    #[test]
    fn an_unknown_part_found_twice_touches_each_element_once() {
        let operation = |method: &str| Element::Operation {
            method: method.to_owned(),
            path: "/orders".to_owned(),
            caller: Caller::Clients,
        };
        let mut found = Found::default();
        for method in ["GET", "POST", "GET"] {
            found.unknown(
                "/paths/~1orders/parameters/0",
                "why".into(),
                vec![operation(method)],
            );
        }
        assert_eq!(found.unknown.len(), 1);
        assert_eq!(
            found.unknown[0].elements,
            [operation("GET"), operation("POST")]
        );
    }

    #[test]
    fn media_types_pair_as_the_parties_read_them() {
        assert_eq!(
            media_type("Application/JSON; charset=UTF-8"),
            "application/json"
        );
        assert_eq!(
            media_type("application/hal+json;charset=utf-8"),
            "application/hal+json"
        );
        assert_eq!(
            media_type("text/plain; Charset=\"utf-8\""),
            "text/plain; charset=utf-8"
        );
        assert!(covers("*/*", "application/json"));
        assert!(covers("application/*", "application/json"));
        assert!(!covers("text/*", "application/json"));
        assert!(!covers("application/json", "application/xml"));
        let (latin, utf8) = (
            media_type("text/plain; charset=iso-8859-1"),
            media_type("text/plain; charset=utf-8"),
        );
        assert!(!covers(&latin, &utf8));
        assert!(covers(&utf8, &media_type("Text/Plain;Charset=utf-8")));
        assert!(covers("text/*", &latin));
        assert!(same_type("text/plain", &utf8) && same_type(&utf8, "text/plain"));
        assert!(!same_type(&latin, &utf8));
        assert!(!same_type("text/plain", "text/html"));
    }

    #[test]
    fn a_file_ref_that_names_nothing_is_named_as_written() {
        let doc = |reference: &str| {
            format!(
                "openapi: 3.0.0\ninfo: {{title: t, version: '1'}}\npaths:\n  /x:\n    get:\n      \
                 responses:\n        '200':\n          description: ok\n          content: \
                 {{application/json: {{schema: {{$ref: '{reference}'}}}}}}\n"
            )
        };
        let load = |path: &str| match path {
            "specs/s.json" => Ok(r#"{"definitions": {"x": {"type": "string"}}}"#.to_owned()),
            _ => Err("missing".to_owned()),
        };
        let (before, after) = (
            doc("s.json#/definitions/x"),
            doc("s.json#/definitions/nope"),
        );
        let verdict = judged("specs/openapi.yaml", (&before, &after), &load);
        let reasons: Vec<&str> = verdict.unknown.iter().map(|u| u.reason.as_str()).collect();
        assert_eq!(
            reasons,
            ["`s.json#/definitions/nope` names nothing in `specs/s.json`"]
        );
    }

    #[test]
    fn elements_of_the_wrong_type_are_unknown_parts_saying_what_they_are() {
        let reasons = |before: &str, after: &str| {
            let verdict = judged("a.yaml", (before, after), &no_files);
            assert!(verdict.ops.is_empty() && verdict.breaking.is_none());
            verdict
                .unknown
                .into_iter()
                .map(|u| format!("{}: {}", u.path, u.reason))
                .collect::<Vec<_>>()
        };
        let openapi = "openapi: 3.0.0\ninfo: {title: t, version: '1'}\npaths:\n  /x:\n    get:\n      \
                       responses: {'200': {description: ok}}\n";
        let with = |text: &str, from: &str, to: &str| text.replacen(from, to, 1);
        assert_eq!(
            reasons(
                openapi,
                &with(
                    openapi,
                    "      responses",
                    "      parameters: [q]\n      responses"
                )
            ),
            [
                "/paths/~1x/get/parameters/0: `GET /x`: entry 0 of `parameters` is not a map, as OpenAPI requires, so it cannot be judged"
            ]
        );
        assert_eq!(
            reasons(openapi, &with(openapi, "    get:", "    post: 5\n    get:")),
            [
                "/paths/~1x/post: operation `POST /x` is not a map, as OpenAPI requires, so it cannot be judged"
            ]
        );
        let asyncapi = "asyncapi: 3.0.0\ninfo: {title: t, version: '1'}\nchannels:\n  orders:\n    \
                        address: orders\n    messages:\n      A: {payload: {type: string}}\n\
                        operations:\n  recv:\n    action: receive\n    channel: {$ref: '#/channels/orders'}\n";
        assert_eq!(
            reasons(
                asyncapi,
                &with(asyncapi, "      A: {payload: {type: string}}", "      A: 5")
            ),
            [
                "/channels/orders/messages/A: message `A` of channel `orders` is not a map, as AsyncAPI requires, so it cannot be judged"
            ]
        );
    }

    #[test]
    fn walkers_name_only_rows_that_exist() {
        for spec in Spec::ALL {
            for row in spec.rules() {
                assert_eq!(rule(spec, row.id), row);
            }
        }
    }
}
