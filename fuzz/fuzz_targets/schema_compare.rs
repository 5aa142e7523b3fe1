//! Fuzz the JSON Schema walker with arbitrary JSON: it must never panic, a document compared with
//! itself must give no changes, and the only error allowed is the documented depth limit. The
//! input is split at the first 0xFF byte (never valid in UTF-8 JSON) into a before and an after.
#![no_main]

use catalog_diff::schema::Error;
use catalog_diff::schema::json_schema::compare::compare;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fn check_self(value: &Value) {
    match compare(value, value) {
        Ok(changes) => assert!(changes.is_empty(), "self-compare gave {changes:?}"),
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
