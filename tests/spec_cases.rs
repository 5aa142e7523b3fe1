//! Data-driven specification cases: `testdata/<spec>/<kind>/<case>/` (`<spec>` is `asyncapi` or
//! `openapi`) holds `before.*`, `after.*`, any files their relative `$ref`s name, and
//! `expected.json`: the verdict under each of backward, forward, full and none, recorded by
//! hand from the specifications and the rules tables. `<kind>` is the id of a row of the
//! specification's table, of a schema format's table (a body or payload change, judged in its
//! role by the engine of its format), `unknown` (a verdict that cannot be given) or `unchanged`. Expected ops leave out
//! `reason`; `unknown`, when present, lists the paths of the parts that could not be judged.
//!
//! Like the schema runner, it finds every folder itself, fails on a folder that names no rule
//! and on a rule without a folder, wants each rule of a table covered in both versions of its
//! language (AsyncAPI 2.x and 3.x, OpenAPI 3.0 and 3.1) unless the rule is about 3.x only, and
//! checks that each side compared with itself gives nothing. Add a case by adding a folder.

#[path = "support/cases.rs"]
mod cases;

use std::collections::{BTreeSet, HashSet};
use std::fs;
use std::path::Path;

use catalog_diff::schema::{Format, Strategy};
use catalog_diff::spec::{self, Kind, Source, Spec};
use serde_json::Value;

fn compare(
    folder: &Path,
    before: (&str, &str),
    after: (&str, &str),
    strategy: Strategy,
) -> Result<spec::Verdict, spec::Error> {
    let load = |path: &str| {
        fs::read_to_string(folder.join(path)).map_err(|e| format!("cannot read `{path}`: {e}"))
    };
    spec::compare(
        Source {
            path: before.0,
            text: before.1,
            load: &load,
        },
        Source {
            path: after.0,
            text: after.1,
            load: &load,
        },
        strategy,
        &Default::default(),
    )
}

/// The comparable part of a verdict: breaking, direction, ops as a sorted list without
/// reasons, and the unknown paths.
fn normalise(verdict: &Value) -> (Value, Value, Vec<String>, Vec<String>) {
    let mut ops: Vec<String> = verdict["ops"]
        .as_array()
        .map(|ops| {
            ops.iter()
                .map(|op| {
                    let mut op = op.clone();
                    if let Some(map) = op.as_object_mut() {
                        map.remove("reason");
                    }
                    op.to_string()
                })
                .collect()
        })
        .unwrap_or_default();
    ops.sort();
    let mut unknown: Vec<String> = verdict["unknown"]
        .as_array()
        .map(|list| {
            list.iter()
                .map(|u| {
                    u.get("path")
                        .unwrap_or(u)
                        .as_str()
                        .unwrap_or_default()
                        .to_owned()
                })
                .collect()
        })
        .unwrap_or_default();
    unknown.sort();
    (
        verdict["breaking"].clone(),
        verdict["direction"].clone(),
        ops,
        unknown,
    )
}

fn check(spec: Spec, folder: &Path) -> (Vec<String>, Option<Kind>) {
    let label = format!("{}/{}", spec.id(), cases::name(folder));
    let (before_name, before_text) = cases::side(folder, "before");
    let (after_name, after_text) = cases::side(folder, "after");
    let expected: Value = serde_json::from_str(
        &fs::read_to_string(folder.join("expected.json")).expect("expected.json"),
    )
    .expect("valid expected.json");
    let mut failures = Vec::new();
    let mut kind = None;
    for strategy in Strategy::ALL {
        let want = &expected[strategy.as_str()];
        let got = match compare(
            folder,
            (&before_name, &before_text),
            (&after_name, &after_text),
            strategy,
        ) {
            Ok(verdict) => {
                kind = verdict.kind;
                if verdict.breaking.is_none() && verdict.unknown_reason.is_none() {
                    failures.push(format!("{label} ({strategy}): no verdict and no reason"));
                }
                serde_json::to_value(&verdict).expect("verdicts serialise")
            }
            Err(error) => {
                failures.push(format!("{label} ({strategy}): error {error}"));
                continue;
            }
        };
        if normalise(&got) != normalise(want) {
            failures.push(format!(
                "{label} ({strategy}):\n  expected {:?}\n  got      {:?}",
                normalise(want),
                normalise(&got)
            ));
        }
    }
    for (which, file, text) in [
        ("before", &before_name, &before_text),
        ("after", &after_name, &after_text),
    ] {
        match compare(folder, (file, text), (file, text), Strategy::Full) {
            Ok(verdict) if verdict.ops.is_empty() => {}
            Ok(verdict) => {
                failures.push(format!("{label}: {which} vs itself gave {:?}", verdict.ops))
            }
            Err(error) => failures.push(format!("{label}: {which} vs itself failed: {error}")),
        }
    }
    (failures, kind)
}

/// AsyncAPI documents of thousands of channels and operations, the first payload's type
/// changed: each channel and operation was looked up among all the others (more than a minute
/// for 8,000 in a debug build).
#[test]
fn thousands_of_channels_are_judged() {
    const COUNT: usize = 5_000;
    let v2 = |ty: &str| {
        let channels: Vec<String> = (0..COUNT)
            .map(|i| {
                let ty = if i == 0 { ty } else { "string" };
                format!(r#""c{i}/{{id}}": {{"subscribe": {{"message": {{"payload": {{"type": "{ty}"}}}}}}}}"#)
            })
            .collect();
        format!(
            r#"{{"asyncapi": "2.6.0", "info": {{"title": "t", "version": "1"}}, "channels": {{{}}}}}"#,
            channels.join(",")
        )
    };
    let v3 = |ty: &str| {
        let channels: Vec<String> = (0..COUNT)
            .map(|i| {
                let ty = if i == 0 { ty } else { "string" };
                format!(r#""c{i}": {{"address": "c{i}/{{id}}", "messages": {{"m": {{"payload": {{"type": "{ty}"}}}}}}}}"#)
            })
            .collect();
        let operations: Vec<String> = (0..COUNT)
            .map(|i| {
                format!(r##""o{i}": {{"action": "send", "channel": {{"$ref": "#/channels/c{i}"}}, "messages": [{{"$ref": "#/channels/c{i}/messages/m"}}]}}"##)
            })
            .collect();
        format!(
            r#"{{"asyncapi": "3.0.0", "info": {{"title": "t", "version": "1"}}, "channels": {{{}}}, "operations": {{{}}}}}"#,
            channels.join(","),
            operations.join(",")
        )
    };
    for document in [v2, v3] {
        assert_first_payload_break(document);
    }
}

/// `document` with its first payload a string, then an integer: a break, judged.
fn assert_first_payload_break(document: impl Fn(&str) -> String) {
    let (before, after) = (document("string"), document("integer"));
    let verdict = compare(
        Path::new("."),
        ("before.json", &before),
        ("after.json", &after),
        Strategy::Full,
    )
    .expect("judged");
    assert_eq!(verdict.breaking, Some(true));
}

/// An AsyncAPI 3.x channel of thousands of messages, all sent by one operation: each message
/// was looked up in a list of the channel's messages made anew for it (more than a minute for
/// 10,000 in a debug build).
#[test]
fn thousands_of_messages_in_a_channel_are_judged() {
    const COUNT: usize = 10_000;
    let document = |ty: &str| {
        let messages: Vec<String> = (0..COUNT)
            .map(|i| {
                let ty = if i == 0 { ty } else { "string" };
                format!(r#""m{i}": {{"payload": {{"type": "{ty}"}}}}"#)
            })
            .collect();
        let refs: Vec<String> = (0..COUNT)
            .map(|i| format!(r##"{{"$ref": "#/channels/c/messages/m{i}"}}"##))
            .collect();
        format!(
            r##"{{"asyncapi": "3.0.0", "info": {{"title": "t", "version": "1"}}, "channels": {{"c": {{"address": "c", "messages": {{{}}}}}}}, "operations": {{"o": {{"action": "send", "channel": {{"$ref": "#/channels/c"}}, "messages": [{}]}}}}}}"##,
            messages.join(","),
            refs.join(",")
        )
    };
    assert_first_payload_break(document);
}

#[test]
fn every_case_folder_matches_its_expected_verdicts() {
    let mut failures = Vec::new();
    let mut count = 0;
    for spec in Spec::ALL {
        for (_, folder) in cases::all(&cases::root(spec.id())) {
            count += 1;
            failures.extend(check(spec, &folder).0);
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

/// Folder names a case may sit in besides the specification's own rules: the rules of the
/// schema formats that judge bodies and payloads.
fn schema_ids() -> HashSet<&'static str> {
    Format::ALL
        .iter()
        .flat_map(|format| format.rules().iter().map(|r| r.id))
        .collect()
}

#[test]
fn kind_folders_and_rules_tables_agree() {
    for spec in Spec::ALL {
        let ids: HashSet<&str> = spec.rules().iter().map(|r| r.id).collect();
        let folders: HashSet<String> = cases::dirs(&cases::root(spec.id()))
            .iter()
            .map(|d| cases::name(d))
            .collect();
        for folder in &folders {
            assert!(
                ["unchanged", "unknown"].contains(&folder.as_str())
                    || ids.contains(folder.as_str())
                    || schema_ids().contains(folder.as_str()),
                "testdata/{}/{folder} names no rule of the {spec} or JSON Schema tables",
                spec.id()
            );
        }
        for id in ids {
            assert!(
                folders.contains(id),
                "the {spec} rule {id} has no folder testdata/{}/{id}",
                spec.id()
            );
        }
    }
}

#[test]
fn every_rule_is_covered_in_both_versions() {
    for spec in Spec::ALL {
        for rule in spec.rules() {
            let versions: BTreeSet<&str> = cases::dirs(&cases::root(spec.id()).join(rule.id))
                .iter()
                .filter_map(|case| check(spec, case).1)
                .map(Kind::name)
                .collect();
            let wanted: BTreeSet<&str> = match spec {
                Spec::AsyncApi if rule.change.contains("(3.x)") => ["AsyncAPI 3.x"].into(),
                Spec::AsyncApi => ["AsyncAPI 2.x", "AsyncAPI 3.x"].into(),
                Spec::OpenApi => ["OpenAPI 3.0", "OpenAPI 3.1"].into(),
            };
            assert_eq!(versions, wanted, "{spec} rule {}", rule.id);
        }
    }
}

#[test]
fn every_case_sits_in_the_folder_of_one_of_its_kinds() {
    for spec in Spec::ALL {
        for (kind, folder) in cases::all(&cases::root(spec.id())) {
            let expected = fs::read_to_string(folder.join("expected.json")).expect("readable");
            let found = kind == "unchanged"
                || (kind == "unknown" && expected.contains("\"breaking\": null"))
                || expected.contains(&format!("\"kind\": \"{kind}\""));
            assert!(found, "{} has no op of kind {kind}", folder.display());
        }
    }
}

/// The README's specification tables are rendered from the data; on a failure, paste the
/// printed table between the markers.
#[test]
fn readme_tables_are_the_data() {
    let readme = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md is readable");
    let mut tables: Vec<(String, String)> = Spec::ALL
        .iter()
        .map(|spec| {
            (
                spec.id().to_owned(),
                catalog_diff::schema::verdict::markdown_table(spec.rules()),
            )
        })
        .collect();
    tables.push((
        "openapi-service-calls".to_owned(),
        catalog_diff::schema::verdict::markdown_table(&spec::rules::OPENAPI_SERVICE_CALLS),
    ));
    tables.push(("roles".to_owned(), spec::rules::markdown_roles()));
    for (id, table) in tables {
        let start = format!("<!-- rules:{id} -->\n");
        let end = format!("<!-- /rules:{id} -->");
        let found = readme
            .split_once(&start)
            .and_then(|(_, rest)| rest.split_once(&end))
            .map(|(inside, _)| inside);
        assert_eq!(
            found,
            Some(table.as_str()),
            "README.md must hold the {id} table between `{}` and `{end}`:\n{table}",
            start.trim_end()
        );
    }
}
