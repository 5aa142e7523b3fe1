//! Fuzz the node-semver version and range parsers: never a panic; a version that parses
//! reparses from its normalised text to an equal version; an exact range satisfies its own
//! version; `*` satisfies every release.
#![no_main]

use catalog_diff::catalog::version::{Range, SemVer};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let range = Range::parse(text);
    if let Some(version) = SemVer::parse(text) {
        let normal = version.version_text();
        assert_eq!(SemVer::parse(&normal).as_ref(), Some(&version), "{normal}");
        let exact = Range::parse(&normal).expect("a version is a range");
        assert!(exact.satisfies(&version), "{normal} satisfies itself");
        if version.prerelease.is_empty() {
            assert!(Range::parse("*").expect("*").satisfies(&version));
        }
        if let Some(range) = &range {
            let _ = range.satisfies(&version);
        }
    }
});
