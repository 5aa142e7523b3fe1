//! Whole-catalog diff scenarios: `testdata/scenarios/<name>/` holds a baseline and a candidate
//! catalog (`a/` and `b/` folders, or `a.json` and `b.json` Index documents), an optional
//! `options.json` (`{"strategy": "forward", "includeSchemaContent": true}`) and `expected.json`,
//! the ArchitectureDiff we expect. The runner loads every folder: adding a case is adding a folder.
//! Every side is also diffed against itself, which must find nothing.
//!
//! To write a new case's expected.json, run with `CATALOG_DIFF_WRITE_EXPECTED=1`, then read the
//! file line by line against the seed README before committing it.

use std::path::Path;

use catalog_diff::catalog::Index;
use catalog_diff::catalog::build::{Options, ParseCache, build};
use catalog_diff::diff::{self, ArchitectureDiff};
use catalog_diff::git;
use catalog_diff::schema::Strategy;
use serde_json::Value;

fn side(case: &Path, name: &str) -> Index {
    let json = case.join(format!("{name}.json"));
    if json.exists() {
        let value: Value = serde_json::from_str(&std::fs::read_to_string(&json).expect("readable"))
            .expect("valid JSON");
        return Index::from_value(&value).expect("an Index document");
    }
    let files = git::read_dir(
        &case.join(name),
        catalog_diff::catalog::DEFAULT_MAX_FILE_SIZE,
    )
    .expect("a catalog folder");
    let options = Options {
        source: "scenario".into(),
        commit: name.into(),
        hash_content: true,
        include_schema_content: true,
    };
    build(&files, &options, &ParseCache::default()).index
}

fn options(case: &Path) -> diff::Options {
    let path = case.join("options.json");
    let value: Value = if path.exists() {
        serde_json::from_str(&std::fs::read_to_string(path).expect("readable")).expect("valid")
    } else {
        Value::Null
    };
    diff::Options {
        strategy: value
            .get("strategy")
            .and_then(Value::as_str)
            .map_or(Strategy::Full, |s| s.parse().expect("a strategy")),
        include_schema_content: value
            .get("includeSchemaContent")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        ..diff::Options::default()
    }
}

fn is_empty(result: &ArchitectureDiff) -> bool {
    let s = &result.summary;
    !s.breaking
        && s.resources_added
            + s.resources_removed
            + s.resources_changed
            + s.edges_added
            + s.edges_removed
            + s.schema_changes
            == 0
        && result.impact.is_empty()
}

#[test]
fn every_scenario_gives_its_expected_diff() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/scenarios");
    let write = std::env::var_os("CATALOG_DIFF_WRITE_EXPECTED").is_some();
    let mut failures = Vec::new();
    let mut count = 0;
    for entry in std::fs::read_dir(&root).expect("testdata/scenarios exists") {
        let case = entry.expect("entry").path();
        if !case.is_dir() {
            continue;
        }
        count += 1;
        let (a, b, options) = (side(&case, "a"), side(&case, "b"), options(&case));
        for (name, index) in [("a", &a), ("b", &b)] {
            if !is_empty(&diff::diff(index, index, &options)) {
                failures.push(format!(
                    "{}: side {name} against itself is not empty",
                    case.display()
                ));
            }
        }
        let actual = serde_json::to_value(diff::diff(&a, &b, &options)).expect("serialisable");
        let expected_path = case.join("expected.json");
        if write {
            std::fs::write(
                &expected_path,
                serde_json::to_string_pretty(&actual).expect("json") + "\n",
            )
            .expect("write");
            continue;
        }
        let expected: Value =
            serde_json::from_str(&std::fs::read_to_string(&expected_path).unwrap_or_default())
                .unwrap_or(Value::Null);
        if expected != actual {
            failures.push(format!(
                "{}:\nexpected {}\nactual   {}",
                case.display(),
                serde_json::to_string_pretty(&expected).unwrap_or_default(),
                serde_json::to_string_pretty(&actual).unwrap_or_default()
            ));
        }
    }
    assert!(count > 0, "no scenarios");
    assert!(
        failures.is_empty(),
        "{} of {count} scenarios differ:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Ids and versions mixing ASCII with other text are ordered by comparators that are not a
/// total order (JavaScript's, which the document follows): thousands of them in one diff are
/// sorted all the same, never a panic.
#[test]
fn a_diff_of_many_ids_outside_ascii_orders_them_without_panicking() {
    let letters = [
        "a", "B", "_", "é", "Z", "1", "ä", "-", "z", "É", "Ω", "A", ".", "ß",
    ];
    let versions = ["1.0.0", "2.0.0-rc.1", "v3", "latest", "é", "10", "0.9.9"];
    let mut seed: u64 = 1;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut resources = Vec::new();
    for _ in 0..3000 {
        let id: String = (0..1 + next(4))
            .map(|_| letters[next(letters.len())])
            .collect();
        let to: String = (0..1 + next(4))
            .map(|_| letters[next(letters.len())])
            .collect();
        let kind = ["service", "event", "command"][next(3)];
        resources.push(serde_json::json!({
            "type": kind,
            "id": id,
            "version": versions[next(versions.len())],
            "name": id,
            "owners": [to.clone()],
            "sends": [{"id": to, "version": versions[next(versions.len())]}],
        }));
    }
    let index = |resources: &[Value]| {
        let doc = serde_json::json!({"source": "s", "commit": "c", "resources": resources});
        Index::from_value(&doc).expect("an Index document")
    };
    let (all, half) = (index(&resources), index(&resources[..1500]));
    let empty = index(&[]);
    for (a, b) in [(&empty, &all), (&all, &empty), (&half, &all), (&all, &half)] {
        let found = diff::diff(a, b, &diff::Options::default());
        assert!(found.resources.added.len() + found.resources.removed.len() > 0);
    }
}
