//! Bodies, parameters, payloads and headers: the schemas inside a specification, judged by the
//! engine of their format and read in the role the walker found them in ([`Role`]).
//!
//! JSON Schema (and the AsyncAPI and OpenAPI schema objects, which are JSON Schema with a few
//! annotations more) is compared in one walk per pair of documents: each body becomes a named
//! property of a schema at the document's root that points at it with a local `$ref`, so the
//! walker reports every change at its real place in the document, compares a definition shared
//! by many bodies once, and follows refs into `components` (and bundled files) on its own. A
//! change is then given the role of every body that reaches its place: a component used by an
//! input and an output is judged in both roles. Other formats (Avro, Protobuf) get their
//! payload as JSON text through the same `Format` seam as message schemas.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::document::{Parsed, Target, follow};
use super::rules::{Role, in_role};
use super::{Element, Found};
use crate::schema::json_schema::{compare, rules as schema_rules};
use crate::schema::verdict::OpKind;
use crate::schema::{Document, Format};

/// A body's schema format, as far as the walker could tell it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Payload {
    /// Judged in this format.
    Format(Format),
    /// Not judged, for this reason.
    Unsupported(String),
}

/// One schema found on both sides (or on one side, the other being "anything").
pub struct Body {
    /// Where it is in each document; `None`: absent on that side, which accepts anything.
    pub before: Option<String>,
    pub after: Option<String>,
    pub role: Role,
    pub elements: Vec<Element>,
    /// What it is, for people: `request body application/json of POST /orders`.
    pub what: String,
    pub payload: Payload,
    /// Written as text (a parameter by its `style`, a response header), not as JSON, so no
    /// `null` can be sent: adding or dropping one changes nothing on the wire.
    pub as_text: bool,
    /// In an OpenAPI request (`Some(true)`) or response (`Some(false)`), where `required` on a
    /// `readOnly` property holds in responses only and on a `writeOnly` one in requests only;
    /// `None` elsewhere.
    pub request: Option<bool>,
}

/// The keys of a document's root that the schema walker would read as keywords, besides the
/// assertions (`document::ASSERTIONS`); a specification has none, but a hostile one might, and
/// they must not leak into the walk.
const ROOT_KEYWORDS: &[&str] = &[
    "$ref",
    "dependencies",
    "additionalItems",
    "deprecated",
    "nullable",
];

/// Judge every body (those in another format than JSON Schema with that format's `options`);
/// changes and unknown parts go to `found`.
pub fn compare_bodies(
    before: &mut Parsed,
    after: &mut Parsed,
    bodies: &[Body],
    file: &str,
    options: &crate::schema::Options,
    found: &mut Found,
) -> Result<(), crate::schema::Error> {
    let mut json = Vec::new();
    for (index, body) in bodies.iter().enumerate() {
        // A place that holds nothing would be compared as a dangling ref on each side, which
        // reads as the same on both: say it, never pass it as unchanged.
        let lost = [(&*before, &body.before), (&*after, &body.after)]
            .into_iter()
            .find_map(|(parsed, at)| at.as_deref().filter(|at| parsed.root.pointer(at).is_none()));
        if let Some(at) = lost {
            let why = format!(
                "the schema of {} is not where it was read, so it cannot be judged",
                body.what
            );
            found.unknown(at, why, body.elements.clone());
            continue;
        }
        match &body.payload {
            // Any other format goes through its own engine (an `if`, not a match arm, so a
            // format added to the seam needs nothing here).
            Payload::Format(format) if *format == Format::JsonSchema => json.push(index),
            Payload::Format(format) => {
                other_format(before, after, body, *format, file, options, found)
            }
            Payload::Unsupported(reason) => found.unknown(
                body.after
                    .as_deref()
                    .or(body.before.as_deref())
                    .unwrap_or(""),
                reason.clone(),
                body.elements.clone(),
            ),
        }
    }
    if json.is_empty() {
        return Ok(());
    }
    // Each wrapper refs the body where it really is (through any chain of refs), since the
    // walker reports a pair of refs at the first definition it enters.
    let wrap = |parsed: &Parsed, at: &Option<String>| match at {
        Some(at) => {
            let target = match parsed.root.pointer(at).map(|node| follow(parsed, node, at)) {
                Some(Target::Found(_, resolved)) => resolved,
                _ => at.clone(),
            };
            let mut reference = Map::new();
            reference.insert("$ref".into(), Value::String(format!("#{target}")));
            Value::Object(reference)
        }
        None => Value::Bool(true),
    };
    let before_props: Map<String, Value> = json
        .iter()
        .map(|&i| (i.to_string(), wrap(before, &bodies[i].before)))
        .collect();
    let after_props: Map<String, Value> = json
        .iter()
        .map(|&i| (i.to_string(), wrap(after, &bodies[i].after)))
        .collect();
    let marked_before = mark_refs(&mut before.root);
    let marked_after = mark_refs(&mut after.root);
    let saved_before = install(&mut before.root, before_props);
    let saved_after = install(&mut after.root, after_props);
    let changes = compare::compare(&before.root, &after.root);
    restore(&mut before.root, saved_before);
    restore(&mut after.root, saved_after);
    unmark_refs(&mut before.root, &marked_before);
    unmark_refs(&mut after.root, &marked_after);
    let mut changes = changes?;
    for change in &mut changes {
        for side in [&mut change.before, &mut change.after]
            .into_iter()
            .flatten()
        {
            strip_marks(side);
        }
    }

    // Where each body reaches, on both sides: its own place and every definition it refs.
    let reach: Vec<BTreeSet<String>> = json
        .iter()
        .map(|&i| {
            let body = &bodies[i];
            let mut set = BTreeSet::new();
            // Each side is walked on its own: the same pointer leads elsewhere on the other.
            for (root, at) in [(&before.root, &body.before), (&after.root, &body.after)] {
                if let Some(at) = at {
                    let mut side = BTreeSet::new();
                    reachable(root, at, &mut side);
                    set.extend(side);
                }
            }
            set.insert(format!("/properties/{i}"));
            set
        })
        .collect();
    // A ref that cannot be followed hides what its node holds: what seems to change there is
    // covered by the unknown part the ref gives, not judged.
    let opaque: Vec<String> = changes
        .iter()
        .filter(|change| unread_ref(change).is_some())
        .map(|change| {
            let path = &change.path;
            path.strip_suffix("/$ref").unwrap_or(path).to_owned()
        })
        .collect();
    for change in changes {
        let under = |node: &String| {
            (change.path.strip_prefix(node.as_str()))
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        };
        let unread = unread_ref(&change).map(str::to_owned);
        if unread.is_none() && opaque.iter().any(under) {
            continue;
        }
        let covering: Vec<&Body> = json
            .iter()
            .zip(&reach)
            .filter(|(_, set)| covers(set, &change.path))
            .map(|(&i, _)| &bodies[i])
            .collect();
        if !covering.is_empty()
            && covering.iter().all(|b| b.as_text)
            && differs_only_by_null(&change)
        {
            continue;
        }
        // A requirement that holds in requests or responses only touches those bodies alone.
        let covering: Vec<&Body> = match required_only_in(before, after, &change) {
            Some(request) if !covering.is_empty() => {
                let held: Vec<&Body> = covering
                    .into_iter()
                    .filter(|b| b.request != Some(!request))
                    .collect();
                if held.is_empty() {
                    continue;
                }
                held
            }
            _ => covering,
        };
        let path = wrapper_path(&change.path, bodies);
        let elements: Vec<Element> = covering
            .iter()
            .flat_map(|b| b.elements.iter().cloned())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        if let Some(reference) = unread {
            let reason = after
                .unresolved
                .get(&reference)
                .or_else(|| before.unresolved.get(&reference))
                .cloned()
                .unwrap_or_else(|| format!("`{reference}` cannot be resolved"));
            found.unknown(&path, reason, elements);
            continue;
        }
        let role = covering
            .iter()
            .map(|b| b.role)
            .reduce(Role::and)
            .unwrap_or(Role::Both);
        let place = match covering.as_slice() {
            [one] => one.what.clone(),
            [] => "a schema".to_owned(),
            many => format!("a schema shared by {} places", many.len()),
        };
        let what = format!(
            "{place} ({}): {}",
            role.name(),
            schema_rules::describe(&change)
        );
        found.push_about(
            in_role(change.kind.rule(), role),
            change.op,
            (&path, schema_rules::subject(&change)),
            what,
            elements,
        );
    }
    Ok(())
}

/// The ref leading out of the document (after bundling, one that could not be read) that a
/// change meets on either side: a `$ref` that changed, or a schema replaced by such a ref or
/// by one (against a schema written out, or a ref cycle, read as `true`). What it covers is
/// unknown, never compared as the literal `{"$ref": ...}` object.
fn unread_ref(change: &compare::Change) -> Option<&str> {
    fn unread(reference: &Value) -> Option<&str> {
        reference.as_str().filter(|r| !r.starts_with('#'))
    }
    let sides = [&change.after, &change.before];
    if change.kind == schema_rules::ChangeKind::KeywordChanged && change.keyword == "$ref" {
        return sides.iter().find_map(|side| side.as_ref().and_then(unread));
    }
    if change.op != OpKind::Replace {
        return None;
    }
    sides
        .iter()
        .find_map(|side| side.as_ref()?.get("$ref").and_then(unread))
}

/// For a `required` change in OpenAPI: `Some(false)` when the property is `readOnly`, whose
/// requirement holds in responses only, `Some(true)` when it is `writeOnly` (requests only),
/// read on the side where it is required.
fn required_only_in(before: &Parsed, after: &Parsed, change: &compare::Change) -> Option<bool> {
    use schema_rules::ChangeKind::{RequiredAdded, RequiredAddedWithDefault, RequiredRemoved};
    let side = match change.kind {
        RequiredAdded | RequiredAddedWithDefault => after,
        RequiredRemoved => before,
        _ => return None,
    };
    if side.kind.is_asyncapi() {
        return None;
    }
    let node = side.root.pointer(&change.path)?;
    let Target::Found(property, _) = follow(side, node, &change.path) else {
        return None;
    };
    let flag = |key: &str| property.get(key) == Some(&Value::Bool(true));
    match (flag("readOnly"), flag("writeOnly")) {
        (true, false) => Some(false),
        (false, true) => Some(true),
        _ => None,
    }
}

/// A type change that only adds or drops `null` (`nullable` in OpenAPI 3.0).
fn differs_only_by_null(change: &compare::Change) -> bool {
    use schema_rules::ChangeKind::{TypeNarrowed, TypeWidened};
    fn types(side: &Option<Value>) -> Option<BTreeSet<&str>> {
        let listed: Vec<&Value> = match side.as_ref()? {
            Value::Array(types) => types.iter().collect(),
            single => vec![single],
        };
        listed
            .into_iter()
            .map(Value::as_str)
            .filter(|t| *t != Some("null"))
            .collect()
    }
    let before = types(&change.before);
    [TypeWidened, TypeNarrowed].contains(&change.kind)
        && change.keyword == "type"
        && before
            .as_ref()
            .is_some_and(|t| !t.is_empty() && !t.contains("any"))
        && before == types(&change.after)
}

/// The key [`mark_refs`] puts beside a local `$ref`.
const TARGET_KEY: &str = "x-catalog-diff-target";

/// The schema walker matches `allOf` / `oneOf` / `anyOf` branches, and compares `not`, `if`
/// and the like, by their text, so a branch `{$ref: Base}` matches itself however `Base`
/// changed (the reference library's reading, kept for message schemas). A specification leans
/// on refs in exactly those places (inheritance, polymorphism), so each local ref gets, beside
/// it, a fingerprint of everything it reaches: the text then differs when what it names does,
/// and the walker, which ignores keys beside a ref it follows, walks into the targets.
/// Returns the pointers of the marked refs, for [`unmark_refs`].
fn mark_refs(root: &mut Value) -> Vec<String> {
    use std::collections::HashMap;
    use std::hash::{DefaultHasher, Hash, Hasher};
    let refs: Vec<(String, String)> = crate::path::objects(root)
        .into_iter()
        .filter_map(|(at, map)| {
            let reference = map.get("$ref")?.as_str()?.strip_prefix('#')?;
            Some((at, reference.to_owned()))
        })
        .collect();
    let mut fingerprints: HashMap<&str, String> = HashMap::new();
    for (_, target) in &refs {
        fingerprints.entry(target).or_insert_with(|| {
            let mut reached = BTreeSet::new();
            reachable(root, target, &mut reached);
            let mut hasher = DefaultHasher::new();
            for at in &reached {
                at.hash(&mut hasher);
                root.pointer(at).map(compare::canon_value).hash(&mut hasher);
            }
            format!("{:016x}", hasher.finish())
        });
    }
    let marks: Vec<(String, String)> = refs
        .iter()
        .map(|(at, target)| (at.clone(), fingerprints[target.as_str()].clone()))
        .collect();
    for (at, fingerprint) in &marks {
        if let Some(Value::Object(map)) = root.pointer_mut(at) {
            map.insert(TARGET_KEY.into(), Value::String(fingerprint.clone()));
        }
    }
    marks.into_iter().map(|(at, _)| at).collect()
}

fn unmark_refs(root: &mut Value, marked: &[String]) {
    for at in marked {
        if let Some(Value::Object(map)) = root.pointer_mut(at) {
            map.shift_remove(TARGET_KEY);
        }
    }
}

/// A value a change carries, without the marks (reports show it).
fn strip_marks(value: &mut Value) {
    let mut stack = vec![value];
    while let Some(node) = stack.pop() {
        match node {
            Value::Object(map) => {
                map.shift_remove(TARGET_KEY);
                stack.extend(map.values_mut());
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            _ => {}
        }
    }
}

/// Put the wrapper schema at the root, keeping aside any root keys the walker would read.
fn install(root: &mut Value, properties: Map<String, Value>) -> Vec<(String, Value)> {
    let Value::Object(map) = root else {
        return Vec::new();
    };
    let saved: Vec<(String, Value)> = (ROOT_KEYWORDS.iter())
        .chain(super::document::ASSERTIONS)
        .filter_map(|key| {
            map.shift_remove(*key)
                .map(|value| ((*key).to_owned(), value))
        })
        .collect();
    map.insert("properties".into(), Value::Object(properties));
    saved
}

fn restore(root: &mut Value, saved: Vec<(String, Value)>) {
    if let Value::Object(map) = root {
        map.shift_remove("properties");
        map.extend(saved);
    }
}

/// A change the walker placed at the wrapper itself (a body absent on one side) is placed at
/// the body's own pointer.
fn wrapper_path(path: &str, bodies: &[Body]) -> String {
    let Some(rest) = path.strip_prefix("/properties/") else {
        return path.to_owned();
    };
    let (index, tail) = rest.split_once('/').map_or((rest, ""), |(i, t)| (i, t));
    match index.parse::<usize>().ok().and_then(|i| bodies.get(i)) {
        Some(body) => {
            let base = body
                .after
                .as_deref()
                .or(body.before.as_deref())
                .unwrap_or("");
            if tail.is_empty() {
                base.to_owned()
            } else {
                format!("{base}/{tail}")
            }
        }
        None => path.to_owned(),
    }
}

fn covers(set: &BTreeSet<String>, path: &str) -> bool {
    // Any prefix of the path (at a segment boundary) in the set.
    let mut end = path.len();
    loop {
        if set.contains(&path[..end]) {
            return true;
        }
        match path[..end].rfind('/') {
            Some(slash) if slash > 0 => end = slash,
            _ => return set.contains(""),
        }
    }
}

/// Every pointer reachable from `start` in `root` through local `$ref`s (and `start` itself).
fn reachable(root: &Value, start: &str, out: &mut BTreeSet<String>) {
    let mut pending = vec![start.to_owned()];
    while let Some(at) = pending.pop() {
        if !out.insert(at.clone()) {
            continue;
        }
        let Some(node) = root.pointer(&at) else {
            continue;
        };
        let mut stack = vec![node];
        while let Some(value) = stack.pop() {
            match value {
                Value::Object(map) => {
                    if let Some(target) = map
                        .get("$ref")
                        .and_then(Value::as_str)
                        .and_then(|r| r.strip_prefix('#'))
                        && !out.contains(target)
                    {
                        pending.push(target.to_owned());
                    }
                    stack.extend(map.values());
                }
                Value::Array(items) => stack.extend(items),
                _ => {}
            }
        }
    }
}

/// A payload in a format other than JSON Schema: its resolved schema, as JSON text, through the
/// format's own engine; paths come back relative to it.
fn other_format(
    before: &Parsed,
    after: &Parsed,
    body: &Body,
    format: Format,
    file: &str,
    options: &crate::schema::Options,
    found: &mut Found,
) {
    let place = body
        .after
        .as_deref()
        .or(body.before.as_deref())
        .unwrap_or("");
    let text = |parsed: &Parsed, at: &Option<String>| -> Result<String, String> {
        let at = at
            .as_deref()
            .ok_or_else(|| format!("the {format} schema is absent on one side"))?;
        let node = parsed
            .root
            .pointer(at)
            .ok_or_else(|| "the schema is not in the document".to_owned())?;
        match follow(parsed, node, at) {
            // An Avro schema that is a string is a type's name (`"string"`), in JSON quotes,
            // unless it holds the schema's JSON text (an object or a union).
            Target::Found(Value::String(name), _)
                if format == Format::Avro && !name.trim_start().starts_with(['{', '[']) =>
            {
                Ok(Value::String(name.clone()).to_string())
            }
            // A schema written as text in the document (a `.proto` source) is that text.
            Target::Found(Value::String(source), _) => Ok(source.clone()),
            Target::Found(value, _) => Ok(value.to_string()),
            Target::Unresolved(_, why) => Err(why),
        }
    };
    let (old, new) = match (text(before, &body.before), text(after, &body.after)) {
        (Ok(old), Ok(new)) => (old, new),
        (Err(why), _) | (_, Err(why)) => {
            found.unknown(place, why, body.elements.clone());
            return;
        }
    };
    let name = format!("{file}#{place}");
    // Ops go where the schema is written: behind a `$ref`, in the file or component it names.
    let written = |parsed: &Parsed, at: &Option<String>| {
        let at = at.as_deref()?;
        match follow(parsed, parsed.root.pointer(at)?, at) {
            Target::Found(_, written) => Some(written),
            Target::Unresolved(..) => None,
        }
    };
    let written = written(after, &body.after)
        .or_else(|| written(before, &body.before))
        .unwrap_or_else(|| place.to_owned());
    let changes = format.changes(
        Document::new(&name, &old),
        Document::new(&name, &new),
        options,
    );
    match changes {
        Ok(changes) => {
            for change in changes {
                found.push_about(
                    in_role(change.rule, body.role),
                    change.op,
                    (&format!("{written}{}", change.path), change.subject),
                    format!("{} ({}): {}", body.what, body.role.name(), change.what),
                    body.elements.clone(),
                );
            }
        }
        Err(error) => found.unknown(place, error.to_string(), body.elements.clone()),
    }
}

/// The schema format a `schemaFormat` value names (AsyncAPI 2 message `schemaFormat`, AsyncAPI 3
/// multi-format schema objects). Formats the schema seam knows by name go through
/// `Format::declared`, so a format added there (Avro) is judged here with no change.
pub fn schema_format(declared: Option<&str>) -> Payload {
    let Some(declared) = declared else {
        return Payload::Format(Format::JsonSchema);
    };
    let media = declared
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    let name = match media.as_str() {
        "application/vnd.aai.asyncapi"
        | "application/vnd.aai.asyncapi+json"
        | "application/vnd.aai.asyncapi+yaml"
        | "application/schema+json"
        | "application/schema+yaml"
        | "application/vnd.oai.openapi"
        | "application/vnd.oai.openapi+json"
        | "application/vnd.oai.openapi+yaml" => "json-schema",
        "application/vnd.apache.avro"
        | "application/vnd.apache.avro+json"
        | "application/vnd.apache.avro+yaml" => "avro",
        "application/vnd.google.protobuf" => "protobuf",
        _ => {
            return Payload::Unsupported(format!(
                "the payload's schemaFormat `{declared}` is not supported"
            ));
        }
    };
    match Format::declared(name) {
        Ok(format) => Payload::Format(format),
        Err(why) => Payload::Unsupported(format!(
            "the payload's schemaFormat `{declared}`: {}",
            why.reason
        )),
    }
}

/// Whether a `schemaFormat` declares an OpenAPI 3.0 schema object (an OpenAPI one of a 3.0
/// version, or of none: AsyncAPI names 3.0), whose `nullable` and boolean bounds JSON Schema
/// reads otherwise.
pub fn is_openapi30(declared: &str) -> bool {
    let mut parts = declared.split(';').map(str::trim);
    let media = parts.next().unwrap_or_default().to_ascii_lowercase();
    let version = parts.find_map(|p| p.strip_prefix("version=").map(|v| v.trim_matches('"')));
    media.starts_with("application/vnd.oai.openapi") && version.is_none_or(|v| v.starts_with("3.0"))
}

/// Reads the schemas at `starts` of `parsed`, and every definition they ref, as OpenAPI 3.0
/// schema objects ([`is_openapi30`]).
pub fn read_as_openapi30<'s>(parsed: &mut Parsed, starts: impl Iterator<Item = &'s String>) {
    let mut places = BTreeSet::new();
    for start in starts {
        reachable(&parsed.root, start, &mut places);
    }
    for at in &places {
        if let Some(node) = parsed.root.pointer_mut(at) {
            super::document::openapi30_as_json_schema(node);
        }
    }
}

/// The family a `schemaFormat` value belongs to, to tell a change of format from a change of
/// version (`...asyncapi;version=2.0.0` to `2.6.0` is the same format).
pub fn format_family(declared: Option<&str>) -> String {
    match schema_format(declared) {
        Payload::Format(format) => format.id().to_owned(),
        Payload::Unsupported(_) => declared
            .unwrap_or_default()
            .split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_formats_by_family() {
        assert_eq!(schema_format(None), Payload::Format(Format::JsonSchema));
        assert_eq!(
            schema_format(Some("application/vnd.aai.asyncapi+json;version=3.0.0")),
            Payload::Format(Format::JsonSchema)
        );
        assert!(is_openapi30(
            "application/vnd.oai.openapi+yaml;version=3.0.0"
        ));
        assert!(is_openapi30("application/vnd.oai.openapi"));
        assert!(!is_openapi30("application/vnd.oai.openapi;version=3.1.0"));
        assert!(!is_openapi30("application/vnd.aai.asyncapi;version=3.0.0"));
        assert!(matches!(
            schema_format(Some("application/raml+yaml;version=1.0")),
            Payload::Unsupported(_)
        ));
        assert_eq!(
            format_family(Some("application/vnd.aai.asyncapi;version=2.0.0")),
            format_family(Some("application/schema+json;version=draft-07"))
        );
        assert_ne!(
            format_family(Some("application/vnd.apache.avro;version=1.9.0")),
            format_family(None)
        );
    }

    #[test]
    fn avro_payloads_follow_the_schema_seam() {
        // No verdict, with the reason, until the seam judges Avro; then judged with no change here.
        match schema_format(Some("application/vnd.apache.avro+json;version=1.9.0")) {
            Payload::Unsupported(reason) => assert!(reason.contains("avro"), "{reason}"),
            Payload::Format(format) => assert_eq!(format.id(), "avro"),
        }
    }

    #[test]
    fn prefixes_cover_paths() {
        let set: BTreeSet<String> = ["/components/schemas/A".to_owned()].into();
        assert!(covers(&set, "/components/schemas/A/properties/x"));
        assert!(covers(&set, "/components/schemas/A"));
        assert!(!covers(&set, "/components/schemas/AB"));
    }
}
