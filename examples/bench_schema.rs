//! A rough benchmark for the JSON Schema engine: comparisons per second for small schemas, and
//! the time for one pair of generated schemas of about 1 MB each (many properties, big enums, a
//! shared definition). Run with `cargo run --release --example bench_schema`. The numbers are
//! for spotting regressions on one machine, not for comparing machines.

use std::time::{Duration, Instant};

use catalog_diff::schema::Strategy;
use catalog_diff::schema::json_schema::judge_values as compare_json_schema;
use serde_json::{Value, json};

fn small_pair() -> (Value, Value) {
    let before = json!({
        "type": "object",
        "properties": {
            "orderId": {"type": "string"},
            "customerId": {"type": "string"},
            "status": {"type": "string", "enum": ["pending", "paid"]},
            "lines": {"type": "array", "items": {"type": "object", "properties": {"sku": {"type": "string"}}}}
        },
        "required": ["orderId", "customerId"]
    });
    let after = json!({
        "type": "object",
        "properties": {
            "orderId": {"type": "string"},
            "customerId": {"type": "string"},
            "status": {"type": "string", "enum": ["pending", "paid", "refunded"]},
            "lines": {"type": "array", "items": {"type": "object", "properties": {"sku": {"type": "integer"}}}},
            "placedAt": {"type": "string", "format": "date-time"}
        },
        "required": ["orderId"]
    });
    (before, after)
}

/// About `properties * 250` bytes of schema; `variant` changes a few things on the after side.
fn big_schema(properties: usize, variant: bool) -> Value {
    let mut props = serde_json::Map::new();
    for index in 0..properties {
        let values: Vec<String> = (0..8)
            .map(|value| format!("value-{index}-{value}"))
            .collect();
        let mut field = json!({
            "type": if variant && index % 97 == 0 { "number" } else { "integer" },
            "description": format!("field number {index}"),
            "minimum": 0,
            "maximum": if variant && index % 89 == 0 { 50 } else { 100 },
        });
        if index % 3 == 0 {
            field = json!({"type": "string", "enum": values});
        }
        if index % 5 == 0 {
            field = json!({"$ref": "#/definitions/Address"});
        }
        props.insert(format!("field{index}"), field);
    }
    let required: Vec<String> = (0..properties)
        .step_by(2)
        .map(|index| format!("field{index}"))
        .collect();
    let big_enum: Vec<String> = (0..2000 + usize::from(variant))
        .map(|value| format!("code-{value}"))
        .collect();
    props.insert("code".to_owned(), json!({"enum": big_enum}));
    json!({
        "type": "object",
        "definitions": {"Address": {"type": "object", "properties": {"city": {"type": "string"}, "zip": {"type": if variant {"string"} else {"integer"}}}}},
        "properties": props,
        "required": required,
    })
}

fn main() {
    let (before, after) = small_pair();
    let mut count = 0u64;
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(2) {
        for _ in 0..100 {
            let verdict = compare_json_schema(&before, &after, Strategy::Full)
                .expect("small schemas compare");
            std::hint::black_box(verdict);
        }
        count += 100;
    }
    let rate = count as f64 / start.elapsed().as_secs_f64();
    println!(
        "small schemas: {rate:.0} comparisons/s ({count} in {:.2?})",
        start.elapsed()
    );

    let (big_before, big_after) = (big_schema(8400, false), big_schema(8400, true));
    let size = serde_json::to_string(&big_before)
        .map(|text| text.len())
        .unwrap_or(0);
    let start = Instant::now();
    let verdict =
        compare_json_schema(&big_before, &big_after, Strategy::Full).expect("big schemas compare");
    let elapsed = start.elapsed();
    println!(
        "~{:.1} MB schemas: {elapsed:.2?} for one comparison, {} ops",
        size as f64 / 1e6,
        verdict.ops.len()
    );
    let start = Instant::now();
    let same =
        compare_json_schema(&big_before, &big_before, Strategy::Full).expect("big schemas compare");
    println!(
        "~{:.1} MB schema against itself: {:.2?}, {} ops",
        size as f64 / 1e6,
        start.elapsed(),
        same.ops.len()
    );
}
