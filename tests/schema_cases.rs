//! Data-driven schema cases for every format: `testdata/<format>/<kind>/<case>/` holds
//! `before.*`, `after.*` and `expected.json` (the verdict under each of backward, forward, full and
//! none; a format with rule sets, such as Protobuf's categories, nests the strategies under each
//! rule set's name). `<kind>` is the id of a row of the format's rules table, or `unchanged`. The
//! runner finds every folder itself, so adding a case means adding a folder; it fails when a
//! folder names a kind the table does not have, and when a row has no folder. Expected ops leave
//! out `reason`, which is prose; when an expected op does carry a `reason`, it is compared too.
//! Ops are compared in order, verb and all: the JSON Schema expectations are the reference's
//! (`@eventcatalog/diff` 0.1.0) op lists, recorded with `generate.py --oracle` and
//! `reference_suite.py` (the `reference-*` folders are the reference's own test suite, one folder
//! per test), so a wrong verb, a missing `property.*` / `required.*` companion, an op at the wrong
//! `$ref` position or one out of order fails here. As free checks, each side compared with itself
//! must give no ops at all.

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

use catalog_diff::schema::{Document, Format, Strategy};
use serde_json::Value;

fn format_root(format: Format) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(format.id())
}

fn sorted_dirs(folder: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = fs::read_dir(folder)
        .unwrap_or_else(|error| panic!("{}: {error}", folder.display()))
        .map(|entry| entry.expect("readable entry").path())
        .filter(|path| path.is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// Every case folder of a format, with the kind folder it sits in.
fn case_folders(format: Format) -> Vec<(String, PathBuf)> {
    sorted_dirs(&format_root(format))
        .into_iter()
        .flat_map(|kind_dir| {
            let kind = name_of(&kind_dir);
            sorted_dirs(&kind_dir)
                .into_iter()
                .map(move |case| (kind.clone(), case))
        })
        .collect()
}

fn name_of(path: &Path) -> String {
    path.file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The one file of a case folder whose name starts with `stem.`.
fn side(folder: &Path, stem: &str) -> (String, String) {
    let file = fs::read_dir(folder)
        .expect("case folder is readable")
        .map(|entry| entry.expect("readable entry").path())
        .find(|path| name_of(path).starts_with(&format!("{stem}.")))
        .unwrap_or_else(|| panic!("{} has no {stem}.* file", folder.display()));
    let text =
        fs::read_to_string(&file).unwrap_or_else(|error| panic!("{}: {error}", file.display()));
    (name_of(&file), text)
}

fn read(path: &Path) -> Value {
    let text =
        fs::read_to_string(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// Drop `reason` where the expectation does not state one (ops keep their order).
fn normalise(verdict: &Value, keep_reason: bool) -> Value {
    let mut verdict = verdict.clone();
    if let Some(ops) = verdict.get_mut("ops").and_then(Value::as_array_mut)
        && !keep_reason
    {
        for op in ops.iter_mut() {
            if let Some(op) = op.as_object_mut() {
                op.remove("reason");
            }
        }
    }
    verdict
}

fn check_case(format: Format, folder: &Path) -> Vec<String> {
    let name = format!("{}/{}", format.id(), name_of(folder));
    let (before_name, before_text) = side(folder, "before");
    let (after_name, after_text) = side(folder, "after");
    let before = Document {
        path: &before_name,
        text: &before_text,
    };
    let after = Document {
        path: &after_name,
        text: &after_text,
    };
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
        let got = match format.compare(before, after, strategy) {
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
    for (label, document) in [("before", before), ("after", after)] {
        match format.compare(document, document, Strategy::Full) {
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
        for (_, folder) in case_folders(format) {
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
        let folders: HashSet<String> = sorted_dirs(&format_root(format))
            .iter()
            .map(|dir| name_of(dir))
            .collect();
        for folder in &folders {
            assert!(
                folder == "unchanged" || ids.contains(folder.as_str()),
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
        for (kind, folder) in case_folders(format) {
            let expected = fs::read_to_string(folder.join("expected.json")).expect("readable");
            let found = kind == "unchanged" || expected.contains(&format!("\"kind\": \"{kind}\""));
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

/// The README's rules tables are rendered from the rules data; this keeps them equal. On a
/// failure, paste the printed table between the format's markers.
#[test]
fn readme_rules_tables_are_the_data() {
    let readme = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md is readable");
    for format in Format::ALL {
        let start = format!("<!-- rules:{} -->\n", format.id());
        let end = format!("<!-- /rules:{} -->", format.id());
        let table = catalog_diff::schema::verdict::markdown_table(format.rules());
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
