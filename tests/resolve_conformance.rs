//! Conformance of `catalog::version` and `catalog::resolve` with the real SDK 2.27.1.
//!
//! * `testdata/resolve/semver-cases.json`: node-semver's answers for validity, precedence and
//!   `satisfies` (regenerate with `scripts/semver-cases.mjs`).
//! * `testdata/resolve/<case>/`: `index*.json` (SDK `buildIndex` outputs, resolved in file-name
//!   order) and `expected.json` (the SDK's `resolve()` output). Adding a case means adding a
//!   folder; `scripts/oracle-resolve.sh` regenerates them all with the oracle.

use std::cmp::Ordering;
use std::fs;
use std::path::Path;

use catalog_diff::catalog::version::{Range, SemVer};
use serde_json::Value;

fn read_json(path: &Path) -> Value {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn semver_matches_node_semver() {
    let cases = read_json(Path::new("testdata/resolve/semver-cases.json"));
    let mut failures = Vec::new();
    for case in cases["versions"].as_array().expect("versions") {
        let input = case["input"].as_str().expect("input");
        let ours = SemVer::parse(input).map(|v| v.version_text());
        if ours.as_deref() != case["valid"].as_str() {
            failures.push(format!(
                "valid({input:?}): ours {ours:?}, node {}",
                case["valid"]
            ));
        }
    }
    for case in cases["compare"].as_array().expect("compare") {
        let (a, b) = (case[0].as_str().expect("a"), case[1].as_str().expect("b"));
        let ord = SemVer::parse(a)
            .expect("a")
            .cmp(&SemVer::parse(b).expect("b"));
        let node = match case[2].as_i64() {
            Some(-1) => Ordering::Less,
            Some(0) => Ordering::Equal,
            _ => Ordering::Greater,
        };
        if ord != node {
            failures.push(format!(
                "compare({a:?}, {b:?}): ours {ord:?}, node {node:?}"
            ));
        }
    }
    let valid: Vec<&str> = cases["versions"]
        .as_array()
        .expect("versions")
        .iter()
        .filter(|c| c["valid"].is_string())
        .map(|c| c["input"].as_str().expect("input"))
        .collect();
    for case in cases["ranges"].as_array().expect("ranges") {
        let input = case["range"].as_str().expect("range");
        let range = Range::parse(input);
        if range.is_some() != case["valid"].as_bool().expect("valid") {
            failures.push(format!(
                "validRange({input:?}): ours {}, node {}",
                range.is_some(),
                case["valid"]
            ));
            continue;
        }
        let Some(range) = range else { continue };
        let ours: Vec<&str> = valid
            .iter()
            .copied()
            .filter(|v| range.satisfies(&SemVer::parse(v).expect("valid")))
            .collect();
        let node: Vec<&str> = case["satisfied"]
            .as_array()
            .expect("satisfied")
            .iter()
            .map(|v| v.as_str().expect("str"))
            .collect();
        if ours != node {
            failures.push(format!(
                "satisfies(_, {input:?}): ours {ours:?}, node {node:?}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
