//! `catalog-diff log` on scripted temporary histories (a schema breaks, is fixed, breaks again)
//! and on the real examples-default history, checked against the two-revision diff.

use std::path::Path;
use std::process::Output;

use crate::support::TestRepo;
use catalog_diff::catalog::build::ParseCache;
use catalog_diff::diff;
use catalog_diff::git::{CommitId, Repo, Side};
use catalog_diff::history;
use serde_json::Value;

const EVENT: &str = "---\nid: OrderCreated\nversion: 1.0.0\nschemaPath: schema.json\n---\n";
const REFUND: &str = "---\nid: RefundIssued\nversion: 1.0.0\nschemaPath: schema.json\n---\n";
const SERVICE: &str = "---\nid: Payments\nversion: 1.0.0\nreceives:\n  - id: OrderCreated\n  - id: RefundIssued\n---\n";
const BASE: &str = r#"{"type": "object", "properties": {"id": {"type": "string"}, "status": {"enum": ["pending", "paid"]}}, "required": ["id"]}"#;
const WITH_NOTE: &str = r#"{"type": "object", "properties": {"id": {"type": "string"}, "note": {"type": "string"}, "status": {"enum": ["pending", "paid"]}}, "required": ["id"]}"#;
/// Backward-breaking: a newly required field.
const NOTE_REQUIRED: &str = r#"{"type": "object", "properties": {"id": {"type": "string"}, "note": {"type": "string"}, "status": {"enum": ["pending", "paid"]}}, "required": ["id", "note"]}"#;
/// Backward-breaking again: an enum value dropped.
const ENUM_NARROWED: &str = r#"{"type": "object", "properties": {"id": {"type": "string"}, "note": {"type": "string"}, "status": {"enum": ["pending"]}}, "required": ["id"]}"#;
const REFUND_BASE: &str = r#"{"type": "object", "properties": {"amount": {"type": "number"}}}"#;
const REFUND_MORE: &str = r#"{"type": "object", "properties": {"amount": {"type": "number"}, "reason": {"type": "string"}}}"#;

/// The scripted history, oldest first, with the ids of its commits.
struct History {
    repo: TestRepo,
    base: String,
    docs: String,
    compatible: String,
    first_break: String,
    fix: String,
    second_break: String,
}

fn history() -> History {
    let repo = TestRepo::new();
    let schema = "catalog/events/OrderCreated/schema.json";
    repo.write_all(&[
        ("catalog/eventcatalog.config.js", "export default {};\n"),
        ("catalog/events/OrderCreated/index.mdx", EVENT),
        (schema, BASE),
        ("catalog/events/RefundIssued/index.mdx", REFUND),
        ("catalog/events/RefundIssued/schema.json", REFUND_BASE),
        ("catalog/services/Payments/index.mdx", SERVICE),
    ]);
    let base = repo.commit_all("catalog");
    repo.write("README.md", "outside the catalog\n");
    let docs = repo.commit_all("docs outside the catalog");
    repo.write(schema, WITH_NOTE);
    let compatible = repo.commit_all("optional note");
    repo.write(schema, NOTE_REQUIRED);
    let first_break = repo.commit_all("require note");
    repo.write(schema, WITH_NOTE);
    repo.write("catalog/events/RefundIssued/schema.json", REFUND_MORE);
    let fix = repo.commit_all("note optional again; refund reason");
    repo.write(schema, ENUM_NARROWED);
    let second_break = repo.commit_all("drop paid");
    History {
        repo,
        base,
        docs,
        compatible,
        first_break,
        fix,
        second_break,
    }
}

fn run(dir: impl AsRef<Path>, args: &[&str]) -> Output {
    crate::binary(dir)
        .arg("log")
        .args(args)
        .output()
        .expect("the binary runs")
}

fn lines(output: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| {
            serde_json::from_str(line).unwrap_or_else(|e| {
                panic!("{e}: {line}\n{}", String::from_utf8_lossy(&output.stderr))
            })
        })
        .collect()
}

fn commits(entries: &[Value]) -> Vec<String> {
    entries
        .iter()
        .map(|e| e["commit"].as_str().unwrap_or_default().to_owned())
        .collect()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

const BACKWARD_JSON: &[&str] = &["--strategy", "backward", "--format", "json"];

fn log_json(h: &History, extra: &[&str]) -> (Output, Vec<Value>) {
    let args: Vec<&str> = BACKWARD_JSON.iter().chain(extra).copied().collect();
    let output = run(h.repo.path(), &args);
    let entries = lines(&output);
    (output, entries)
}

#[test]
fn json_lines_carry_each_changed_commit_and_skip_unchanged_catalogs() {
    let h = history();
    let (output, entries) = log_json(&h, &[]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(
        commits(&entries),
        [
            &h.base,
            &h.compatible,
            &h.first_break,
            &h.fix,
            &h.second_break
        ]
        .map(String::as_str)
    );
    let root = &entries[0];
    assert_eq!(root["parent"], Value::Null);
    assert_eq!(root["subject"], "catalog");
    assert!(root["author"].as_str().is_some_and(|a| a.contains('<')));
    assert!(root["date"].as_str().is_some_and(|d| d.contains('T')));
    assert_eq!(root["diff"]["summary"]["resourcesAdded"], 3);
    // The docs commit did not touch the catalog, yet it is the next commit's first parent.
    assert_eq!(entries[1]["parent"], h.docs.as_str());
    assert_eq!(entries[1]["diff"]["refs"]["a"]["commit"], h.docs.as_str());
    let breaking: Vec<bool> = entries
        .iter()
        .map(|e| e["diff"]["summary"]["breaking"] == true)
        .collect();
    assert_eq!(breaking, [false, false, true, false, true]);
}

#[test]
fn first_breaking_stops_at_the_first_break() {
    let h = history();
    let (output, entries) = log_json(&h, &["--first-breaking"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(commits(&entries), [&h.first_break].map(String::as_str));
    assert_eq!(entries[0]["subject"], "require note");
    // Exit codes turned off: found all the same, and exit 0.
    let (output, entries) = log_json(&h, &["--first-breaking", "--fail-on", "never"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(commits(&entries), [&h.first_break].map(String::as_str));
    assert!(!stderr(&output).contains("never broke"));

    // Before the first break, it never broke.
    let range = format!("{}..{}", h.base, h.compatible);
    let (output, entries) = log_json(&h, &["--first-breaking", &range]);
    assert_eq!(output.status.code(), Some(0));
    assert!(entries.is_empty());
    assert!(
        stderr(&output).contains("never broke"),
        "{}",
        stderr(&output)
    );
}

/// `catalog-diff log | head`: once the reader is gone the walk goes on unprinted, so the exit
/// code covers the whole range (it was 0, the walk stopping at the first entry it could not
/// write), and the summary on a closed stderr is no panic.
#[test]
fn a_closed_pipe_still_walks_the_whole_range_for_the_exit_code() {
    let h = history();
    let log = ["log", "--strategy", "backward"];
    assert_eq!(crate::run_unread(h.repo.path(), &log), Some(1));
    let compatible = format!("{}..{}", h.base, h.compatible);
    let quiet: Vec<&str> = log.iter().copied().chain([compatible.as_str()]).collect();
    assert_eq!(crate::run_unread(h.repo.path(), &quiet), Some(0));
}

#[test]
fn breaking_only_hides_compatible_steps() {
    let h = history();
    let (output, entries) = log_json(&h, &["--breaking-only"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        commits(&entries),
        [&h.first_break, &h.second_break].map(String::as_str)
    );
}

#[test]
fn against_judges_every_commit_against_one_baseline() {
    let h = history();
    let (output, entries) = log_json(&h, &["--against", &h.first_break]);
    assert_eq!(output.status.code(), Some(1));
    for entry in &entries {
        assert_eq!(entry["diff"]["refs"]["a"]["commit"], h.first_break.as_str());
    }
    let breaking: Vec<(String, bool)> = entries
        .iter()
        .map(|e| {
            (
                e["subject"].as_str().unwrap_or_default().to_owned(),
                e["diff"]["summary"]["breaking"] == true,
            )
        })
        .collect();
    // Against the deployed `require note`: `catalog` and `optional note` lack the required
    // note (fine backward: new readers accept messages with it); the fix matches them, and the
    // narrowed enum breaks. The baseline commit itself has no changes to show.
    let expected: Vec<(String, bool)> = [
        ("catalog", false),
        ("optional note", false),
        ("note optional again; refund reason", false),
        ("drop paid", true),
    ]
    .iter()
    .map(|(s, b)| ((*s).to_owned(), *b))
    .collect();
    assert_eq!(breaking, expected);
}

/// Against a fixed baseline the range's first commit is judged even when it does not change
/// the catalog itself: its catalog still differs from the baseline's (it passed unseen).
#[test]
fn against_judges_a_first_commit_that_only_touches_other_files() {
    let h = history();
    let range = format!("{}^!", h.docs);
    let (output, entries) = log_json(&h, &[&range, "--against", &h.first_break]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(commits(&entries), [h.docs.as_str()]);
    let changes = &entries[0]["diff"]["schemaChanges"];
    assert_eq!(changes.as_array().map(Vec::len), Some(1), "{}", entries[0]);
}

/// A catalog that moved inside the range: the note names the folder of the part the walk reads
/// as empty, even when the range starts before the catalog existed.
#[test]
fn a_catalog_moved_inside_the_range_is_noted() {
    let repo = TestRepo::new();
    repo.write("README.md", "a project\n");
    repo.commit_all("no catalog yet");
    repo.write_all(&[
        (
            "docs/catalog/eventcatalog.config.js",
            "export default {};\n",
        ),
        ("docs/catalog/events/OrderCreated/index.mdx", EVENT),
        ("docs/catalog/events/OrderCreated/schema.json", BASE),
    ]);
    repo.commit_all("a catalog in docs");
    repo.git(&["mv", "docs/catalog", "catalog"]);
    repo.commit_all("moved");
    for range in [&["HEAD~2..HEAD"][..], &[]] {
        let output = run(repo.path(), range);
        assert!(
            stderr(&output).contains("in `docs/catalog` at")
                && stderr(&output).contains("--dir docs/catalog"),
            "{range:?}: {}",
            stderr(&output)
        );
    }
}

/// A `[messages."ID"]` naming a message of the walk's first commit (the root, in a walk of the
/// whole history) is accepted, as it is for a range starting there.
#[test]
fn a_configured_message_of_the_first_commit_is_accepted() {
    let repo = TestRepo::new();
    repo.write_all(&[
        ("events/OrderCreated/index.mdx", EVENT),
        ("events/OrderCreated/schema.json", BASE),
        ("events/RefundIssued/index.mdx", REFUND),
        ("events/RefundIssued/schema.json", REFUND_BASE),
    ]);
    repo.commit_all("root");
    repo.remove("events/RefundIssued/index.mdx");
    repo.remove("events/RefundIssued/schema.json");
    repo.write(
        "catalog-diff.toml",
        "[messages.\"RefundIssued\"]\nstrategy = \"forward\"\n",
    );
    repo.commit_all("refunds gone");
    let output = run(repo.path(), &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    // One that only the `--against` baseline has is accepted too.
    repo.write("README.md", "later\n");
    repo.commit_all("outside the catalog");
    let output = run(repo.path(), &["HEAD^!", "--against", "HEAD~2"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
}

/// A message that neither end of the range holds (added, then removed inside it) is still the
/// range's: `--message` keeps its steps without an error (it was refused as "no resource in the
/// range" once the walk had printed its steps).
#[test]
fn message_that_came_and_went_inside_the_range() {
    let repo = TestRepo::new();
    repo.write_all(&[
        ("events/OrderCreated/index.mdx", EVENT),
        ("events/OrderCreated/schema.json", BASE),
    ]);
    repo.commit_all("orders");
    repo.write_all(&[
        ("events/RefundIssued/index.mdx", REFUND),
        ("events/RefundIssued/schema.json", REFUND_BASE),
    ]);
    let added = repo.commit_all("refunds");
    repo.remove("events/RefundIssued/index.mdx")
        .remove("events/RefundIssued/schema.json");
    let removed = repo.commit_all("no refunds");
    let output = run(
        repo.path(),
        &["--format", "json", "--message", "RefundIssued"],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        commits(&lines(&output)),
        [&added, &removed].map(String::as_str)
    );
    // A typo of it is answered with it, though neither end of the range holds it.
    let output = run(repo.path(), &["--message", "RefundIssud"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("did you mean `RefundIssued`?"),
        "{}",
        stderr(&output)
    );
    // A prose edit changes catalog files, but nothing the diff reports: the count says both.
    repo.write(
        "events/OrderCreated/index.mdx",
        &format!("{EVENT}\nSome prose.\n"),
    );
    repo.commit_all("prose");
    let output = run(repo.path(), &["HEAD^!"]);
    assert!(
        stderr(&output).contains(
            "1 commit(s) walked, 1 changed catalog files (0 with changes to report), 0 broke"
        ),
        "{}",
        stderr(&output)
    );
}

#[test]
fn message_keeps_one_message() {
    let h = history();
    let (output, entries) = log_json(&h, &["--message", "RefundIssued"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(commits(&entries), [&h.base, &h.fix].map(String::as_str));
    let fix = &entries[1]["diff"];
    assert_eq!(fix["summary"]["schemaChanges"], 1);
    assert_eq!(fix["summary"]["breaking"], false);
    assert!(
        fix["schemaChanges"]
            .as_array()
            .is_some_and(|c| c.iter().all(|c| c["message"]["id"] == "RefundIssued"))
    );

    let (output, entries) = log_json(&h, &["--message", "OrderCreated", "--first-breaking"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(commits(&entries), [&h.first_break].map(String::as_str));
}

#[test]
fn text_is_a_timeline_with_details_under_breaking_steps() {
    let h = history();
    let output = run(h.repo.path(), &["--strategy", "backward"]);
    assert_eq!(output.status.code(), Some(1));
    let text = String::from_utf8_lossy(&output.stdout);
    let first = text
        .lines()
        .find(|l| l.contains("require note"))
        .unwrap_or_default();
    assert!(first.starts_with(&h.first_break[..8]), "{text}");
    assert!(first.contains("BREAKING OrderCreated (backward)"), "{text}");
    assert!(text.contains("required.added"), "{text}");
    assert!(!text.contains("docs outside the catalog"), "{text}");
}

#[test]
fn empty_reversed_and_unknown_ranges() {
    let h = history();
    let same = format!("{}..{}", h.fix, h.fix);
    let output = run(h.repo.path(), &[&same]);
    assert_eq!(output.status.code(), Some(0));
    assert!(
        stderr(&output).contains("empty, both ends being the same revision"),
        "{}",
        stderr(&output)
    );

    let reversed = format!("{}..{}", h.second_break, h.base);
    let output = run(h.repo.path(), &[&reversed]);
    assert_eq!(output.status.code(), Some(0));
    assert!(stderr(&output).contains("reversed"), "{}", stderr(&output));
    assert!(output.stdout.is_empty());
    // An end left out is HEAD, and the hint names it so.
    let output = run(h.repo.path(), &[&format!("..{}", h.base)]);
    assert!(
        stderr(&output).contains(&format!(
            "`{}..HEAD` lists the commits of HEAD not in {}",
            h.base, h.base
        )),
        "{}",
        stderr(&output)
    );

    let output = run(h.repo.path(), &["nope..HEAD"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("unknown revision `nope`"),
        "{}",
        stderr(&output)
    );

    let output = run(h.repo.path(), &[""]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("an empty RANGE"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn an_invalid_commit_is_reported_in_its_entry_and_the_walk_goes_on() {
    let h = history();
    h.repo.write(
        "catalog/events/Broken/index.mdx",
        "---\nid: [unclosed\n---\n",
    );
    let broken = h.repo.commit_all("broken front matter");
    h.repo.remove("catalog/events/Broken/index.mdx");
    h.repo
        .write("catalog/events/RefundIssued/schema.json", REFUND_BASE);
    let repaired = h.repo.commit_all("repair; refund reason dropped");

    let (output, entries) = log_json(&h, &[]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let found = commits(&entries);
    assert!(found.ends_with(&[broken.clone(), repaired]), "{found:?}");
    let entry = &entries[entries.len() - 2];
    assert!(
        entry["errors"].as_array().is_some_and(|e| !e.is_empty()),
        "{entry}"
    );

    let (output, entries) = log_json(&h, &["--strict"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(commits(&entries).last(), Some(&broken));
}

#[test]
fn a_shallow_clone_walks_what_exists_and_says_where_it_stopped() {
    let h = history();
    let shallow = h.repo.clone_with(&["--depth", "3", "--no-local"]);
    let output = run(
        shallow.path(),
        &["--strategy", "backward", "--format", "json"],
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(stderr(&output).contains("shallow"), "{}", stderr(&output));
    assert!(
        stderr(&output).contains(&h.first_break[..8]),
        "{}",
        stderr(&output)
    );
    assert_eq!(
        commits(&lines(&output)),
        [&h.fix, &h.second_break].map(String::as_str)
    );
}

/// A clone one commit deep (CI's default checkout) has no commit the walk can judge: an error
/// saying so, not "never broke".
#[test]
fn a_shallow_clone_with_nothing_to_judge_is_an_error() {
    let h = history();
    let shallow = h.repo.clone_with(&["--depth", "1", "--no-local"]);
    for fail_on in ["breaking", "unknown"] {
        let output = run(shallow.path(), &["--first-breaking", "--fail-on", fail_on]);
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        assert!(
            stderr(&output).contains("the range has no commit to judge"),
            "{}",
            stderr(&output)
        );
    }
    // Against a fixed baseline no parent is needed: the oldest commit is judged. (Two commits
    // deep: the range's only commit, `HEAD~1`, lacks its parent; `HEAD` changed the catalog.)
    let shallow = h.repo.clone_with(&["--depth", "2", "--no-local"]);
    let output = run(
        shallow.path(),
        &["HEAD~1", "--against", "HEAD", "--format", "json"],
    );
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let entries = lines(&output);
    assert_eq!(entries.len(), 1, "{}", stderr(&output));
    let changes = &entries[0]["diff"]["schemaChanges"];
    assert_eq!(changes.as_array().map(Vec::len), Some(1), "{}", entries[0]);
}

#[test]
fn commits_before_the_catalog_existed_are_an_empty_catalog() {
    let repo = TestRepo::new();
    repo.write("README.md", "a project\n");
    let before = repo.commit_all("before the catalog");
    repo.write_all(&[
        ("catalog/eventcatalog.config.js", "export default {};\n"),
        ("catalog/events/OrderCreated/index.mdx", EVENT),
        ("catalog/events/OrderCreated/schema.json", BASE),
    ]);
    let added = repo.commit_all("add the catalog");
    let output = run(&repo, &["--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let entries = lines(&output);
    assert_eq!(commits(&entries), [added.as_str()]);
    assert_eq!(entries[0]["parent"], before.as_str());
    assert_eq!(entries[0]["diff"]["summary"]["resourcesAdded"], 1);
}

/// The walk over the real examples-default history agrees, commit by commit, with the plain
/// two-revision diff of each commit and its first parent.
#[test]
fn examples_default_walk_equals_pairwise_diffs() {
    let Some((_temp, clone)) =
        crate::support::examples_default_clone("examples_default_walk_equals_pairwise_diffs")
    else {
        return;
    };

    let output = run(&clone, &["--format", "json", "--fail-on", "never"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let entries = lines(&output);
    assert!(!entries.is_empty());

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
    let commit = |value: &Value| {
        value
            .as_str()
            .map(|id| CommitId(gix::ObjectId::from_hex(id.as_bytes()).expect("a commit id")))
    };
    for entry in &entries {
        let read = |at| {
            let files = history::read_at(&repo, commit(at), &options).expect("a catalog");
            let built = history::build_files(&files, commit(at), &options, &cache);
            (built, files)
        };
        let ((a, a_files), (b, b_files)) = (read(&entry["parent"]), read(&entry["commit"]));
        let pair = diff::diff_with_files(
            (&a.index, &a_files),
            (&b.index, &b_files),
            &options.diff,
            &diff::VerdictCache::default(),
        );
        let expected = serde_json::to_value(&pair.summary).expect("summary json");
        assert_eq!(
            entry["diff"]["summary"], expected,
            "commit {} ({})",
            entry["commit"], entry["subject"]
        );
        let verdicts = |changes: &Value| -> Vec<Value> {
            changes
                .as_array()
                .map(|c| c.iter().map(|c| c["breaking"].clone()).collect())
                .unwrap_or_default()
        };
        let pair_json = serde_json::to_value(&pair).expect("diff json");
        assert_eq!(
            verdicts(&entry["diff"]["schemaChanges"]),
            verdicts(&pair_json["schemaChanges"])
        );
        assert_eq!(
            verdicts(&entry["diff"]["specificationChanges"]),
            verdicts(&pair_json["specificationChanges"])
        );
    }
}

#[test]
fn a_catalog_the_sdk_aliases_lists_its_hashless_schema_on_every_step() {
    // A command and a service share id and version, so the SDK gives the command the service's
    // content path: its schema entry has no hash, and the library lists it on every diff.
    let repo = TestRepo::new();
    let mut files = vec![
        (
            "commands/a2/index.mdx".to_owned(),
            "---\nid: a2\nversion: 1.0.0\nschemaPath: schema.json\n---\n".to_owned(),
        ),
        ("commands/a2/schema.json".to_owned(), BASE.to_owned()),
        (
            "services/a2/index.mdx".to_owned(),
            "---\nid: a2\nversion: 1.0.0\n---\n".to_owned(),
        ),
    ];
    files.extend((0..8).map(|i| {
        (
            format!("events/E{i}/index.mdx"),
            format!("---\nid: E{i}\nversion: 1.0.0\n---\n"),
        )
    }));
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (&**p, &**t)).collect();
    repo.write_all(&files);
    repo.commit_all("catalog");
    for name in ["F", "G"] {
        repo.write(
            &format!("events/{name}/index.mdx"),
            &format!("---\nid: {name}\nversion: 1.0.0\n---\n"),
        );
        repo.commit_all(name);
    }
    let output = run(repo.path(), &["--format", "json"]);
    let entries = lines(&output);
    let steps: Vec<&Value> = entries.iter().skip(1).collect();
    assert_eq!(steps.len(), 2, "{}", stderr(&output));
    for step in steps {
        let changes = &step["diff"]["schemaChanges"];
        assert_eq!(changes[0]["message"]["id"], "a2", "{step}");
        assert_eq!(changes[0]["change"], "modified");
        assert!(changes[0]["breaking"].is_null());
        assert_eq!(step["diff"]["resources"]["added"][0]["type"], "event");
    }
}

/// A range that starts after an invalid commit diffs its first commit against the last valid
/// one before it, as the walk does within a range: never against the invalid catalog (phantom
/// changes), and the entry names it (`against`).
#[test]
fn a_range_starting_after_an_invalid_commit_is_diffed_against_the_last_valid_one() {
    let repo = TestRepo::new();
    let event = "catalog/events/OrderCreated/index.mdx";
    repo.write_all(&[
        ("catalog/eventcatalog.config.js", "export default {};\n"),
        (event, EVENT),
        ("catalog/events/OrderCreated/schema.json", BASE),
        ("catalog/services/Payments/index.mdx", SERVICE),
    ]);
    let valid = repo.commit_all("valid");
    repo.write(event, "---\nid: [OrderCreated\n---\n");
    repo.commit_all("broken front matter");
    repo.write(event, EVENT);
    let fixed = repo.commit_all("fixed: the catalog is the valid one again");
    let output = run(&repo, &["HEAD^!", "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let entries = lines(&output);
    assert_eq!(commits(&entries), [fixed]);
    assert_eq!(entries[0]["against"], valid.as_str());
    assert_eq!(entries[0]["diff"]["refs"]["a"]["commit"], valid.as_str());
    let summary = &entries[0]["diff"]["summary"];
    assert_eq!(
        (
            summary["resourcesAdded"].as_u64(),
            summary["edgesAdded"].as_u64()
        ),
        (Some(0), Some(0)),
        "{summary}"
    );
}

/// `--breaking-only` and `--first-breaking` show breaks only: an invalid commit before the
/// break is left out (it counts, and shows, under `--fail-on unknown`, where it trips).
#[test]
fn breaks_only_leave_out_invalid_commits() {
    let repo = TestRepo::new();
    let event = "catalog/events/OrderCreated/index.mdx";
    let schema = "catalog/events/OrderCreated/schema.json";
    repo.write_all(&[
        ("catalog/eventcatalog.config.js", "export default {};\n"),
        (event, EVENT),
        (schema, BASE),
    ]);
    let valid = repo.commit_all("valid");
    repo.write(event, "---\nid: [OrderCreated\n---\n");
    let broken = repo.commit_all("broken front matter");
    repo.write(event, EVENT);
    repo.write(schema, NOTE_REQUIRED);
    let breaking = repo.commit_all("fixed, and note required");
    for flag in ["--first-breaking", "--breaking-only"] {
        let output = run(&repo, &[flag, "--format", "json"]);
        assert_eq!(output.status.code(), Some(1), "{flag}: {}", stderr(&output));
        assert_eq!(
            commits(&lines(&output)),
            std::slice::from_ref(&breaking),
            "{flag}"
        );
        let output = run(&repo, &[flag, "--format", "json", "--fail-on", "unknown"]);
        assert_eq!(output.status.code(), Some(1), "{flag}: {}", stderr(&output));
        assert_eq!(commits(&lines(&output))[0], broken, "{flag}");
    }
    // Under `--fail-on unknown` the invalid commit is what trips first: the walk stops there.
    let output = run(
        &repo,
        &[
            "--first-breaking",
            "--format",
            "json",
            "--fail-on",
            "unknown",
        ],
    );
    assert_eq!(commits(&lines(&output)), std::slice::from_ref(&broken));
    assert!(
        !stderr(&output).contains("never broke"),
        "{}",
        stderr(&output)
    );
    // A mistyped `--message` prints its error alone, not the invalid commit's entry first; a
    // good one shows that entry in its place.
    let output = run(&repo, &["--message", "OrderCreatd", "--format", "json"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        output.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    let output = run(&repo, &["--message", "OrderCreated", "--format", "json"]);
    let shown = commits(&lines(&output));
    assert_eq!(shown[shown.len() - 2..], [broken.clone(), breaking]);
    // `--strict` stops at the invalid commit before the message shows: its entry is printed.
    let range = format!("{valid}..HEAD");
    let args = [
        "--message",
        "OrderCreated",
        "--strict",
        "--format",
        "json",
        &range,
    ];
    let output = run(&repo, &args);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(commits(&lines(&output)), [broken]);
}

/// A step that breaks only against an earlier version (a transitive strategy) names the
/// message and direction on its timeline line, as a direct break does.
#[test]
fn a_transitive_break_is_named_on_the_timeline() {
    let repo = TestRepo::new();
    let old = "---\nid: OrderCreated\nversion: 0.9.0\nschemaPath: schema.json\n---\n";
    let only_pending = r#"{"type": "object", "properties": {"id": {"type": "string"}, "status": {"enum": ["pending"]}}, "required": ["id"]}"#;
    repo.write_all(&[
        ("catalog/eventcatalog.config.js", "export default {};\n"),
        ("catalog/events/OrderCreated/index.mdx", EVENT),
        ("catalog/events/OrderCreated/schema.json", BASE),
        ("catalog/events/OrderCreated/versioned/0.9.0/index.mdx", old),
        (
            "catalog/events/OrderCreated/versioned/0.9.0/schema.json",
            only_pending,
        ),
    ]);
    repo.commit_all("two versions");
    repo.write("catalog/events/OrderCreated/schema.json", WITH_NOTE);
    repo.commit_all("optional note");
    let output = run(&repo, &["HEAD^!", "--strategy", "forward-transitive"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let timeline = String::from_utf8_lossy(&output.stdout);
    assert!(
        timeline
            .lines()
            .next()
            .is_some_and(|line| line.ends_with("BREAKING OrderCreated (forward)")),
        "{timeline}"
    );
}

/// `--message` selects the message: a flow sharing its id is not it, and a service id is
/// refused as one.
#[test]
fn message_selects_messages_not_other_resources_with_the_id() {
    let repo = TestRepo::new();
    let flow =
        |version: &str| format!("---\nid: OrderCreated\nversion: {version}\nname: a flow\n---\n");
    repo.write_all(&[
        ("catalog/eventcatalog.config.js", "export default {};\n"),
        ("catalog/events/OrderCreated/index.mdx", EVENT),
        ("catalog/events/OrderCreated/schema.json", BASE),
        // Not the event's version: the SDK finds a content path by id and version.
        ("catalog/flows/OrderCreated/index.mdx", &flow("0.1.0")),
        ("catalog/services/Payments/index.mdx", SERVICE),
    ]);
    let added = repo.commit_all("event and flow");
    repo.write("catalog/flows/OrderCreated/index.mdx", &flow("0.2.0"));
    repo.commit_all("only the flow");
    let output = run(&repo, &["--message", "OrderCreated", "--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let entries = lines(&output);
    assert_eq!(commits(&entries), [added]);
    let kinds: Vec<&str> = entries[0]["diff"]["resources"]["added"]
        .as_array()
        .expect("added")
        .iter()
        .map(|r| r["type"].as_str().expect("a type"))
        .collect();
    assert_eq!(kinds, ["event"]);
    let output = run(&repo, &["--message", "Payments"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("`Payments` is a service, not an event, command or query"),
        "{}",
        stderr(&output)
    );
}

/// An acknowledged break is shown as acknowledged in `log` (text and JSON), as in the diff.
#[test]
fn acknowledged_breaks_are_shown_as_such() {
    let h = history();
    let (_, entries) = log_json(&h, &[]);
    let breaking = entries
        .iter()
        .find(|e| e["commit"] == h.first_break.as_str())
        .expect("the first break");
    let sarif = crate::binary(h.repo.path())
        .args([&format!("{}^!", h.first_break), "--strategy", "backward"])
        .args(["--format", "sarif"])
        .output()
        .expect("the binary runs");
    let sarif: Value = serde_json::from_slice(&sarif.stdout).expect("SARIF");
    let fingerprint = sarif["runs"][0]["results"][0]["partialFingerprints"]["catalogDiff/v2"]
        .as_str()
        .expect("a fingerprint")
        .to_owned();
    assert!(
        breaking["diff"].get("policy").is_none(),
        "no policy file yet"
    );
    let acked = crate::binary(h.repo.path())
        .args(["ack", &fingerprint, "--reason", "consumers migrated"])
        .output()
        .expect("the binary runs");
    assert_eq!(acked.status.code(), Some(0), "{}", stderr(&acked));
    h.repo.commit_all("acknowledged");
    let (_, entries) = log_json(&h, &[]);
    let breaking = entries
        .iter()
        .find(|e| e["commit"] == h.first_break.as_str())
        .expect("the first break");
    let breaks = &breaking["diff"]["policy"]["breaks"];
    assert_eq!(breaks[0]["fingerprint"], fingerprint.as_str());
    assert_eq!(breaks[0]["status"], "acknowledged");
    let output = run(h.repo.path(), &["--strategy", "backward"]);
    assert!(
        String::from_utf8_lossy(&output.stdout).contains(&format!(
            "fingerprint {fingerprint} (acknowledged: consumers migrated)"
        )),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    // `--first-breaking` stops where it broke, but an acknowledged break trips nothing.
    assert_eq!(breaks.as_array().map(Vec::len), Some(1), "{breaks}");
    let (output, entries) = log_json(&h, &["--first-breaking"]);
    assert_eq!(commits(&entries), std::slice::from_ref(&h.first_break));
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    // The whole walk names the acknowledgements no commit used, so stale ones can go.
    let (output, _) = log_json(&h, &[]);
    assert!(
        !stderr(&output).contains("match nothing"),
        "{}",
        stderr(&output)
    );
    let file = h.repo.path().join("catalog-diff.ack.toml");
    let acks = std::fs::read_to_string(&file).expect("written");
    let stale = "\n[[ack]]\nfingerprint = \"00112233445566778899aabb\"\nreason = \"gone\"\n";
    std::fs::write(&file, acks + stale).expect("write");
    h.repo.commit_all("a stale acknowledgement");
    let (output, _) = log_json(&h, &[]);
    assert!(
        stderr(&output).contains(
            "note: acknowledgements that match nothing in this walk: catalog-diff.ack.toml:"
        ),
        "{}",
        stderr(&output)
    );
    // With `--message`, acknowledgements of other messages are not looked at.
    let (output, _) = log_json(&h, &["--message", "OrderCreated"]);
    assert!(
        !stderr(&output).contains("match nothing"),
        "{}",
        stderr(&output)
    );
}

/// The catalog folder is found at the end of the range; when it lay elsewhere at the start
/// (it moved), a note says that part of the history is read as no catalog, and how to walk it.
#[test]
fn a_catalog_that_moved_is_noted() {
    let repo = TestRepo::new();
    repo.write_all(&[
        ("docs/eventcatalog.config.js", "export default {};\n"),
        ("docs/events/OrderCreated/index.mdx", EVENT),
        ("docs/events/OrderCreated/schema.json", BASE),
    ]);
    repo.commit_all("catalog in docs");
    repo.git(&["mv", "docs", "site"]);
    repo.commit_all("moved to site");
    let output = run(&repo, &[]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stderr(&output)
            .contains("note: the catalog is in `site` at the end of the range but in `docs` at ")
            && stderr(&output).contains("hint: walk that part with --dir docs"),
        "{}",
        stderr(&output)
    );
    let output = run(&repo, &["--dir", "site"]);
    assert!(!stderr(&output).contains("note: the catalog is in"));
    // Deleted at last: the walk reads the folder it was deleted from, and still notes the move.
    repo.git(&["rm", "-rq", "site"]);
    repo.commit_all("catalog deleted");
    let output = run(&repo, &[]);
    assert!(
        stderr(&output)
            .contains("note: the catalog is in `site` at the end of the range but in `docs` at "),
        "{}",
        stderr(&output)
    );
}

/// A range ending after the catalog was deleted reads the folder it was deleted from: each
/// entry is the diff of its commit, not of the repository root.
#[test]
fn a_deleted_catalog_is_read_where_it_was() {
    let repo = TestRepo::new();
    repo.write_all(&[
        (
            "docs/catalog/eventcatalog.config.js",
            "export default {};\n",
        ),
        ("docs/catalog/events/OrderCreated/index.mdx", EVENT),
        ("docs/catalog/events/OrderCreated/schema.json", BASE),
        ("docs/catalog/services/Payments/index.mdx", SERVICE),
        (
            "docs/catalog/teams/payments.mdx",
            "---\nid: payments\nname: Payments\n---\n",
        ),
        ("README.md", "hi\n"),
    ]);
    repo.commit_all("catalog in docs/catalog");
    repo.git(&["rm", "-rq", "docs/catalog"]);
    repo.commit_all("catalog deleted");
    let entries = lines(&run(&repo, &["--format", "json"]));
    assert_eq!(entries.len(), 2, "{entries:?}");
    let diff = crate::binary(repo.path())
        .args(["HEAD^!", "--format", "json"])
        .output()
        .expect("the binary runs");
    let diff: Value = serde_json::from_slice(&diff.stdout).expect("json");
    assert_eq!(entries[1]["diff"]["summary"], diff["summary"]);
    assert_eq!(diff["summary"]["resourcesRemoved"], 3, "{diff}");
}

/// `history = true` compares a diff's schemas with their git history; `log` judges each commit
/// against its parent, so it says it does not apply the setting rather than quietly skip it.
#[test]
fn the_configuration_history_setting_is_said_not_to_apply() {
    let h = history();
    h.repo.write(
        "catalog-diff.toml",
        "strategy = \"full-transitive\"\nhistory = true\n",
    );
    h.repo.commit_all("a policy comparing with the history");
    let output = run(h.repo.path(), &[]);
    assert!(
        stderr(&output).contains("note: `history = true` in the configuration is for the diff"),
        "{}",
        stderr(&output)
    );
}

/// git shows commits whose author line it cannot read in full or whose time zone is out of
/// range; `log` walks them too, saying what it could not read (it failed the whole range).
#[test]
fn commits_with_odd_author_lines_are_walked() {
    let h = history();
    let odd_commit = |parent: &str, tree: &str, author: &str, subject: &str| {
        let raw = format!(
            "tree {tree}\nparent {parent}\nauthor {author}\ncommitter C <c@c> 1700000000 +0000\n\n{subject}\n"
        );
        let file = tempfile::NamedTempFile::new().expect("a temporary file");
        std::fs::write(file.path(), raw).expect("written");
        let path = file.path().to_str().expect("utf-8");
        h.repo
            .git(&["hash-object", "-t", "commit", "-w", "--literally", path])
            .trim()
            .to_owned()
    };
    let tree = |rev: &str| h.repo.git(&["rev-parse", &format!("{rev}^{{tree}}")]);
    let base = h.repo.git(&["rev-parse", "HEAD~1"]);
    let no_date = odd_commit(base.trim(), tree("HEAD").trim(), "No Date <n@n>", "no date");
    let far_zone = odd_commit(
        &no_date,
        tree("HEAD~1").trim(),
        "Z <z@z> 1700000000 +9999",
        "far zone",
    );
    h.repo.git(&["update-ref", "HEAD", &far_zone]);
    let output = run(h.repo.path(), &["HEAD~2..HEAD", "--format", "json"]);
    assert_ne!(output.status.code(), Some(2), "{}", stderr(&output));
    let entries = lines(&output);
    let field = |n: usize, key: &str| entries[n][key].as_str().unwrap_or_default().to_owned();
    assert_eq!(entries.len(), 2, "{entries:?}");
    assert_eq!(
        (field(0, "subject"), field(0, "date"), field(0, "author")),
        ("no date".into(), "unknown".into(), "No Date <n@n>".into())
    );
    assert_eq!(
        (field(1, "subject"), field(1, "date")),
        ("far zone".into(), "2023-11-14T22:13:20+00:00".into())
    );
}

/// A `--against` commit whose catalog lies in another folder (it moved since) is read as an
/// empty catalog; a note says so, as the diff's does.
#[test]
fn a_baseline_with_the_catalog_elsewhere_is_noted() {
    let repo = TestRepo::new();
    repo.write("events/E/index.mdx", EVENT);
    repo.commit_all("the catalog at the root");
    repo.write("cat/eventcatalog.config.js", "export default {};\n");
    repo.git(&["mv", "events", "cat/events"]);
    repo.commit_all("the catalog moved to cat/");
    repo.write(
        "cat/events/F/index.mdx",
        "---\nid: F\nversion: 1.0.0\n---\n",
    );
    repo.commit_all("another file");
    let output = run(repo.path(), &["HEAD~1..HEAD", "--against", "HEAD~2"]);
    assert!(
        stderr(&output)
            .contains("note: the --against commit HEAD~2 has its catalog in `.`, not `cat`"),
        "{}",
        stderr(&output)
    );
}
