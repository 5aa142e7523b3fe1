//! The JSON Schema walker: given a before and an after document, list every change as a
//! [`Change`] with a [`ChangeKind`] and a JSON pointer to where it happened. It says *what*
//! changed and *where*; whether that breaks anyone is the rules table's business (`rules.rs`).
//!
//! Paths point into the after document. When the after side reaches a node through a local
//! `$ref`, the path is the definition's own path, so a change inside a shared definition is
//! reported once there. Pairs of nodes reached through a `$ref` are compared at most once, which
//! is also what makes recursive definitions terminate. Definitions are only compared through the
//! refs that use them: an unused or renamed definition changes no accepted value.
//!
//! Keywords next to a `$ref` are compared at the referring node's path (2020-12 semantics).
//! Known simplifications: JSON pointers in refs are not percent-decoded; anchors (`#name`) are
//! compared as text like external refs; keywords outside the spec's lists (vendor `x-` keys,
//! `contentMediaType`, ...) are treated as annotations.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use crate::schema::verdict::OpKind;
use crate::schema::{Error, MAX_DEPTH};

use super::rules::ChangeKind;

/// One thing that differs between the two schemas. It carries no verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    pub kind: ChangeKind,
    /// JSON pointer to the node (property changes) or to the keyword (keyword changes).
    pub path: String,
    /// The keyword involved; empty when the change is about a whole node.
    pub keyword: String,
    pub op: OpKind,
    pub before: Option<Value>,
    pub after: Option<Value>,
}

/// Keywords that only annotate: changing them changes no accepted value.
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "examples",
    "$comment",
    "$id",
    "$schema",
    "default",
];

/// Keywords whose meaning we do not reason about; any change is `keyword.changed`.
const UNREASONED: &[&str] = &[
    "patternProperties",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "contains",
    "minContains",
    "maxContains",
    "unevaluatedProperties",
    "unevaluatedItems",
    "additionalItems",
];

/// Numeric lower bounds: raising one tightens.
const LOWER_BOUNDS: &[&str] = &[
    "minLength",
    "minItems",
    "minProperties",
    "minimum",
    "exclusiveMinimum",
];
/// Numeric upper bounds: lowering one tightens.
const UPPER_BOUNDS: &[&str] = &[
    "maxLength",
    "maxItems",
    "maxProperties",
    "maximum",
    "exclusiveMaximum",
];
/// Constraints whose values cannot be ordered: any edit is `constraint.changed`.
const OPAQUE_CONSTRAINTS: &[&str] = &["pattern", "format", "multipleOf"];
const COMBINATORS: &[&str] = &["oneOf", "anyOf", "allOf"];

/// Keywords that restrict values besides the constraint lists above; an object with none of
/// them (and none of those) accepts anything, like `true`.
const STRUCTURAL: &[&str] = &[
    "type",
    "enum",
    "const",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "prefixItems",
    "$ref",
    "uniqueItems",
];

/// Whether `keyword` restricts the values a schema accepts.
fn is_assertion(keyword: &str) -> bool {
    [
        STRUCTURAL,
        COMBINATORS,
        LOWER_BOUNDS,
        UPPER_BOUNDS,
        OPAQUE_CONSTRAINTS,
        UNREASONED,
    ]
    .iter()
    .any(|list| list.contains(&keyword))
}

/// Every JSON type name; an absent `type` means all of them.
const ALL_TYPES: &[&str] = &["null", "boolean", "object", "array", "number", "string"];

static TRUE: Value = Value::Bool(true);

/// Compare two JSON Schema documents and list what changed. Fails only when a document nests
/// deeper than [`MAX_DEPTH`].
pub fn compare(before: &Value, after: &Value) -> Result<Vec<Change>, Error> {
    check_depth(before)?;
    check_depth(after)?;
    let mut walker = Walker {
        before_root: before,
        after_root: after,
        changes: Vec::new(),
        seen: HashSet::new(),
    };
    walker.node(before, "", after, "", 0)?;
    Ok(dedupe(walker.changes))
}

/// Refuse documents deeper than the limit up front, iteratively, so no later recursion
/// (walking, canonicalising) can run out of stack.
fn check_depth(root: &Value) -> Result<(), Error> {
    let mut stack = vec![(root, 0usize)];
    while let Some((value, depth)) = stack.pop() {
        if depth > MAX_DEPTH {
            return Err(Error::TooDeep {
                path: "(document)".to_owned(),
                limit: MAX_DEPTH,
            });
        }
        match value {
            Value::Array(items) => stack.extend(items.iter().map(|item| (item, depth + 1))),
            Value::Object(map) => stack.extend(map.values().map(|item| (item, depth + 1))),
            _ => {}
        }
    }
    Ok(())
}

/// The same definition can be reached from several places that are not `$ref` pairs
/// (for example the same ref under two branches paired differently); report each change once.
fn dedupe(changes: Vec<Change>) -> Vec<Change> {
    let mut seen = HashSet::new();
    changes
        .into_iter()
        .filter(|change| {
            let key = (
                change.kind,
                change.path.clone(),
                change.keyword.clone(),
                change.op,
                change.before.as_ref().map(canon_value),
                change.after.as_ref().map(canon_value),
            );
            seen.insert(key)
        })
        .collect()
}

/// A node after following local refs.
enum Resolved<'a> {
    /// A schema, its location in its own document, and whether a ref was followed to reach it.
    Local(&'a Value, String, bool),
    /// A ref we cannot follow (another file, or a local pointer that goes nowhere).
    External(&'a str),
}

/// Follow `$ref` chains to local targets. A chain longer than the depth limit is a loop of refs
/// that never reaches a schema; it is treated like an unfollowable ref and compared as text.
fn resolve<'a>(root: &'a Value, value: &'a Value, location: &str) -> Resolved<'a> {
    let mut current = value;
    let mut current_location = location.to_owned();
    let mut followed = false;
    let mut first_ref = None;
    for _ in 0..MAX_DEPTH {
        let Some(reference) = current.get("$ref").and_then(Value::as_str) else {
            return Resolved::Local(current, current_location, followed);
        };
        first_ref.get_or_insert(reference);
        let Some(fragment) = reference.strip_prefix('#') else {
            return Resolved::External(reference);
        };
        if !fragment.is_empty() && !fragment.starts_with('/') {
            // An anchor (`#name`): not resolvable without an anchor index; compare as text.
            return Resolved::External(reference);
        }
        match root.pointer(fragment) {
            Some(target) => {
                current = target;
                current_location = fragment.to_owned();
                followed = true;
            }
            None => return Resolved::External(reference),
        }
    }
    Resolved::External(first_ref.unwrap_or(""))
}

/// Escape one JSON pointer segment.
fn escape(segment: &str) -> String {
    if segment.contains(['~', '/']) {
        segment.replace('~', "~0").replace('/', "~1")
    } else {
        segment.to_owned()
    }
}

fn child(base: &str, segment: &str) -> String {
    format!("{base}/{}", escape(segment))
}

/// The set of JSON types a schema object admits; `None` means "any type".
fn type_set(object: &Map<String, Value>) -> Option<HashSet<String>> {
    let mut types: HashSet<String> = match object.get("type")? {
        Value::String(name) => std::iter::once(name.clone()).collect(),
        Value::Array(names) => names
            .iter()
            .map(|name| {
                name.as_str()
                    .map(str::to_owned)
                    .unwrap_or_else(|| name.to_string())
            })
            .collect(),
        other => std::iter::once(other.to_string()).collect(),
    };
    // OpenAPI-style `nullable: true` is a type-array `null` by another name.
    if object.get("nullable") == Some(&Value::Bool(true)) {
        types.insert("null".to_owned());
    }
    Some(types)
}

/// Whether every value admitted by `inner` is admitted by `outer` (integers are numbers).
fn types_within(inner: &Option<HashSet<String>>, outer: &Option<HashSet<String>>) -> bool {
    let Some(outer) = outer else { return true };
    let covers =
        |name: &str| outer.contains(name) || (name == "integer" && outer.contains("number"));
    match inner {
        Some(inner) => inner.iter().all(|name| covers(name)),
        None => ALL_TYPES.iter().all(|name| covers(name)),
    }
}

/// The allowed values of a node (`const` counts as a one-value enum) and the keyword used.
fn allowed_values(object: &Map<String, Value>) -> Option<(&'static str, Vec<&Value>)> {
    if let Some(value) = object.get("const") {
        return Some(("const", vec![value]));
    }
    match object.get("enum")? {
        Value::Array(values) => Some(("enum", values.iter().collect())),
        other => Some(("enum", vec![other])),
    }
}

fn string_list(value: Option<&Value>) -> Vec<&str> {
    match value {
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

fn is_trivial(object: &Map<String, Value>) -> bool {
    !object.keys().any(|key| is_assertion(key))
}

/// A canonical text for a data value: object keys sorted, numbers with equal values equal.
pub fn canon_value(value: &Value) -> String {
    let mut out = String::new();
    write_value(value, &mut out);
    out
}

fn write_value(value: &Value, out: &mut String) {
    match value {
        Value::Number(number) => match number.as_f64() {
            // 1 and 1.0 are the same JSON Schema value.
            Some(float) if float.fract() == 0.0 && float.abs() < 9.0e15 => {
                out.push_str(&format!("{}", float as i64))
            }
            _ => out.push_str(&number.to_string()),
        },
        Value::Array(items) => {
            out.push('[');
            for item in items {
                write_value(item, out);
                out.push(',');
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for key in keys {
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                write_value(&map[key], out);
                out.push(',');
            }
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// A canonical text for a schema: annotations dropped, and the order of `properties`,
/// `required`, `enum` and union branches ignored, so that equal texts accept equal values.
pub fn canon_schema(value: &Value) -> String {
    let Value::Object(map) = value else {
        return canon_value(value);
    };
    let mut parts: Vec<String> = Vec::new();
    for (key, item) in map {
        if ANNOTATIONS.contains(&key.as_str()) {
            continue;
        }
        let text = match (key.as_str(), item) {
            (
                "properties" | "patternProperties" | "definitions" | "$defs" | "dependentSchemas",
                Value::Object(named),
            ) => {
                let mut entries: Vec<String> = named
                    .iter()
                    .map(|(name, schema)| {
                        format!("{}:{}", Value::String(name.clone()), canon_schema(schema))
                    })
                    .collect();
                entries.sort();
                format!("{{{}}}", entries.join(","))
            }
            ("enum" | "required" | "type", Value::Array(values)) => {
                let mut entries: Vec<String> = values.iter().map(canon_value).collect();
                entries.sort();
                entries.dedup();
                format!("[{}]", entries.join(","))
            }
            ("oneOf" | "anyOf" | "allOf", Value::Array(branches)) => {
                let mut entries: Vec<String> = branches.iter().map(canon_schema).collect();
                entries.sort();
                format!("[{}]", entries.join(","))
            }
            ("items" | "prefixItems", Value::Array(positions)) => {
                format!(
                    "[{}]",
                    positions
                        .iter()
                        .map(canon_schema)
                        .collect::<Vec<_>>()
                        .join(",")
                )
            }
            ("const" | "examples" | "dependentRequired" | "dependencies", _) => canon_value(item),
            (_, Value::Object(_)) | (_, Value::Bool(_)) => canon_schema(item),
            _ => canon_value(item),
        };
        parts.push(format!("{}:{}", Value::String(key.clone()), text));
    }
    parts.sort();
    format!("{{{}}}", parts.join(","))
}

struct Walker<'a> {
    before_root: &'a Value,
    after_root: &'a Value,
    changes: Vec<Change>,
    /// (before location, after location) pairs already compared after following a ref.
    seen: HashSet<(String, String)>,
}

impl<'a> Walker<'a> {
    fn push(
        &mut self,
        kind: ChangeKind,
        path: String,
        keyword: &str,
        op: OpKind,
        before: Option<&Value>,
        after: Option<&Value>,
    ) {
        self.changes.push(Change {
            kind,
            path,
            keyword: keyword.to_owned(),
            op,
            before: before.cloned(),
            after: after.cloned(),
        });
    }

    /// Compare two schema nodes found at `before_at` / `after_at` in their documents.
    fn node(
        &mut self,
        before: &Value,
        before_at: &str,
        after: &Value,
        after_at: &str,
        depth: usize,
    ) -> Result<(), Error> {
        if depth > MAX_DEPTH {
            return Err(Error::TooDeep {
                path: after_at.to_owned(),
                limit: MAX_DEPTH,
            });
        }
        // Keywords next to a `$ref` apply as well (2020-12; draft-07 ignored them, so comparing
        // them errs towards reporting). They belong to the referring node, not the definition,
        // so they are compared at this node's own path. An inline side has no siblings: its
        // whole content is compared with the other side's target below.
        if let (Value::Object(old), Value::Object(new)) = (before, after)
            && (old.contains_key("$ref") || new.contains_key("$ref"))
        {
            let (old_siblings, new_siblings) = (ref_siblings(old), ref_siblings(new));
            let matters =
                |map: &Map<String, Value>| !is_trivial(map) || map.contains_key("deprecated");
            if matters(&old_siblings) || matters(&new_siblings) {
                self.object(&old_siblings, before_at, &new_siblings, after_at, depth)?;
            }
        }
        match (
            resolve(self.before_root, before, before_at),
            resolve(self.after_root, after, after_at),
        ) {
            (Resolved::External(old), Resolved::External(new)) => {
                if old != new {
                    let (old, new) = (Value::String(old.to_owned()), Value::String(new.to_owned()));
                    self.push(
                        ChangeKind::KeywordChanged,
                        child(after_at, "$ref"),
                        "$ref",
                        OpKind::Replace,
                        Some(&old),
                        Some(&new),
                    );
                }
                Ok(())
            }
            (Resolved::External(old), Resolved::Local(new, ..)) => {
                let old = Value::String(old.to_owned());
                self.push(
                    ChangeKind::KeywordChanged,
                    child(after_at, "$ref"),
                    "$ref",
                    OpKind::Replace,
                    Some(&old),
                    Some(new),
                );
                Ok(())
            }
            (Resolved::Local(old, ..), Resolved::External(new)) => {
                let new = Value::String(new.to_owned());
                self.push(
                    ChangeKind::KeywordChanged,
                    child(after_at, "$ref"),
                    "$ref",
                    OpKind::Replace,
                    Some(old),
                    Some(&new),
                );
                Ok(())
            }
            (
                Resolved::Local(old, old_at, old_followed),
                Resolved::Local(new, new_at, new_followed),
            ) => {
                if (old_followed || new_followed)
                    && !self.seen.insert((old_at.clone(), new_at.clone()))
                {
                    return Ok(());
                }
                self.schema(old, &old_at, new, &new_at, depth)
            }
        }
    }

    fn schema(
        &mut self,
        before: &Value,
        before_at: &str,
        after: &Value,
        after_at: &str,
        depth: usize,
    ) -> Result<(), Error> {
        let path = after_at.to_owned();
        match (before, after) {
            (Value::Object(old), Value::Object(new)) => {
                return self.object(old, before_at, new, after_at, depth);
            }
            (Value::Bool(old), Value::Bool(new)) if old == new => {}
            // `true` accepts anything and `false` nothing; a trivial object is `true`.
            (Value::Bool(_), Value::Bool(_) | Value::Object(_))
            | (Value::Object(_), Value::Bool(_)) => {
                let kind = match (before, after) {
                    (Value::Bool(true), Value::Object(new)) if is_trivial(new) => None,
                    (Value::Object(old), Value::Bool(true)) if is_trivial(old) => None,
                    (Value::Bool(true), _) | (_, Value::Bool(false)) => {
                        Some(ChangeKind::SchemaRestricted)
                    }
                    _ => Some(ChangeKind::SchemaRelaxed),
                };
                if let Some(kind) = kind {
                    self.push(kind, path, "", OpKind::Replace, Some(before), Some(after));
                }
            }
            // Not a schema where one was expected (a number, a string): compare the text.
            _ => {
                if canon_value(before) != canon_value(after) {
                    self.push(
                        ChangeKind::KeywordChanged,
                        path,
                        "",
                        OpKind::Replace,
                        Some(before),
                        Some(after),
                    );
                }
            }
        }
        Ok(())
    }

    fn object(
        &mut self,
        old: &Map<String, Value>,
        old_at: &str,
        new: &Map<String, Value>,
        new_at: &str,
        depth: usize,
    ) -> Result<(), Error> {
        self.deprecation(old, new, new_at);
        self.types(old, new, new_at);
        self.values(old, new, new_at);
        self.constraints(old, new, new_at);
        self.properties(old, old_at, new, new_at, depth)?;
        self.additional_properties(old, old_at, new, new_at, depth)?;
        self.items(old, old_at, new, new_at, depth)?;
        for keyword in COMBINATORS {
            self.branches(keyword, old, old_at, new, new_at, depth)?;
        }
        for keyword in UNREASONED {
            self.opaque(ChangeKind::KeywordChanged, keyword, old, new, new_at, true);
        }
        Ok(())
    }

    fn deprecation(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, at: &str) {
        let was = old.get("deprecated") == Some(&Value::Bool(true));
        if !was && new.get("deprecated") == Some(&Value::Bool(true)) {
            let op = if old.contains_key("deprecated") {
                OpKind::Replace
            } else {
                OpKind::Add
            };
            self.push(
                ChangeKind::SchemaDeprecated,
                child(at, "deprecated"),
                "deprecated",
                op,
                old.get("deprecated"),
                new.get("deprecated"),
            );
        }
    }

    fn types(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, at: &str) {
        let (before, after) = (type_set(old), type_set(new));
        let widened = types_within(&before, &after);
        let narrowed = types_within(&after, &before);
        let kind = match (widened, narrowed) {
            (true, true) => return,
            (true, false) => ChangeKind::TypeWidened,
            (false, true) => ChangeKind::TypeNarrowed,
            (false, false) => ChangeKind::TypeChanged,
        };
        let op = match (before.is_some(), after.is_some()) {
            (false, true) => OpKind::Add,
            (true, false) => OpKind::Remove,
            _ => OpKind::Replace,
        };
        self.push(
            kind,
            child(at, "type"),
            "type",
            op,
            old.get("type"),
            new.get("type"),
        );
    }

    fn values(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, at: &str) {
        match (allowed_values(old), allowed_values(new)) {
            (None, None) => {}
            (None, Some((keyword, _))) => self.push(
                ChangeKind::EnumAdded,
                child(at, keyword),
                keyword,
                OpKind::Add,
                None,
                new.get(keyword),
            ),
            (Some((keyword, _)), None) => self.push(
                ChangeKind::EnumRemoved,
                child(at, keyword),
                keyword,
                OpKind::Remove,
                old.get(keyword),
                None,
            ),
            (Some((_, before)), Some((keyword, after))) => {
                // Sets, so huge enums stay linear.
                let before_set: HashSet<String> =
                    before.iter().map(|value| canon_value(value)).collect();
                let after_set: HashSet<String> =
                    after.iter().map(|value| canon_value(value)).collect();
                let path = child(at, keyword);
                let mut reported = HashSet::new();
                for value in before {
                    let text = canon_value(value);
                    if !after_set.contains(&text) && reported.insert(text) {
                        self.push(
                            ChangeKind::EnumValueRemoved,
                            path.clone(),
                            keyword,
                            OpKind::Remove,
                            Some(value),
                            None,
                        );
                    }
                }
                for value in after {
                    let text = canon_value(value);
                    if !before_set.contains(&text) && reported.insert(text) {
                        self.push(
                            ChangeKind::EnumValueAdded,
                            path.clone(),
                            keyword,
                            OpKind::Add,
                            None,
                            Some(value),
                        );
                    }
                }
            }
        }
    }

    fn constraints(&mut self, old: &Map<String, Value>, new: &Map<String, Value>, at: &str) {
        for (keywords, raise_tightens) in [(LOWER_BOUNDS, true), (UPPER_BOUNDS, false)] {
            for keyword in keywords {
                self.bound(keyword, raise_tightens, old, new, at);
            }
        }
        for keyword in OPAQUE_CONSTRAINTS {
            match (old.get(*keyword), new.get(*keyword)) {
                (None, Some(value)) => self.push(
                    ChangeKind::ConstraintTightened,
                    child(at, keyword),
                    keyword,
                    OpKind::Add,
                    None,
                    Some(value),
                ),
                (Some(value), None) => self.push(
                    ChangeKind::ConstraintLoosened,
                    child(at, keyword),
                    keyword,
                    OpKind::Remove,
                    Some(value),
                    None,
                ),
                _ => self.opaque(ChangeKind::ConstraintChanged, keyword, old, new, at, false),
            }
        }
        let unique = |map: &Map<String, Value>| map.get("uniqueItems") == Some(&Value::Bool(true));
        if unique(old) != unique(new) {
            let kind = if unique(new) {
                ChangeKind::ConstraintTightened
            } else {
                ChangeKind::ConstraintLoosened
            };
            let op = op_for(old.get("uniqueItems"), new.get("uniqueItems"));
            self.push(
                kind,
                child(at, "uniqueItems"),
                "uniqueItems",
                op,
                old.get("uniqueItems"),
                new.get("uniqueItems"),
            );
        }
    }

    /// One numeric bound. Draft-04 boolean `exclusiveMinimum`/`exclusiveMaximum` count as
    /// tightening when switched on.
    fn bound(
        &mut self,
        keyword: &str,
        raise_tightens: bool,
        old: &Map<String, Value>,
        new: &Map<String, Value>,
        at: &str,
    ) {
        let (before, after) = (old.get(keyword), new.get(keyword));
        let kind = match (as_bound(before), as_bound(after)) {
            (None, None) => return,
            (None, Some(_)) => ChangeKind::ConstraintTightened,
            (Some(_), None) => ChangeKind::ConstraintLoosened,
            (Some(Value::Number(x)), Some(Value::Number(y))) => match (x.as_f64(), y.as_f64()) {
                (Some(x), Some(y)) if x == y => return,
                (Some(x), Some(y)) if (y > x) == raise_tightens => ChangeKind::ConstraintTightened,
                (Some(_), Some(_)) => ChangeKind::ConstraintLoosened,
                _ => ChangeKind::KeywordChanged,
            },
            (Some(x), Some(y)) if canon_value(x) == canon_value(y) => return,
            _ => ChangeKind::KeywordChanged,
        };
        self.push(
            kind,
            child(at, keyword),
            keyword,
            op_for(before, after),
            before,
            after,
        );
    }

    /// A keyword compared as text: any difference is one change of `kind`.
    fn opaque(
        &mut self,
        kind: ChangeKind,
        keyword: &str,
        old: &Map<String, Value>,
        new: &Map<String, Value>,
        at: &str,
        schema_valued: bool,
    ) {
        let (before, after) = (old.get(keyword), new.get(keyword));
        let canon = |value: &Value| {
            if schema_valued {
                canon_schema(value)
            } else {
                canon_value(value)
            }
        };
        let same = match (before, after) {
            (None, None) => true,
            (Some(x), Some(y)) => canon(x) == canon(y),
            _ => false,
        };
        if !same {
            self.push(
                kind,
                child(at, keyword),
                keyword,
                op_for(before, after),
                before,
                after,
            );
        }
    }

    fn properties(
        &mut self,
        old: &Map<String, Value>,
        old_at: &str,
        new: &Map<String, Value>,
        new_at: &str,
        depth: usize,
    ) -> Result<(), Error> {
        static EMPTY: std::sync::LazyLock<Map<String, Value>> = std::sync::LazyLock::new(Map::new);
        let old_props = old
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&EMPTY);
        let new_props = new
            .get("properties")
            .and_then(Value::as_object)
            .unwrap_or(&EMPTY);
        let old_required: HashSet<&str> = string_list(old.get("required")).into_iter().collect();
        let new_required: HashSet<&str> = string_list(new.get("required")).into_iter().collect();
        // A closed old reader rejects what it does not know; a closed new reader likewise.
        let old_closed = old.get("additionalProperties") == Some(&Value::Bool(false));
        let new_closed = new.get("additionalProperties") == Some(&Value::Bool(false));
        let old_props_at = child(old_at, "properties");
        let new_props_at = child(new_at, "properties");

        for (name, schema) in new_props {
            let path = child(&new_props_at, name);
            match old_props.get(name) {
                Some(previous) => self.node(
                    previous,
                    &child(&old_props_at, name),
                    schema,
                    &path,
                    depth + 1,
                )?,
                None => {
                    let newly_required = new_required.contains(name.as_str())
                        && !old_required.contains(name.as_str());
                    if old_closed {
                        self.push(
                            ChangeKind::PropertyAddedToClosedObject,
                            path,
                            "properties",
                            OpKind::Add,
                            None,
                            Some(schema),
                        );
                    } else if !newly_required {
                        // A newly required property is reported by the required rule alone.
                        self.push(
                            ChangeKind::PropertyAdded,
                            path,
                            "properties",
                            OpKind::Add,
                            None,
                            Some(schema),
                        );
                    }
                }
            }
        }
        for (name, schema) in old_props {
            if new_props.contains_key(name) {
                continue;
            }
            let path = child(&new_props_at, name);
            let no_longer_required =
                old_required.contains(name.as_str()) && !new_required.contains(name.as_str());
            if new_closed {
                self.push(
                    ChangeKind::PropertyRemovedFromClosedObject,
                    path,
                    "properties",
                    OpKind::Remove,
                    Some(schema),
                    None,
                );
            } else if !no_longer_required {
                self.push(
                    ChangeKind::PropertyRemoved,
                    path,
                    "properties",
                    OpKind::Remove,
                    Some(schema),
                    None,
                );
            }
        }

        for name in string_list(new.get("required")) {
            if old_required.contains(name) {
                continue;
            }
            let has_default = new_props.get(name).is_some_and(|schema| {
                match resolve(self.after_root, schema, "") {
                    Resolved::Local(target, ..) => target.get("default").is_some(),
                    Resolved::External(_) => false,
                }
            });
            let kind = if has_default {
                ChangeKind::RequiredAddedWithDefault
            } else {
                ChangeKind::RequiredAdded
            };
            let value = Value::String(name.to_owned());
            self.push(
                kind,
                child(&new_props_at, name),
                "required",
                OpKind::Add,
                None,
                Some(&value),
            );
        }
        for name in string_list(old.get("required")) {
            if !new_required.contains(name) {
                let value = Value::String(name.to_owned());
                self.push(
                    ChangeKind::RequiredRemoved,
                    child(&new_props_at, name),
                    "required",
                    OpKind::Remove,
                    Some(&value),
                    None,
                );
            }
        }
        Ok(())
    }

    fn additional_properties(
        &mut self,
        old: &Map<String, Value>,
        old_at: &str,
        new: &Map<String, Value>,
        new_at: &str,
        depth: usize,
    ) -> Result<(), Error> {
        let keyword = "additionalProperties";
        let (before, after) = (old.get(keyword), new.get(keyword));
        let closed = |value: Option<&Value>| value == Some(&Value::Bool(false));
        let path = child(new_at, keyword);
        match (closed(before), closed(after)) {
            (false, true) => self.push(
                ChangeKind::AdditionalPropertiesClosed,
                path,
                keyword,
                op_for(before, after),
                before,
                after,
            ),
            (true, false) => self.push(
                ChangeKind::AdditionalPropertiesOpened,
                path,
                keyword,
                op_for(before, after),
                before,
                after,
            ),
            (true, true) => {}
            (false, false) => {
                if before.is_some() || after.is_some() {
                    // Absent means "anything", the same as `true`.
                    let old_schema = before.unwrap_or(&TRUE);
                    let new_schema = after.unwrap_or(&TRUE);
                    self.node(
                        old_schema,
                        &child(old_at, keyword),
                        new_schema,
                        &path,
                        depth + 1,
                    )?;
                }
            }
        }
        Ok(())
    }

    fn items(
        &mut self,
        old: &Map<String, Value>,
        old_at: &str,
        new: &Map<String, Value>,
        new_at: &str,
        depth: usize,
    ) -> Result<(), Error> {
        let (old_tuple, new_tuple) = (tuple(old), tuple(new));
        if old_tuple.is_some() || new_tuple.is_some() {
            let old_keyword = old_tuple
                .map(|(keyword, _)| keyword)
                .or(new_tuple.map(|(keyword, _)| keyword))
                .unwrap_or("items");
            let new_keyword = new_tuple.map(|(keyword, _)| keyword).unwrap_or(old_keyword);
            let old_positions: &[Value] = old_tuple
                .map(|(_, positions)| positions.as_slice())
                .unwrap_or(&[]);
            let new_positions: &[Value] = new_tuple
                .map(|(_, positions)| positions.as_slice())
                .unwrap_or(&[]);
            let old_base = child(old_at, old_keyword);
            let new_base = child(new_at, new_keyword);
            for (index, (before, after)) in old_positions.iter().zip(new_positions).enumerate() {
                let segment = index.to_string();
                self.node(
                    before,
                    &child(&old_base, &segment),
                    after,
                    &child(&new_base, &segment),
                    depth + 1,
                )?;
            }
            for (index, after) in new_positions.iter().enumerate().skip(old_positions.len()) {
                self.push(
                    ChangeKind::TupleItemAdded,
                    child(&new_base, &index.to_string()),
                    new_keyword,
                    OpKind::Add,
                    None,
                    Some(after),
                );
            }
            for (index, before) in old_positions.iter().enumerate().skip(new_positions.len()) {
                self.push(
                    ChangeKind::TupleItemRemoved,
                    child(&new_base, &index.to_string()),
                    new_keyword,
                    OpKind::Remove,
                    Some(before),
                    None,
                );
            }
        }
        let (old_rest, new_rest) = (list_items(old), list_items(new));
        if old_rest.is_some() || new_rest.is_some() {
            self.node(
                old_rest.unwrap_or(&TRUE),
                &child(old_at, "items"),
                new_rest.unwrap_or(&TRUE),
                &child(new_at, "items"),
                depth + 1,
            )?;
        }
        Ok(())
    }

    fn branches(
        &mut self,
        keyword: &str,
        old: &Map<String, Value>,
        old_at: &str,
        new: &Map<String, Value>,
        new_at: &str,
        depth: usize,
    ) -> Result<(), Error> {
        let path = child(new_at, keyword);
        let (old_branches, new_branches) = match (old.get(keyword), new.get(keyword)) {
            (None, None) => return Ok(()),
            (None, Some(value)) => {
                self.push(
                    ChangeKind::ConstraintTightened,
                    path,
                    keyword,
                    OpKind::Add,
                    None,
                    Some(value),
                );
                return Ok(());
            }
            (Some(value), None) => {
                self.push(
                    ChangeKind::ConstraintLoosened,
                    path,
                    keyword,
                    OpKind::Remove,
                    Some(value),
                    None,
                );
                return Ok(());
            }
            (Some(Value::Array(before)), Some(Value::Array(after))) => (before, after),
            _ => {
                self.opaque(ChangeKind::KeywordChanged, keyword, old, new, new_at, true);
                return Ok(());
            }
        };
        // Content first: identical branches match wherever they sit, so reordering is no change.
        let mut unmatched_old: HashMap<String, Vec<usize>> = HashMap::new();
        for (index, branch) in old_branches.iter().enumerate().rev() {
            unmatched_old
                .entry(canon_schema(branch))
                .or_default()
                .push(index);
        }
        let mut old_matched = vec![false; old_branches.len()];
        let mut new_left = Vec::new();
        for (index, branch) in new_branches.iter().enumerate() {
            match unmatched_old
                .get_mut(&canon_schema(branch))
                .and_then(Vec::pop)
            {
                Some(old_index) => old_matched[old_index] = true,
                None => new_left.push(index),
            }
        }
        let old_left: Vec<usize> = (0..old_branches.len())
            .filter(|index| !old_matched[*index])
            .collect();
        // Then position: what is left is paired in order and walked, so an edit inside a branch
        // is reported at that branch's path.
        let old_base = child(old_at, keyword);
        for (old_index, new_index) in old_left.iter().zip(&new_left) {
            self.node(
                &old_branches[*old_index],
                &child(&old_base, &old_index.to_string()),
                &new_branches[*new_index],
                &child(&path, &new_index.to_string()),
                depth + 1,
            )?;
        }
        let (added, removed) = if keyword == "allOf" {
            (ChangeKind::AllOfBranchAdded, ChangeKind::AllOfBranchRemoved)
        } else {
            (ChangeKind::UnionBranchAdded, ChangeKind::UnionBranchRemoved)
        };
        for new_index in new_left.iter().skip(old_left.len()) {
            self.push(
                added,
                child(&path, &new_index.to_string()),
                keyword,
                OpKind::Add,
                None,
                Some(&new_branches[*new_index]),
            );
        }
        for old_index in old_left.iter().skip(new_left.len()) {
            self.push(
                removed,
                child(&path, &old_index.to_string()),
                keyword,
                OpKind::Remove,
                Some(&old_branches[*old_index]),
                None,
            );
        }
        Ok(())
    }
}

/// The keywords next to a `$ref` (empty for a node without one), minus the definitions
/// container, which holds schemas for other refs rather than constraining this node.
fn ref_siblings(object: &Map<String, Value>) -> Map<String, Value> {
    if !object.contains_key("$ref") {
        return Map::new();
    }
    object
        .iter()
        .filter(|(key, _)| !matches!(key.as_str(), "$ref" | "definitions" | "$defs"))
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect()
}

/// A bound that is absent or a draft-04 `false` does not restrict anything.
fn as_bound(value: Option<&Value>) -> Option<&Value> {
    match value {
        Some(Value::Bool(false)) | None => None,
        other => other,
    }
}

fn op_for(before: Option<&Value>, after: Option<&Value>) -> OpKind {
    match (before, after) {
        (None, Some(_)) => OpKind::Add,
        (Some(_), None) => OpKind::Remove,
        _ => OpKind::Replace,
    }
}

/// The positional schemas of a tuple: 2020-12 `prefixItems`, or a draft-07 `items` array.
fn tuple(object: &Map<String, Value>) -> Option<(&'static str, &Vec<Value>)> {
    if let Some(Value::Array(positions)) = object.get("prefixItems") {
        return Some(("prefixItems", positions));
    }
    match object.get("items") {
        Some(Value::Array(positions)) => Some(("items", positions)),
        _ => None,
    }
}

/// The schema every (remaining) array element must match.
fn list_items(object: &Map<String, Value>) -> Option<&Value> {
    object.get("items").filter(|items| !items.is_array())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn kinds(before: Value, after: Value) -> Vec<(String, String)> {
        compare(&before, &after)
            .unwrap()
            .into_iter()
            .map(|change| (change.kind.id().to_owned(), change.path))
            .collect()
    }

    #[test]
    fn recursive_definitions_terminate() {
        let schema = json!({"$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}}, "$ref": "#/$defs/node"});
        assert!(kinds(schema.clone(), schema).is_empty());
    }

    #[test]
    fn definition_change_reported_once() {
        let before = json!({"definitions": {"a": {"type": "integer"}}, "properties": {"x": {"$ref": "#/definitions/a"}, "y": {"$ref": "#/definitions/a"}}});
        let after = json!({"definitions": {"a": {"type": "number"}}, "properties": {"x": {"$ref": "#/definitions/a"}, "y": {"$ref": "#/definitions/a"}}});
        assert_eq!(
            kinds(before, after),
            vec![("type.widened".to_owned(), "/definitions/a/type".to_owned())]
        );
    }

    #[test]
    fn too_deep_is_an_error() {
        let mut value = json!({"type": "string"});
        for _ in 0..300 {
            value = json!({"items": value});
        }
        assert!(matches!(
            compare(&value, &value),
            Err(Error::TooDeep { .. })
        ));
    }

    #[test]
    fn deepest_allowed_nesting_fits_a_test_thread_stack() {
        // Test threads get 2 MiB of stack, less than a main thread: if this passes in a debug
        // build, the depth limit is low enough.
        let nest = |leaf: Value, levels: usize| {
            let mut value = leaf;
            for _ in 0..levels {
                value = json!({"items": value});
            }
            value
        };
        let levels = MAX_DEPTH - 1;
        let changes = compare(
            &nest(json!({"type": "integer"}), levels),
            &nest(json!({"type": "number"}), levels),
        )
        .unwrap();
        assert_eq!(changes.len(), 1);
        // Branches cost two JSON levels (the keyword and the array).
        let before = json!({"anyOf": [nest(json!({"type": "string"}), levels - 2)]});
        let after = json!({"anyOf": [nest(json!({"type": "null"}), levels - 2)]});
        assert_eq!(compare(&before, &after).unwrap().len(), 1);
    }

    #[test]
    fn pointer_segments_are_escaped() {
        let after = json!({"properties": {"a/b": {"type": "string"}}});
        assert_eq!(
            kinds(json!({"properties": {}}), after),
            vec![("property.added".to_owned(), "/properties/a~1b".to_owned())]
        );
    }
}
