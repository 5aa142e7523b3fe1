//! `catalog-diff [RANGE]` from the command line on real temporary repositories: every RANGE
//! form, every format and every exit code.

use crate::support::TestRepo;
use crate::{json, run};

const EVENT: &str = "---\nid: OrderCreated\nversion: 1.0.0\nschemaPath: schema.json\n---\n";
const SERVICE: &str = "---\nid: Payments\nversion: 1.0.0\nowners:\n  - team-payments\nreceives:\n  - id: OrderCreated\n---\n";
const BEFORE: &str = r#"{"type": "object", "properties": {"id": {"type": "string"}, "status": {"enum": ["pending", "paid"]}}, "required": ["id"]}"#;
const COMPATIBLE: &str = r#"{"type": "object", "properties": {"id": {"type": "string"}, "note": {"type": "string"}, "status": {"enum": ["pending", "paid"]}}, "required": ["id"]}"#;
const BREAKING: &str = r#"{"type": "object", "properties": {"id": {"type": "string"}, "status": {"enum": ["pending", "paid"]}}}"#;

/// main: the event and its consumer; feature (branched off main): a breaking schema change.
fn repo() -> TestRepo {
    let repo = TestRepo::new();
    repo.write_all(&[
        ("events/OrderCreated/index.mdx", EVENT),
        ("events/OrderCreated/schema.json", BEFORE),
        ("services/Payments/index.mdx", SERVICE),
    ]);
    repo.commit_all("catalog");
    repo.git(&["switch", "-q", "-c", "feature"]);
    repo.write("events/OrderCreated/schema.json", BREAKING);
    repo.commit_all("drop required id");
    repo.git(&["switch", "-q", "main"]);
    repo
}

#[test]
fn two_dot_range_finds_the_breaking_change_and_who_is_hurt() {
    let repo = repo();
    let output = run(&repo, &["main..feature", "--format", "json"]);
    assert_eq!(output.status.code(), Some(1));
    let diff = json(&output);
    assert_eq!(diff["schemaVersion"], 1);
    assert_eq!(diff["refs"]["a"]["commit"], repo.rev("main"));
    assert_eq!(diff["refs"]["b"]["commit"], repo.rev("feature"));
    assert_eq!(diff["summary"]["schemaBreaking"], 1);
    let change = &diff["schemaChanges"][0];
    assert_eq!(change["direction"], "forward");
    assert_eq!(change["ops"][0]["kind"], "required.removed");
    assert_eq!(change["ops"][0]["path"], "/properties/id");
    assert_eq!(diff["impact"][0]["consumers"][0]["id"], "Payments");
    assert_eq!(
        diff["impact"][0]["consumers"][0]["owners"][0],
        "team-payments"
    );
    assert!(
        change
            .get("before")
            .and_then(|b| b.get("content"))
            .is_none()
    );
    // The keys in the reference's order, for consumers that compare the text.
    let text = String::from_utf8_lossy(&output.stdout);
    let change = &text[text.find("\"schemaChanges\"").expect("schema changes")..];
    let at = |key: &str| change.find(&format!("\"{key}\":")).expect(key);
    let keys = [
        "message",
        "change",
        "before",
        "after",
        "strategy",
        "breaking",
        "direction",
        "ops",
    ];
    assert!(
        keys.windows(2).all(|pair| at(pair[0]) < at(pair[1])),
        "{change}"
    );
}

/// The hook of a repository's first commit: the baseline is named for what it is, and its
/// emptiness is no surprise to note.
#[test]
fn the_first_commit_is_diffed_against_no_commit() {
    let repo = TestRepo::new();
    repo.write_all(&[
        ("events/OrderCreated/index.mdx", EVENT),
        ("events/OrderCreated/schema.json", BEFORE),
    ]);
    repo.git(&["add", "-A"]);
    let output = run(&repo, &["--staged"]);
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.starts_with("catalog-diff (no commit) -> staged\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("added event OrderCreated 1.0.0"),
        "{stdout}"
    );
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
    let diff = json(&run(&repo, &["--staged", "--format", "json"]));
    assert_eq!(diff["refs"]["a"]["commit"], "");
}

/// `catalog-diff main..feature | head -0`: the report cannot be written, and the exit code
/// is still the policy's (it was 0), with no panic on the closed stderr (it was 101).
#[test]
fn a_closed_pipe_keeps_the_policy_exit_code() {
    let repo = repo();
    assert_eq!(crate::run_unread(repo.path(), &["main..feature"]), Some(1));
    assert_eq!(
        crate::run_unread(repo.path(), &["main..feature", "--fail-on", "never"]),
        Some(0)
    );
}

#[test]
fn strategy_and_fail_on_set_the_exit_code() {
    let repo = repo();
    assert_eq!(
        run(&repo, &["main..feature", "--strategy", "backward"])
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        run(&repo, &["main..feature", "--strategy", "none"])
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        run(&repo, &["main..feature", "--fail-on", "never"])
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        run(&repo, &["main..feature", "--strategy", "sideways"])
            .status
            .code(),
        Some(2)
    );
    // A flag's value is quoted escaped: clap drops an escape sequence it prints raw, which
    // left `unknown strategy ``` with nothing to see.
    for flag in ["--strategy", "--proto-rules", "--max-file-size"] {
        let out = run(&repo, &["main..feature", flag, "\u{1b}[31mfull"]);
        assert_eq!(out.status.code(), Some(2), "{flag}");
        let said = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(said.contains("`\\u{1b}[31mfull`"), "{flag}: {said}");
    }
}

#[test]
fn three_dot_range_starts_at_the_merge_base() {
    let repo = repo();
    // main moves on with a compatible change; A...B still compares from where feature branched.
    repo.write("events/OrderCreated/schema.json", COMPATIBLE);
    repo.commit_all("add note");
    let from_base = json(&run(&repo, &["main...feature", "--format", "json"]));
    assert_eq!(from_base["refs"]["a"]["commit"], repo.rev("main~1"));
    let direct = json(&run(&repo, &["main..feature", "--format", "json"]));
    assert_eq!(direct["refs"]["a"]["commit"], repo.rev("main"));
}

#[test]
fn working_tree_staged_and_single_revision() {
    let repo = repo();
    assert_eq!(
        run(&repo, &[]).status.code(),
        Some(0),
        "clean tree: nothing to report"
    );
    repo.write("events/OrderCreated/schema.json", BREAKING);
    let worktree = run(&repo, &["--format", "json"]);
    assert_eq!(worktree.status.code(), Some(1));
    assert_eq!(json(&worktree)["refs"]["b"]["commit"], "worktree");
    assert_eq!(
        run(&repo, &["--staged"]).status.code(),
        Some(0),
        "nothing staged yet"
    );
    repo.git(&["add", "-A"]);
    let staged = run(&repo, &["--staged", "--format", "json"]);
    assert_eq!(staged.status.code(), Some(1));
    assert_eq!(json(&staged)["refs"]["b"]["commit"], "staged");
    let against_rev = run(&repo, &["main", "--format", "json"]);
    assert_eq!(json(&against_rev)["refs"]["a"]["commit"], repo.rev("main"));
    assert_eq!(
        run(&repo, &["diff", "main..feature"]).status.code(),
        Some(1),
        "the diff subcommand is the same"
    );
}

#[test]
fn every_format_renders() {
    let repo = repo();
    let text = String::from_utf8(run(&repo, &["main..feature"]).stdout).expect("utf-8");
    assert!(
        text.contains("BREAKING event OrderCreated 1.0.0 (forward)"),
        "{text}"
    );
    assert!(text.contains("Payments 1.0.0 (team-payments)"), "{text}");
    assert!(!text.contains('\x1b'), "no colour when NO_COLOR is set");
    let markdown = String::from_utf8(run(&repo, &["main..feature", "--format", "markdown"]).stdout)
        .expect("utf-8");
    assert!(
        markdown.starts_with("### catalog-diff: :x: **Breaking changes**"),
        "{markdown}"
    );
    let github = String::from_utf8(run(&repo, &["main..feature", "--format", "github"]).stdout)
        .expect("utf-8");
    assert!(
        github.starts_with("::error file=events/OrderCreated/schema.json,line=1,"),
        "{github}"
    );
    let colored = String::from_utf8(run(&repo, &["main..feature", "--color", "always"]).stdout)
        .expect("utf-8");
    assert!(colored.contains("\x1b[1;31m"), "{colored}");
    let with_content = json(&run(
        &repo,
        &[
            "main..feature",
            "--format",
            "json",
            "--include-schema-content",
        ],
    ));
    assert_eq!(
        with_content["schemaChanges"][0]["before"]["content"],
        BEFORE
    );
}

#[test]
fn a_catalog_only_on_one_side_is_an_empty_catalog() {
    let repo = TestRepo::new();
    repo.write("README.md", "nothing yet\n");
    repo.commit_all("start");
    repo.write_all(&[
        ("events/OrderCreated/index.mdx", EVENT),
        ("events/OrderCreated/schema.json", BEFORE),
    ]);
    repo.commit_all("catalog");
    let output = run(&repo, &["HEAD~1..HEAD", "--format", "json"]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(json(&output)["summary"]["resourcesAdded"], 1);
    assert!(String::from_utf8_lossy(&output.stderr).contains("empty catalog"));
}

#[test]
fn a_schema_that_stops_parsing_is_unknown_never_a_silent_pass() {
    let repo = repo();
    repo.write("events/OrderCreated/schema.json", "{\"type\": \"object\",");
    repo.commit_all("broken json");
    let output = run(
        &repo,
        &["HEAD~1..HEAD", "--format", "json", "--fail-on", "unknown"],
    );
    assert_eq!(output.status.code(), Some(1));
    let diff = json(&output);
    assert_eq!(diff["summary"]["schemaUnknown"], 1);
    assert_eq!(
        diff["schemaChanges"][0]["breaking"],
        serde_json::Value::Null
    );
    assert_eq!(run(&repo, &["HEAD~1..HEAD"]).status.code(), Some(0));
}

/// A schema file its message names but neither side has gets no verdict, and the reason says
/// so (not that the Index lacked content: the tool reads the files).
#[test]
fn a_schema_file_missing_on_both_sides_is_unknown_saying_so() {
    let repo = repo();
    repo.git(&["rm", "-q", "events/OrderCreated/schema.json"]);
    repo.commit_all("schema file gone");
    repo.write(
        "events/OrderCreated/index.mdx",
        &EVENT.replace("version: 1.0.0", "version: 1.0.0\nname: Order created"),
    );
    repo.commit_all("renamed");
    let output = run(&repo, &["HEAD~1..HEAD", "--format", "json"]);
    let diff = json(&output);
    assert_eq!(diff["summary"]["schemaUnknown"], 1, "{diff}");
    assert_eq!(
        diff["schemaChanges"][0]["unknownReason"],
        "`schema.json` is in neither catalog"
    );
}

/// That pair stays in the document, as the reference lists it, but it is no change: it trips
/// no `--fail-on unknown`, no report shows it as one without a verdict, and a note says why.
#[test]
fn a_schema_file_in_neither_catalog_trips_no_policy() {
    let repo = repo();
    repo.git(&["rm", "-q", "events/OrderCreated/schema.json"]);
    repo.commit_all("schema file gone");
    repo.write("README.md", "docs\n");
    repo.commit_all("docs only");
    let unknown = ["HEAD^!", "--fail-on", "unknown"];
    let output = run(&repo, &[&unknown[..], &["--format", "json"]].concat());
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(json(&output)["schemaChanges"][0]["change"], "modified");
    let text = run(&repo, &unknown);
    let text = String::from_utf8(text.stdout).expect("utf-8");
    assert!(!text.contains("NO VERDICT"), "{text}");
    assert!(
        text.contains("note: event OrderCreated 1.0.0 events/OrderCreated/schema.json is in neither catalog: no change"),
        "{text}"
    );
    assert!(text.contains("compatible: 0 schema change(s)"), "{text}");
    for format in ["github", "sarif", "markdown"] {
        let output = run(&repo, &[&unknown[..], &["--format", format]].concat());
        let shown = String::from_utf8(output.stdout).expect("utf-8");
        assert_eq!(output.status.code(), Some(0), "{format}: {shown}");
        assert!(
            !shown.contains("No verdict") && !shown.contains("no verdict"),
            "{format}: {shown}"
        );
    }
}

#[test]
fn catalog_problems_are_reported_with_their_side() {
    let repo = repo();
    repo.remove("events/OrderCreated/schema.json");
    repo.commit_all("lose the schema");
    let output = run(&repo, &["HEAD~1..HEAD", "--format", "json"]);
    let diff = json(&output);
    assert_eq!(diff["diagnostics"][0]["side"], "b");
    assert_eq!(
        diff["diagnostics"][0]["file"],
        "events/OrderCreated/index.mdx"
    );
    assert_eq!(
        diff["summary"]["schemaUnknown"], 1,
        "present on one side only: a null verdict"
    );
    let text = String::from_utf8(run(&repo, &["HEAD~1..HEAD"]).stdout).expect("utf-8");
    assert!(text.contains("Catalog problems"), "{text}");
}

#[test]
fn bad_ranges_are_errors() {
    let repo = repo();
    for range in ["nope..feature", "main..nope", "nope"] {
        let output = run(&repo, &[range]);
        assert_eq!(output.status.code(), Some(2), "{range}");
        assert!(
            String::from_utf8_lossy(&output.stderr).contains("nope"),
            "{range}"
        );
    }
    // An unset variable in `catalog-diff "$BASE"` is not "no RANGE" (HEAD against the working
    // tree, which would judge something else and pass).
    for range in ["", "  "] {
        let output = run(&repo, &[range]);
        assert_eq!(output.status.code(), Some(2), "{range:?}");
        assert!(
            String::from_utf8_lossy(&output.stderr).contains("an empty RANGE"),
            "{range:?}"
        );
    }
}

#[test]
fn a_merge_commit_diffs_against_its_first_parent() {
    let repo = repo();
    repo.write("services/Payments/notes.md", "docs only\n");
    repo.commit_all("docs on main");
    repo.git(&["merge", "-q", "--no-ff", "-m", "merge feature", "feature"]);
    let output = run(&repo, &["HEAD^1..HEAD", "--format", "json"]);
    assert_eq!(
        output.status.code(),
        Some(1),
        "the merge brings the breaking change into main"
    );
    assert_eq!(json(&output)["summary"]["schemaBreaking"], 1);
    assert_eq!(
        run(&repo, &["HEAD^2..HEAD"]).status.code(),
        Some(0),
        "against feature, only docs changed"
    );
}

/// A side that cannot be built shows every problem it has, errors first, and a schema file
/// that is a symbolic link is named once, as a link (it was also said not to exist); the
/// warnings the summary counted were left out.
#[test]
fn a_side_that_cannot_be_built_shows_its_warnings_too() {
    let repo = repo();
    repo.remove("events/OrderCreated/schema.json")
        .symlink("../../elsewhere.json", "events/OrderCreated/schema.json")
        .write(
            "events/OrderShipped/index.mdx",
            "---\nid: OrderShipped\nversion: 1.0.0\nschemaPath: missing.json\n---\n",
        );
    let output = run(&repo, &[]);
    assert_eq!(output.status.code(), Some(2));
    let message = String::from_utf8_lossy(&output.stderr);
    let link = message
        .find("OrderCreated/schema.json: a symbolic link")
        .expect(&message);
    let missing = message
        .find("`events/OrderShipped/missing.json` does not exist")
        .expect(&message);
    assert!(link < missing, "{message}");
    assert!(
        !message.contains("OrderCreated/schema.json` does not exist"),
        "{message}"
    );
    assert!(message.contains("1 error(s), 1 warning(s)"), "{message}");
}

/// A file broken on both sides is one problem, named once with both sides, and counted once.
#[test]
fn a_problem_on_both_sides_is_named_once() {
    let repo = repo();
    repo.write("events/Broken/index.mdx", "---\nid: [\n---\n");
    repo.commit_all("broken");
    repo.write("README.md", "unrelated\n");
    repo.commit_all("unrelated");
    let output = run(&repo, &["HEAD~1..HEAD"]);
    assert_eq!(output.status.code(), Some(2));
    let message = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        message.matches("events/Broken/index.mdx").count(),
        1,
        "{message}"
    );
    assert!(message.contains("; side b: "), "{message}");
    assert!(message.contains("1 error(s), 0 warning(s)"), "{message}");
}

/// A diff that cannot be made still annotates its problems for CI: each at its file and line.
#[test]
fn a_refused_diff_annotates_its_problems_for_ci() {
    let repo = repo();
    repo.write("events/Broken/index.mdx", "---\nid: [\n---\n");
    let output = run(&repo, &["--format", "github"]);
    assert_eq!(output.status.code(), Some(2));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.starts_with("::error file=events/Broken/index.mdx,line=3,title=catalog-diff%3A catalog problem::candidate: "),
        "{stdout}"
    );
    assert!(
        stdout.contains("::error title=catalog-diff%3A summary::1 error(s)"),
        "{stdout}"
    );
    let output = run(&repo, &["--format", "sarif"]);
    assert_eq!(output.status.code(), Some(2));
    let sarif = crate::json(&output);
    let result = &sarif["runs"][0]["results"][0];
    assert_eq!(result["level"], "error", "{sarif}");
    let location = &result["locations"][0]["physicalLocation"];
    assert_eq!(
        location["artifactLocation"]["uri"], "events/Broken/index.mdx",
        "{sarif}"
    );
    assert_eq!(location["region"]["startLine"], 3, "{sarif}");
}

/// A schema that does not parse has no verdict, annotated at the line where it goes wrong
/// (GitHub and SARIF), not at the top of the file.
#[test]
fn a_schema_without_a_verdict_is_annotated_at_its_problem_line() {
    let repo = repo();
    repo.write(
        "events/OrderCreated/schema.json",
        "{\n  \"type\": \"object\",\n  \"properties\": {\n    \"id\": \n}\n",
    );
    let output = run(&repo, &["--format", "github"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("::warning file=events/OrderCreated/schema.json,line=5,title=catalog-diff%3A event OrderCreated 1.0.0::No verdict"),
        "{stdout}"
    );
    let sarif = crate::json(&run(&repo, &["--format", "sarif"]));
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    let unknown = results
        .iter()
        .find(|r| r["ruleId"] == "schema.unknown")
        .expect("the change without a verdict");
    let location = &unknown["locations"][0]["physicalLocation"];
    assert_eq!(location["region"]["startLine"], 5, "{sarif}");
}

/// A change that repairs the baseline's errors is refused with them, and told so, with what to do.
#[test]
fn a_change_repairing_the_baseline_says_so() {
    let repo = repo();
    repo.write("events/Broken/index.mdx", "---\nid: [\n---\n");
    repo.commit_all("broken");
    repo.write(
        "events/Broken/index.mdx",
        "---\nid: Broken\nversion: 1.0.0\n---\n",
    );
    repo.commit_all("repaired");
    let output = run(&repo, &["HEAD~1..HEAD"]);
    assert_eq!(output.status.code(), Some(2));
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(
        message.contains("only the baseline (") && message.contains("so this change repairs them"),
        "{message}"
    );
    let output = run(&repo, &["HEAD~2..HEAD~1"]);
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(!message.contains("only the baseline"), "{message}");
}

/// `A...B` after criss-cross merges has two best merge bases: the diff uses the one git uses
/// and says so, as `git diff A...B` warns (it chose one without a word).
#[test]
fn several_merge_bases_are_named() {
    let repo = repo();
    repo.write("README.md", "notes\n");
    let on_main = repo.commit_all("notes");
    repo.git(&[
        "merge",
        "-q",
        "--no-ff",
        "feature",
        "-m",
        "main takes feature",
    ]);
    repo.git(&["switch", "-q", "feature"]);
    repo.git(&[
        "merge",
        "-q",
        "--no-ff",
        &on_main,
        "-m",
        "feature takes main",
    ]);
    let used = repo.git(&["merge-base", "main", "feature"]);
    for args in [&["main...feature"][..], &["log", "main...feature"]] {
        let output = run(&repo, args);
        assert_eq!(output.status.code(), Some(1), "{output:?}"); // the feature's break
        let message = String::from_utf8_lossy(&output.stderr);
        assert!(
            message.contains(&format!("`main...feature` has 2 merge bases; using {used}")),
            "{message}"
        );
    }
    let plain = run(&repo, &["main..feature"]);
    assert!(plain.stderr.is_empty(), "{plain:?}");
}

/// A checkout with CRLF line endings (`core.autocrlf`, Git for Windows' default) is what git
/// stages as LF: the working tree shows no change where `git status` shows none (every schema
/// was changed), and a real edit is still one.
#[test]
fn crlf_line_endings_of_a_clean_checkout_are_no_change() {
    let repo = repo();
    repo.git(&["config", "core.autocrlf", "true"]);
    let crlf = |text: &str| text.replace('\n', "\r\n");
    repo.write_all(&[
        ("events/OrderCreated/index.mdx", &crlf(EVENT)),
        ("services/Payments/index.mdx", &crlf(SERVICE)),
        ("events/OrderCreated/schema.json", &format!("{BEFORE}\r\n")),
    ]);
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-qm", "normalized by autocrlf"]);
    assert!(repo.git(&["status", "--porcelain"]).is_empty());
    let clean = run(&repo, &["--format", "json"]);
    assert_eq!(clean.status.code(), Some(0), "{clean:?}");
    assert_eq!(json(&clean)["schemaChanges"], serde_json::json!([]));
    assert_eq!(
        json(&run(&repo, &["index"]))["resources"],
        json(&run(&repo, &["index", "--worktree"]))["resources"]
    );

    repo.write(
        "events/OrderCreated/schema.json",
        &crlf(&format!("{BREAKING}\n")),
    );
    let edited = run(&repo, &["--format", "json"]);
    assert_eq!(edited.status.code(), Some(1), "{edited:?}");
    assert_eq!(json(&edited)["summary"]["schemaBreaking"], 1);
}

/// Where git keeps a file's bytes as they are (no `core.autocrlf`, or a `-text` attribute),
/// CRLF line endings are a change, as `git status` and the next commit say; a `text`
/// attribute normalises them again.
#[test]
fn crlf_line_endings_git_would_commit_are_a_change() {
    let repo = repo();
    let schema = "events/OrderCreated/schema.json";
    repo.write(schema, &format!("{BEFORE}\n"));
    repo.commit_all("a final newline");
    repo.write(schema, &format!("{BEFORE}\r\n"));
    assert!(!repo.git(&["status", "--porcelain"]).is_empty());
    let changes = |repo: &TestRepo| {
        json(&run(repo, &["--format", "json"]))["summary"]["schemaChanges"].clone()
    };
    assert_eq!(changes(&repo), 1);
    repo.git(&["config", "core.autocrlf", "true"]);
    repo.write(".gitattributes", "*.json -text\n");
    assert_eq!(changes(&repo), 1);
    repo.write(".gitattributes", "*.json -text\nevents/**/*.json text\n");
    repo.git(&["config", "core.autocrlf", "false"]);
    assert_eq!(changes(&repo), 0);
}

/// A diff across a move of the catalog folder reads the old side as empty: a note says where
/// its catalog was, since nothing is judged across the move.
#[test]
fn a_catalog_that_moved_between_the_sides_is_named() {
    let repo = TestRepo::new();
    repo.write_all(&[
        (
            "docs/catalog/eventcatalog.config.js",
            "export default {};\n",
        ),
        ("docs/catalog/events/OrderCreated/index.mdx", EVENT),
        ("docs/catalog/events/OrderCreated/schema.json", BEFORE),
    ]);
    repo.commit_all("catalog in docs");
    repo.git(&["mv", "docs/catalog", "catalog"]);
    repo.write("catalog/events/OrderCreated/schema.json", BREAKING);
    repo.commit_all("moved, and a break");
    let output = run(&repo, &["HEAD~1..HEAD"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("its catalog is in `docs/catalog` there: the catalog moved"),
        "{stderr}"
    );
    // A catalog added where there was none did not move.
    let repo = TestRepo::new();
    repo.write("README.md", "no catalog yet\n");
    repo.commit_all("readme");
    repo.write_all(&[
        ("cat/eventcatalog.config.js", "export default {};\n"),
        ("cat/events/OrderCreated/index.mdx", EVENT),
    ]);
    repo.commit_all("catalog");
    let output = run(&repo, &["HEAD~1..HEAD"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("has no catalog resources in `cat`"),
        "{stderr}"
    );
    assert!(!stderr.contains("moved"), "{stderr}");
}

/// A removed element of a JSON Schema list (here the first `oneOf` branch) is annotated at the
/// list it was in, which survives, not at the sibling that took its index in the candidate.
#[test]
fn a_removed_list_element_of_a_schema_is_placed_at_its_list() {
    let before = "{\n  \"type\": \"object\",\n  \"oneOf\": [\n    {\n      \"required\": [\"card\"]\n    },\n    {\n      \"required\": [\"iban\"]\n    }\n  ]\n}\n";
    let after = "{\n  \"type\": \"object\",\n  \"oneOf\": [\n    {\n      \"required\": [\"iban\"]\n    }\n  ]\n}\n";
    let repo = TestRepo::new();
    repo.write_all(&[
        ("events/OrderCreated/index.mdx", EVENT),
        ("events/OrderCreated/schema.json", before),
    ]);
    repo.commit_all("two ways to pay");
    repo.write("events/OrderCreated/schema.json", after);
    repo.commit_all("no more cards");
    let diff = json(&run(&repo, &["HEAD~1..HEAD", "--format", "json"]));
    let op = &diff["schemaChanges"][0]["ops"][0];
    assert_eq!(op["path"], "/oneOf/0", "{diff}");
    assert_eq!(op["op"], "remove", "{diff}");
    // Line 3 is `"oneOf": [`; line 4 now opens the `iban` branch.
    let github = String::from_utf8(run(&repo, &["HEAD~1..HEAD", "--format", "github"]).stdout)
        .expect("utf-8");
    assert!(
        github.starts_with("::error file=events/OrderCreated/schema.json,line=3,"),
        "{github}"
    );
    let sarif = json(&run(&repo, &["HEAD~1..HEAD", "--format", "sarif"]));
    let location = &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
    assert_eq!(location["region"]["startLine"], 3, "{sarif}");
    // Inside a branch that survives, the walker's index names the branch as it is now: the
    // place is the nearest node left of the removed property, the branch's `properties`
    // (line 5), not the list.
    let closed = "{\n  \"type\": \"object\",\n  \"oneOf\": [\n    {\n      \"properties\": {\n        \"a\": {\"type\": \"string\"}\n      },\n      \"additionalProperties\": false\n    }\n  ]\n}\n";
    repo.write(
        "events/OrderCreated/schema.json",
        &closed.replace(
            "\"a\": {\"type\": \"string\"}",
            "\"a\": {\"type\": \"string\"},\n        \"b\": {\"type\": \"string\"}",
        ),
    );
    repo.commit_all("closed, with b");
    repo.write("events/OrderCreated/schema.json", closed);
    repo.commit_all("b removed");
    let github = String::from_utf8(run(&repo, &["HEAD~1..HEAD", "--format", "github"]).stdout)
        .expect("utf-8");
    assert!(
        github.starts_with("::error file=events/OrderCreated/schema.json,line=5,"),
        "{github}"
    );
}

/// A schema outside its message's folder (`schemaPath: ../../shared/s.json`) is named by its
/// catalog path, and placed at its op's line, in every report: the diff reads it there.
#[test]
fn a_schema_outside_its_message_folder_is_named_by_its_catalog_path() {
    let event = EVENT.replace("schema.json", "../../shared/s.json");
    let before = "{\n  \"type\": \"object\",\n  \"properties\": {\"id\": {\"type\": \"string\"}},\n  \"required\": [\"id\"]\n}\n";
    let repo = TestRepo::new();
    repo.write_all(&[
        ("events/OrderCreated/index.mdx", &event),
        ("shared/s.json", before),
    ]);
    repo.commit_all("a shared schema");
    repo.write(
        "shared/s.json",
        &before.replace("\"string\"", "\"integer\""),
    );
    repo.commit_all("id is a number");
    let args = ["HEAD~1..HEAD", "--format"];
    let github = String::from_utf8_lossy(&run(&repo, &[&args[..], &["github"]].concat()).stdout)
        .into_owned();
    assert!(
        github.starts_with("::error file=shared/s.json,line=3,"),
        "{github}"
    );
    let sarif = json(&run(&repo, &[&args[..], &["sarif"]].concat()));
    let location = &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
    assert_eq!(
        location["artifactLocation"]["uri"], "shared/s.json",
        "{sarif}"
    );
    assert_eq!(location["region"]["startLine"], 3, "{sarif}");
    let stdout = String::from_utf8_lossy(&run(&repo, &["HEAD~1..HEAD"]).stdout).into_owned();
    assert!(stdout.contains("  shared/s.json\n"), "{stdout}");
}

/// Teams whose `id` is a YAML number (the SDK indexes `id: 42` as the number 42): each is its
/// own resource, named by the id's text. Both were `id: ""` and one key, so renaming team 42
/// was no change.
#[test]
fn teams_with_numeric_ids_stay_apart() {
    let repo = TestRepo::new();
    repo.write_all(&[
        (
            "events/E/index.mdx",
            "---\nid: E\nname: E\nversion: 1.0.0\n---\n",
        ),
        ("teams/42.mdx", "---\nid: 42\nname: Team 42\n---\n"),
        ("teams/7.mdx", "---\nid: 7\nname: Team 7\n---\n"),
    ]);
    repo.commit_all("teams");
    repo.write("teams/42.mdx", "---\nid: 42\nname: Team forty-two\n---\n");
    repo.commit_all("rename team 42");
    let added = json(&run(&repo, &["HEAD~1^!", "--format", "json"]));
    let teams: Vec<&serde_json::Value> = added["resources"]["added"]
        .as_array()
        .expect("added")
        .iter()
        .filter(|r| r["type"] == "team")
        .map(|r| &r["id"])
        .collect();
    assert_eq!(teams, ["42", "7"]);
    let renamed = json(&run(&repo, &["HEAD~1..HEAD", "--format", "json"]));
    let changed = &renamed["resources"]["changed"];
    assert_eq!(changed.as_array().map(Vec::len), Some(1), "{changed}");
    assert_eq!(changed[0]["id"], "42");
    assert_eq!(changed[0]["fields"], serde_json::json!(["name"]));
}

/// A monorepo with code in `services/` and the catalog in `eventcatalog/`: detection takes the
/// root, and a plain docs page under `services/` stops the diff. The failure says which folder
/// was taken and points at `--dir`.
#[test]
fn a_root_taken_over_a_config_folder_is_named_when_the_diff_fails() {
    let repo = TestRepo::new();
    repo.write_all(&[
        ("services/billing/src/main.go", "package main\n"),
        (
            "eventcatalog/eventcatalog.config.js",
            "module.exports = {}\n",
        ),
        (
            "eventcatalog/events/E/index.mdx",
            "---\nid: E\nname: E\nversion: 1.0.0\n---\n",
        ),
    ]);
    repo.commit_all("monorepo");
    repo.write("services/billing/docs/index.md", "# Billing docs\n");
    repo.commit_all("docs");
    let out = run(&repo, &["HEAD~1..HEAD"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("taken to be the repository root, which holds `services/`, but `eventcatalog/` holds an eventcatalog.config file"),
        "{stderr}"
    );
    assert!(stderr.contains("pass `--dir eventcatalog`"), "{stderr}");
}
