//! Diff conformance: our ArchitectureDiff against the reference's (`@eventcatalog/diff` 0.1.0)
//! on the real catalogs of `../shared/catalogs` (skipped, with a message, when that folder is
//! not there). The expected documents were recorded by `scripts/oracle-diff.py` from the
//! reference run on the Indexes our `catalog-diff index` prints (equal to the SDK's); they leave
//! out `refs` (op reasons stay: ours repeat the reference's words), and our additive keys (`diagnostics`,
//! `unknownReason`, `specificationChanges` and its summary counters) are left out of ours before
//! comparing.
//!
//! - `testdata/conformance/diffs/<catalog>/<mutation>.expected.json`: a catalog against a copy
//!   with the edits of `testdata/conformance/diffs/mutations.json` applied (issue #14's rules on
//!   real catalogs: removed messages and services, in-place bumps, unknown pointers, schemas).
//! - `testdata/conformance/diffs/examples-default.jsonl`: every first-parent step of
//!   examples-default's 152-commit history.
//!
//! - `testdata/conformance/reference/<case>/`: two small catalogs (`a/`, `b/`), an optional
//!   `options.json` (`{"strategy": "backward"}`) and the reference's document for them,
//!   `expected.json` (`scripts/oracle-diff.py --cases` records it). These need no `../shared`:
//!   each is diffed on two whole builds and as a single diff does, on the reach of the change.
//!   Adding a case is adding a folder.
//!
//! We judge Avro (#15) and Protobuf (#16) schemas, which the reference leaves without a verdict;
//! that is an allowed extension (the document's shape stays the same), so their schema text is
//! taken out of both Indexes before diffing, which gives those changes the reference's null
//! verdict.

#[path = "support/cases.rs"]
mod cases;
mod support;

use std::path::Path;

use catalog_diff::catalog::build::{Options, ParseCache, build};
use catalog_diff::catalog::{DEFAULT_MAX_FILE_SIZE, Index};
use catalog_diff::diff::{self, ArchitectureDiff};
use catalog_diff::git::{self, CommitId, Repo, Side};
use catalog_diff::history;
use catalog_diff::schema::Strategy;
use serde_json::Value;

fn diffs_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/conformance/diffs")
}

/// The Index without the text of its Avro and Protobuf schemas (see the module doc).
fn without_foreign_content(index: &Index) -> Index {
    let mut value = index.to_value();
    for resource in value["resources"].as_array_mut().expect("resources") {
        let Some(schemas) = resource.get_mut("schemas").and_then(Value::as_array_mut) else {
            continue;
        };
        for schema in schemas.iter_mut().filter_map(Value::as_object_mut) {
            let path = schema
                .get("path")
                .and_then(Value::as_str)
                .unwrap_or_default();
            let declared = schema.get("format").and_then(Value::as_str);
            let foreign = declared.map_or_else(
                || {
                    [".avsc", ".avro", ".proto"]
                        .iter()
                        .any(|ext| path.ends_with(ext))
                },
                |format| {
                    ["avro", "protobuf", "proto"].contains(&format.to_ascii_lowercase().as_str())
                },
            );
            if foreign {
                schema.remove("content");
            }
        }
    }
    Index::from_value(&value).expect("an Index")
}

/// Our document as the recordings store the reference's.
fn normalised(document: &ArchitectureDiff) -> Value {
    let mut value = serde_json::to_value(document).expect("diff json");
    let map = value.as_object_mut().expect("an object");
    map.remove("refs");
    map.remove("diagnostics");
    // Specification changes (#17) are our own extension, with counters of their own.
    map.remove("specificationChanges");
    if let Some(summary) = map.get_mut("summary").and_then(Value::as_object_mut) {
        for key in [
            "specificationChanges",
            "specificationBreaking",
            "specificationUnknown",
        ] {
            summary.remove(key);
        }
    }
    for change in map["schemaChanges"].as_array_mut().expect("a list") {
        let change = change.as_object_mut().expect("an object");
        change.remove("unknownReason");
    }
    value
}

/// The first difference between two JSON values, as a path and the two values.
fn first_difference(path: &str, ours: &Value, theirs: &Value) -> Option<String> {
    match (ours, theirs) {
        (Value::Object(a), Value::Object(b)) => {
            for key in a.keys().chain(b.keys()) {
                let (x, y) = (
                    a.get(key).unwrap_or(&Value::Null),
                    b.get(key).unwrap_or(&Value::Null),
                );
                if let Some(found) = first_difference(&format!("{path}/{key}"), x, y) {
                    return Some(found);
                }
            }
            None
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => a
            .iter()
            .zip(b)
            .enumerate()
            .find_map(|(i, (x, y))| first_difference(&format!("{path}/{i}"), x, y)),
        _ if ours == theirs => None,
        _ => Some(format!("{path}: ours {ours}, the reference's {theirs}")),
    }
}

#[test]
fn mutation_pairs_equal_the_reference() {
    let Some(shared) = support::shared_or_skip("mutation_pairs_equal_the_reference") else {
        return;
    };
    let spec: Value = serde_json::from_str(
        &std::fs::read_to_string(diffs_dir().join("mutations.json")).expect("mutations.json"),
    )
    .expect("valid JSON");
    let cache = ParseCache::default();
    let mut failures = Vec::new();
    let mut count = 0;
    for (catalog, spec) in spec.as_object().expect("catalogs") {
        let options = Options {
            source: catalog.clone(),
            commit: "local".into(),
            hash_content: spec["hash"].as_bool().expect("hash"),
            include_schema_content: true,
        };
        let temp = tempfile::tempdir().expect("temp dir");
        let base = temp.path().join("a");
        support::copy_dir(&shared.join("catalogs").join(catalog), &base);
        let a = without_foreign_content(
            &build(
                &git::read_dir(&base, DEFAULT_MAX_FILE_SIZE).expect("catalog"),
                &options,
                &cache,
            )
            .index,
        );
        for mutation in spec["mutations"].as_array().expect("mutations") {
            let name = mutation["name"].as_str().expect("name");
            let side = temp.path().join(name);
            support::copy_dir(&base, &side);
            for path in mutation["remove"].as_array().into_iter().flatten() {
                std::fs::remove_file(side.join(path.as_str().expect("path"))).expect("remove");
            }
            for edit in mutation["replace"].as_array().into_iter().flatten() {
                let [path, old, new] = [0, 1, 2].map(|i| edit[i].as_str().expect("text"));
                let file = side.join(path);
                let text = std::fs::read_to_string(&file).expect("readable");
                assert!(
                    text.contains(old),
                    "{catalog}/{name}: {old:?} not in {path}"
                );
                std::fs::write(&file, text.replace(old, new)).expect("write");
            }
            let b = without_foreign_content(
                &build(
                    &git::read_dir(&side, DEFAULT_MAX_FILE_SIZE).expect("catalog"),
                    &options,
                    &cache,
                )
                .index,
            );
            let strategy: Strategy = mutation["strategy"]
                .as_str()
                .map_or(Strategy::Full, |s| s.parse().expect("a strategy"));
            let ours = diff::diff(
                &a,
                &b,
                &diff::Options {
                    strategy,
                    ..diff::Options::default()
                },
            );
            let expected_path = diffs_dir()
                .join(catalog)
                .join(format!("{name}.expected.json"));
            let theirs: Value =
                serde_json::from_str(&std::fs::read_to_string(&expected_path).expect("recorded"))
                    .expect("valid JSON");
            count += 1;
            if let Some(difference) = first_difference("", &normalised(&ours), &theirs) {
                failures.push(format!("{catalog}/{name}: {difference}"));
            }
        }
    }
    assert!(count >= 20, "only {count} mutation pairs");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_examples_default_step_equals_the_reference() {
    let Some((_temp, clone)) =
        support::examples_default_clone("every_examples_default_step_equals_the_reference")
    else {
        return;
    };
    let repo = Repo::discover(&clone).expect("repository");
    let head = repo.head_commit().expect("HEAD").expect("a commit");
    let options = history::Options {
        source: "examples-default".into(),
        dir: repo
            .detect_catalog_dir(Side::Commit(head), None)
            .expect("catalog dir"),
        diff: diff::Options::default(),
        baseline: history::Baseline::Parent,
    };
    let cache = ParseCache::default();
    let commit = |id: &Value| {
        Some(CommitId(
            gix::ObjectId::from_hex(id.as_str().expect("an id").as_bytes()).expect("a commit id"),
        ))
    };
    let recorded =
        std::fs::read_to_string(diffs_dir().join("examples-default.jsonl")).expect("recorded");
    let mut failures = Vec::new();
    let mut count = 0;
    for line in recorded.lines() {
        let step: Value = serde_json::from_str(line).expect("valid JSON");
        // Built with schema text in the Index, as the reference library reads it.
        let build = |id: Option<CommitId>| {
            let files = history::read_at(&repo, id, &options).expect("read");
            let label = id.map(|c| c.to_string()).unwrap_or_default();
            let options = catalog_diff::pipeline::build_options(&options.source, label, true);
            catalog_diff::catalog::build::build(&files, &options, &cache)
        };
        let (a, b) = (
            build(commit(&step["parent"])),
            build(commit(&step["commit"])),
        );
        let ours = diff::diff(
            &without_foreign_content(&a.index),
            &without_foreign_content(&b.index),
            &options.diff,
        );
        count += 1;
        if let Some(difference) = first_difference("", &normalised(&ours), &step["diff"]) {
            failures.push(format!("{}: {difference}", step["commit"]));
        }
    }
    assert_eq!(count, 151, "one line per first-parent step");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn recorded_cases_equal_the_reference() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/conformance/reference");
    let cache = ParseCache::default();
    let mut failures = Vec::new();
    let cases = cases::dirs(&root);
    for case in &cases {
        let name = cases::name(case);
        let read =
            |side: &str| git::read_dir(&case.join(side), DEFAULT_MAX_FILE_SIZE).expect("a catalog");
        let (a, b) = (read("a"), read("b"));
        let strategy = std::fs::read_to_string(case.join("options.json"))
            .ok()
            .map(|text| serde_json::from_str::<Value>(&text).expect("valid JSON"))
            .and_then(|options| Some(options["strategy"].as_str()?.parse().expect("a strategy")))
            .unwrap_or(Strategy::Full);
        let options = diff::Options {
            strategy,
            ..diff::Options::default()
        };
        let whole = |files: &catalog_diff::catalog::FileSet, label: &str| {
            let options = catalog_diff::pipeline::build_options("reference", label.into(), true);
            build(files, &options, &cache).index
        };
        let on_whole_builds = diff::diff_with_files(
            (&whole(&a, "a"), &a),
            (&whole(&b, "b"), &b),
            &options,
            &diff::VerdictCache::default(),
        );
        let on_the_reach = catalog_diff::pipeline::diff_files(
            catalog_diff::catalog::Baseline::Whole(&a),
            &b,
            ("a".into(), "b".into()),
            "reference",
            &options,
            &ParseCache::default(),
            catalog_diff::pipeline::Known::default(),
        )
        .diff;
        let theirs: Value = serde_json::from_str(
            &std::fs::read_to_string(case.join("expected.json")).expect("recorded"),
        )
        .expect("valid JSON");
        for (how, ours) in [("whole", &on_whole_builds), ("reach", &on_the_reach)] {
            if let Some(difference) = first_difference("", &normalised(ours), &theirs) {
                failures.push(format!("{name} ({how}): {difference}"));
            }
        }
    }
    assert!(!cases.is_empty(), "no cases in {}", root.display());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
