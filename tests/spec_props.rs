//! Property tests for the specification walkers: a fixture document with arbitrary nodes
//! replaced by junk (wrong types, `$ref`s that loop, point nowhere or point at remote places)
//! never panics, compared with itself gives no ops, and compared with the original gives a
//! verdict or a typed error, never a crash; documents nested far past the limit are refused
//! cleanly. `PROPTEST_CASES=10000 cargo test --test spec_props` runs longer.

use std::path::Path;

use catalog_diff::schema::Strategy;
use catalog_diff::spec::{self, Source};
use proptest::prelude::*;
use serde_json::{Value, json};

/// The documents mutated: one per language and version.
const BASES: &[&str] = &[
    "asyncapi/required.added/v3-shared-component-judged-in-both-roles/before.yaml",
    "asyncapi/operation.message.added/v2-subscribe-one-of/after.yaml",
    "openapi/required.added/3.0-component-in-request-and-response/after.yaml",
    "openapi/required.added/3.1-webhook-request-written-by-the-service/after.yaml",
];

fn base(index: usize) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(BASES[index % BASES.len()]);
    let text = std::fs::read_to_string(path).expect("a fixture");
    // The fixtures are plain YAML; serde_json cannot read it, so go through the spec reader.
    spec::document::parse_text("base.yaml", &text).expect("parses")
}

/// Every pointer into a value, in document order.
fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                pointers(child, format!("{at}/{}", spec::document::escape(key)), out);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                pointers(child, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

fn junk(index: usize) -> Value {
    match index % 12 {
        0 => Value::Null,
        1 => json!(1),
        2 => json!("x"),
        3 => json!([]),
        4 => json!({}),
        5 => json!({"$ref": "#"}),
        6 => json!({"$ref": "#/components"}),
        7 => json!({"$ref": "https://example.com/remote.json"}),
        8 => json!({"$ref": "#/nowhere/at/all"}),
        9 => json!({"$ref": "missing.yaml#/X"}),
        10 => json!([{"$ref": "#/channels"}, {"oneOf": 3}]),
        _ => json!({"type": ["object", "null"], "required": 7, "properties": []}),
    }
}

fn judge(before: &str, after: &str, strategy: Strategy) -> Result<spec::Verdict, spec::Error> {
    judge_as("json", before, after, strategy)
}

fn judge_as(
    extension: &str,
    before: &str,
    after: &str,
    strategy: Strategy,
) -> Result<spec::Verdict, spec::Error> {
    let load = |path: &str| Err(format!("`{path}` is not read in this test"));
    let (before_name, after_name) = (format!("before.{extension}"), format!("after.{extension}"));
    spec::compare(
        Source {
            path: &before_name,
            text: before,
            load: &load,
        },
        Source {
            path: &after_name,
            text: after,
            load: &load,
        },
        strategy,
        &Default::default(),
    )
}

proptest! {
    #[test]
    fn junk_never_panics_and_self_compare_is_empty(
        which in 0usize..BASES.len(),
        edits in proptest::collection::vec((any::<usize>(), any::<usize>()), 1..6),
    ) {
        let original = base(which);
        let mut mutated = original.clone();
        for (place, kind) in edits {
            let mut all = Vec::new();
            pointers(&mutated, String::new(), &mut all);
            let at = &all[place % all.len()];
            if at.is_empty() {
                continue;
            }
            if let Some(slot) = mutated.pointer_mut(at) {
                *slot = junk(kind);
            }
        }
        let (before, after) = (original.to_string(), mutated.to_string());
        if let Ok(verdict) = judge(&after, &after, Strategy::Full) {
            prop_assert!(verdict.ops.is_empty(), "self-compare gave {:?}", verdict.ops);
        }
        for strategy in Strategy::ALL {
            let _ = judge(&before, &after, strategy);
            let _ = judge(&after, &before, strategy);
        }
        let _ = spec::line_of(&after, "/paths/~1orders/get/responses/200");
    }
}

#[test]
fn deep_documents_are_refused_cleanly() {
    let deep_json = format!(
        "{{\"openapi\": \"3.0.0\", \"x\": {}1{}}}",
        "[".repeat(4000),
        "]".repeat(4000)
    );
    let deep_yaml = format!(
        "openapi: 3.0.0\nx: {}1{}\n",
        "[".repeat(4000),
        "]".repeat(4000)
    );
    for (extension, text) in [("json", &deep_json), ("yaml", &deep_yaml)] {
        match judge_as(extension, text, text, Strategy::Full) {
            Err(spec::Error::TooDeep { .. }) => {}
            other => panic!("expected TooDeep, got {other:?}"),
        }
    }
    // A schema nested deep inside a body: within YAML's limit, past the walker's.
    let mut schema = json!({"type": "string"});
    for _ in 0..118 {
        schema = json!({"items": schema});
    }
    let document = json!({
        "openapi": "3.1.0",
        "paths": {"/a": {"post": {"requestBody": {"content": {"application/json": {"schema": schema}}}}}}
    })
    .to_string();
    let verdict = judge(&document, &document, Strategy::Full);
    assert!(
        matches!(verdict, Ok(ref v) if v.ops.is_empty())
            || matches!(verdict, Err(spec::Error::TooDeep { .. })),
        "{verdict:?}"
    );
}

#[test]
fn ref_cycles_between_structures_end() {
    let document = json!({
        "asyncapi": "3.0.0",
        "channels": {
            "a": {"$ref": "#/channels/b"},
            "b": {"$ref": "#/channels/a"},
            "c": {"address": "c", "messages": {"M": {"$ref": "#/channels/c/messages/M"}}}
        },
        "operations": {
            "o": {"$ref": "#/operations/o"},
            "p": {"action": "send", "channel": {"$ref": "#/channels/c"}, "messages": [{"$ref": "#/channels/c/messages/M"}]}
        }
    })
    .to_string();
    let changed = document.replace("\"address\":\"c\"", "\"address\":\"d\"");
    assert_ne!(changed, document);
    let verdict = judge(&document, &changed, Strategy::Full).expect("judged");
    assert!(
        verdict
            .ops
            .iter()
            .any(|op| op.kind.id == "channel.address.changed")
    );
    let openapi = json!({
        "openapi": "3.0.0",
        "paths": {"/a": {"$ref": "#/paths/~1a"}, "/b": {"get": {"parameters": [{"$ref": "#/components/parameters/P"}], "responses": {"200": {"$ref": "#/components/responses/R"}}}}},
        "components": {
            "parameters": {"P": {"$ref": "#/components/parameters/P"}},
            "responses": {"R": {"$ref": "#/components/responses/R"}}
        }
    })
    .to_string();
    let verdict = judge(&openapi, &openapi, Strategy::Full).expect("judged");
    assert!(verdict.ops.is_empty());
}
