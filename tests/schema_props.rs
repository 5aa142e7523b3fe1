//! Property tests for the JSON Schema walker and rules: a schema compared with itself gives no
//! ops; reordering `properties`, `required`, `enum`, `type` arrays or union branches gives no ops;
//! for a pure widening or narrowing, swapping before and after swaps the backward and forward
//! verdicts; and arbitrary JSON never panics. `PROPTEST_CASES=10000 cargo test --test
//! schema_props` runs longer (the default is proptest's 256 cases per property).

use catalog_diff::schema::Strategy as Check;
use catalog_diff::schema::json_schema::compare::compare;
use catalog_diff::schema::json_schema::judge_values as compare_json_schema;
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// Keys a generated object draws from: mostly schema keywords, so the walker has work to do.
const KEYS: &[&str] = &[
    "type",
    "properties",
    "required",
    "enum",
    "const",
    "items",
    "prefixItems",
    "oneOf",
    "anyOf",
    "allOf",
    "additionalProperties",
    "minimum",
    "maxLength",
    "pattern",
    "format",
    "$ref",
    "definitions",
    "$defs",
    "not",
    "if",
    "default",
    "title",
    "deprecated",
    "nullable",
    "a",
    "b",
];

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-5i64..5).prop_map(|n| json!(n)),
        (-5.0f64..5.0).prop_map(|n| json!(n)),
        prop::sample::select(vec![
            "string",
            "integer",
            "number",
            "object",
            "array",
            "null",
            "boolean",
            "#",
            "#/definitions/a",
            "#/$defs/b",
            "#/properties/a",
            "x.json#/y",
            "a",
            "b",
        ])
        .prop_map(|s| json!(s)),
    ]
}

/// Arbitrary JSON whose objects mostly use schema keywords.
fn schemaish() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(KEYS), inner), 0..6).prop_map(|entries| {
                Value::Object(
                    entries
                        .into_iter()
                        .map(|(key, value)| (key.to_owned(), value))
                        .collect(),
                )
            }),
        ]
    })
}

/// Arbitrary JSON with arbitrary keys.
fn any_json() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(6, 96, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map("[a-z$]{0,6}", inner, 0..6)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

/// The same schema with every order-insensitive list and map reversed, at schema positions only.
fn reorder(schema: &Value) -> Value {
    let Value::Object(map) = schema else {
        return schema.clone();
    };
    let mut out = Map::new();
    for (key, value) in map {
        let value = match (key.as_str(), value) {
            ("properties" | "definitions" | "$defs", Value::Object(named)) => Value::Object(
                named
                    .iter()
                    .rev()
                    .map(|(name, schema)| (name.clone(), reorder(schema)))
                    .collect(),
            ),
            ("required" | "enum" | "type", Value::Array(items)) => {
                Value::Array(items.iter().rev().cloned().collect())
            }
            ("oneOf" | "anyOf" | "allOf", Value::Array(branches)) => {
                Value::Array(branches.iter().rev().map(reorder).collect())
            }
            ("items" | "prefixItems", Value::Array(positions)) => {
                Value::Array(positions.iter().map(reorder).collect())
            }
            // `not`, `if` ... are compared as text, as the reference does: reordering inside
            // them is a change (`keyword.changed`), so they are left as they are.
            ("items" | "additionalProperties", _) => reorder(value),
            _ => value.clone(),
        };
        out.insert(key.clone(), value);
    }
    Value::Object(out)
}

/// A pure widening applied to property `x`: (the node accepting fewer values, the node
/// accepting more). Read the other way round, each is a pure narrowing.
fn one_way_change() -> impl Strategy<Value = (Value, Value)> {
    prop_oneof![
        Just((json!({"type": "integer"}), json!({"type": "number"}))),
        Just((
            json!({"type": "string"}),
            json!({"type": ["string", "null"]})
        )),
        Just((json!({"type": "string"}), json!({}))),
        (0i64..10, 11i64..20)
            .prop_map(|(low, high)| (json!({"minimum": high}), json!({"minimum": low}))),
        (0i64..10, 11i64..20)
            .prop_map(|(low, high)| (json!({"maxLength": low}), json!({"maxLength": high}))),
        Just((json!({"enum": ["a"]}), json!({"enum": ["a", "b"]}))),
        Just((json!({"enum": ["a"]}), json!({}))),
        Just((json!({"pattern": "^a"}), json!({}))),
        Just((json!({"uniqueItems": true}), json!({}))),
        Just((
            json!({"type": "object", "additionalProperties": false}),
            json!({"type": "object"})
        )),
        Just((
            json!({"oneOf": [{"type": "string"}]}),
            json!({"oneOf": [{"type": "string"}, {"type": "null"}]})
        )),
        Just((
            json!({"allOf": [{"minimum": 1}, {"maximum": 9}]}),
            json!({"allOf": [{"minimum": 1}]})
        )),
        Just((
            json!({"prefixItems": [{"type": "string"}, {"type": "string"}]}),
            json!({"prefixItems": [{"type": "string"}]})
        )),
        Just((json!({"type": "string"}), json!(true))),
        Just((json!(false), json!({"type": "string"}))),
        Just((
            json!({"type": "object", "properties": {"a": {}}, "required": ["a"]}),
            json!({"type": "object", "properties": {"a": {}}})
        )),
    ]
}

fn object_with(x: Value) -> Value {
    json!({"type": "object", "properties": {"x": x, "id": {"type": "string"}}, "required": ["id"]})
}

proptest! {
    #[test]
    fn self_compare_gives_no_ops(schema in schemaish()) {
        if let Ok(changes) = compare(&schema, &schema) {
            prop_assert!(changes.is_empty(), "{changes:?}");
        }
    }

    #[test]
    fn reordering_gives_no_ops(schema in schemaish()) {
        let reordered = reorder(&schema);
        if let Ok(changes) = compare(&schema, &reordered) {
            prop_assert!(changes.is_empty(), "{reordered}\n{changes:?}");
        }
    }

    #[test]
    fn swapping_a_one_way_change_swaps_directions((narrower, wider) in one_way_change(), narrow_first in any::<bool>()) {
        let (narrow, wide) = (object_with(narrower), object_with(wider));
        let (before, after) = if narrow_first { (narrow, wide) } else { (wide, narrow) };
        let forth_backward = compare_json_schema(&before, &after, Check::Backward).unwrap();
        let forth_forward = compare_json_schema(&before, &after, Check::Forward).unwrap();
        let back_backward = compare_json_schema(&after, &before, Check::Backward).unwrap();
        let back_forward = compare_json_schema(&after, &before, Check::Forward).unwrap();
        prop_assert!(!forth_backward.ops.is_empty());
        prop_assert_eq!(forth_backward.breaking, back_forward.breaking);
        prop_assert_eq!(forth_forward.breaking, back_backward.breaking);
        // A one-way change breaks exactly one direction.
        prop_assert!(forth_backward.breaking != forth_forward.breaking);
    }

    #[test]
    fn full_is_either_and_none_is_never(before in schemaish(), after in schemaish()) {
        if let Ok(full) = compare_json_schema(&before, &after, Check::Full) {
            let backward = compare_json_schema(&before, &after, Check::Backward).unwrap();
            let forward = compare_json_schema(&before, &after, Check::Forward).unwrap();
            let none = compare_json_schema(&before, &after, Check::None).unwrap();
            prop_assert_eq!(full.breaking, backward.breaking || forward.breaking);
            prop_assert!(!none.breaking);
            prop_assert_eq!(none.ops.len(), full.ops.len());
        }
    }

    #[test]
    fn arbitrary_json_never_panics(before in any_json(), after in any_json()) {
        let _ = compare(&before, &after);
        if let Ok(changes) = compare(&before, &before) {
            prop_assert!(changes.is_empty(), "{changes:?}");
        }
    }
}
