//! Fuzz the front-matter splitter and its YAML layer with arbitrary text: never a panic, the
//! same answer twice, and every mapping it reads survives a round trip as a YAML flow mapping
//! (JSON is YAML): printed with serde_json and read back, it is the same value.
#![no_main]

use catalog_diff::catalog::frontmatter;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let first = frontmatter::parse(text);
    assert_eq!(first, frontmatter::parse(text), "parsing is deterministic");
    if let Ok(value @ Value::Object(_)) = first {
        let again = format!("---\n{}\n---\n", serde_json::to_string(&value).expect("json"));
        match frontmatter::parse(&again) {
            Ok(round) => assert_eq!(round, value, "round trip of {again}"),
            Err(error) => panic!("{again} does not read back: {error}"),
        }
    }
});
