//! Fuzz the Protobuf compiler front and the walker with arbitrary text: never a panic; a file
//! that compiles, compared with itself, has no ops under either buf category. The input is
//! split at the first 0xFF byte into a before and an after.
#![no_main]

use catalog_diff::schema::{Document, Format, Options, ProtoRules, Strategy};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (left, right) = match data.iter().position(|byte| *byte == 0xFF) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, data),
    };
    let (Ok(before), Ok(after)) = (std::str::from_utf8(left), std::str::from_utf8(right)) else {
        return;
    };
    for proto_rules in ProtoRules::ALL {
        let options = Options { proto_rules };
        for text in [before, after] {
            let document = Document::new("schema.proto", text);
            if let Ok(verdict) =
                Format::Protobuf.compare(document, document, Strategy::Full, &options)
            {
                assert!(verdict.ops.is_empty(), "self-compare gave {:?}", verdict.ops);
            }
        }
        let _ = Format::Protobuf.compare(
            Document::new("schema.proto", before),
            Document::new("schema.proto", after),
            Strategy::Full,
            &options,
        );
    }
});
