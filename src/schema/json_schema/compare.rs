//! The JSON Schema walker: given a before and an after document, list every change as a
//! [`Change`] with a [`ChangeKind`], an op verb and a JSON pointer to where it happened. It says
//! *what* changed and *where*; whether that breaks anyone is the rules table's business
//! (`rules.rs`).
//!
//! The walk is the one `@eventcatalog/diff` 0.1.0 does, so the op list is the reference's, op for
//! op and in the same order (README, "JSON output"; issue #14):
//!
//! * At each pair of nodes the keywords are compared in a fixed order: `deprecated`, `type`,
//!   `enum`/`const`, the constraint families, `properties`, `required`, `additionalProperties`,
//!   `items`/`prefixItems`, `oneOf`, `anyOf`, `allOf`, then the keywords nobody reasons about.
//!   Annotations (`title`, `description`, `examples`, `$comment`, `default`, `$id`, `$schema`,
//!   vendor keys ...) are never compared.
//! * The verb says what happened to the thing at the path: `add` when there is only an after
//!   value, `remove` when there is only a before value, `replace` otherwise. So `property.*`,
//!   `enum.value.*`, `enum.added`/`removed`, branches and tuple items are `add`/`remove`;
//!   `required.*`, `type.*`, `additionalProperties.*`, `schema.*` and `constraint.changed` are
//!   `replace`; `constraint.tightened`/`loosened` and `keyword.changed` follow the keyword.
//! * A property that appears or disappears gets its `property.*` op, and `required` is compared
//!   on its own afterwards, so a required property that appears also gets `required.added`.
//! * `const: X` is `enum: [X]`, reported at `.../enum`.
//! * `$ref`: when both sides are local refs, the pair of targets is compared once, at the after
//!   ref's own pointer (`/definitions/Address/...`; for a chain, the first definition the chain
//!   enters); a pair already compared is skipped, which also ends recursive definitions. When
//!   only one side is a ref, it is resolved and compared at the position's own path. A ref that
//!   cannot be followed (another file) stays in place and is compared as a `$ref` keyword.
//! * Union and `allOf` branches: identical branches are matched wherever they sit; the rest are
//!   paired by position and walked when as many are left on each side, else reported as added or
//!   removed.
//!
//! Where the reference itself would throw (a schema node that is `null`, a number or a string),
//! the node is read as `{}`. Recursion is bounded by [`MAX_DEPTH`], which the reference has no
//! need of.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use serde_json::{Map, Value};

use crate::json_text::js_number;
use crate::path::pointer_segment as escape;
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

/// Numeric lower bounds: raising one tightens.
const LOWER_BOUNDS: &[&str] = &[
    "minLength",
    "minimum",
    "exclusiveMinimum",
    "minItems",
    "minProperties",
];
/// Numeric upper bounds: lowering one tightens.
const UPPER_BOUNDS: &[&str] = &[
    "maxLength",
    "maximum",
    "exclusiveMaximum",
    "maxItems",
    "maxProperties",
];
/// Present means constrained; a different value is a different constraint.
const PRESENCE_CONSTRAINTS: &[&str] = &["pattern", "format", "multipleOf"];

/// Keywords whose meaning we do not reason about; any change is `keyword.changed`. A `$ref`
/// still here is one that could not be followed.
pub(super) const UNREASONED: &[&str] = &[
    "$ref",
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

/// How many refs a chain may pass through before it is taken for a loop (accepts anything).
const MAX_REF_HOPS: usize = 32;

static TRUE: Value = Value::Bool(true);

/// The names every plain JavaScript object answers to through `Object.prototype`. The
/// reference asks `name in properties`, so a property of such a name that one side lacks is
/// present there all the same, as the inherited function (or, for `__proto__`, the prototype
/// object), which its walk reads as a schema with no keywords.
const INHERITED: &[&str] = &[
    "__defineGetter__",
    "__defineSetter__",
    "__lookupGetter__",
    "__lookupSetter__",
    "__proto__",
    "constructor",
    "hasOwnProperty",
    "isPrototypeOf",
    "propertyIsEnumerable",
    "toLocaleString",
    "toString",
    "valueOf",
];
/// The methods every JavaScript array answers to through `Array.prototype` (Node.js 20).
const ARRAY_METHODS: &[&str] = &[
    "at",
    "concat",
    "copyWithin",
    "entries",
    "every",
    "fill",
    "filter",
    "find",
    "findIndex",
    "findLast",
    "findLastIndex",
    "flat",
    "flatMap",
    "forEach",
    "includes",
    "indexOf",
    "join",
    "keys",
    "lastIndexOf",
    "map",
    "pop",
    "push",
    "reduce",
    "reduceRight",
    "reverse",
    "shift",
    "slice",
    "some",
    "sort",
    "splice",
    "toReversed",
    "toSorted",
    "toSpliced",
    "unshift",
    "values",
    "with",
];
static NO_ITEMS: Vec<Value> = Vec::new();
static NO_KEYWORDS: LazyLock<Value> = LazyLock::new(|| Value::Object(Map::new()));
static A_NUMBER: LazyLock<Value> = LazyLock::new(|| Value::from(0));

/// Compare two JSON Schema documents and list what changed. Fails only when a document (or the
/// walk through its refs) nests deeper than [`MAX_DEPTH`].
pub fn compare(before: &Value, after: &Value) -> Result<Vec<Change>, Error> {
    check_depth(before)?;
    check_depth(after)?;
    let mut walker = Walker {
        before_root: before,
        after_root: after,
        changes: Vec::new(),
        seen: HashSet::new(),
    };
    walker.walk(before, after, String::new(), 0)?;
    Ok(walker.changes)
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

/// A schema node read as an object: keyword look-ups on anything that is not an object find
/// nothing, as they do on a JavaScript array.
#[derive(Clone, Copy)]
struct Node<'a>(Option<&'a Map<String, Value>>);

impl<'a> Node<'a> {
    fn of(value: &'a Value) -> Node<'a> {
        Node(value.as_object())
    }

    fn get(self, keyword: &str) -> Option<&'a Value> {
        self.0.and_then(|map| map.get(keyword))
    }

    fn is_true(self, keyword: &str) -> bool {
        self.get(keyword) == Some(&Value::Bool(true))
    }

    fn array(self, keyword: &str) -> Option<&'a Vec<Value>> {
        self.get(keyword).and_then(Value::as_array)
    }
}

/// A local ref (`#/...`), the only kind that is followed.
pub(super) fn local_ref(value: &Value) -> Option<&str> {
    value
        .get("$ref")
        .and_then(Value::as_str)
        .filter(|reference| reference.starts_with("#/"))
}

/// Follow a local ref, and the refs its target makes, to a schema, with the last ref of the
/// chain (which names where the schema sits). A target that does not exist, or a chain that
/// never ends, accepts anything (`true`).
pub(super) fn resolve_ref<'a>(root: &'a Value, reference: &'a str) -> (&'a str, &'a Value) {
    let (mut last, mut target) = (reference, resolve_pointer(root, reference));
    for _ in 0..MAX_REF_HOPS {
        match local_ref(target) {
            None => return (last, target),
            Some(next) => (last, target) = (next, resolve_pointer(root, next)),
        }
    }
    (last, &TRUE)
}

/// The local refs of `root` that name nothing in it, each with the pointer of the node that
/// makes it: they accept anything, as the reference reads them, which the writer rarely meant.
pub(crate) fn dangling_refs(root: &Value) -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = crate::path::objects(root)
        .into_iter()
        .filter_map(|(at, map)| {
            let reference = map
                .get("$ref")
                .and_then(Value::as_str)
                .filter(|reference| reference.starts_with("#/"))?;
            std::ptr::eq(resolve_pointer(root, reference), &TRUE)
                .then(|| (at, reference.to_owned()))
        })
        .collect();
    found.sort();
    found
}

/// The node a local ref's pointer names, looked up as the reference looks it up (`node[key]`
/// in JavaScript): an array answers to its indexes as JavaScript writes them (`0`, not `00`),
/// a key an object or array lacks but inherits is a method, which the walk reads as a schema
/// with no keywords when the pointer ends there and which stops it (`true`) when it does not,
/// and so is an array's `length`, a number.
pub(super) fn resolve_pointer<'a>(root: &'a Value, reference: &str) -> &'a Value {
    let mut current = root;
    let mut segments = reference[2..].split('/').peekable();
    while let Some(segment) = segments.next() {
        let segment = segment.replace("~1", "/").replace("~0", "~");
        let (own, inherited) = match current {
            Value::Object(map) => (map.get(&segment), INHERITED.contains(&segment.as_str())),
            // An array's `length` is a number, which the walk reads as a schema with no
            // keywords (which number is never looked at) and which a pointer cannot go through.
            Value::Array(_) if segment == "length" => {
                return match segments.peek() {
                    None => &A_NUMBER,
                    Some(_) => &TRUE,
                };
            }
            Value::Array(items) => (
                array_index(&segment).and_then(|i| items.get(i as usize)),
                INHERITED.contains(&segment.as_str()) || ARRAY_METHODS.contains(&segment.as_str()),
            ),
            _ => return &TRUE,
        };
        current = match own {
            Some(next) => next,
            None if inherited && segments.peek().is_none() => &NO_KEYWORDS,
            None => return &TRUE,
        };
    }
    current
}

/// The entries of an object in JavaScript's `Object.keys` order: integer-like keys first, in
/// ascending order, then the others as written. Arrays list their items under their indexes.
pub(super) fn entries(value: Option<&Value>) -> Vec<(Cow<'_, str>, &Value)> {
    match value {
        Some(Value::Object(map)) => {
            let mut integers: Vec<(u32, &String, &Value)> = Vec::new();
            let mut others = Vec::new();
            for (key, item) in map {
                match array_index(key) {
                    Some(index) => integers.push((index, key, item)),
                    None => others.push((Cow::Borrowed(key.as_str()), item)),
                }
            }
            integers.sort_by_key(|(index, ..)| *index);
            integers
                .into_iter()
                .map(|(_, key, item)| (Cow::Borrowed(key.as_str()), item))
                .chain(others)
                .collect()
        }
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, item)| (Cow::Owned(i.to_string()), item))
            .collect(),
        _ => Vec::new(),
    }
}

/// A key JavaScript orders as an array index: a canonical decimal below 2^32 - 1.
fn array_index(key: &str) -> Option<u32> {
    if key.is_empty() || (key.len() > 1 && key.starts_with('0')) {
        return None;
    }
    if !key.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    key.parse::<u32>().ok().filter(|index| *index < u32::MAX)
}

/// The `required` names, first occurrence first (a JavaScript `Set`).
fn required_of(node: Node<'_>) -> Vec<&str> {
    let mut seen = HashSet::new();
    node.array("required")
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .filter(|name| seen.insert(*name))
        .collect()
}

/// A `type` entry as the reference's JavaScript `Set` tells entries apart (SameValueZero):
/// strings, numbers, booleans and `null` by value, so `null` is not `"null"`. An object or a
/// list is compared by its content, where the `Set` never finds one from another document
/// (identity): that would make a schema holding one changed even against its own text (README).
#[derive(Debug)]
enum TypeName<'a> {
    Text(&'a str),
    Number(f64),
    Flag(bool),
    Null,
    Object(String),
}

impl PartialEq for TypeName<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (TypeName::Text(a), TypeName::Text(b)) => a == b,
            (TypeName::Number(a), TypeName::Number(b)) => a == b,
            (TypeName::Flag(a), TypeName::Flag(b)) => a == b,
            (TypeName::Null, TypeName::Null) => true,
            (TypeName::Object(a), TypeName::Object(b)) => a == b,
            _ => false,
        }
    }
}

impl<'a> TypeName<'a> {
    fn of(value: &'a Value) -> TypeName<'a> {
        match value {
            Value::String(name) => TypeName::Text(name),
            Value::Number(n) => n
                .as_f64()
                .map_or_else(|| TypeName::Object(canon_value(value)), TypeName::Number),
            Value::Bool(flag) => TypeName::Flag(*flag),
            Value::Null => TypeName::Null,
            Value::Array(_) | Value::Object(_) => TypeName::Object(canon_value(value)),
        }
    }
}

/// The types a node allows; `None` when it has no `type`.
fn types_of(node: Node<'_>) -> Option<Vec<TypeName<'_>>> {
    match node.get("type")? {
        Value::Array(items) => Some(items.iter().map(TypeName::of).collect()),
        other => Some(vec![TypeName::of(other)]),
    }
}

/// Does `outer` accept every value `inner` accepts? `number` covers `integer`.
fn covers(outer: &[TypeName], inner: &[TypeName]) -> bool {
    inner.iter().all(|kind| {
        outer.contains(kind)
            || (*kind == TypeName::Text("integer") && outer.contains(&TypeName::Text("number")))
    })
}

/// The allowed values: `enum` when it is a list, else `[const]` when there is a `const`.
fn enum_of(node: Node) -> Option<Vec<Value>> {
    if let Some(values) = node.array("enum") {
        return Some(values.clone());
    }
    node.get("const").map(|value| vec![value.clone()])
}

/// A number keyword's value; anything that is not a number counts as absent.
fn number(value: Option<&Value>) -> Option<f64> {
    value.and_then(Value::as_f64)
}

/// The verb for a change with these sides.
fn op_for(before: bool, after: bool) -> OpKind {
    match (before, after) {
        (false, true) => OpKind::Add,
        (true, false) => OpKind::Remove,
        _ => OpKind::Replace,
    }
}

/// Deterministic text for a JSON value: keys sorted, numbers as JavaScript prints them, so two
/// structurally equal values give the same text whatever their key order.
pub fn canon_value(value: &Value) -> String {
    let mut out = String::new();
    write_value(value, &mut out);
    out
}

fn write_value(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(flag) => out.push_str(if *flag { "true" } else { "false" }),
        Value::Number(n) => match n.as_f64() {
            Some(f) if f.is_finite() => out.push_str(&js_number(f)),
            _ => out.push_str(&n.to_string()),
        },
        Value::String(text) => out.push_str(&Value::String(text.clone()).to_string()),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                write_value(&map[key], out);
            }
            out.push('}');
        }
    }
}

fn same(before: Option<&Value>, after: Option<&Value>) -> bool {
    match (before, after) {
        (None, None) => true,
        (Some(before), Some(after)) => canon_value(before) == canon_value(after),
        _ => false,
    }
}

struct Walker<'a> {
    before_root: &'a Value,
    after_root: &'a Value,
    changes: Vec<Change>,
    /// `before ref|after ref` pairs already compared.
    seen: HashSet<(String, String)>,
}

impl<'a> Walker<'a> {
    fn emit(
        &mut self,
        kind: ChangeKind,
        path: String,
        keyword: &str,
        before: Option<&Value>,
        after: Option<&Value>,
    ) {
        self.changes.push(Change {
            kind,
            path,
            keyword: keyword.to_owned(),
            op: op_for(before.is_some(), after.is_some()),
            before: before.cloned(),
            after: after.cloned(),
        });
    }

    /// Compare two schema nodes met at `pointer`.
    fn walk(
        &mut self,
        before: &'a Value,
        after: &'a Value,
        pointer: String,
        depth: usize,
    ) -> Result<(), Error> {
        if depth > MAX_DEPTH {
            return Err(Error::TooDeep {
                path: pointer,
                limit: MAX_DEPTH,
            });
        }
        let (before, after, pointer) = match (local_ref(before), local_ref(after)) {
            (None, None) => (before, after, pointer),
            (Some(old), Some(new)) => {
                if !self.seen.insert((old.to_owned(), new.to_owned())) {
                    return Ok(());
                }
                (
                    resolve_ref(self.before_root, old).1,
                    resolve_ref(self.after_root, new).1,
                    new[1..].to_owned(),
                )
            }
            (old, new) => (
                old.map_or(before, |old| resolve_ref(self.before_root, old).1),
                new.map_or(after, |new| resolve_ref(self.after_root, new).1),
                pointer,
            ),
        };

        if before.is_boolean() || after.is_boolean() {
            if before != after {
                let relaxed = *before == Value::Bool(false) || *after == Value::Bool(true);
                let kind = if relaxed {
                    ChangeKind::SchemaRelaxed
                } else {
                    ChangeKind::SchemaRestricted
                };
                self.emit(kind, pointer, "", Some(before), Some(after));
            }
            return Ok(());
        }

        let (old, new) = (Node::of(before), Node::of(after));
        self.deprecated(old, new, &pointer);
        self.types(old, new, &pointer);
        self.enums(old, new, &pointer);
        self.constraints(old, new, &pointer);
        self.properties(old, new, &pointer, depth)?;
        self.required(old, new, &pointer);
        self.additional_properties(old, new, &pointer, depth)?;
        self.items(old, new, &pointer, depth)?;
        for keyword in ["oneOf", "anyOf"] {
            self.branches(
                old,
                new,
                &pointer,
                keyword,
                (ChangeKind::UnionBranchAdded, ChangeKind::UnionBranchRemoved),
                depth,
            )?;
        }
        self.branches(
            old,
            new,
            &pointer,
            "allOf",
            (ChangeKind::AllOfBranchAdded, ChangeKind::AllOfBranchRemoved),
            depth,
        )?;
        for keyword in UNREASONED {
            let (was, is) = (old.get(keyword), new.get(keyword));
            if !same(was, is) {
                self.emit(
                    ChangeKind::KeywordChanged,
                    format!("{pointer}/{keyword}"),
                    keyword,
                    was,
                    is,
                );
            }
        }
        Ok(())
    }

    /// `deprecated: true` appearing is reported (never breaking); disappearing is not.
    fn deprecated(&mut self, old: Node, new: Node, pointer: &str) {
        if !old.is_true("deprecated") && new.is_true("deprecated") {
            let (was, is) = (Value::Bool(false), Value::Bool(true));
            self.emit(
                ChangeKind::SchemaDeprecated,
                pointer.to_owned(),
                "deprecated",
                Some(&was),
                Some(&is),
            );
        }
    }

    fn types(&mut self, old: Node, new: Node, pointer: &str) {
        let path = format!("{pointer}/type");
        let any = Value::String("any".to_owned());
        let kind = match (types_of(old), types_of(new)) {
            (None, None) => return,
            (None, Some(_)) => {
                return self.emit(
                    ChangeKind::TypeNarrowed,
                    path,
                    "type",
                    Some(&any),
                    new.get("type"),
                );
            }
            (Some(_), None) => {
                return self.emit(
                    ChangeKind::TypeWidened,
                    path,
                    "type",
                    old.get("type"),
                    Some(&any),
                );
            }
            (Some(was), Some(is)) => {
                let (wider, narrower) = (covers(&is, &was), covers(&was, &is));
                match (wider, narrower) {
                    (true, true) => return,
                    (true, false) => ChangeKind::TypeWidened,
                    (false, true) => ChangeKind::TypeNarrowed,
                    (false, false) => ChangeKind::TypeChanged,
                }
            }
        };
        self.emit(kind, path, "type", old.get("type"), new.get("type"));
    }

    fn enums(&mut self, old: Node, new: Node, pointer: &str) {
        let path = format!("{pointer}/enum");
        match (enum_of(old), enum_of(new)) {
            (None, None) => {}
            (None, Some(is)) => {
                self.emit(
                    ChangeKind::EnumAdded,
                    path,
                    "enum",
                    None,
                    Some(&Value::Array(is)),
                );
            }
            (Some(was), None) => {
                self.emit(
                    ChangeKind::EnumRemoved,
                    path,
                    "enum",
                    Some(&Value::Array(was)),
                    None,
                );
            }
            (Some(was), Some(is)) => {
                let keys_before: HashSet<String> = was.iter().map(canon_value).collect();
                let keys_after: HashSet<String> = is.iter().map(canon_value).collect();
                for value in &is {
                    if !keys_before.contains(&canon_value(value)) {
                        self.emit(
                            ChangeKind::EnumValueAdded,
                            path.clone(),
                            "enum",
                            None,
                            Some(value),
                        );
                    }
                }
                for value in &was {
                    if !keys_after.contains(&canon_value(value)) {
                        self.emit(
                            ChangeKind::EnumValueRemoved,
                            path.clone(),
                            "enum",
                            Some(value),
                            None,
                        );
                    }
                }
            }
        }
    }

    fn constraints(&mut self, old: Node, new: Node, pointer: &str) {
        for (keywords, higher_is_tighter) in [(LOWER_BOUNDS, true), (UPPER_BOUNDS, false)] {
            for keyword in keywords {
                let (was, is) = (number(old.get(keyword)), number(new.get(keyword)));
                let kind = match (was, is) {
                    (None, None) => continue,
                    (Some(was), Some(is)) if was == is => continue,
                    (None, Some(_)) => ChangeKind::ConstraintTightened,
                    (Some(_), None) => ChangeKind::ConstraintLoosened,
                    (Some(was), Some(is)) => {
                        if (higher_is_tighter && is > was) || (!higher_is_tighter && is < was) {
                            ChangeKind::ConstraintTightened
                        } else {
                            ChangeKind::ConstraintLoosened
                        }
                    }
                };
                // Only number values take part; a non-number bound reads as absent.
                self.emit(
                    kind,
                    format!("{pointer}/{keyword}"),
                    keyword,
                    was.and(old.get(keyword)),
                    is.and(new.get(keyword)),
                );
            }
        }
        for keyword in PRESENCE_CONSTRAINTS {
            let (was, is) = (old.get(keyword), new.get(keyword));
            if same(was, is) {
                continue;
            }
            let kind = match (was, is) {
                (None, _) => ChangeKind::ConstraintTightened,
                (_, None) => ChangeKind::ConstraintLoosened,
                _ => ChangeKind::ConstraintChanged,
            };
            self.emit(kind, format!("{pointer}/{keyword}"), keyword, was, is);
        }
        let (was, is) = (old.is_true("uniqueItems"), new.is_true("uniqueItems"));
        if was != is {
            let kind = if is {
                ChangeKind::ConstraintTightened
            } else {
                ChangeKind::ConstraintLoosened
            };
            self.emit(
                kind,
                format!("{pointer}/uniqueItems"),
                "uniqueItems",
                Some(&Value::Bool(was)),
                Some(&Value::Bool(is)),
            );
        }
    }

    fn properties(
        &mut self,
        old: Node<'a>,
        new: Node<'a>,
        pointer: &str,
        depth: usize,
    ) -> Result<(), Error> {
        let before = entries(old.get("properties"));
        let after = entries(new.get("properties"));
        // Looked up by name, in the order the reference walks them (before's, then after's new).
        let before_by_name: HashMap<&str, &'a Value> = before
            .iter()
            .map(|(key, value)| (key.as_ref(), *value))
            .collect();
        let after_by_name: HashMap<&str, &'a Value> = after
            .iter()
            .map(|(key, value)| (key.as_ref(), *value))
            .collect();
        let mut names: Vec<&str> = before.iter().map(|(name, _)| name.as_ref()).collect();
        for (name, _) in &after {
            if !before_by_name.contains_key(name.as_ref()) {
                names.push(name);
            }
        }
        for name in names {
            let path = format!("{pointer}/properties/{}", escape(name));
            let inherited = INHERITED.contains(&name).then_some(&*NO_KEYWORDS);
            match (
                before_by_name.get(name).copied().or(inherited),
                after_by_name.get(name).copied().or(inherited),
            ) {
                (None, Some(added)) => {
                    let kind = if old.get("additionalProperties") == Some(&Value::Bool(false)) {
                        ChangeKind::PropertyAddedToClosedObject
                    } else {
                        ChangeKind::PropertyAdded
                    };
                    self.emit(kind, path, "", None, Some(added));
                }
                (Some(removed), None) => {
                    let kind = if new.get("additionalProperties") == Some(&Value::Bool(false)) {
                        ChangeKind::PropertyRemovedFromClosedObject
                    } else {
                        ChangeKind::PropertyRemoved
                    };
                    self.emit(kind, path, "", Some(removed), None);
                }
                (Some(was), Some(is)) => self.walk(was, is, path, depth + 1)?,
                (None, None) => {}
            }
        }
        Ok(())
    }

    fn required(&mut self, old: Node, new: Node, pointer: &str) {
        let (before, after) = (required_of(old), required_of(new));
        let (before_set, after_set): (HashSet<&str>, HashSet<&str>) = (
            before.iter().copied().collect(),
            after.iter().copied().collect(),
        );
        let properties: HashMap<Cow<'_, str>, &Value> =
            entries(new.get("properties")).into_iter().collect();
        let (no, yes) = (Value::Bool(false), Value::Bool(true));
        for name in &after {
            if before_set.contains(name) {
                continue;
            }
            let has_default = properties
                .get(*name)
                .and_then(|property| property.get("default"))
                .is_some();
            let kind = if has_default {
                ChangeKind::RequiredAddedWithDefault
            } else {
                ChangeKind::RequiredAdded
            };
            let path = format!("{pointer}/properties/{}", escape(name));
            self.emit(kind, path, "required", Some(&no), Some(&yes));
        }
        for name in &before {
            if !after_set.contains(name) {
                let path = format!("{pointer}/properties/{}", escape(name));
                self.emit(
                    ChangeKind::RequiredRemoved,
                    path,
                    "required",
                    Some(&yes),
                    Some(&no),
                );
            }
        }
    }

    fn additional_properties(
        &mut self,
        old: Node<'a>,
        new: Node<'a>,
        pointer: &str,
        depth: usize,
    ) -> Result<(), Error> {
        // Absent and `null` read as `true` (open).
        let side = |node: Node<'a>| match node.get("additionalProperties") {
            None | Some(Value::Null) => &TRUE,
            Some(value) => value,
        };
        let (was, is) = (side(old), side(new));
        let path = format!("{pointer}/additionalProperties");
        let closed = |value: &Value| *value == Value::Bool(false);
        let kind = match (closed(was), closed(is)) {
            (false, true) => ChangeKind::AdditionalPropertiesClosed,
            (true, false) => ChangeKind::AdditionalPropertiesOpened,
            _ => return self.walk(was, is, path, depth + 1),
        };
        self.changes.push(Change {
            kind,
            path,
            keyword: "additionalProperties".to_owned(),
            op: OpKind::Replace,
            before: None,
            after: None,
        });
        Ok(())
    }

    fn items(
        &mut self,
        old: Node<'a>,
        new: Node<'a>,
        pointer: &str,
        depth: usize,
    ) -> Result<(), Error> {
        let tuple = |node: Node<'a>| node.array("items").or_else(|| node.array("prefixItems"));
        let (was, is) = (tuple(old), tuple(new));
        if was.is_some() || is.is_some() {
            let keyword = if new.array("items").is_some() || old.array("items").is_some() {
                "items"
            } else {
                "prefixItems"
            };
            let (was, is) = (was.unwrap_or(&NO_ITEMS), is.unwrap_or(&NO_ITEMS));
            let shared = was.len().min(is.len());
            for i in 0..shared {
                self.walk(
                    &was[i],
                    &is[i],
                    format!("{pointer}/{keyword}/{i}"),
                    depth + 1,
                )?;
            }
            for (i, item) in is.iter().enumerate().skip(shared) {
                let path = format!("{pointer}/{keyword}/{i}");
                self.emit(ChangeKind::TupleItemAdded, path, keyword, None, Some(item));
            }
            for (i, item) in was.iter().enumerate().skip(shared) {
                let path = format!("{pointer}/{keyword}/{i}");
                self.emit(
                    ChangeKind::TupleItemRemoved,
                    path,
                    keyword,
                    Some(item),
                    None,
                );
            }
        }
        // One schema for every item; `null` reads as `true`.
        let schema = |node: Node<'a>| match node.get("items") {
            Some(Value::Array(_)) | None => None,
            Some(Value::Null) => Some(&TRUE),
            Some(value) => Some(value),
        };
        match (schema(old), schema(new)) {
            (None, None) => Ok(()),
            (was, is) => self.walk(
                was.unwrap_or(&TRUE),
                is.unwrap_or(&TRUE),
                format!("{pointer}/items"),
                depth + 1,
            ),
        }
    }

    fn branches(
        &mut self,
        old: Node<'a>,
        new: Node<'a>,
        pointer: &str,
        keyword: &str,
        (added, removed): (ChangeKind, ChangeKind),
        depth: usize,
    ) -> Result<(), Error> {
        let path = format!("{pointer}/{keyword}");
        let (was, is) = match (old.array(keyword), new.array(keyword)) {
            (None, None) => return Ok(()),
            (None, Some(_)) => {
                // A union or allOf that did not exist now restricts values.
                let is = new.get(keyword);
                self.emit(ChangeKind::ConstraintTightened, path, keyword, None, is);
                return Ok(());
            }
            (Some(_), None) => {
                let was = old.get(keyword);
                self.emit(ChangeKind::ConstraintLoosened, path, keyword, was, None);
                return Ok(());
            }
            (Some(was), Some(is)) => (was, is),
        };
        let keys_before: Vec<String> = was.iter().map(canon_value).collect();
        let keys_after: Vec<String> = is.iter().map(canon_value).collect();
        let mut matched = vec![false; is.len()];
        let mut unmatched_before = Vec::new();
        for (i, key) in keys_before.iter().enumerate() {
            match (0..is.len()).find(|&j| !matched[j] && keys_after[j] == *key) {
                Some(j) => matched[j] = true,
                None => unmatched_before.push(i),
            }
        }
        let unmatched_after: Vec<usize> = (0..is.len()).filter(|&j| !matched[j]).collect();
        if unmatched_before.len() == unmatched_after.len() {
            for (&i, &j) in unmatched_before.iter().zip(&unmatched_after) {
                self.walk(&was[i], &is[j], format!("{path}/{j}"), depth + 1)?;
            }
            return Ok(());
        }
        for j in unmatched_after {
            self.emit(added, format!("{path}/{j}"), keyword, None, Some(&is[j]));
        }
        for i in unmatched_before {
            self.emit(removed, format!("{path}/{i}"), keyword, Some(&was[i]), None);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ops(before: Value, after: Value) -> Vec<(String, OpKind, String)> {
        compare(&before, &after)
            .unwrap()
            .into_iter()
            .map(|change| (change.kind.id().to_owned(), change.op, change.path))
            .collect()
    }

    fn op(kind: &str, op: OpKind, path: &str) -> (String, OpKind, String) {
        (kind.to_owned(), op, path.to_owned())
    }

    #[test]
    fn recursive_definitions_terminate() {
        let schema = json!({"$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}}, "$ref": "#/$defs/node"});
        assert!(ops(schema.clone(), schema).is_empty());
    }

    #[test]
    fn definition_change_reported_once() {
        let before = json!({"definitions": {"a": {"type": "integer"}}, "properties": {"x": {"$ref": "#/definitions/a"}, "y": {"$ref": "#/definitions/a"}}});
        let after = json!({"definitions": {"a": {"type": "number"}}, "properties": {"x": {"$ref": "#/definitions/a"}, "y": {"$ref": "#/definitions/a"}}});
        assert_eq!(
            ops(before, after),
            vec![op("type.widened", OpKind::Replace, "/definitions/a/type")]
        );
    }

    #[test]
    fn a_required_property_that_appears_gets_both_ops() {
        let before = json!({"properties": {}});
        let after = json!({"properties": {"x": {}}, "required": ["x"]});
        assert_eq!(
            ops(before.clone(), after.clone()),
            vec![
                op("property.added", OpKind::Add, "/properties/x"),
                op("required.added", OpKind::Replace, "/properties/x"),
            ]
        );
        assert_eq!(
            ops(after, before),
            vec![
                op("property.removed", OpKind::Remove, "/properties/x"),
                op("required.removed", OpKind::Replace, "/properties/x"),
            ]
        );
    }

    #[test]
    fn const_is_an_enum_of_one() {
        assert_eq!(
            ops(json!({"const": "a"}), json!({"const": "b"})),
            vec![
                op("enum.value.added", OpKind::Add, "/enum"),
                op("enum.value.removed", OpKind::Remove, "/enum"),
            ]
        );
        assert_eq!(
            ops(json!({}), json!({"const": 1})),
            vec![op("enum.added", OpKind::Add, "/enum")]
        );
        assert!(ops(json!({"const": 1}), json!({"enum": [1.0]})).is_empty());
    }

    #[test]
    fn keyword_verbs_follow_presence() {
        assert_eq!(
            ops(json!({"minLength": 1}), json!({})),
            vec![op("constraint.loosened", OpKind::Remove, "/minLength")]
        );
        assert_eq!(
            ops(json!({}), json!({"not": {}})),
            vec![op("keyword.changed", OpKind::Add, "/not")]
        );
        assert_eq!(
            ops(json!({"format": "a"}), json!({"format": "b"})),
            vec![op("constraint.changed", OpKind::Replace, "/format")]
        );
    }

    #[test]
    fn integer_like_property_names_come_first() {
        let after = json!({"properties": {"b": {}, "10": {}, "2": {}, "a": {}}});
        let paths: Vec<String> = ops(json!({}), after)
            .into_iter()
            .map(|(_, _, path)| path)
            .collect();
        assert_eq!(
            paths,
            [
                "/properties/2",
                "/properties/10",
                "/properties/b",
                "/properties/a"
            ]
        );
    }

    #[test]
    fn type_entries_are_told_apart_as_a_javascript_set_tells_them() {
        let changed =
            |before: Value, after: Value| ops(json!({"type": before}), json!({"type": after}));
        assert_eq!(
            changed(json!(null), json!("null")),
            vec![op("type.changed", OpKind::Replace, "/type")]
        );
        assert_eq!(changed(json!([1]), json!(["1"])).len(), 1);
        assert!(changed(json!([1.0, null]), json!([null, 1])).is_empty());
        // By content, a deliberate difference (README).
        assert!(changed(json!([{}]), json!([{}])).is_empty());
    }

    #[test]
    fn nodes_that_are_not_schemas_read_as_empty_objects() {
        assert!(
            ops(
                json!({"properties": {"x": null}}),
                json!({"properties": {"x": 3}})
            )
            .is_empty()
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
            ops(json!({"properties": {}}), after),
            vec![op("property.added", OpKind::Add, "/properties/a~1b")]
        );
    }
}
