//! Conformance of `catalog::version` and `catalog::resolve` with the real SDK 2.27.1.
//!
//! * `testdata/resolve/semver-cases.json`: node-semver's answers for validity, precedence and
//!   `satisfies` (regenerate with `scripts/semver-cases.mjs`).
//! * `testdata/resolve/<case>/`: `index*.json` (SDK `buildIndex` outputs, resolved in file-name
//!   order) and `expected.json` (the SDK's `resolve()` output). Adding a case means adding a
//!   folder; `scripts/oracle-resolve.sh` regenerates them all with the oracle.
//! * `RESOLVE_EXTRA_CASES=<dir>`: also check every case folder under `<dir>` (same layout), for
//!   data too large to commit, such as the 152 commits of `examples-default` (§14.2).

use std::cmp::Ordering;
use std::fs;
use std::path::Path;

use catalog_diff::catalog::Index;
use catalog_diff::catalog::resolve::{EdgeStatus, resolve};
use catalog_diff::catalog::version::{Range, SemVer, index_order, is_higher};
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
    for case in cases["indexOrder"].as_array().expect("indexOrder") {
        let (a, b) = (case[0].as_str(), case[1].as_str());
        let node = case[2].as_i64().expect("sign");
        let ours = index_order(a, b) as i64;
        if ours != node {
            failures.push(format!(
                "index_order({a:?}, {b:?}): ours {ours}, SDK {node}"
            ));
        }
    }
    for case in cases["isHigher"].as_array().expect("isHigher") {
        let (a, b) = (case[0].as_str(), case[1].as_str());
        let node = case[2].as_bool().expect("bool");
        if is_higher(a, b) != node {
            failures.push(format!("is_higher({a:?}, {b:?}): SDK {node}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every case folder (one with an `expected.json`) directly under `root`.
fn cases_in(root: &Path) -> Vec<std::path::PathBuf> {
    let mut dirs: Vec<_> = fs::read_dir(root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.join("expected.json").is_file())
        .collect();
    dirs.sort();
    dirs
}

fn cases() -> Vec<std::path::PathBuf> {
    cases_in(Path::new("testdata/resolve"))
}

/// The case's `index*.json` files in name order, the order they are resolved in.
fn case_indexes(dir: &Path) -> Vec<Index> {
    let mut inputs: Vec<_> = fs::read_dir(dir)
        .expect("case dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            name.starts_with("index") && name.ends_with(".json")
        })
        .collect();
    inputs.sort();
    assert!(!inputs.is_empty(), "{}: no index*.json", dir.display());
    inputs
        .iter()
        .map(|p| {
            Index::from_value(&read_json(p))
                .unwrap_or_else(|| panic!("{}: not an Index", p.display()))
        })
        .collect()
}

#[test]
fn resolve_matches_sdk() {
    let mut failures = Vec::new();
    let mut all = cases();
    assert!(
        all.len() >= 10,
        "expected the shared and synthetic cases, found {}",
        all.len()
    );
    if let Some(extra) = std::env::var_os("RESOLVE_EXTRA_CASES") {
        all.extend(cases_in(Path::new(&extra)));
    }
    for dir in all {
        let expected = read_json(&dir.join("expected.json"));
        let indexes = case_indexes(&dir);
        let resolved = resolve(&indexes);
        let ours = resolved.to_value();
        // Equal values can still differ in key order; the pretty text catches that too.
        let same_text = serde_json::to_string_pretty(&ours).expect("json")
            == serde_json::to_string_pretty(&expected).expect("json");
        if ours != expected || !same_text {
            let first = first_difference(&ours, &expected, String::new());
            failures.push(format!("{}: {first}", dir.display()));
        }
        if !resolved.problems.is_empty() {
            failures.push(format!(
                "{}: unexpected problems {:?}",
                dir.display(),
                resolved.problems
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A short description of where two values first differ.
fn first_difference(ours: &Value, expected: &Value, at: String) -> String {
    match (ours, expected) {
        (Value::Object(a), Value::Object(b)) => {
            let (ka, kb): (Vec<_>, Vec<_>) = (a.keys().collect(), b.keys().collect());
            if ka != kb {
                return format!("{at}: keys {ka:?} vs expected {kb:?}");
            }
            for (k, v) in a {
                if v != &b[k] || !same_order(v, &b[k]) {
                    return first_difference(v, &b[k], format!("{at}.{k}"));
                }
            }
            format!("{at}: ?")
        }
        (Value::Array(a), Value::Array(b)) => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                if x != y || !same_order(x, y) {
                    return first_difference(x, y, format!("{at}[{i}]"));
                }
            }
            format!("{at}: length {} vs expected {}", a.len(), b.len())
        }
        _ => format!("{at}: {ours} vs expected {expected}"),
    }
}

fn same_order(a: &Value, b: &Value) -> bool {
    serde_json::to_string(a).ok() == serde_json::to_string(b).ok()
}

/// edges, resolved, unresolved, external, conflicts, externals, warnings.
type Counts = (usize, usize, usize, usize, usize, usize, usize);

/// The §14.1 numbers per case.
#[rustfmt::skip]
const SHARED_COUNTS: [(&str, Counts); 5] = [
    ("sdk-test-catalog", (62, 53, 5, 4, 0, 4, 0)),
    ("template-default", (267, 267, 0, 0, 0, 0, 0)),
    ("template-asyncapi", (0, 0, 0, 0, 0, 0, 0)),
    ("examples-default", (310, 310, 0, 0, 0, 0, 0)),
    ("combined-four", (639, 630, 5, 4, 170, 4, 0)),
];

#[test]
fn shared_catalog_counts_match_spec() {
    for (case, counts) in SHARED_COUNTS {
        let indexes = case_indexes(&Path::new("testdata/resolve").join(case));
        let r = resolve(&indexes);
        let status = |s: EdgeStatus| r.edges.iter().filter(|e| e.status == s).count();
        let ours = (
            r.edges.len(),
            status(EdgeStatus::Resolved),
            status(EdgeStatus::Unresolved),
            status(EdgeStatus::External),
            r.conflicts.len(),
            r.externals.len(),
            r.warnings.len(),
        );
        assert_eq!(ours, counts, "{case}");
    }
    let indexes = case_indexes(Path::new("testdata/resolve/combined-four"));
    let four = resolve(&indexes);
    assert!(
        four.conflicts
            .iter()
            .all(|c| c.kind.as_str() == "duplicate-source")
    );
    assert_eq!(four.assets.len(), 7);
    assert!(four.assets.iter().all(|a| a.contributors.is_some()));
}
