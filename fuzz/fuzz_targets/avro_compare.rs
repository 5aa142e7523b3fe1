//! Fuzz the Avro parser and walker with arbitrary text: never a panic; a schema that parses,
//! compared with itself, has no ops; and the only errors are typed ones (not JSON, not Avro,
//! too deep). The input is split at the first 0xFF byte into a before and an after.
#![no_main]

use catalog_diff::schema::{Document, Format, Options, Strategy};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (left, right) = match data.iter().position(|byte| *byte == 0xFF) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, data),
    };
    let (Ok(before), Ok(after)) = (std::str::from_utf8(left), std::str::from_utf8(right)) else {
        return;
    };
    let options = Options::default();
    for text in [before, after] {
        let document = Document::new("schema.avsc", text);
        if let Ok(verdict) = Format::Avro.compare(document, document, Strategy::Full, &options) {
            assert!(verdict.ops.is_empty(), "self-compare gave {:?}", verdict.ops);
        }
    }
    let _ = Format::Avro.compare(
        Document::new("before.avsc", before),
        Document::new("after.avsc", after),
        Strategy::Full,
        &options,
    );
});
