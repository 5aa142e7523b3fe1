//! Fuzz the JSON Schema walker with arbitrary JSON: it must never panic, a document compared with
//! itself must give no changes (but a `type` holding an object or a list, as the reference), and the only error allowed is the documented depth limit. The
//! input is split at the first 0xFF byte (never valid in UTF-8 JSON) into a before and an after.
#![no_main]

use catalog_diff::schema::Error;
use catalog_diff::schema::json_schema::compare::compare;
use catalog_diff::schema::json_schema::rules::ChangeKind;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

/// A `type` entry that is an object or a list, which the reference's `Set` never finds in
/// another document (JavaScript identity): a change even against the same text.
fn odd_type(value: &Option<Value>) -> bool {
    match value {
        Some(Value::Array(items)) => items.iter().any(|v| v.is_object() || v.is_array()),
        Some(other) => other.is_object(),
        None => false,
    }
}

fn check_self(value: &Value) {
    match compare(value, value) {
        Ok(changes) => assert!(
            changes
                .iter()
                .all(|c| c.kind == ChangeKind::TypeChanged && odd_type(&c.before)),
            "self-compare gave {changes:?}"
        ),
        Err(Error::TooDeep { .. }) => {}
        Err(other) => panic!("unexpected error {other}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let (left, right) = match data.iter().position(|byte| *byte == 0xFF) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, data),
    };
    let (Ok(before), Ok(after)) = (
        serde_json::from_slice::<Value>(left),
        serde_json::from_slice::<Value>(right),
    ) else {
        return;
    };
    check_self(&before);
    check_self(&after);
    match compare(&before, &after) {
        Ok(_) | Err(Error::TooDeep { .. }) => {}
        Err(other) => panic!("unexpected error {other}"),
    }
});
