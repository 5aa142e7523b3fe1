//! Data-driven JSON Schema cases: every folder under `testdata/json-schema/` holds `before.json`,
//! `after.json` and `expected.json` (the verdict under each of backward, forward, full and none).
//! The runner finds every folder itself, so adding a case means adding a folder (or a line in
//! `testdata/json-schema/generate.py`, which writes them). Expected ops leave out `reason`, which is
//! prose; when an expected op does carry a `reason`, it is compared too. Ops are compared as a
//! multiset, since their order carries no meaning. As free checks, each side compared with itself
//! must give no ops at all.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

use catalog_diff::schema::Strategy;
use catalog_diff::schema::json_schema::judge_values as compare_json_schema;
use catalog_diff::schema::json_schema::rules::ChangeKind;
use serde_json::Value;

fn case_folders() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/json-schema");
    let mut folders: Vec<PathBuf> = fs::read_dir(root)
        .expect("testdata/json-schema exists")
        .map(|entry| entry.expect("readable entry").path())
        .filter(|path| path.is_dir())
        .collect();
    folders.sort();
    folders
}

fn read(path: &Path) -> Value {
    let text =
        fs::read_to_string(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// Sort ops and drop `reason` where the expectation does not state one.
fn normalise(verdict: &Value, keep_reason: bool) -> Value {
    let mut verdict = verdict.clone();
    if let Some(ops) = verdict.get_mut("ops").and_then(Value::as_array_mut) {
        if !keep_reason {
            for op in ops.iter_mut() {
                if let Some(op) = op.as_object_mut() {
                    op.remove("reason");
                }
            }
        }
        ops.sort_by_key(|op| op.to_string());
    }
    verdict
}

fn check_case(folder: &Path) -> Vec<String> {
    let name = folder
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let before = read(&folder.join("before.json"));
    let after = read(&folder.join("after.json"));
    let expected = read(&folder.join("expected.json"));
    let mut failures = Vec::new();
    for strategy in Strategy::ALL {
        let Some(want) = expected.get(strategy.as_str()) else {
            failures.push(format!("{name}: expected.json has no `{strategy}` verdict"));
            continue;
        };
        let keep_reason = want["ops"]
            .as_array()
            .is_some_and(|ops| ops.iter().any(|op| op.get("reason").is_some()));
        let got = match compare_json_schema(&before, &after, strategy) {
            Ok(verdict) => serde_json::to_value(verdict).expect("verdicts serialise"),
            Err(error) => {
                failures.push(format!("{name} ({strategy}): error {error}"));
                continue;
            }
        };
        let (got, want) = (normalise(&got, keep_reason), normalise(want, keep_reason));
        if got != want {
            failures.push(format!(
                "{name} ({strategy}):\n  expected {want}\n  got      {got}"
            ));
        }
    }
    for (side, schema) in [("before", &before), ("after", &after)] {
        match compare_json_schema(schema, schema, Strategy::Full) {
            Ok(verdict) if verdict.ops.is_empty() => {}
            Ok(verdict) => failures.push(format!(
                "{name}: {side} vs itself gave ops {:?}",
                verdict.ops
            )),
            Err(error) => failures.push(format!("{name}: {side} vs itself failed: {error}")),
        }
    }
    failures
}

#[test]
fn every_case_folder_matches_its_expected_verdicts() {
    let folders = case_folders();
    assert!(folders.len() >= 100, "only {} case folders", folders.len());
    let failures: Vec<String> = folders
        .iter()
        .flat_map(|folder| check_case(folder))
        .collect();
    assert!(
        failures.is_empty(),
        "{} failure(s) in {} cases:\n{}",
        failures.len(),
        folders.len(),
        failures.join("\n")
    );
}

#[test]
fn every_rule_kind_has_a_case_under_every_strategy() {
    let mut seen = HashSet::new();
    for folder in case_folders() {
        let expected = read(&folder.join("expected.json"));
        for strategy in Strategy::ALL {
            for op in expected[strategy.as_str()]["ops"]
                .as_array()
                .into_iter()
                .flatten()
            {
                seen.insert((op["kind"].as_str().unwrap_or_default().to_owned(), strategy));
            }
        }
    }
    for kind in ChangeKind::ALL {
        for strategy in Strategy::ALL {
            assert!(
                seen.contains(&(kind.id().to_owned(), strategy)),
                "no case for {} under {strategy}",
                kind.id()
            );
        }
    }
}

/// The `schema` subcommand end to end: exit codes, the exact JSON shape, and errors.
mod cli {
    use std::path::Path;
    use std::process::{Command, Output};

    fn run(args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_catalog-diff"))
            .arg("schema")
            .args(args)
            .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/json-schema"))
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
            "      \"op\": \"remove\",\n",
            "      \"path\": \"/properties/customerId\",\n",
            "      \"kind\": \"required.removed\",\n",
            "      \"reason\": \"`customerId` is no longer required: new messages may omit it, old readers insist on it\",\n",
            "      \"breaking\": false\n",
            "    }\n",
            "  ]\n",
            "}\n"
        );
        assert_eq!(String::from_utf8_lossy(&output.stdout), expected);
    }

    #[test]
    fn not_a_schema_is_exit_2_naming_the_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let payload = dir.path().join("payload.json");
        std::fs::write(&payload, r#"{"orderId": "ord_1"}"#).expect("write");
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
