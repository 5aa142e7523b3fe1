//! Property tests for the Avro walker and resolution check, on generated record schemas and
//! mutations of them (fields added, removed, retyped, renamed through aliases; symbols, defaults,
//! unions, names, namespaces, sizes changed; named types reused and recursive):
//!
//! - a schema judged against itself has no ops;
//! - our backward verdict for (a, b) equals our forward verdict for (b, a);
//! - the verdict the walker's ops give equals the direct resolution check in both directions,
//!   without the reconciliation `avro::changes` adds (so the walker is right on its own).
//!
//! Every fixture under `testdata/avro/` is held to the last property too. `PROPTEST_CASES=5000
//! cargo test --test avro_props` runs longer (the default is proptest's 256 cases per property).

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use catalog_diff::schema::avro::{self, Schema};
use catalog_diff::schema::verdict::{Change, Effect};
use catalog_diff::schema::{Strategy as Check, judge};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

const PRIMITIVES: &[&str] = &[
    "null", "boolean", "int", "long", "float", "double", "bytes", "string",
];
const NAMES: &[&str] = &["A", "B", "C", "D"];
const NAMESPACES: &[&str] = &["", "x", "x.y"];
const FIELDS: &[&str] = &["f1", "f2", "f3", "f4", "f5"];
const SYMBOLS: &[&str] = &["S1", "S2", "S3", "S4"];

/// A generated type, before it is made valid by [`render`].
#[derive(Clone, Debug)]
enum Ty {
    Prim(usize),
    Logical(usize),
    Array(Box<Ty>),
    Map(Box<Ty>),
    Union(Vec<Ty>),
    Record {
        name: usize,
        space: usize,
        aliases: Vec<(usize, usize)>,
        fields: Vec<FieldTy>,
    },
    Enum {
        name: usize,
        symbols: Vec<usize>,
        default: Option<usize>,
    },
    Fixed {
        name: usize,
        size: u8,
    },
    /// A reference to a named type by its unqualified name (dropped when nothing defines it).
    Ref(usize),
}

#[derive(Clone, Debug)]
struct FieldTy {
    name: usize,
    ty: Ty,
    default: bool,
    aliases: Vec<usize>,
}

fn ty() -> impl Strategy<Value = Ty> + Clone {
    let leaf = prop_oneof![
        4 => (0..PRIMITIVES.len()).prop_map(Ty::Prim),
        1 => (0..3usize).prop_map(Ty::Logical),
        1 => (0..NAMES.len()).prop_map(Ty::Ref),
        1 => (0..NAMES.len(), prop::collection::vec(0..SYMBOLS.len(), 1..4), prop::option::of(0..SYMBOLS.len()))
            .prop_map(|(name, symbols, default)| Ty::Enum { name, symbols, default }),
        1 => (0..NAMES.len(), 1..4u8).prop_map(|(name, size)| Ty::Fixed { name, size }),
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            inner.clone().prop_map(|t| Ty::Array(Box::new(t))),
            inner.clone().prop_map(|t| Ty::Map(Box::new(t))),
            prop::collection::vec(inner.clone(), 1..4).prop_map(Ty::Union),
            record(inner),
        ]
    })
}

fn record(inner: impl Strategy<Value = Ty>) -> impl Strategy<Value = Ty> {
    (
        0..NAMES.len(),
        0..NAMESPACES.len(),
        prop::collection::vec((0..NAMES.len(), 0..NAMESPACES.len()), 0..2),
        prop::collection::vec(field(inner), 0..4),
    )
        .prop_map(|(name, space, aliases, fields)| Ty::Record {
            name,
            space,
            aliases,
            fields,
        })
}

fn field(inner: impl Strategy<Value = Ty>) -> impl Strategy<Value = FieldTy> {
    (
        0..FIELDS.len(),
        inner,
        any::<bool>(),
        prop::collection::vec(0..FIELDS.len(), 0..2),
    )
        .prop_map(|(name, ty, default, aliases)| FieldTy {
            name,
            ty,
            default,
            aliases,
        })
}

fn root() -> impl Strategy<Value = Ty> {
    record(ty())
}

/// One small edit at the `at`th node of a tree (counting in walk order).
#[derive(Clone, Debug)]
struct Mutation {
    at: usize,
    edit: usize,
    pick: usize,
}

fn mutation() -> impl Strategy<Value = Mutation> {
    (0..40usize, 0..12usize, 0..64usize).prop_map(|(at, edit, pick)| Mutation { at, edit, pick })
}

fn nodes(ty: &Ty) -> usize {
    1 + match ty {
        Ty::Array(inner) | Ty::Map(inner) => nodes(inner),
        Ty::Union(branches) => branches.iter().map(nodes).sum(),
        Ty::Record { fields, .. } => fields.iter().map(|f| nodes(&f.ty)).sum(),
        _ => 0,
    }
}

fn apply(ty: &mut Ty, m: &Mutation) {
    let at = m.at % nodes(ty);
    mutate(ty, m, at, &mut 0);
}

fn mutate(ty: &mut Ty, m: &Mutation, at: usize, counter: &mut usize) -> bool {
    if *counter == at {
        edit(ty, m, at == 0);
        return true;
    }
    *counter += 1;
    match ty {
        Ty::Array(inner) | Ty::Map(inner) => mutate(inner, m, at, counter),
        Ty::Union(branches) => branches.iter_mut().any(|b| mutate(b, m, at, counter)),
        Ty::Record { fields, .. } => fields.iter_mut().any(|f| mutate(&mut f.ty, m, at, counter)),
        _ => false,
    }
}

/// One edit of a node; the root stays a record.
fn edit(ty: &mut Ty, m: &Mutation, root: bool) {
    let pick = m.pick;
    // Now and then, whatever the node: make it a union with null, or a primitive.
    match m.edit {
        10 if !root && !matches!(ty, Ty::Union(_)) => {
            *ty = Ty::Union(vec![Ty::Prim(pick % 2), ty.clone()]);
            return;
        }
        11 if !root => {
            *ty = Ty::Prim(pick % PRIMITIVES.len());
            return;
        }
        _ => {}
    }
    match ty {
        Ty::Prim(p) => *p = pick % PRIMITIVES.len(),
        Ty::Logical(l) => *l = (*l + 1) % 3,
        Ty::Array(inner) | Ty::Map(inner) => **inner = Ty::Prim(pick % PRIMITIVES.len()),
        Ty::Ref(name) => *name = (*name + 1) % NAMES.len(),
        Ty::Record {
            fields,
            name,
            space,
            aliases,
        } => match m.edit % 6 {
            0 => fields.push(FieldTy {
                name: pick % FIELDS.len(),
                ty: Ty::Prim(pick % PRIMITIVES.len()),
                default: pick.is_multiple_of(2),
                aliases: vec![],
            }),
            1 if !fields.is_empty() => {
                fields.remove(pick % fields.len());
            }
            2 if !fields.is_empty() => {
                let n = fields.len();
                let f = &mut fields[pick % n];
                f.default = !f.default;
            }
            3 if !fields.is_empty() => {
                // Rename a field, keeping the old name as an alias (or not).
                let n = fields.len();
                let f = &mut fields[pick % n];
                if pick.is_multiple_of(2) {
                    f.aliases.push(f.name);
                }
                f.name = (f.name + 1 + pick / 2) % FIELDS.len();
            }
            4 => {
                if pick.is_multiple_of(2) {
                    aliases.push((*name, *space));
                }
                *name = (*name + 1) % NAMES.len();
            }
            _ => *space = pick % NAMESPACES.len(),
        },
        Ty::Enum {
            symbols,
            default,
            name,
        } => match m.edit % 4 {
            0 => symbols.push(pick % SYMBOLS.len()),
            1 if symbols.len() > 1 => {
                symbols.remove(pick % symbols.len());
            }
            2 => {
                *default = match default {
                    Some(_) => None,
                    None => Some(symbols[pick % symbols.len()]),
                }
            }
            _ => *name = (*name + 1) % NAMES.len(),
        },
        Ty::Fixed { size, .. } => *size = 1 + (pick % 3) as u8,
        Ty::Union(branches) => {
            if m.edit.is_multiple_of(2) && branches.len() > 1 {
                branches.remove(pick % branches.len());
            } else {
                branches.push(Ty::Prim(pick % PRIMITIVES.len()));
            }
        }
    }
}

/// Renders a generated type as valid Avro JSON: names defined twice become references, union
/// branches of one type and fields of one name are dropped, defaults are made to fit.
struct Renderer {
    /// Full names defined so far, with their definitions once complete (for defaults).
    defined: BTreeMap<String, Option<Value>>,
}

impl Renderer {
    fn fullname(name: usize, space: &str) -> String {
        if space.is_empty() {
            NAMES[name].to_owned()
        } else {
            format!("{space}.{}", NAMES[name])
        }
    }

    fn render(&mut self, ty: &Ty, space: &str) -> Value {
        match ty {
            Ty::Prim(p) => json!(PRIMITIVES[*p]),
            Ty::Logical(l) => match l {
                0 => json!({"type": "long", "logicalType": "timestamp-millis"}),
                1 => json!({"type": "int", "logicalType": "date"}),
                _ => json!({"type": "bytes", "logicalType": "decimal", "precision": 6, "scale": 2}),
            },
            Ty::Array(inner) => json!({"type": "array", "items": self.render(inner, space)}),
            Ty::Map(inner) => json!({"type": "map", "values": self.render(inner, space)}),
            Ty::Union(branches) => {
                let mut keys = HashSet::new();
                let mut out = Vec::new();
                for branch in branches {
                    if matches!(branch, Ty::Union(_)) {
                        continue;
                    }
                    let before = self.defined.clone();
                    let value = self.render(branch, space);
                    if keys.insert(self.key(&value, space)) {
                        out.push(value);
                    } else {
                        // A dropped branch defines nothing.
                        self.defined = before;
                    }
                }
                if out.is_empty() {
                    out.push(json!("null"));
                }
                Value::Array(out)
            }
            Ty::Ref(name) => {
                let full = Renderer::fullname(*name, space);
                if self.defined.contains_key(&full) {
                    Renderer::reference(&full, space)
                } else if self.defined.contains_key(NAMES[*name]) {
                    Renderer::reference(NAMES[*name], space)
                } else {
                    json!("string")
                }
            }
            Ty::Enum {
                name,
                symbols,
                default,
            } => {
                let full = Renderer::fullname(*name, space);
                if self.defined.contains_key(&full) {
                    return Renderer::reference(&full, space);
                }
                let mut seen = Vec::new();
                for s in symbols {
                    if !seen.contains(&SYMBOLS[*s]) {
                        seen.push(SYMBOLS[*s]);
                    }
                }
                let mut value = json!({"type": "enum", "name": NAMES[*name], "symbols": seen});
                if let Some(d) = default
                    && seen.contains(&SYMBOLS[*d])
                {
                    value["default"] = json!(SYMBOLS[*d]);
                }
                self.defined.insert(full, Some(value.clone()));
                value
            }
            Ty::Fixed { name, size } => {
                let full = Renderer::fullname(*name, space);
                if self.defined.contains_key(&full) {
                    return Renderer::reference(&full, space);
                }
                let value = json!({"type": "fixed", "name": NAMES[*name], "size": size});
                self.defined.insert(full, Some(value.clone()));
                value
            }
            Ty::Record {
                name,
                space: own,
                aliases,
                fields,
            } => {
                let own = NAMESPACES[*own];
                let full = Renderer::fullname(*name, own);
                if self.defined.contains_key(&full) {
                    return Renderer::reference(&full, space);
                }
                self.defined.insert(full.clone(), None);
                let mut rendered = Vec::new();
                let mut names = HashSet::new();
                for f in fields {
                    if !names.insert(f.name) {
                        continue;
                    }
                    let ty = self.render(&f.ty, own);
                    let mut field = Map::new();
                    field.insert("name".into(), json!(FIELDS[f.name]));
                    if f.default
                        && let Some(default) = self.default_for(&ty, own, 0)
                    {
                        field.insert("default".into(), default);
                    }
                    if !f.aliases.is_empty() {
                        let list: Vec<&str> = f.aliases.iter().map(|a| FIELDS[*a]).collect();
                        field.insert("aliases".into(), json!(list));
                    }
                    field.insert("type".into(), ty);
                    rendered.push(Value::Object(field));
                }
                let mut value = json!({"type": "record", "name": NAMES[*name], "namespace": own, "fields": rendered});
                if !aliases.is_empty() {
                    let list: Vec<String> = aliases
                        .iter()
                        .map(|(n, s)| Renderer::fullname(*n, NAMESPACES[*s]))
                        .collect();
                    value["aliases"] = json!(list);
                }
                self.defined.insert(full, Some(value.clone()));
                value
            }
        }
    }

    /// A reference that means one type whenever it is read: a full name, or a short one only
    /// where the enclosing namespace is null (else `string`, leaving the type out).
    fn reference(full: &str, space: &str) -> Value {
        if full.contains('.') || space.is_empty() {
            json!(full)
        } else {
            json!("string")
        }
    }

    fn resolve(&self, name: &str, space: &str) -> Option<&Value> {
        self.defined
            .get(&Renderer::fullname_str(name, space))
            .and_then(Option::as_ref)
    }

    fn key(&self, value: &Value, space: &str) -> String {
        match value {
            Value::String(name) if PRIMITIVES.contains(&name.as_str()) => name.clone(),
            Value::String(name) => {
                let full = Renderer::fullname_str(name, space);
                if self.defined.contains_key(&full) {
                    full
                } else {
                    name.clone()
                }
            }
            Value::Object(o) => match o["type"].as_str().unwrap_or_default() {
                "record" | "enum" | "fixed" => {
                    let own = o.get("namespace").and_then(Value::as_str).unwrap_or(space);
                    Renderer::fullname_str(o["name"].as_str().unwrap_or_default(), own)
                }
                other => other.to_owned(),
            },
            _ => "union".into(),
        }
    }

    fn fullname_str(name: &str, space: &str) -> String {
        if space.is_empty() || name.contains('.') {
            name.to_owned()
        } else {
            format!("{space}.{name}")
        }
    }

    /// A valid default for a rendered type, when one is easy to make.
    fn default_for(&self, ty: &Value, space: &str, depth: usize) -> Option<Value> {
        if depth > 4 {
            return None;
        }
        Some(match ty {
            Value::String(name) => match name.as_str() {
                "null" => Value::Null,
                "boolean" => json!(true),
                "int" | "long" => json!(1),
                "float" | "double" => json!(1.5),
                "bytes" | "string" => json!("x"),
                other => {
                    let def = self.resolve(other, space)?.clone();
                    return self.default_for(&def, space, depth + 1);
                }
            },
            Value::Array(branches) => {
                return self.default_for(branches.first()?, space, depth + 1);
            }
            Value::Object(o) => match o["type"].as_str().unwrap_or_default() {
                "array" => json!([]),
                "map" => json!({}),
                "enum" => json!(o["symbols"][0]),
                "fixed" => json!("\u{0}"),
                "record" => {
                    let own = o.get("namespace").and_then(Value::as_str).unwrap_or(space);
                    let mut out = Map::new();
                    for f in o["fields"].as_array()? {
                        let value = self.default_for(&f["type"], own, depth + 1)?;
                        out.insert(f["name"].as_str()?.to_owned(), value);
                    }
                    Value::Object(out)
                }
                other => return self.default_for(&json!(other), space, depth + 1),
            },
            _ => return None,
        })
    }
}

fn render(ty: &Ty) -> String {
    let mut renderer = Renderer {
        defined: BTreeMap::new(),
    };
    renderer.render(ty, "").to_string()
}

fn parse(text: &str) -> Schema {
    avro::parse("generated.avsc", text)
        .unwrap_or_else(|error| panic!("generated schema is invalid ({error}): {text}"))
}

fn breaks(changes: &[Change], backward: bool) -> bool {
    changes.iter().any(|c| {
        (if backward {
            c.rule.backward
        } else {
            c.rule.forward
        }) == Effect::Breaks
    })
}

/// The walker's verdict against the direct check, both ways: `None` when they agree.
fn disagreement(a: &Schema, b: &Schema) -> Option<String> {
    let walked = avro::walk(a, b).expect("walks");
    let backward = avro::can_read(b, a).expect("checks");
    let forward = avro::can_read(a, b).expect("checks");
    let (wb, wf) = (breaks(&walked, true), breaks(&walked, false));
    if (wb, wf) == (backward.is_some(), forward.is_some()) {
        return None;
    }
    Some(format!(
        "walker says backward {wb} forward {wf}; resolution says {backward:?} / {forward:?}; ops {:#?}",
        walked
            .iter()
            .map(|c| format!("{} {} {}", c.rule.id, c.path, c.what))
            .collect::<Vec<_>>()
    ))
}

proptest! {
    #[test]
    fn a_schema_against_itself_has_no_ops(ty in root()) {
        let text = render(&ty);
        let schema = parse(&text);
        let changes = avro::changes(&schema, &schema).expect("judged");
        prop_assert!(changes.is_empty(), "{text}: {changes:?}");
    }

    #[test]
    fn backward_of_a_b_is_forward_of_b_a(ty in root(), edits in prop::collection::vec(mutation(), 1..4)) {
        let (a, b) = pair(&ty, &edits);
        let (old, new) = (parse(&a), parse(&b));
        for (x, y) in [(&old, &new), (&new, &old)] {
            let forward = judge(avro::changes(y, x).expect("judged"), Check::Forward).breaking;
            let backward = judge(avro::changes(x, y).expect("judged"), Check::Backward).breaking;
            prop_assert_eq!(backward, forward, "{}\n{}", a, b);
        }
    }

    #[test]
    fn the_walkers_verdict_is_the_resolution_check(ty in root(), edits in prop::collection::vec(mutation(), 1..4)) {
        let (a, b) = pair(&ty, &edits);
        let (old, new) = (parse(&a), parse(&b));
        prop_assert_eq!(disagreement(&old, &new), None, "\n{}\n{}", a, b);
        prop_assert_eq!(disagreement(&new, &old), None, "\n{}\n{}", b, a);
    }
}

fn pair(ty: &Ty, edits: &[Mutation]) -> (String, String) {
    let mut changed = ty.clone();
    for m in edits {
        apply(&mut changed, m);
    }
    (render(ty), render(&changed))
}

/// Every fixture: the walker alone agrees with the direct check, so the reconciliation in
/// `avro::changes` never has anything to do on them.
#[test]
fn every_fixture_is_walked_as_resolution_decides() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/avro");
    let mut failures = Vec::new();
    let mut count = 0;
    for kind in std::fs::read_dir(&root).expect("testdata/avro") {
        for case in std::fs::read_dir(kind.expect("entry").path()).expect("kind folder") {
            let case = case.expect("entry").path();
            let read = |name: &str| {
                let text = std::fs::read_to_string(case.join(name)).expect("readable");
                avro::parse(name, &text).expect("fixtures are valid Avro")
            };
            let (old, new) = (read("before.avsc"), read("after.avsc"));
            count += 1;
            if let Some(why) = disagreement(&old, &new) {
                failures.push(format!("{}: {why}", case.display()));
            }
            if avro::walk(&old, &new).expect("walks") != avro::changes(&old, &new).expect("judged")
            {
                failures.push(format!(
                    "{}: reconciliation changed the ops",
                    case.display()
                ));
            }
        }
    }
    assert!(count >= 60, "only {count} Avro fixtures");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
