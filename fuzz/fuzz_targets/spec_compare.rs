//! Fuzz the AsyncAPI / OpenAPI reader and walkers with arbitrary text (YAML or JSON): never a
//! panic, a document compared with itself gives no ops, and the only errors are the typed ones
//! (not parseable, not a specification, too deep, two different kinds). The input is split at
//! the first 0xFF byte into a before and an after; relative refs read nothing.
#![no_main]

use catalog_diff::schema::Strategy;
use catalog_diff::spec::{self, Source};
use libfuzzer_sys::fuzz_target;

fn judge(before: &str, after: &str) -> Result<spec::Verdict, spec::Error> {
    let load = |path: &str| Err(format!("`{path}` is not read while fuzzing"));
    spec::compare(
        Source { path: "before.yaml", text: before, load: &load },
        Source { path: "after.yaml", text: after, load: &load },
        Strategy::Full,
        &Default::default(),
    )
}

fuzz_target!(|data: &[u8]| {
    let (left, right) = match data.iter().position(|byte| *byte == 0xFF) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (data, data),
    };
    let (Ok(before), Ok(after)) = (std::str::from_utf8(left), std::str::from_utf8(right)) else {
        return;
    };
    for text in [before, after] {
        if let Ok(verdict) = judge(text, text) {
            assert!(verdict.ops.is_empty(), "self-compare gave {:?}", verdict.ops);
        }
        let _ = spec::line_of(text, "/paths/~1a/get");
    }
    let _ = judge(before, after);
});
