//! Policy (issue #18) on scripted repositories: the configuration file and its per-message
//! strategies, transitive strategies, fingerprints, acknowledged breaks, SARIF.

use std::process::Output;

use crate::support::TestRepo;
use crate::{json, run};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The errors of a run that could not go on (exit 2).
fn refused(repo: &TestRepo, args: &[&str]) -> String {
    let out = run(repo, args);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    text(&out.stderr)
}

fn event(id: &str, version: &str) -> String {
    format!("---\nid: {id}\nversion: {version}\nschemaPath: schema.json\n---\n")
}

const REQUIRED_ID: &str =
    r#"{"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}"#;
const OPTIONAL_ID: &str = r#"{"type": "object", "properties": {"id": {"type": "string"}}}"#;

/// Two events with a required `id`, each consumed by a service; `main` holds them.
fn two_events() -> TestRepo {
    let repo = TestRepo::new();
    repo.write_all(&[
        ("events/OrderCreated/index.mdx", &event("OrderCreated", "1.0.0")),
        ("events/OrderCreated/schema.json", REQUIRED_ID),
        ("events/OrderPaid/index.mdx", &event("OrderPaid", "1.0.0")),
        ("events/OrderPaid/schema.json", REQUIRED_ID),
        (
            "services/Billing/index.mdx",
            "---\nid: Billing\nversion: 1.0.0\nreceives:\n  - id: OrderCreated\n  - id: OrderPaid\n---\n",
        ),
    ]);
    repo.commit_all("two events");
    repo
}

/// Both events lose their required `id` (forward-breaking) on the working tree.
fn loosen_both(repo: &TestRepo) {
    repo.write("events/OrderCreated/schema.json", OPTIONAL_ID);
    repo.write("events/OrderPaid/schema.json", OPTIONAL_ID);
}

#[test]
fn a_per_message_strategy_passes_one_message_while_another_still_fails() {
    let repo = two_events();
    loosen_both(&repo);
    repo.write(
        "catalog-diff.toml",
        "# consumers of OrderCreated upgrade first\n[messages.\"OrderCreated\"]\nstrategy = \"backward\"\n",
    );
    let out = run(&repo, &["--format", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let doc = json(&out);
    let changes = doc["schemaChanges"].as_array().expect("changes");
    let by_id = |id: &str| {
        changes
            .iter()
            .find(|c| c["message"]["id"] == id)
            .unwrap_or_else(|| panic!("{id}"))
    };
    assert_eq!(by_id("OrderCreated")["strategy"], "backward");
    assert_eq!(by_id("OrderCreated")["breaking"], false);
    assert_eq!(by_id("OrderPaid")["strategy"], "full");
    assert_eq!(by_id("OrderPaid")["breaking"], true);
    // A flag wins over the file.
    let out = run(&repo, &["--fail-on", "never"]);
    assert_eq!(out.status.code(), Some(0));
    // `--strategy` sets the default; the message's own strategy stays, and both are said.
    let out = run(&repo, &["--strategy", "forward"]);
    assert_eq!(out.status.code(), Some(1));
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(
        stdout.contains("ok event OrderCreated 1.0.0 [strategy backward]"),
        "{stdout}"
    );
    assert!(stdout.contains("[strategy forward]"), "{stdout}");
    assert!(
        stderr.contains("note: --strategy forward sets the default")
            && stderr.contains("`OrderCreated` (backward, catalog-diff.toml:2)"),
        "{stderr}"
    );
}

#[test]
fn a_per_message_strategy_for_no_message_is_an_error_naming_its_line() {
    let repo = two_events();
    loosen_both(&repo);
    repo.write(
        "catalog-diff.toml",
        "[messages.\"OrderCreated\"]\nstrategy = \"backward\"\n\n[messages.\"OrderCreatd\"]\nstrategy = \"backward\"\n\n[messages.Billing]\nstrategy = \"none\"\n",
    );
    let worktree = run(&repo, &[]);
    repo.git(&["add", "-A"]);
    // The second staged run is warm: it diffs the change's reach only.
    let staged = [run(&repo, &["--staged"]), run(&repo, &["--staged"])];
    repo.commit("a typo");
    let log = run(&repo, &["log"]);
    for out in [&worktree, &staged[0], &staged[1], &log] {
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains("catalog-diff.toml:4: [messages.\"OrderCreatd\"]: `OrderCreatd` is the id of no event, command or query in the catalog; did you mean `OrderCreated`?"),
            "{stderr}"
        );
        assert!(
            stderr.contains("catalog-diff.toml:7: [messages.\"Billing\"]: `Billing` is a service, not an event, command or query"),
            "{stderr}"
        );
        assert!(
            !stderr.contains(":1:"),
            "the id that names a message passes: {stderr}"
        );
    }
    // A message only the baseline has (removed on the candidate) is still a message.
    repo.write(
        "catalog-diff.toml",
        "[messages.OrderPaid]\nstrategy = \"none\"\n",
    );
    repo.remove("events/OrderPaid/index.mdx");
    let out = run(&repo, &[]);
    assert_ne!(out.status.code(), Some(2), "{}", text(&out.stderr));
}

/// A repository with event E at 1.0.0 and 2.0.0 (versioned, schemas without a required `id`)
/// and 3.0.0 with schema `latest`, committed.
fn three_versions(latest: &str) -> TestRepo {
    let repo = TestRepo::new();
    repo.write_all(&[
        ("events/E/versioned/1.0.0/index.mdx", &event("E", "1.0.0")),
        ("events/E/versioned/1.0.0/schema.json", OPTIONAL_ID),
        ("events/E/versioned/2.0.0/index.mdx", &event("E", "2.0.0")),
        ("events/E/versioned/2.0.0/schema.json", OPTIONAL_ID),
        ("events/E/index.mdx", &event("E", "3.0.0")),
        ("events/E/schema.json", latest),
    ]);
    repo.commit_all("three versions");
    repo
}

#[test]
fn a_transitive_check_fails_against_a_version_two_releases_back() {
    let repo = three_versions(REQUIRED_ID);
    repo.write(
        "events/E/schema.json",
        r#"{"type": "object", "properties": {"id": {"type": "string"}, "note": {"type": "string"}}, "required": ["id"]}"#,
    );
    repo.commit_all("a note");
    let plain = run(&repo, &["HEAD~1..HEAD", "--strategy", "backward"]);
    assert_eq!(plain.status.code(), Some(0), "{}", text(&plain.stdout));
    let out = run(
        repo.path(),
        &[
            "HEAD~1..HEAD",
            "--strategy",
            "backward-transitive",
            "--format",
            "json",
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let doc = json(&out);
    assert_eq!(doc["compatibility"]["strategy"], "backward-transitive");
    assert_eq!(
        doc["summary"]["breaking"], false,
        "v1 keys keep their meaning"
    );
    let against: Vec<&str> = doc["transitiveChecks"]
        .as_array()
        .expect("checks")
        .iter()
        .filter(|c| c["breaking"] == true)
        .map(|c| c["message"]["version"]["a"].as_str().expect("a version"))
        .collect();
    assert_eq!(
        against,
        ["2.0.0", "1.0.0"],
        "newest first, as the Index orders versions"
    );
    let stdout = text(
        &run(
            repo.path(),
            &["HEAD~1..HEAD", "--strategy", "backward-transitive"],
        )
        .stdout,
    );
    assert!(stdout.contains("(backward, against 1.0.0)"), "{stdout}");
    // --history also finds the schema the file had in earlier commits.
    let out = run(
        repo.path(),
        &[
            "HEAD~1..HEAD",
            "--strategy",
            "backward-transitive",
            "--history",
            "--format",
            "json",
        ],
    );
    let doc = json(&out);
    assert!(
        doc["transitiveChecks"]
            .as_array()
            .expect("checks")
            .iter()
            .all(|c| c.get("againstCommit").is_none())
    );
    // Without a transitive strategy, --history would change nothing: a mistake, said so.
    let stderr = refused(
        &repo,
        &["HEAD~1..HEAD", "--strategy", "backward", "--history"],
    );
    assert!(
        stderr.contains("--history") && stderr.contains("`backward`"),
        "{stderr}"
    );
}

/// Versions that are not semver (`9` and `10`, `1.9` and `1.10`) are ordered as the newest is
/// picked (semver, then coerced): the older one is judged, never left out as if it came after
/// the newest because `"9" > "10"` as text.
#[test]
fn a_transitive_check_orders_versions_that_are_not_semver_as_numbers() {
    for (old, new) in [("'9'", "'10'"), ("'1.9'", "'1.10'")] {
        let repo = TestRepo::new();
        repo.write_all(&[
            ("events/E/versioned/old/index.mdx", &event("E", old)),
            ("events/E/versioned/old/schema.json", OPTIONAL_ID),
            ("events/E/index.mdx", &event("E", new)),
            ("events/E/schema.json", OPTIONAL_ID),
        ]);
        repo.commit_all("two versions");
        repo.write("events/E/schema.json", REQUIRED_ID);
        repo.commit_all("id required");
        let args = ["HEAD~1..HEAD", "--strategy", "backward-transitive"];
        let out = run(&repo, &[&args[..], &["--format", "json"]].concat());
        assert_eq!(out.status.code(), Some(1), "{old} -> {new}");
        let doc = json(&out);
        let checks = doc["transitiveChecks"].as_array().expect("checks");
        assert_eq!(checks.len(), 1, "{old} -> {new}: {checks:?}");
        assert_eq!(checks[0]["breaking"], true);
    }
}

/// An older version edited in place is judged against the versions before it, as the latest
/// is: a transitive strategy holds for every version the catalog keeps.
#[test]
fn a_transitive_check_judges_an_older_version_edited_in_place() {
    let repo = three_versions(OPTIONAL_ID);
    repo.write("events/E/versioned/2.0.0/schema.json", REQUIRED_ID);
    repo.commit_all("2.0.0 patched");
    let args = ["HEAD~1..HEAD", "--strategy", "backward-transitive"];
    let out = run(&repo, &[&args[..], &["--format", "json"]].concat());
    assert_eq!(out.status.code(), Some(1));
    let doc = json(&out);
    let checks = doc["transitiveChecks"].as_array().expect("checks");
    assert_eq!(checks.len(), 1, "{checks:?}");
    assert_eq!(checks[0]["message"]["version"]["a"], "1.0.0");
    assert_eq!(checks[0]["message"]["version"]["b"], "2.0.0");
    assert_eq!(checks[0]["breaking"], true);
}

fn fingerprints(out: &Output) -> Vec<String> {
    let doc = json(out);
    doc["policy"]["breaks"]
        .as_array()
        .map(|breaks| {
            breaks
                .iter()
                .map(|b| b["fingerprint"].as_str().expect("a fingerprint").to_owned())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn fingerprints_survive_unrelated_lines_and_new_commits_and_acks_hold_until_they_expire() {
    let repo = two_events();
    repo.write("catalog-diff.toml", "fail-on = \"breaking\"\n");
    repo.commit_all("a configuration");
    repo.write("events/OrderPaid/schema.json", OPTIONAL_ID);
    let first = fingerprints(&run(&repo, &["--format", "json"]));
    assert_eq!(first.len(), 1, "one breaking op");
    // Unrelated lines above the changed property, in another commit: the same fingerprint.
    repo.commit_all("OrderPaid id optional");
    repo.write(
        "events/OrderPaid/schema.json",
        "{\n  \"title\": \"Paid\",\n  \"description\": \"an order was paid\",\n  \"type\": \"object\",\n  \"properties\": {\"id\": {\"type\": \"string\"}}\n}\n",
    );
    repo.commit_all("documented");
    let later = fingerprints(&run(&repo, &["HEAD~2..HEAD", "--format", "json"]));
    assert_eq!(first, later);

    // Acknowledged: exit 0 and said so; expired: exit 1 again, and said so.
    let fingerprint = &first[0];
    let out = run(
        repo.path(),
        &[
            "ack",
            fingerprint,
            "--reason",
            "consumers migrated",
            "--owner",
            "billing",
            "--expires",
            "2999-01-01",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = run(&repo, &["HEAD~2"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains(&format!(
        "fingerprint {fingerprint} (acknowledged by billing until 2999-01-01: consumers migrated)"
    )));
    let acks = std::fs::read_to_string(repo.path().join("catalog-diff.ack.toml")).expect("written");
    std::fs::write(
        repo.path().join("catalog-diff.ack.toml"),
        acks.replace("2999-01-01", "2001-01-01"),
    )
    .expect("write");
    let out = run(&repo, &["HEAD~2"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("acknowledgement EXPIRED by billing until 2001-01-01"));
}

/// An acknowledgement's reason is text from the repository: escaped in SARIF as in every report,
/// and where `ack` repeats it.
#[test]
fn an_acknowledgement_reason_cannot_forge_output() {
    let repo = two_events();
    // A configuration makes the JSON document carry the policy, with the fingerprints.
    repo.write("catalog-diff.toml", "fail-on = \"breaking\"\n");
    repo.commit_all("a configuration");
    repo.write("events/OrderPaid/schema.json", OPTIONAL_ID);
    let fingerprint = fingerprints(&run(&repo, &["--format", "json"])).remove(0);
    repo.write(
        "catalog-diff.ack.toml",
        &format!(
            "[[ack]]\nfingerprint = \"{fingerprint}\"\nreason = \"ok\\u001b[2J\\nINJECTED\"\n"
        ),
    );
    let out = run(&repo, &["--format", "sarif"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let sarif = json(&out);
    let justification = &sarif["runs"][0]["results"][0]["suppressions"][0]["justification"];
    assert_eq!(justification, "ok\\u{1b}[2J\\u{a}INJECTED", "{sarif}");
    let stderr = refused(&repo, &["ack", &fingerprint, "--reason", "again"]);
    assert!(stderr.contains("(ok\\u{1b}[2J\\u{a}INJECTED)"), "{stderr}");
}

/// Among many breaks of one change, each report line names its own break's state: the
/// acknowledged one says so, and no other does.
#[test]
fn one_acknowledged_break_among_many_is_told_apart() {
    let repo = two_events();
    repo.write("catalog-diff.toml", "fail-on = \"breaking\"\n");
    let properties = |ty: &str| {
        (0..40)
            .map(|n| format!("\"p{n}\": {{\"type\": \"{ty}\"}}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let schema = |ty: &str| {
        format!(
            "{{\"type\": \"object\", \"properties\": {{{}}}}}",
            properties(ty)
        )
    };
    repo.write("events/OrderPaid/schema.json", &schema("string"));
    repo.commit_all("forty properties");
    repo.write("events/OrderPaid/schema.json", &schema("integer"));
    let breaks = fingerprints(&run(&repo, &["--format", "json"]));
    assert_eq!(breaks.len(), 40, "one break per changed property");
    let acknowledged = &breaks[17];
    let out = run(
        repo.path(),
        &[
            "ack",
            acknowledged,
            "--reason",
            "migrated",
            "--owner",
            "billing",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = run(&repo, &[]);
    assert_eq!(out.status.code(), Some(1), "39 breaks are still open");
    let stdout = text(&out.stdout);
    for fingerprint in &breaks {
        let note = format!("fingerprint {fingerprint} (acknowledged by billing: migrated)");
        assert_eq!(
            stdout.contains(&note),
            fingerprint == acknowledged,
            "{fingerprint}: {stdout}"
        );
        assert!(
            stdout.contains(&format!("fingerprint {fingerprint}")),
            "{stdout}"
        );
    }
    // A pull-request comment shows each fingerprint, and the acknowledgement beside its own.
    let out = run(&repo, &["--format", "markdown"]);
    let comment = text(&out.stdout);
    let shown: Vec<&str> = comment
        .lines()
        .filter(|line| line.contains("(acknowledged by billing: migrated; fingerprint `"))
        .collect();
    assert_eq!(shown.len(), 1, "{comment}");
    assert!(shown[0].contains(acknowledged.as_str()), "{comment}");
    for fingerprint in &breaks {
        assert!(comment.contains(&format!("`{fingerprint}`)")), "{comment}");
    }
    assert!(
        comment.contains("policy: 1 break\\(s\\) acknowledged, 39 open"),
        "{comment}"
    );
    assert!(comment.starts_with("### catalog-diff: :x:"), "{comment}");
    // Exit codes turned off do not acknowledge anything.
    let out = run(&repo, &["--format", "markdown", "--fail-on", "never"]);
    assert!(
        text(&out.stdout).starts_with("### catalog-diff: :x:"),
        "{}",
        text(&out.stdout)
    );
}

/// `--history` judges against every version a schema had; a shallow clone lacks the older
/// ones, and says so instead of judging against what is left.
#[test]
fn history_in_a_shallow_clone_is_an_error_not_a_shorter_history() {
    let repo = two_events();
    repo.write(
        "events/OrderPaid/schema.json",
        r#"{"type": "object", "properties": {"q": {"type": "string"}}}"#,
    );
    repo.commit_all("q is a string");
    repo.write("events/OrderPaid/schema.json", r#"{"type": "object"}"#);
    repo.commit_all("q dropped");
    let args = [
        "--strategy",
        "backward-transitive",
        "--history",
        "--fail-on",
        "unknown",
    ];
    let retyped = r#"{"type": "object", "properties": {"q": {"type": "integer"}}}"#;
    repo.write("events/OrderPaid/schema.json", retyped);
    let out = run(repo.path(), &args);
    assert_eq!(
        out.status.code(),
        Some(1),
        "q was a string two commits back"
    );
    let shallow = repo.clone_with(&["--depth", "1", "--no-local"]);
    shallow.write("events/OrderPaid/schema.json", retyped);
    let out = run(shallow.path(), &args);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("the edge of a shallow clone") && stderr.contains("git fetch --unshallow"),
        "{stderr}"
    );
}

#[test]
fn malformed_policy_files_name_the_line() {
    let repo = two_events();
    repo.write(
        "catalog-diff.toml",
        "strategy = \"full\"\n\nfail_on = \"breaking\"\n",
    );
    let out = run(&repo, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("catalog-diff.toml:3:"),
        "{}",
        text(&out.stderr)
    );
    repo.write("catalog-diff.toml", "strategy = \"sideways\"\n");
    let out = run(&repo, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("catalog-diff.toml:1:"),
        "{}",
        text(&out.stderr)
    );
    repo.remove("catalog-diff.toml");
    repo.write(
        "catalog-diff.ack.toml",
        "[[ack]]\nfingerprint = \"0123456789abcdef01234567\"\nreason = \"r\"\n\n[[ack]]\nfingerprint = \"short\"\nreason = \"r\"\n",
    );
    let out = run(&repo, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("catalog-diff.ack.toml:6:"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&repo, &["ack", "zz", "--reason", "r"]);
    assert_eq!(out.status.code(), Some(2));
    // An acknowledgement born expired would hold for no day at all.
    let fingerprint = "00112233445566778899aabb";
    let args = [
        "ack",
        fingerprint,
        "--reason",
        "r",
        "--expires",
        "2001-02-03",
    ];
    let stderr = refused(&repo, &args);
    assert!(stderr.contains("2001-02-03 is in the past"), "{stderr}");
    assert!(
        !std::fs::read_to_string(repo.path().join("catalog-diff.ack.toml"))
            .unwrap_or_default()
            .contains(fingerprint)
    );

    // Every problem of both files in one run, each on its own `error:` line.
    repo.write(
        "catalog-diff.toml",
        "strategy = \"sideways\"\nfail_on = \"breaking\"\n[messages.E]\nstrategy = \"up\"\n",
    );
    let stderr = refused(&repo, &[]);
    for place in [
        "error: catalog-diff.toml:1:",
        "error: catalog-diff.toml:2:",
        "error: catalog-diff.toml:4:",
        "error: catalog-diff.ack.toml:6:",
    ] {
        assert!(stderr.contains(place), "{place}: {stderr}");
    }

    // A message id that names no message is checked against the catalog, and named beside
    // the other problems, in the diff and in `log`.
    repo.remove("catalog-diff.ack.toml");
    repo.write(
        "catalog-diff.toml",
        "strategy = \"full\"\nfoo = 1\n[messages.\"OrderPayd\"]\nstrategy = \"none\"\n",
    );
    repo.commit_all("a configuration with two mistakes");
    for args in [&[][..], &["log"]] {
        let stderr = refused(&repo, args);
        assert!(
            stderr.contains("error: catalog-diff.toml:2: unknown field `foo`")
                && stderr.contains("catalog-diff.toml:3: [messages.\"OrderPayd\"]")
                && stderr.contains("OrderPaid"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn the_configuration_is_read_from_the_candidate_revision_and_log_honours_it() {
    let repo = two_events();
    loosen_both(&repo);
    repo.write("catalog-diff.toml", "strategy = \"backward\"\n");
    repo.commit_all("loosen, and a backward policy");
    // The candidate commit's file holds: backward passes a loosened `required`.
    assert_eq!(run(&repo, &["HEAD~1..HEAD"]).status.code(), Some(0));
    assert_eq!(run(&repo, &["log"]).status.code(), Some(0));
    assert_eq!(
        run(&repo, &["log", "--strategy", "full"]).status.code(),
        Some(1)
    );
}

/// SARIF is checked structurally against what the 2.1.0 schema requires of the parts we
/// write, rather than with a JSON Schema validator: the output is made from serde types, so
/// the shape is fixed by construction, and this test pins the required properties.
#[test]
fn sarif_output_has_what_code_scanning_needs() {
    let repo = two_events();
    loosen_both(&repo);
    let out = run(&repo, &["--format", "sarif"]);
    assert_eq!(out.status.code(), Some(1));
    let log = json(&out);
    assert_eq!(log["version"], "2.1.0");
    assert!(
        log["$schema"]
            .as_str()
            .expect("$schema")
            .contains("sarif-2.1.0")
    );
    let run0 = &log["runs"][0];
    assert_eq!(run0["tool"]["driver"]["name"], "catalog-diff");
    let rules = run0["tool"]["driver"]["rules"].as_array().expect("rules");
    let results = run0["results"].as_array().expect("results");
    assert_eq!(results.len(), 2, "one result per breaking op");
    for result in results {
        let index = result["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(rules[index]["id"], result["ruleId"]);
        assert_eq!(result["ruleId"], "required.removed");
        assert_eq!(result["level"], "error");
        assert!(!result["message"]["text"].as_str().expect("text").is_empty());
        let location = &result["locations"][0]["physicalLocation"];
        let uri = location["artifactLocation"]["uri"].as_str().expect("uri");
        assert!(
            uri.starts_with("events/") && uri.ends_with("/schema.json"),
            "{uri}"
        );
        assert!(location["region"]["startLine"].as_u64().expect("line") >= 1);
        assert_eq!(
            result["partialFingerprints"]["catalogDiff/v2"]
                .as_str()
                .expect("fp")
                .len(),
            24
        );
    }
    assert!(
        !rules[0]["shortDescription"]["text"]
            .as_str()
            .expect("short")
            .is_empty()
    );
    assert!(!rules[0]["help"]["text"].as_str().expect("help").is_empty());
}

/// `dir` in the configuration picks the catalog folder; one that is wrong is named with its
/// line, so the user knows the flag they did not pass is not the culprit.
#[test]
fn the_configured_catalog_folder_is_used_and_blamed_on_its_line() {
    let repo = two_events();
    loosen_both(&repo);
    repo.write("catalog-diff.toml", "strategy = \"forward\"\ndir = \"\"\n");
    let out = run(&repo, &["--format", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(json(&out)["summary"]["schemaBreaking"], 2);

    repo.write(
        "catalog-diff.toml",
        "strategy = \"forward\"\ndir = \"catalgo\"\n",
    );
    let stderr = refused(&repo, &[]);
    assert!(
        stderr
            .contains("catalog-diff.toml:2: `dir`: the catalog directory `catalgo` does not exist"),
        "{stderr}"
    );
    // The flag wins, and then the flag is what is named.
    let stderr = refused(&repo, &["--dir", "nowhere"]);
    assert!(
        stderr.contains("the catalog directory `nowhere`") && !stderr.contains("catalog-diff.toml"),
        "{stderr}"
    );

    repo.write("catalog-diff.toml", "dir = \"events/OrderPaid\"\n");
    let stderr = refused(&repo, &[]);
    assert!(
        stderr.contains("catalog-diff.toml:1: `events/OrderPaid` holds no catalog resources"),
        "{stderr}"
    );
}

/// The policy files are read from the side checked, so an edit still in the working tree is
/// not used by `A..B` or `--staged`: a note says so (the run used another policy silently),
/// and none once the file is committed; CRLF line endings are no difference.
#[test]
fn a_policy_file_edited_but_not_committed_is_named() {
    let repo = two_events();
    repo.git(&["commit", "-q", "--allow-empty", "-m", "second"]);
    repo.write("catalog-diff.toml", "strategy = \"backward\"\n");
    let note = |args: &[&str]| text(&run(&repo, args).stderr);
    let said = note(&["HEAD~1..HEAD"]);
    assert!(
        said.contains("note: catalog-diff.toml in the working tree is not in commit ")
            && said.contains("commit it to use it"),
        "{said}"
    );
    assert!(note(&["--staged"]).contains("is not in the staged index"));
    assert!(
        !note(&[]).contains("note:"),
        "the working tree is what it reads"
    );
    repo.commit_all("policy");
    repo.write("catalog-diff.toml", "strategy = \"backward\"\r\n");
    assert!(!note(&["HEAD~1..HEAD"]).contains("note:"));
    repo.remove("catalog-diff.toml");
    repo.write("catalog-diff.ack.toml", "");
    let said = note(&["HEAD~1..HEAD"]);
    assert!(
        said.contains("catalog-diff.toml is deleted in the working tree but not in commit ")
            && said.contains("catalog-diff.ack.toml in the working tree is not in commit "),
        "{said}"
    );
    // A commit other than HEAD was not made from this working tree: nothing to say.
    assert!(!note(&["HEAD~2..HEAD~1"]).contains("note:"));
}

/// Under `--fail-on unknown` a change without a verdict is a break to acknowledge: every
/// report names its fingerprint, and the last line says it was not judged, never "compatible".
#[test]
fn every_report_names_an_unjudged_change_under_fail_on_unknown() {
    let repo = two_events();
    repo.write("catalog-diff.toml", "fail-on = \"unknown\"\n");
    // An example payload, not a schema: no verdict.
    repo.write("events/OrderPaid/schema.json", r#"{"id": "o-1"}"#);
    let breaks = fingerprints(&run(&repo, &["--format", "json"]));
    assert_eq!(breaks.len(), 1);
    for format in ["text", "markdown", "github"] {
        let note = match format {
            "markdown" => format!("fingerprint `{}`", breaks[0]),
            _ => format!("fingerprint {}", breaks[0]),
        };
        let out = run(&repo, &["--format", format]);
        assert_eq!(out.status.code(), Some(1), "{format}");
        let stdout = text(&out.stdout);
        assert!(stdout.contains(&note), "{format}: {stdout}");
        assert!(!stdout.contains("compatible:"), "{format}: {stdout}");
    }
    let out = run(&repo, &[]);
    let stdout = text(&out.stdout);
    let last = stdout.lines().last().expect("a summary");
    assert!(
        last.starts_with("NOT JUDGED: 1 change(s) without a verdict"),
        "{last}"
    );

    let out = run(
        repo.path(),
        &["ack", &breaks[0], "--reason", "an example, on purpose"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = run(&repo, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let note = format!(
        "fingerprint {} (acknowledged: an example, on purpose)",
        breaks[0]
    );
    assert!(text(&out.stdout).contains(&note));
    // A job on the default policy has no use for the ack, but it matches a change here: it is
    // not offered for deletion.
    let out = run(&repo, &["--fail-on", "breaking", "--format", "json"]);
    let document: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert!(
        document["policy"].get("unusedAcks").is_none(),
        "{}",
        document["policy"]
    );
}

/// GitHub annotations: one error per breaking op, each at the line of the node it changed.
#[test]
fn github_annotates_each_breaking_op_at_its_line() {
    let repo = two_events();
    repo.write(
        "events/OrderPaid/schema.json",
        "{\n  \"type\": \"object\",\n  \"properties\": {\n    \"a\": {\"type\": \"string\"},\n    \"b\": {\"type\": \"string\"}\n  }\n}\n",
    );
    repo.commit_all("a and b");
    repo.write(
        "events/OrderPaid/schema.json",
        "{\n  \"type\": \"object\",\n  \"properties\": {\n    \"a\": {\"type\": \"integer\"},\n    \"b\": {\"type\": \"integer\"}\n  }\n}\n",
    );
    let out = run(&repo, &["--format", "github"]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    let errors: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("::error"))
        .collect();
    assert_eq!(errors.len(), 2, "{stdout}");
    assert!(errors[0].contains("schema.json,line=4,"), "{}", errors[0]);
    assert!(errors[1].contains("schema.json,line=5,"), "{}", errors[1]);
    assert!(errors[0].contains("/properties/a/type") && errors[1].contains("/properties/b/type"));
}

/// Each GitHub error gives its own op's direction, as SARIF does, not the whole change's: an
/// enum added breaks `backward` beside a requirement dropped that breaks `forward`.
#[test]
fn github_gives_each_breaking_op_its_own_direction() {
    let repo = two_events();
    repo.write(
        "events/OrderPaid/schema.json",
        r#"{"type": "object", "properties": {"id": {"type": "string", "enum": ["x"]}}}"#,
    );
    let stdout = text(&run(&repo, &["--format", "github"]).stdout);
    let error = |path: &str| {
        stdout
            .lines()
            .find(|l| l.starts_with("::error") && l.contains(path))
            .unwrap_or_else(|| panic!("no error at {path}: {stdout}"))
            .to_owned()
    };
    assert!(
        error("/properties/id/enum").contains("Breaking (backward) schema change"),
        "{stdout}"
    );
    assert!(
        error("/properties/id [required.removed]").contains("Breaking (forward) schema change"),
        "{stdout}"
    );
}

/// A change behind a `$ref` to an `$anchor` (which the walk does not follow) has no verdict:
/// counted as unknown, so `--fail-on unknown` trips, never a compatible change.
#[test]
fn a_change_behind_an_unfollowed_ref_has_no_verdict() {
    let side = |zip: &str| {
        format!(
            r##"{{"type": "object", "properties": {{"id": {{"$ref": "#id"}}}}, "$defs": {{"Id": {{"$anchor": "id", "type": "{zip}"}}}}}}"##
        )
    };
    let repo = two_events();
    repo.write("events/OrderPaid/schema.json", &side("string"));
    repo.commit_all("anchored id");
    repo.write("events/OrderPaid/schema.json", &side("integer"));
    let document = json(&run(&repo, &["--format", "json"]));
    let change = &document["schemaChanges"][0];
    assert_eq!(change["breaking"], serde_json::Value::Null, "{change}");
    let reason = change["unknownReason"].as_str().unwrap_or_default();
    assert!(
        reason.contains("`$ref` `#id` at /properties/id"),
        "{reason}"
    );
    assert_eq!(document["summary"]["schemaUnknown"], 1);
    let out = run(&repo, &["--fail-on", "unknown"]);
    assert_eq!(out.status.code(), Some(1));
}

/// A break `--history` finds against an earlier commit is placed like any other: the schema
/// file's path in the catalog, and the line of the node it changed (text, SARIF, GitHub).
#[test]
fn a_break_against_the_history_is_placed_in_its_file() {
    let repo = TestRepo::new();
    repo.write_all(&[
        ("events/E/index.mdx", &event("E", "1.0.0")),
        ("events/E/schema.json", OPTIONAL_ID),
    ]);
    repo.commit_all("id optional");
    repo.write("events/E/schema.json", REQUIRED_ID);
    repo.commit_all("id required");
    repo.write(
        "events/E/schema.json",
        "{\n  \"type\": \"object\",\n  \"properties\": {\"id\": {\"type\": \"string\"}, \"note\": {\"type\": \"string\"}},\n  \"required\": [\"id\"]\n}\n",
    );
    let args = ["--strategy", "backward-transitive", "--history"];
    let out = run(&repo, &args);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    let line = stdout
        .lines()
        .find(|l| l.contains("against commit"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(line.ends_with("  events/E/schema.json"), "{line}");
    let sarif = json(&run(&repo, &[&args[..], &["--format", "sarif"]].concat()));
    let result = &sarif["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "required.added");
    let location = &result["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], "events/E/schema.json");
    assert_eq!(
        location["region"]["startLine"], 3,
        "`/properties/id` is on line 3"
    );
    let github = text(&run(&repo, &[&args[..], &["--format", "github"]].concat()).stdout);
    assert!(
        github.contains("::error file=events/E/schema.json,line=3,"),
        "{github}"
    );
}

/// `--history` follows the schema file from its baseline path: a candidate that renames the
/// file, or moves the message's folder, is still judged against the versions the file had.
#[test]
fn a_check_against_the_history_follows_a_renamed_or_moved_schema_file() {
    let renamed = "---\nid: E\nversion: 1.2.0\nschemaPath: e.json\n---\n";
    let noted = r#"{"type": "object", "properties": {"id": {"type": "string"}, "note": {"type": "string"}}, "required": ["id"]}"#;
    let candidates: [&[(&str, &str)]; 2] = [
        &[("events/E/index.mdx", renamed), ("events/E/e.json", noted)],
        &[
            ("services/S/events/E/index.mdx", &event("E", "1.2.0")),
            ("services/S/events/E/schema.json", noted),
        ],
    ];
    for candidate in candidates {
        let repo = TestRepo::new();
        repo.write_all(&[
            ("events/E/index.mdx", &event("E", "1.0.0")),
            ("events/E/schema.json", OPTIONAL_ID),
        ]);
        repo.commit_all("id optional");
        repo.write_all(&[
            ("events/E/index.mdx", &event("E", "1.1.0")),
            ("events/E/schema.json", REQUIRED_ID),
        ]);
        repo.commit_all("id required");
        repo.remove("events/E/index.mdx");
        repo.remove("events/E/schema.json");
        repo.write_all(candidate);
        let out = run(&repo, &["--strategy", "backward-transitive", "--history"]);
        let stdout = text(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{candidate:?}: {stdout}");
        assert!(stdout.contains("against commit"), "{stdout}");
    }
}

/// A check against the history that has no verdict (the schema did not parse back then) is
/// reported as every change without a verdict is, never left out of the reports.
#[test]
fn a_check_against_the_history_without_a_verdict_is_reported() {
    let repo = TestRepo::new();
    repo.write_all(&[
        ("events/E/index.mdx", &event("E", "1.0.0")),
        ("events/E/schema.json", OPTIONAL_ID),
    ]);
    repo.commit_all("base");
    repo.write("events/E/schema.json", "{\"type\": \"object\", broken");
    repo.commit_all("broken");
    repo.write("events/E/schema.json", OPTIONAL_ID);
    repo.commit_all("fixed");
    repo.write(
        "events/E/schema.json",
        REQUIRED_ID
            .replace("\"required\": [\"id\"]", "\"required\": []")
            .as_str(),
    );
    let args = [
        "--strategy",
        "full-transitive",
        "--history",
        "--fail-on",
        "unknown",
    ];
    let out = run(&repo, &args);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("NO VERDICT event E 1.0.0 against commit ")
            && stdout.contains("invalid JSON"),
        "{stdout}"
    );
    assert!(
        stdout.contains("NOT JUDGED: 1 change(s) without a verdict"),
        "{stdout}"
    );
    let sarif = json(&run(&repo, &[&args[..], &["--format", "sarif"]].concat()));
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    assert!(
        results.iter().any(|r| r["ruleId"] == "schema.unknown"),
        "{results:?}"
    );
}

/// Avro and Protobuf both name a rule `field.removed`: in one SARIF run the op kind stays the
/// rule id, and its texts give each format's words, never one format's text for the other's.
#[test]
fn sarif_rules_shared_by_two_formats_give_both_texts() {
    let repo = TestRepo::new();
    let avro =
        |fields: &str| format!("{{\"type\": \"record\", \"name\": \"A\", \"fields\": [{fields}]}}");
    let proto =
        |fields: &str| format!("syntax = \"proto3\";\npackage p;\nmessage P {{\n{fields}}}\n");
    repo.write_all(&[
        (
            "events/A/index.mdx",
            "---\nid: A\nversion: 1.0.0\nschemaPath: schema.avsc\n---\n",
        ),
        (
            "events/A/schema.avsc",
            &avro("{\"name\": \"x\", \"type\": \"int\"}, {\"name\": \"y\", \"type\": \"int\"}"),
        ),
        (
            "events/P/index.mdx",
            "---\nid: P\nversion: 1.0.0\nschemaPath: schema.proto\n---\n",
        ),
        (
            "events/P/schema.proto",
            &proto("  int32 x = 1;\n  int32 y = 2;\n"),
        ),
    ]);
    repo.commit_all("an Avro and a Protobuf schema");
    repo.write(
        "events/A/schema.avsc",
        &avro("{\"name\": \"x\", \"type\": \"int\"}"),
    );
    repo.write("events/P/schema.proto", &proto("  int32 x = 1;\n"));
    let sarif = json(&run(&repo, &["--format", "sarif"]));
    let rules = sarif["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .expect("rules");
    let removed: Vec<&serde_json::Value> = rules
        .iter()
        .filter(|r| r["id"] == "field.removed")
        .collect();
    assert_eq!(removed.len(), 1, "{rules:?}");
    let help = removed[0]["help"]["text"].as_str().expect("help");
    assert!(help.contains(" / "), "both formats' words: {help}");
}

/// A policy file's problems and the catalog's are reported in one run: fixing the one does not
/// reveal the other only then.
#[test]
fn policy_file_problems_come_with_the_catalog_problems() {
    let repo = two_events();
    repo.write("catalog-diff.toml", "strategy = \"fulll\"\n");
    repo.write("events/Bad/index.mdx", "---\nid: [x\n---\n");
    let out = run(&repo, &[]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("catalog-diff.toml:1:"), "{stderr}");
    assert!(stderr.contains("events/Bad/index.mdx"), "{stderr}");
}

/// An acknowledgement accepts the break it names and no later one of the same kind at the same
/// place; while it holds, GitHub gets a notice, not an error, and every report's last line
/// says the breaks are acknowledged.
#[test]
fn an_acknowledgement_accepts_its_own_break_only() {
    let repo = two_events();
    repo.write("catalog-diff.toml", "fail-on = \"breaking\"\n");
    let status = |values: &str| {
        format!(
            "{{\"type\": \"object\", \"properties\": {{\"status\": {{\"enum\": [{values}]}}}}}}"
        )
    };
    repo.write("events/OrderPaid/schema.json", &status("\"paid\""));
    repo.commit_all("a status");
    repo.write(
        "events/OrderPaid/schema.json",
        &status("\"paid\", \"refunded\""),
    );
    let refunded = fingerprints(&run(&repo, &["--format", "json"])).remove(0);
    let out = run(
        repo.path(),
        &["ack", &refunded, "--reason", "billing reads refunds"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = run(&repo, &["--format", "github"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let annotations = text(&out.stdout);
    assert!(!annotations.contains("::error"), "{annotations}");
    assert!(
        annotations.contains("summary::acknowledged (every break): 1 breaking schema change(s)"),
        "{annotations}"
    );
    let notice = annotations
        .lines()
        .find(|line| line.contains(&refunded))
        .expect("the break's annotation");
    assert!(
        notice.starts_with("::notice file=events/OrderPaid/schema.json"),
        "{notice}"
    );
    let last = |out: &Output| {
        text(&out.stdout)
            .lines()
            .last()
            .unwrap_or_default()
            .to_owned()
    };
    for args in [&[][..], &["--format", "markdown"]] {
        assert!(last(&run(&repo, args)).starts_with("acknowledged (every break): "));
    }

    // Another value added at the same place, later: a break of its own.
    repo.commit_all("refunded");
    repo.write(
        "events/OrderPaid/schema.json",
        &status("\"paid\", \"refunded\", \"cancelled\""),
    );
    let out = run(&repo, &["--format", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let cancelled = fingerprints(&out).remove(0);
    assert_ne!(cancelled, refunded);
    assert_eq!(
        json(&out)["policy"]["unusedAcks"][0]["fingerprint"],
        refunded
    );
    assert!(last(&run(&repo, &[])).starts_with("BREAKING: "));
}

/// The acknowledgements file names what the `ack` command refuses: a fingerprint twice (the
/// second entry would be ignored) and an empty reason.
#[test]
fn a_duplicate_or_reasonless_acknowledgement_names_its_line() {
    let repo = two_events();
    let fingerprint = "00112233445566778899aabb";
    repo.write(
        "catalog-diff.ack.toml",
        &format!(
            "[[ack]]\nfingerprint = \"{fingerprint}\"\nreason = \"old\"\nexpires = \"2001-01-01\"\n\n[[ack]]\nfingerprint = \"{fingerprint}\"\nreason = \"renewed\"\n\n[[ack]]\nfingerprint = \"aabbccddeeff001122334455\"\nreason = \"  \"\n"
        ),
    );
    let stderr = refused(&repo, &[]);
    assert!(
        stderr.contains(&format!(
            "catalog-diff.ack.toml:7: fingerprint `{fingerprint}` is acknowledged already at line 2"
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains("catalog-diff.ack.toml:12: `reason` is empty"),
        "{stderr}"
    );
}

/// `history = true` without a transitive strategy would change nothing: an error at its line,
/// as `--history` is; with a transitive strategy from the command line it holds.
#[test]
fn configured_history_without_a_transitive_strategy_names_its_line() {
    let repo = two_events();
    repo.write(
        "catalog-diff.toml",
        "fail-on = \"breaking\"\nhistory = true\n",
    );
    let stderr = refused(&repo, &[]);
    assert!(
        stderr.contains("catalog-diff.toml:2: `history = true` judges a schema"),
        "{stderr}"
    );
    let out = run(&repo, &["--strategy", "full-transitive"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // A file with a transitive strategy of its own and a one-off `--strategy`: a note.
    repo.write(
        "catalog-diff.toml",
        "strategy = \"full-transitive\"\nhistory = true\n",
    );
    let out = run(&repo, &["--strategy", "forward"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("note: `history = true` (catalog-diff.toml:2) does not apply"),
        "{}",
        text(&out.stderr)
    );
}

/// A message removed while in use is annotated where it is to be fixed, the file of a
/// resource that still uses it (the removed file is not in the candidate, so GitHub would
/// show nothing there).
#[test]
fn a_removal_in_use_is_placed_at_the_resource_that_uses_it() {
    let repo = two_events();
    repo.git(&["rm", "-rq", "events/OrderPaid"]);
    let out = run(&repo, &["--format", "github"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let annotations = text(&out.stdout);
    let error = annotations
        .lines()
        .find(|line| line.starts_with("::error"))
        .expect("an error");
    assert!(
        error.starts_with("::error file=services/Billing/index.mdx"),
        "{annotations}"
    );
    let sarif = json(&run(&repo, &["--format", "sarif"]));
    let location = &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
    assert_eq!(
        location["artifactLocation"]["uri"], "services/Billing/index.mdx",
        "{sarif}"
    );
}

/// `ack` writes its own file only: a link in its place (committed, perhaps, by someone else)
/// would have it append to whatever file the link names, outside the repository too.
#[test]
fn ack_refuses_to_write_through_a_symbolic_link() {
    let repo = two_events();
    let outside = tempfile::tempdir().unwrap();
    let victim = outside.path().join("victim.toml");
    std::fs::write(&victim, "# not the repository's\n").unwrap();
    std::os::unix::fs::symlink(&victim, repo.path().join("catalog-diff.ack.toml")).unwrap();
    let stderr = refused(
        &repo,
        &["ack", "00112233445566778899aabb", "--reason", "harmless"],
    );
    assert!(stderr.contains("is a symbolic link"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&victim).unwrap(),
        "# not the repository's\n"
    );
}

/// A policy file that is not UTF-8 text is named at its first bad byte, as a schema file is;
/// `ack` says the same as the diff.
#[test]
fn a_policy_file_that_is_not_utf8_is_named_at_its_first_bad_byte() {
    let repo = two_events();
    let write = |name: &str, bytes: &[u8]| std::fs::write(repo.path().join(name), bytes).unwrap();
    write(
        "catalog-diff.toml",
        b"strategy = \"full\"\n\n# comment \xff\n",
    );
    let stderr = refused(&repo, &[]);
    assert!(
        stderr.contains("catalog-diff.toml:3:11: the configuration is not UTF-8 text (byte 29)"),
        "{stderr}"
    );
    repo.remove("catalog-diff.toml");
    write("catalog-diff.ack.toml", b"# ok\n\n# \xff\n");
    let wanted = "catalog-diff.ack.toml:3:3: the acknowledgements file is not UTF-8 text (byte 8)";
    for args in [
        &[][..],
        &["ack", "00112233445566778899aabb", "--reason", "r"],
    ] {
        let stderr = refused(&repo, args);
        assert!(stderr.contains(wanted), "{args:?}: {stderr}");
    }
}

/// `ack` reads the acknowledgements file as the diff does, up to `--max-file-size`: one the
/// diff refuses is not appended to.
#[test]
fn ack_refuses_an_acknowledgements_file_over_the_size_limit() {
    let repo = two_events();
    let big = format!("# {}\n", "x".repeat(2000));
    repo.write("catalog-diff.ack.toml", &big);
    let wanted = "catalog-diff.ack.toml is 2003 bytes, over the limit of 1024 bytes";
    let stderr = refused(&repo, &["--max-file-size", "1K"]);
    assert!(stderr.contains(wanted), "{stderr}");
    let stderr = refused(
        &repo,
        &[
            "ack",
            "00112233445566778899aabb",
            "--reason",
            "r",
            "--max-file-size",
            "1K",
        ],
    );
    assert!(stderr.contains(wanted), "{stderr}");
    let written = std::fs::read_to_string(repo.path().join("catalog-diff.ack.toml")).unwrap();
    assert_eq!(written, big);
}

/// A value of the wrong type in one entry hides none of the file's other problems.
#[test]
fn every_problem_of_the_acknowledgements_file_in_one_run() {
    let repo = two_events();
    let fingerprint = "00112233445566778899aabb";
    repo.write(
        "catalog-diff.ack.toml",
        &format!(
            "[[ack]]\nfingerprint = \"{fingerprint}\"\nreason = \"ok\"\nowner = 5\nexpires = 2027-01-01\n\n[[ack]]\nfingerprint = \"{fingerprint}\"\nreason = \"again\"\n\n[[ack]]\nfingerprint = 7\nreason = \"x\"\n"
        ),
    );
    let stderr = refused(&repo, &[]);
    for expected in [
        "catalog-diff.ack.toml:4: invalid type: integer `5`, expected a string",
        "catalog-diff.ack.toml:5: invalid type: map, expected a string",
        "write the date as text",
        "catalog-diff.ack.toml:8: fingerprint `00112233445566778899aabb` is acknowledged already at line 2",
        "catalog-diff.ack.toml:12: invalid type: integer `7`, expected a string",
    ] {
        assert!(stderr.contains(expected), "{expected}\n{stderr}");
    }
    assert!(!stderr.contains("missing field"), "{stderr}");
}

/// The configuration's problems found at different stages of a run are named in one run.
#[test]
fn every_problem_of_the_configuration_in_one_run() {
    let repo = two_events();
    repo.write(
        "catalog-diff.toml",
        "history = true\n[messages.\"OrderCreatd\"]\nstrategy = \"backward\"\n",
    );
    let stderr = refused(&repo, &[]);
    assert!(
        stderr.contains("catalog-diff.toml:1: `history = true` judges a schema"),
        "{stderr}"
    );
    assert!(
        stderr.contains("catalog-diff.toml:2: [messages.\"OrderCreatd\"]"),
        "{stderr}"
    );
    repo.write("catalog-diff.toml", "history = true\ndir = \"nosuch\"\n");
    let stderr = refused(&repo, &[]);
    assert!(stderr.contains("catalog-diff.toml:1: `history"), "{stderr}");
    assert!(stderr.contains("catalog-diff.toml:2: `dir`"), "{stderr}");
}

/// Where an op's path does not say what changed (a union's branch, a member of a type list, a
/// reserved number or name), what changed is in its fingerprint: two such breaks at one place
/// are two breaks, in one diff or one after the other, and an acknowledgement accepts one.
#[test]
fn breaks_at_one_place_are_told_apart_by_what_changed() {
    let avro = |branches: &str| {
        format!(
            r#"{{"type": "record", "name": "O", "fields": [{{"name": "un", "type": [{branches}]}}]}}"#
        )
    };
    let json = |types: &str| {
        format!(r#"{{"type": "object", "properties": {{"x": {{"type": [{types}]}}}}}}"#)
    };
    let proto = |reserved: &str| {
        format!("syntax = \"proto3\";\nmessage M {{\n{reserved}  int32 x = 1;\n}}\n")
    };
    let cases = [
        (
            "schema.avsc",
            [
                avro(r#""null", "string", "int""#),
                avro(r#""null", "string""#),
                avro(r#""null""#),
            ],
            2,
        ),
        (
            "schema.json",
            [
                json(r#""string", "null", "integer""#),
                json(r#""string", "null""#),
                json(r#""string""#),
            ],
            1,
        ),
        (
            "schema.proto",
            [
                proto("  reserved 5, 6, 7;\n  reserved \"a\", \"b\";\n"),
                proto("  reserved 5, 6;\n  reserved \"a\";\n"),
                proto("  reserved 5;\n"),
            ],
            4,
        ),
    ];
    // `in_one`: the breaks of the first schema to the third, in one diff.
    for (file, [first, second, third], in_one) in cases {
        let repo = TestRepo::new();
        repo.write_all(&[
            ("catalog-diff.toml", "fail-on = \"breaking\"\n"),
            (
                "events/E/index.mdx",
                &format!("---\nid: E\nversion: 1.0.0\nschemaPath: {file}\n---\n"),
            ),
            (&format!("events/E/{file}"), &first),
        ]);
        repo.commit_all("first");
        repo.write(&format!("events/E/{file}"), &second);
        let earlier = fingerprints(&run(&repo, &["--format", "json"]));
        assert!(!earlier.is_empty(), "{file}: a break");
        for fingerprint in &earlier {
            let out = run(repo.path(), &["ack", fingerprint, "--reason", "known"]);
            assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        }
        repo.commit_all("second, acknowledged");
        repo.write(&format!("events/E/{file}"), &third);
        let out = run(&repo, &["--format", "json"]);
        assert_eq!(out.status.code(), Some(1), "{file}: {}", text(&out.stdout));
        let later = fingerprints(&out);
        assert!(
            later.iter().all(|f| !earlier.contains(f)),
            "{file}: {earlier:?} {later:?}"
        );
        // Both steps in one diff: one break apiece (a type list narrowed once), none merged.
        let mut both = fingerprints(&run(&repo, &["HEAD~1", "--format", "json"]));
        both.sort();
        both.dedup();
        assert_eq!(both.len(), in_one, "{file}: {both:?}");
    }
}

/// An acknowledgement that matches nothing is named at its entry by GitHub and SARIF too, as
/// the text report names it, so it can be deleted; GitHub gives the policy's counts as well.
#[test]
fn a_stale_acknowledgement_is_named_in_every_report() {
    let repo = two_events();
    repo.write(
        "catalog-diff.ack.toml",
        "[[ack]]\nfingerprint = \"aaaaaaaaaaaaaaaaaaaaaaaa\"\nreason = \"stale\"\n",
    );
    repo.write("events/OrderPaid/schema.json", OPTIONAL_ID);
    let annotations = text(&run(&repo, &["--format", "github"]).stdout);
    assert!(
        annotations.contains("::warning file=catalog-diff.ack.toml,line=2,title=catalog-diff%3A acknowledgement::Acknowledgement of aaaaaaaaaaaaaaaaaaaaaaaa matches nothing here"),
        "{annotations}"
    );
    assert!(
        annotations.contains(
            "::notice title=catalog-diff%3A policy::policy: 0 break(s) acknowledged, 1 open, 0 acknowledgement(s) expired; 1 acknowledgement(s) match nothing here\n"
        ),
        "the policy line counts what is annotated at its entry: {annotations}"
    );
    let said = text(&run(&repo, &[]).stdout);
    assert!(
        said.contains("acknowledgements that match nothing here: catalog-diff.ack.toml:2"),
        "{said}"
    );
    let sarif = json(&run(&repo, &["--format", "sarif"]));
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    let stale = results
        .iter()
        .find(|r| r["ruleId"] == "policy.unused-acknowledgement")
        .expect("the stale acknowledgement");
    assert_eq!(stale["level"], "note", "{stale}");
    let location = &stale["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], "catalog-diff.ack.toml");
    assert_eq!(location["region"]["startLine"], 2);
}

/// A relative `--config` is read from `-C`'s path, as `git -C` reads one; a missing one is
/// named by the path tried.
#[test]
fn a_relative_configuration_is_read_from_the_repository_given() {
    let repo = two_events();
    repo.write("my.toml", "strategy = \"backward\"\n");
    loosen_both(&repo);
    let path = repo.path();
    let at = path.to_str().expect("UTF-8");
    let elsewhere = std::env::temp_dir();
    let out = run(&elsewhere, &["-C", at, "--config", "my.toml"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("[strategy backward]"));
    let out = run(&elsewhere, &["-C", at, "--config", "nope.toml"]);
    assert_eq!(out.status.code(), Some(2));
    let tried = repo.path().join("nope.toml");
    assert!(
        text(&out.stderr).contains(&tried.display().to_string()),
        "{}",
        text(&out.stderr)
    );
}

/// Every `[messages."ID"]` naming no message is an error, an empty one too, in the order the
/// file names them, one `error:` line apiece.
#[test]
fn misnamed_message_ids_are_named_in_line_order() {
    let repo = two_events();
    repo.write(
        "catalog-diff.toml",
        "[messages.zzz-first]\nstrategy = \"backward\"\n\n[messages.OrderPaiid]\n\n[messages.aaa-last]\nstrategy = \"forward\"\n",
    );
    loosen_both(&repo);
    let stderr = refused(&repo, &[]);
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("error: "))
        .collect();
    let places: Vec<&str> = errors.iter().filter_map(|l| l.split(": ").nth(1)).collect();
    assert_eq!(
        places,
        [
            "catalog-diff.toml:1",
            "catalog-diff.toml:4",
            "catalog-diff.toml:6"
        ],
        "{stderr}"
    );
    assert!(errors[1].contains("`OrderPaiid`"), "{stderr}");
}
