//! Avro end to end: a diff on a scripted repository whose event carries an `.avsc` schema (a
//! breaking change, and who is hurt), an invalid schema in a diff (unknown, with a diagnostic
//! naming the catalog file), `catalog-diff schema` on Avro files, and the real Avro files of
//! `../shared/catalogs` (sdk-test-catalog's versioned copies judged version against version,
//! every historical `.avro` blob of examples-default parsed without a panic). The shared tests
//! skip, saying so, when `../shared` is not there.

use crate::support::TestRepo;
use crate::{json, run};
use catalog_diff::schema::{Direction, Document, Error, Format, Strategy};

const EVENT: &str = "---\nid: OrderPlaced\nversion: 1.0.0\nschemaPath: schema.avsc\n---\n";
const PRODUCER: &str =
    "---\nid: Orders\nversion: 1.0.0\nowners:\n  - team-orders\nsends:\n  - id: OrderPlaced\n---\n";
const CONSUMER: &str = "---\nid: Billing\nversion: 2.0.0\nowners:\n  - team-billing\nreceives:\n  - id: OrderPlaced\n---\n";
const BEFORE: &str = r#"{
  "type": "record",
  "name": "OrderPlaced",
  "namespace": "acme.orders",
  "fields": [
    {"name": "orderId", "type": "string"},
    {"name": "quantity", "type": "int"}
  ]
}
"#;

/// main: the event with its Avro schema, a producer and a consumer; `change` on top: `after`.
fn repo(after: &str) -> TestRepo {
    let repo = TestRepo::new();
    repo.write_all(&[
        ("events/OrderPlaced/index.mdx", EVENT),
        ("events/OrderPlaced/schema.avsc", BEFORE),
        ("services/Orders/index.mdx", PRODUCER),
        ("services/Billing/index.mdx", CONSUMER),
    ]);
    repo.commit_all("catalog");
    repo.git(&["switch", "-q", "-c", "change"]);
    repo.write("events/OrderPlaced/schema.avsc", after);
    repo.commit_all("change the schema");
    repo
}

#[test]
fn an_incompatible_avro_change_is_breaking_with_its_producers_and_consumers() {
    let repo = repo(&BEFORE.replace(r#""type": "int""#, r#""type": "string""#));
    let output = run(&repo, &["main..change", "--format", "json"]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let diff = json(&output);
    assert_eq!(diff["summary"]["schemaBreaking"], 1);
    let change = &diff["schemaChanges"][0];
    assert_eq!(change["breaking"], true);
    assert_eq!(change["direction"], "both");
    assert_eq!(change["ops"][0]["kind"], "type.changed");
    assert_eq!(change["ops"][0]["path"], "/fields/quantity/type");
    let impact = &diff["impact"][0];
    assert_eq!(impact["reason"], "schema_breaking_change");
    assert_eq!(impact["producers"][0]["id"], "Orders");
    assert_eq!(impact["producers"][0]["owners"][0], "team-orders");
    assert_eq!(impact["consumers"][0]["id"], "Billing");
    assert_eq!(impact["consumers"][0]["owners"][0], "team-billing");

    // The GitHub annotation points at the field's line in the new schema.
    let github = run(&repo, &["main..change", "--format", "github"]);
    let text = String::from_utf8_lossy(&github.stdout);
    assert!(
        text.contains("file=events/OrderPlaced/schema.avsc,line=7"),
        "{text}"
    );
}

#[test]
fn a_compatible_avro_change_passes_and_the_strategy_decides() {
    // A field with a default and a promotion: backward-compatible, forward-breaking.
    let after = BEFORE
        .replace(r#""type": "int""#, r#""type": "long""#)
        .replace(
            r#"{"name": "orderId", "type": "string"},"#,
            r#"{"name": "orderId", "type": "string"}, {"name": "note", "type": ["null", "string"], "default": null},"#,
        );
    let repo = repo(&after);
    let backward = run(
        repo.path(),
        &["main..change", "--format", "json", "--strategy", "backward"],
    );
    assert_eq!(backward.status.code(), Some(0), "{backward:?}");
    assert_eq!(json(&backward)["schemaChanges"][0]["breaking"], false);
    let full = run(&repo, &["main..change", "--format", "json"]);
    assert_eq!(full.status.code(), Some(1));
    assert_eq!(json(&full)["schemaChanges"][0]["direction"], "forward");
}

#[test]
fn an_invalid_avro_schema_is_unknown_with_a_diagnostic_naming_the_file() {
    let broken = BEFORE.replace(
        r#"{"name": "quantity", "type": "int"}"#,
        r#"{"name": "quantity", "type": "int", "default": "many"}"#,
    );
    let repo = repo(&broken);
    let output = run(
        repo.path(),
        &["main..change", "--format", "json", "--fail-on", "unknown"],
    );
    assert_eq!(output.status.code(), Some(1));
    let diff = json(&output);
    assert_eq!(diff["summary"]["schemaUnknown"], 1);
    let change = &diff["schemaChanges"][0];
    assert_eq!(change["breaking"], serde_json::Value::Null);
    let reason = change["unknownReason"].as_str().expect("a reason");
    assert!(reason.contains("default of the wrong type"), "{reason}");
    let diagnostic = &diff["diagnostics"][0];
    assert_eq!(diagnostic["side"], "b");
    assert_eq!(diagnostic["file"], "events/OrderPlaced/schema.avsc");
    assert_eq!(diagnostic["line"], 7);
    // Text output lists it too, and without --fail-on unknown the run passes.
    let text = run(&repo, &["main..change"]);
    assert_eq!(text.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&text.stdout);
    assert!(
        stdout.contains("events/OrderPlaced/schema.avsc:7"),
        "{stdout}"
    );
}

/// Both sides broken: each side's file gets its diagnostic, not only the first one found.
#[test]
fn both_sides_of_an_invalid_avro_pair_are_named() {
    let repo = repo("{\"type\": \"record\", \"name\": \"OrderPlaced\", \"fields\": [],\n}");
    repo.git(&["switch", "-q", "main"]);
    repo.write(
        "events/OrderPlaced/schema.avsc",
        &BEFORE.replace(r#""type": "int""#, r#""type": "Missing""#),
    );
    repo.commit_all("break the baseline too");
    let output = run(repo.path(), &["main..change", "--format", "json"]);
    let diff = json(&output);
    assert_eq!(diff["summary"]["schemaUnknown"], 1, "{diff}");
    let reason = diff["schemaChanges"][0]["unknownReason"]
        .as_str()
        .expect("a reason");
    assert!(reason.contains("unknown type `Missing`"), "{reason}");
    let sides: Vec<(&str, &str)> = diff["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .map(|d| {
            (
                d["side"].as_str().unwrap_or(""),
                d["message"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert!(
        matches!(sides.as_slice(), [("a", a), ("b", b)] if a.contains("Missing") && b.contains("not valid JSON")),
        "{sides:?}"
    );
}

#[test]
fn the_schema_command_judges_avro_and_names_bad_files() {
    let dir = tempfile::tempdir().expect("temp dir");
    let write = |name: &str, text: &str| {
        std::fs::write(dir.path().join(name), text).expect("write");
        name.to_owned()
    };
    let before = write("before.avsc", BEFORE);
    let after = write(
        "after.avsc",
        &BEFORE.replace(r#""type": "int""#, r#""type": "long""#),
    );
    let output = run(dir.path(), &["schema", "--format", "json", &before, &after]);
    assert_eq!(output.status.code(), Some(1));
    let verdict = json(&output);
    assert_eq!(verdict["direction"], "forward");
    assert_eq!(verdict["ops"][0]["kind"], "type.promoted");

    // A .json file is Avro when told so.
    let as_json = write("after.json", &BEFORE.replace("int", "long"));
    let forced = run(
        dir.path(),
        &["schema", "--schema-format", "avro", &before, &as_json],
    );
    assert_eq!(forced.status.code(), Some(1), "{forced:?}");

    for (name, text, needle) in [
        (
            "dup.avsc",
            r#"{"type": "record", "name": "R", "fields": [{"name": "a", "type": "int"},
 {"name": "a", "type": "long"}]}"#,
            "dup.avsc:2: the after schema is not a valid Avro schema: field `a` appears twice in record `R`",
        ),
        (
            "unknown.avsc",
            r#"{"type": "record", "name": "R", "fields": [{"name": "a", "type": "Missing"}]}"#,
            "unknown type `Missing`",
        ),
        (
            "union.avsc",
            r#"{"type": "record", "name": "R", "fields": [{"name": "a", "type": ["int", "string", "int"]}]}"#,
            "two branches of type `int`",
        ),
        (
            "symbol.avsc",
            r#"{"type": "enum", "name": "E", "symbols": ["OK", "NOT-OK"]}"#,
            "symbol \"NOT-OK\" is not a valid Avro name",
        ),
        (
            "name.avsc",
            r#"{"type": "record", "name": "9lives", "fields": []}"#,
            "`9lives` is not a valid Avro name",
        ),
        (
            "comma.avsc",
            "{\"type\": \"record\", \"name\": \"R\", \"fields\": [],\n}",
            "comma.avsc:2:1: the after schema is not valid JSON",
        ),
    ] {
        let bad = write(name, text);
        let output = run(dir.path(), &["schema", &before, &bad]);
        assert_eq!(output.status.code(), Some(2), "{name}");
        let error = String::from_utf8_lossy(&output.stderr);
        assert!(error.contains(needle), "{name}: {error}");
        assert!(output.stdout.is_empty(), "{name}: nothing on stdout");
    }

    // Both files bad: one run names both, the before file first.
    let output = run(dir.path(), &["schema", "unknown.avsc", "comma.avsc"]);
    assert_eq!(output.status.code(), Some(2));
    let errors = String::from_utf8_lossy(&output.stderr);
    let (before, after) = (
        errors.find("unknown.avsc:1: the before schema"),
        errors.find("comma.avsc:2:1: the after schema"),
    );
    assert!(before.is_some() && before < after, "{errors}");
}

/// An Avro schema declared (or forced) JSON Schema is not judged as a JSON Schema, which would
/// read none of its fields and call every change "no change": the diff has no verdict, with the
/// declaration in its reason, and `schema` refuses the file.
#[test]
fn avro_declared_json_schema_is_not_judged_as_one() {
    let repo = TestRepo::new();
    let entry =
        "---\nid: E\nversion: 1.0.0\nschemas:\n  - {path: schema.avsc, format: json-schema}\n---\n";
    repo.write_all(&[
        ("events/E/index.mdx", entry),
        ("events/E/schema.avsc", BEFORE),
    ]);
    repo.commit_all("first");
    let after = BEFORE.replace(r#""type": "int""#, r#""type": "string""#);
    repo.write("events/E/schema.avsc", &after);
    repo.commit_all("quantity as a string");
    let doc = json(&run(&repo, &["HEAD~1..HEAD", "--format", "json"]));
    let change = &doc["schemaChanges"][0];
    assert_eq!(change["breaking"], serde_json::Value::Null, "{doc}");
    let reason = change["unknownReason"].as_str().unwrap_or_default();
    assert!(
        reason.contains("declared JSON Schema (`format: json-schema`) but is an Avro schema"),
        "{reason}"
    );

    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("a.avsc"), BEFORE).expect("write");
    std::fs::write(dir.path().join("b.avsc"), &after).expect("write");
    let args = [
        "schema",
        "--schema-format",
        "json-schema",
        "a.avsc",
        "b.avsc",
    ];
    let output = run(dir.path(), &args);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(output.stdout.is_empty(), "no verdict on stdout");
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(
        error.contains("cannot judge the before file: `a.avsc` is declared JSON Schema (`--schema-format json-schema`) but is an Avro schema"),
        "{error}"
    );
}

#[test]
fn deep_nesting_is_refused_cleanly() {
    let mut schema = String::from("\"int\"");
    for _ in 0..400 {
        schema = format!("{{\"type\": \"array\", \"items\": {schema}}}");
    }
    let document = Document::new("deep.avsc", &schema);
    match Format::Avro.compare(document, document, Strategy::Full, &Default::default()) {
        Err(Error::TooDeep { .. }) => {}
        other => panic!("expected TooDeep, got {other:?}"),
    }
}

/// sdk-test-catalog's InventoryAdjusted keeps versioned copies of its Avro schema; each is
/// judged against the next. 1.0.0 has a trailing comma: every pair it is part of is an error
/// naming its file and line, never a verdict.
#[test]
fn sdk_test_catalog_versions_judged_one_against_the_next() {
    let Some(shared) =
        crate::support::shared_or_skip("sdk_test_catalog_versions_judged_one_against_the_next")
    else {
        return;
    };
    let event = shared.join(
        "catalogs/sdk-test-catalog/domains/Orders/services/InventoryService/events/InventoryAdjusted",
    );
    let versions = [
        ("0.0.1", event.join("versioned/0.0.1/schema.avro")),
        ("1.0.0", event.join("versioned/1.0.0/schema.avro")),
        ("1.0.1", event.join("schema.avro")),
    ];
    let texts: Vec<(String, String)> = versions
        .iter()
        .map(|(version, path)| {
            (
                format!("{version}/schema.avro"),
                std::fs::read_to_string(path).expect("the shared catalog is readable"),
            )
        })
        .collect();
    let judge = |a: usize, b: usize| {
        let document = |i: usize| Document::new(&texts[i].0, &texts[i].1);
        Format::Avro.compare(
            document(a),
            document(b),
            Strategy::Full,
            &Default::default(),
        )
    };
    for (a, b) in [(0, 1), (1, 2)] {
        match judge(a, b) {
            Err(Error::Parse { file, line, .. }) => {
                assert_eq!(file, "1.0.0/schema.avro");
                assert_eq!(line, 9);
            }
            other => panic!("1.0.0 has a trailing comma, got {other:?}"),
        }
    }
    // 0.0.1 -> 1.0.1: four fields added without defaults (backward breaks), none removed.
    let verdict = judge(0, 2).expect("both parse");
    assert_eq!(verdict.direction, Some(Direction::Backward));
    let added: Vec<&str> = verdict
        .ops
        .iter()
        .filter(|op| op.kind.id == "field.added")
        .map(|op| op.path.as_str())
        .collect();
    assert_eq!(
        added,
        [
            "/fields/Department",
            "/fields/Position",
            "/fields/Salary",
            "/fields/JoinDate"
        ]
    );
    // And the newest against itself is no change at all.
    assert!(judge(2, 2).expect("parses").ops.is_empty());
}

/// Every `.avro` blob in examples-default's history parses or is refused with a reason: 7 of
/// the 10 are valid; two have a trailing comma and one a field defined twice.
#[test]
fn every_historical_avro_blob_of_examples_default_is_judged_or_refused() {
    let Some((_temp, clone)) = crate::support::examples_default_clone(
        "every_historical_avro_blob_of_examples_default_is_judged_or_refused",
    ) else {
        return;
    };
    let raw = crate::support::git_in(
        &clone,
        0,
        &[
            "log",
            "--all",
            "--format=",
            "--raw",
            "--no-abbrev",
            "--",
            "*.avro",
        ],
    );
    let mut blobs: Vec<&str> = raw
        .lines()
        .filter_map(|line| line.split_whitespace().nth(3))
        .filter(|id| id.chars().any(|c| c != '0'))
        .collect();
    blobs.sort_unstable();
    blobs.dedup();
    let (mut valid, mut commas, mut duplicates) = (0, 0, 0);
    for blob in &blobs {
        let text = crate::support::git_in(&clone, 0, &["cat-file", "-p", blob]);
        let document = Document::new("schema.avro", &text);
        match Format::Avro.compare(document, document, Strategy::Full, &Default::default()) {
            Ok(verdict) => {
                assert!(verdict.ops.is_empty(), "{blob} against itself");
                valid += 1;
            }
            Err(Error::Parse { message, .. }) if message.contains("trailing comma") => commas += 1,
            Err(Error::Invalid { message, .. }) if message.contains("appears twice") => {
                duplicates += 1
            }
            Err(other) => panic!("{blob}: unexpected {other}"),
        }
    }
    assert_eq!((blobs.len(), valid, commas, duplicates), (10, 7, 2, 1));
}

/// The checks against the history read a schema as the diff does, by its entry's declared
/// format first: an Avro schema kept as `schema.json` with `format: avro` is judged as Avro
/// against every version it had (a default dropped since the first breaks backward there).
#[test]
fn history_checks_read_the_declared_format() {
    let record = |fields: &str| {
        format!(
            r#"{{"type": "record", "name": "E", "fields": [{{"name": "id", "type": "string"}}{fields}]}}"#
        )
    };
    let repo = TestRepo::new();
    repo.write_all(&[
        (
            "events/E/index.mdx",
            "---\nid: E\nversion: 1.0.0\nschemas:\n  - {path: schema.json, format: avro}\n---\n",
        ),
        ("events/E/schema.json", &record("")),
    ]);
    repo.commit_all("first");
    repo.write(
        "events/E/schema.json",
        &record(r#", {"name": "n", "type": "int", "default": 0}"#),
    );
    repo.commit_all("n with a default");
    repo.write(
        "events/E/schema.json",
        &record(r#", {"name": "n", "type": "int"}"#),
    );
    repo.commit_all("n without");
    let args = [
        "HEAD~1..HEAD",
        "--strategy",
        "backward-transitive",
        "--history",
        "--format",
        "json",
    ];
    let out = run(&repo, &args);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc = json(&out);
    assert_eq!(doc["schemaChanges"][0]["breaking"], false, "{doc}");
    assert_eq!(doc["transitiveChecks"][0]["breaking"], true, "{doc}");
}

/// One file named by two schema entries, once as Avro and once undeclared (read as JSON Schema,
/// which it is not): each change keeps its own place, the Avro break its op's line.
#[test]
fn one_file_under_two_entries_keeps_each_changes_place() {
    let repo = TestRepo::new();
    repo.write_all(&[
        (
            "events/E/index.mdx",
            "---\nid: E\nversion: 1.0.0\nschemas:\n  - {id: avro, path: s.json, format: avro}\n  - {id: plain, path: s.json}\n---\n",
        ),
        ("events/E/s.json", BEFORE),
    ]);
    repo.commit_all("first");
    repo.write("events/E/s.json", &BEFORE.replace("\"int\"", "\"string\""));
    repo.commit_all("quantity as text");
    let out = run(&repo, &["HEAD~1..HEAD", "--format", "github"]);
    let github = String::from_utf8_lossy(&out.stdout);
    assert!(
        github.starts_with("::error file=events/E/s.json,line=7,"),
        "{github}"
    );
}

/// An Avro data file (an object container) and a Git LFS pointer hold no schema: `schema`
/// names each as what it is, whatever `--schema-format` says (never "not UTF-8 text" or "not
/// valid JSON"), and the diff gives their changes no verdict with the same words.
#[test]
fn avro_data_files_and_lfs_pointers_are_named_as_what_they_are() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = |n: u8| [&b"Obj\x01\x02\x16avro.schema"[..], &[n, 0xff, 0xfe]].concat();
    let pointer =
        |n: u8| format!("version https://git-lfs.github.com/spec/v1\noid sha256:4d7a\nsize {n}\n");
    for (name, bytes) in [
        ("a.avro", data(1)),
        ("b.avro", data(2)),
        ("a.avsc", pointer(1).into_bytes()),
        ("b.avsc", pointer(2).into_bytes()),
    ] {
        std::fs::write(dir.path().join(name), bytes).expect("write");
    }
    for (files, forced, needle) in [
        (
            ["a.avro", "b.avro"],
            None,
            "is an Avro data file (an object container), not a schema",
        ),
        (["a.avsc", "b.avsc"], None, "is a Git LFS pointer"),
        (["a.avsc", "b.avsc"], Some("avro"), "is a Git LFS pointer"),
    ] {
        let mut args = vec!["schema", files[0], files[1]];
        args.extend(forced.map(|f| ["--schema-format", f]).iter().flatten());
        let out = run(dir.path(), &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        assert!(
            !stderr.contains("UTF-8") && !stderr.contains("JSON"),
            "{stderr}"
        );
        if needle.contains("LFS") {
            assert!(stderr.contains("hint: `git lfs pull`"), "{stderr}");
        }
    }
    let repo = TestRepo::new();
    let event = "---\nid: E\nversion: 1.0.0\nschemaPath: s.avro\n---\n";
    repo.write("events/E/index.mdx", event);
    std::fs::write(repo.path().join("events/E/s.avro"), data(1)).expect("write");
    repo.commit_all("data");
    std::fs::write(repo.path().join("events/E/s.avro"), data(2)).expect("write");
    let doc = json(&run(&repo, &["--format", "json"]));
    let reason = doc["schemaChanges"][0]["unknownReason"].as_str();
    assert!(
        reason.is_some_and(|r| r.contains("is an Avro data file")),
        "{doc}"
    );
    assert!(!doc.to_string().contains("UTF-8"), "{doc}");
}
