//! Data-driven schema cases for every format: `testdata/<format>/<kind>/<case>/` holds
//! `before.*`, `after.*` and `expected.json` (the verdict under each of backward, forward, full and
//! none; a format with rule sets, such as Protobuf's categories, nests the strategies under each
//! rule set's name). `<kind>` is the id of a row of the format's rules table, `unchanged`, or
//! `unknown` (no verdict: `breaking` null and the `unknownReason` a diff would give). The
//! runner finds every folder itself, so adding a case means adding a folder; it fails when a
//! folder names a kind the table does not have, and when a row has no folder. When an expected op
//! carries a `reason` it is compared too: every JSON Schema case carries the reference's words,
//! which the JSON document must repeat (`record_reasons.py`); other formats' reasons are prose.
//! Ops are compared in order, verb and all: the JSON Schema expectations are the reference's
//! (`@eventcatalog/diff` 0.1.0) op lists, recorded with `generate.py --oracle` and
//! `reference_suite.py` (the `reference-*` folders are the reference's own test suite, one folder
//! per test), so a wrong verb, a missing `property.*` / `required.*` companion, an op at the wrong
//! `$ref` position or one out of order fails here. Other formats' ops are compared as a
//! multiset, since their order carries no meaning there. As free checks, each side compared with itself
//! must give no ops at all.
//!
//! Protobuf cases nest the strategies under each `buf breaking` category the tool judges with
//! (`{"wire-json": {...}, "wire": {...}}`), and also hold what real buf said about the pair
//! under `"buf"` (`{"wire-json": {"breaking", "rules"}, "wire": {...}}`), written by
//! `scripts/record-protobuf.sh`: the runner checks that the tool breaks under `backward`,
//! `forward` and `full` exactly where buf failed, and never under `none`. A side's main file
//! (`before.proto`, `after.proto`) may import other files: those sit in the folders `before/`
//! and `after/` of the case, at the paths the import names (beside the main file).
//!
//! To write the tool's current ops into a new case (then review them like code), run the
//! runner with `SCHEMA_CASES_ACCEPT=1`: each `expected.json` lacking a verdict gets the one
//! the tool gives; nothing already there is changed.

#[path = "support/cases.rs"]
mod cases;
#[path = "support/mod.rs"]
mod support;

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use catalog_diff::schema::{self, Document, Files, Format, ProtoRules, Strategy};
use serde_json::Value;

/// The files a case side can import: `<case>/<side>/<path>`.
struct SideFolder(PathBuf);

impl Files for SideFolder {
    fn read(&self, path: &str) -> Option<Arc<[u8]>> {
        fs::read(self.0.join(path)).ok().map(Arc::from)
    }
}

fn read(path: &Path) -> Value {
    let text =
        fs::read_to_string(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// Drop `reason` where the expectation does not state one; ops keep their order when it is the
/// reference's (`ordered`), else they are sorted.
fn normalise(verdict: &Value, keep_reason: bool, ordered: bool) -> Value {
    let mut verdict = verdict.clone();
    if let Some(ops) = verdict.get_mut("ops").and_then(Value::as_array_mut) {
        if !keep_reason {
            for op in ops.iter_mut() {
                if let Some(op) = op.as_object_mut() {
                    op.remove("reason");
                }
            }
        }
        if !ordered {
            ops.sort_by_key(|op| op.to_string());
        }
    }
    verdict
}

/// The rule sets a format judges under, with their key in `expected.json` (`None`: the
/// strategies sit at the top level).
fn rule_sets(format: Format) -> Vec<(Option<&'static str>, schema::Options)> {
    match format {
        Format::Protobuf => ProtoRules::ALL
            .into_iter()
            .map(|rules| (Some(rules.as_str()), schema::Options { proto_rules: rules }))
            .collect(),
        _ => vec![(None, schema::Options::default())],
    }
}

fn accepting() -> bool {
    std::env::var_os("SCHEMA_CASES_ACCEPT").is_some_and(|v| v == "1")
}

fn check_case(format: Format, folder: &Path) -> Vec<String> {
    let name = format!("{}/{}", format.id(), cases::name(folder));
    let (before_name, before_text) = cases::side(folder, "before");
    let (after_name, after_text) = cases::side(folder, "after");
    let (before_files, after_files) = (
        SideFolder(folder.join("before")),
        SideFolder(folder.join("after")),
    );
    let before = Document::new(&before_name, &before_text).with_files(&before_files);
    let after = Document::new(&after_name, &after_text).with_files(&after_files);
    let expected_path = folder.join("expected.json");
    let mut expected = read(&expected_path);
    let mut failures = Vec::new();
    let mut accepted = false;
    for (key, options) in rule_sets(format) {
        let label = |strategy: Strategy| match key {
            Some(key) => format!("{key}, {strategy}"),
            None => strategy.to_string(),
        };
        for strategy in Strategy::ALL {
            let got = match format.compare(before, after, strategy, &options) {
                Ok(verdict) => serde_json::to_value(verdict).expect("verdicts serialise"),
                // No verdict, as a diff writes it.
                Err(error) => serde_json::json!({
                    "breaking": null,
                    "direction": null,
                    "ops": [],
                    "unknownReason": error.to_string(),
                }),
            };
            let set = match key {
                Some(key) => expected.get(key),
                None => Some(&expected),
            };
            let Some(want) = set.and_then(|set| set.get(strategy.as_str())) else {
                if accepting() {
                    let mut without_reasons = got.clone();
                    for op in without_reasons["ops"].as_array_mut().into_iter().flatten() {
                        op.as_object_mut().map(|op| op.remove("reason"));
                    }
                    let slot = match key {
                        Some(key) => &mut expected[key],
                        None => &mut expected,
                    };
                    slot[strategy.as_str()] = without_reasons;
                    accepted = true;
                } else {
                    failures.push(format!(
                        "{name}: expected.json has no `{}` verdict",
                        label(strategy)
                    ));
                }
                continue;
            };
            let keep_reason = want["ops"]
                .as_array()
                .is_some_and(|ops| ops.iter().any(|op| op.get("reason").is_some()));
            let ordered = format == Format::JsonSchema;
            let (got, want) = (
                normalise(&got, keep_reason, ordered),
                normalise(want, keep_reason, ordered),
            );
            if got != want {
                failures.push(format!(
                    "{name} ({}):\n  expected {want}\n  got      {got}",
                    label(strategy)
                ));
            }
            // Where the reference tool's own answer is recorded, the tool must agree with it.
            if let Some(buf) = key.and_then(|key| expected.get("buf")?.get(key)) {
                let failed = buf["breaking"].as_bool().unwrap_or(false);
                let breaks = strategy != Strategy::None && failed;
                if got["breaking"].as_bool() != Some(breaks) {
                    failures.push(format!(
                        "{name} ({}): buf says breaking={failed} ({}), the tool says {}",
                        label(strategy),
                        buf["rules"],
                        got["breaking"]
                    ));
                }
            }
        }
    }
    if accepted {
        let text = serde_json::to_string_pretty(&expected).expect("serialisable") + "\n";
        fs::write(&expected_path, text).expect("expected.json is writable");
    }
    for (label, document) in [("before", before), ("after", after)] {
        match format.compare(
            document,
            document,
            Strategy::Full,
            &schema::Options::default(),
        ) {
            Ok(verdict) if verdict.ops.is_empty() => {}
            Ok(verdict) => failures.push(format!(
                "{name}: {label} vs itself gave ops {:?}",
                verdict.ops
            )),
            Err(error) => failures.push(format!("{name}: {label} vs itself failed: {error}")),
        }
    }
    failures
}

#[test]
fn every_case_folder_matches_its_expected_verdicts() {
    let mut failures = Vec::new();
    let mut count = 0;
    for format in Format::ALL {
        for (_, folder) in cases::all(&cases::root(format.id())) {
            count += 1;
            failures.extend(check_case(format, &folder));
        }
    }
    assert!(count >= 100, "only {count} case folders");
    assert!(
        failures.is_empty(),
        "{} failure(s) in {count} cases:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn kind_folders_and_rules_tables_agree() {
    for format in Format::ALL {
        let ids: HashSet<&str> = format.rules().iter().map(|rule| rule.id).collect();
        let folders: HashSet<String> = cases::dirs(&cases::root(format.id()))
            .iter()
            .map(|dir| cases::name(dir))
            .collect();
        for folder in &folders {
            assert!(
                folder == "unchanged" || folder == "unknown" || ids.contains(folder.as_str()),
                "testdata/{}/{folder} names no rule of the {format} table",
                format.id()
            );
        }
        for id in ids {
            assert!(
                folders.contains(id),
                "the {format} rule {id} has no folder testdata/{}/{id}",
                format.id()
            );
        }
    }
}

#[test]
fn every_case_sits_in_the_folder_of_one_of_its_kinds() {
    for format in Format::ALL {
        for (kind, folder) in cases::all(&cases::root(format.id())) {
            let expected = fs::read_to_string(folder.join("expected.json")).expect("readable");
            let found = kind == "unchanged"
                || (kind == "unknown" && expected.contains("\"unknownReason\""))
                || expected.contains(&format!("\"kind\": \"{kind}\""));
            assert!(found, "{} has no op of kind {kind}", folder.display());
        }
    }
}

/// The `schema` subcommand end to end: exit codes, the exact JSON shape, and errors.
mod cli {
    use std::path::Path;
    use std::process::{Command, Output};

    fn run(args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_catalog-diff"))
            .env("CATALOG_DIFF_CACHE", crate::support::PARSE_CACHE)
            .arg("schema")
            .args(args)
            .current_dir(
                Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/json-schema/required.removed"),
            )
            .output()
            .expect("the binary runs")
    }

    const CASE: &str = "example-forward-customer-id-no-longer-required";

    #[test]
    fn breaking_exits_1_and_explains() {
        let output = run(&[
            &format!("{CASE}/before.json"),
            &format!("{CASE}/after.json"),
        ]);
        assert_eq!(output.status.code(), Some(1));
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(
            text.contains(
                "BREAKING (forward) /properties/customerId: `customerId` is no longer required"
            ),
            "{text}"
        );
    }

    #[test]
    fn json_format_prints_exactly_the_verdict() {
        let output = run(&[
            "--format",
            "json",
            "--strategy",
            "backward",
            &format!("{CASE}/before.json"),
            &format!("{CASE}/after.json"),
        ]);
        assert_eq!(output.status.code(), Some(0));
        let expected = concat!(
            "{\n",
            "  \"breaking\": false,\n",
            "  \"direction\": null,\n",
            "  \"ops\": [\n",
            "    {\n",
            "      \"op\": \"replace\",\n",
            "      \"path\": \"/properties/customerId\",\n",
            "      \"kind\": \"required.removed\",\n",
            "      \"reason\": \"property is no longer required\",\n",
            "      \"breaking\": false\n",
            "    }\n",
            "  ]\n",
            "}\n"
        );
        assert_eq!(String::from_utf8_lossy(&output.stdout), expected);
    }

    /// A change behind a reference the walk does not follow is never "the same values".
    #[test]
    fn a_change_behind_an_unfollowed_ref_is_exit_2_naming_the_ref() {
        let case = "../unknown/ref-to-an-anchor";
        let output = run(&[
            &format!("{case}/before.json"),
            &format!("{case}/after.json"),
        ]);
        assert_eq!(output.status.code(), Some(2));
        assert!(!String::from_utf8_lossy(&output.stdout).contains("same values"));
        let error = String::from_utf8_lossy(&output.stderr);
        assert!(
            error.contains("cannot judge")
                && error.contains("`$ref` `#addr` at /properties/address"),
            "{error}"
        );
    }

    #[test]
    fn not_a_schema_is_exit_2_naming_the_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let payload = dir.path().join("payload.json");
        // A data key beside an annotation's name is still a payload.
        for text in [
            r#"{"orderId": "ord_1"}"#,
            r#"{"title": "Dune", "orderId": "ord_1"}"#,
        ] {
            std::fs::write(&payload, text).expect("write");
            let output = run(&[
                &format!("{CASE}/before.json"),
                payload.to_str().expect("utf-8 path"),
            ]);
            assert_eq!(output.status.code(), Some(2));
            let error = String::from_utf8_lossy(&output.stderr);
            assert!(
                error.contains("payload.json") && error.contains("not a JSON Schema"),
                "{error}"
            );
        }
    }

    /// `{}` and an object of annotations only accept every value, as `true` does: judged as
    /// schemas, not refused as example payloads.
    #[test]
    fn an_empty_or_annotated_only_schema_is_judged_as_accepting_anything() {
        let dir = tempfile::tempdir().expect("temp dir");
        let string = dir.path().join("string.json");
        std::fs::write(&string, r#"{"type": "string"}"#).expect("write");
        for (name, text) in [
            ("true.json", "true"),
            ("empty.json", "{}"),
            ("todo.json", r#"{"description": "TODO", "title": "Order"}"#),
        ] {
            let any = dir.path().join(name);
            std::fs::write(&any, text).expect("write");
            let output = run(&[
                any.to_str().expect("utf-8 path"),
                string.to_str().expect("utf-8 path"),
            ]);
            let error = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(1), "{name}: {error}");
            let text = String::from_utf8_lossy(&output.stdout);
            assert!(text.contains("BREAKING (backward) /"), "{name}: {text}");
        }
    }

    #[test]
    fn invalid_json_is_exit_2_with_line_and_column() {
        let dir = tempfile::tempdir().expect("temp dir");
        let broken = dir.path().join("broken.json");
        std::fs::write(&broken, "{\n  \"type\": \n}").expect("write");
        let output = run(&[
            broken.to_str().expect("utf-8 path"),
            &format!("{CASE}/after.json"),
        ]);
        assert_eq!(output.status.code(), Some(2));
        let error = String::from_utf8_lossy(&output.stderr);
        assert!(error.contains("broken.json:3:1"), "{error}");
    }

    #[test]
    fn unknown_strategy_is_exit_2() {
        let output = run(&[
            "--strategy",
            "sideways",
            &format!("{CASE}/before.json"),
            &format!("{CASE}/after.json"),
        ]);
        assert_eq!(output.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&output.stderr).contains("backward, forward, full, none"));
    }
}

/// The README's rules tables are rendered from the rules data; this keeps them equal. On a
/// failure, paste the printed table between the format's markers.
#[test]
fn readme_rules_tables_are_the_data() {
    let readme = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md is readable");
    for format in Format::ALL {
        let start = format!("<!-- rules:{} -->\n", format.id());
        let end = format!("<!-- /rules:{} -->", format.id());
        let table = format.rules_markdown();
        let found = readme
            .split_once(&start)
            .and_then(|(_, rest)| rest.split_once(&end))
            .map(|(inside, _)| inside);
        assert_eq!(
            found,
            Some(table.as_str()),
            "README.md must hold the {format} rules table between `{}` and `{end}`:\n{table}",
            start.trim_end()
        );
    }
}
