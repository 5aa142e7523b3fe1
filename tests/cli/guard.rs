//! The guard never says "fine" when it should not, never prints forgeable catalog text raw, and
//! reads bounded input (issue #20): one test per item, each on a scripted repository.

use std::path::Path;

use crate::run;
use crate::support::TestRepo;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

const ORDERS: &str =
    "---\nid: Orders\nversion: 1.0.0\nowners:\n  - core\nsends:\n  - id: OrderPlaced\n---\n";
const BILLING: &str = "---\nid: Billing\nversion: 1.0.0\nreceives:\n  - id: OrderPlaced\n---\n";
const EVENT: &str = "---\nid: OrderPlaced\nversion: 1.0.0\nschemaPath: schema.json\n---\n";
const SCHEMA: &str =
    r#"{"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}"#;

/// A catalog with a producer, a consumer and one event, committed on `main`.
fn catalog() -> TestRepo {
    let repo = TestRepo::new();
    repo.write_all(&[
        ("services/Orders/index.mdx", ORDERS),
        ("services/Billing/index.mdx", BILLING),
        ("events/OrderPlaced/index.mdx", EVENT),
        ("events/OrderPlaced/schema.json", SCHEMA),
    ]);
    repo.commit_all("the catalog");
    repo
}

#[test]
fn item_1_a_missing_dir_or_message_is_an_error_naming_what_exists() {
    let repo = catalog();
    let path = repo.path();
    for args in [
        &["index", "--dir", "nosuch"][..],
        &["log", "--dir", "nosuch"],
        &["log", "--dir", "nosuch", "--strict"],
        &["index", "--dir", "events/OrderPlaced/schema.json"],
    ] {
        let out = run(&path, args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(text(&out.stderr).contains("does not exist"), "{args:?}");
    }
    // A folder that is there but holds no catalog on either side is no empty green diff.
    repo.write("teams/core.mdx", "---\nid: core\nname: Core\n---\n");
    repo.commit_all("a team");
    let out = run(&path, &["--dir", "teams", "HEAD~1..HEAD"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("`teams` holds no catalog resources on either side"),
        "{}",
        text(&out.stderr)
    );
    // No catalog anywhere (the wrong repository): an error, not "compatible".
    let elsewhere = TestRepo::new();
    elsewhere.write("README.md", "no catalog here\n");
    elsewhere.commit_all("readme");
    elsewhere.write("README.md", "still none\n");
    for args in [
        &["HEAD~0..HEAD"][..],
        &["HEAD~0..HEAD", "--format", "github"],
    ] {
        let out = run(&elsewhere, args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stdout)
        );
        assert!(
            text(&out.stderr).contains("no EventCatalog catalog found"),
            "{}",
            text(&out.stderr)
        );
    }
    // But a commit in such a repository, where a hook runs, is not refused for it.
    elsewhere.git(&["add", "README.md"]);
    let out = run(&elsewhere, &["--staged"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("no EventCatalog catalog found"));
    assert_eq!(run(&elsewhere, &[]).status.code(), Some(2));
    let out = run(&path, &["index", "--dir", "event"]);
    assert!(
        text(&out.stderr).contains("did you mean `events`?"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&path, &["log", "--message", "OrderPlacd"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("no message `OrderPlacd` in the range") && stderr.contains("`OrderPlaced`"),
        "{stderr}"
    );
    assert_eq!(
        run(&path, &["log", "--message", "OrderPlaced"])
            .status
            .code(),
        Some(0)
    );
}

#[test]
fn item_2_an_invalid_commit_is_an_entry_without_phantom_removals() {
    let repo = catalog();
    repo.write("events/OrderPlaced/index.mdx", "---\nid: [unclosed\n---\n");
    repo.commit_all("broken front matter");
    repo.write("events/OrderPlaced/index.mdx", EVENT);
    repo.commit_all("fixed");
    let out = run(&repo, &["log", "--format", "json"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    let entries: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert_eq!(entries.len(), 3, "{stdout}");
    assert_eq!(entries[1]["invalid"], true);
    assert!(entries[1].get("diff").is_none());
    assert!(
        entries[1]["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("front matter")
    );
    assert_eq!(entries[2]["against"], entries[0]["commit"]);
    assert_eq!(entries[2]["diff"]["summary"]["breaking"], false);
    assert!(!stdout.contains("message_removed"));
    let out = run(&repo, &["log"]);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("invalid catalog: 1 error(s)"), "{stdout}");
    assert!(!stdout.contains("error: error:"), "{stdout}");
    assert_eq!(
        run(&repo, &["log", "--fail-on", "unknown"]).status.code(),
        Some(1)
    );
}

#[test]
fn item_3_github_annotates_removals_and_edges() {
    let repo = catalog();
    repo.git(&["rm", "-rq", "events/OrderPlaced"]);
    repo.commit("remove OrderPlaced");
    let out = run(&repo, &["HEAD~1..HEAD", "--format", "github"]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("::error file=services/Billing/index.mdx,title=catalog-diff%3A event OrderPlaced 1.0.0::Removed while in use"),
        "{stdout}"
    );
    let repo = catalog();
    repo.write(
        "services/Billing/index.mdx",
        "---\nid: Billing\nversion: 1.0.0\n---\n",
    );
    repo.commit_all("Billing stops receiving");
    let out = run(&repo, &["HEAD~1..HEAD", "--format", "github"]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("::notice file=services/Billing/index.mdx"),
        "{stdout}"
    );
    assert!(
        stdout.contains("::notice title=catalog-diff%3A summary::"),
        "{stdout}"
    );
}

#[test]
fn item_4_front_matter_the_sdk_drops_is_a_warning_and_strict_fails() {
    let repo = catalog();
    repo.write(
        "services/Billing/index.mdx",
        "---\nid: Billing\nversion: 1.0.0\nwritesTo: OrderPlaced\n---\n",
    );
    repo.write(
        "events/OrderPlaced/index.mdx",
        "---\nid: OrderPlaced\n---\nversion: 1.0.0\n---\n",
    );
    repo.commit_all("dropped fields");
    let out = run(&repo, &["index"]);
    assert_eq!(out.status.code(), Some(0));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("services/Billing/index.mdx:4"), "{stderr}");
    assert!(
        stderr.contains("`writesTo` is the string `OrderPlaced`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("events/OrderPlaced/index.mdx:4"),
        "{stderr}"
    );
    assert!(
        stderr.contains("`version` is below the closing `---`"),
        "{stderr}"
    );
    assert_eq!(run(&repo, &["index", "--strict"]).status.code(), Some(2));
}

/// `receives` written as a mapping (the `-` forgotten): the SDK builds the Index, then its
/// `resolve()` throws a TypeError, so no diff can be made; it was a warning and the consumer
/// silently dropped.
#[test]
fn a_pointer_list_the_sdk_cannot_resolve_stops_the_diff() {
    let repo = catalog();
    repo.write(
        "services/Billing/index.mdx",
        "---\nid: Billing\nversion: 1.0.0\nreceives:\n  id: OrderPlaced\n  version: 1.0.0\n---\n",
    );
    repo.commit_all("receives as a mapping");
    let out = run(&repo, &["HEAD~1..HEAD"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("error: services/Billing/index.mdx:4: `receives`: `receives` of `Billing` is a single mapping"),
        "{stderr}"
    );
    assert!(stderr.contains("TypeError"), "{stderr}");
}

#[test]
fn item_5_the_summary_names_what_broke_and_sections_have_titles() {
    let repo = catalog();
    repo.git(&["rm", "-rq", "events/OrderPlaced"]);
    repo.commit("remove OrderPlaced");
    let out = run(&repo, &["HEAD~1..HEAD"]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("\nMessages removed while in use\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("BREAKING: 1 message(s) removed while in use;"),
        "{stdout}"
    );
    assert!(
        stdout.contains("  removed event OrderPlaced 1.0.0"),
        "{stdout}"
    );
    let out = run(&repo, &["HEAD~1..HEAD", "--format", "markdown"]);
    assert!(text(&out.stdout).contains("#### Messages removed while in use"));
}

#[test]
fn item_5_schema_files_are_shown_by_their_catalog_path() {
    let repo = catalog();
    repo.write(
        "events/OrderPlaced/schema.json",
        r#"{"type": "object", "properties": {"id": {"type": "string"}}}"#,
    );
    repo.commit_all("id optional");
    let stdout = text(&run(&repo, &["HEAD~1..HEAD"]).stdout);
    assert!(
        stdout.contains("(forward)  events/OrderPlaced/schema.json"),
        "{stdout}"
    );
    assert!(
        stdout.contains("    breaks /properties/id [required.removed]"),
        "{stdout}"
    );
}

#[test]
fn item_6_catalog_text_cannot_forge_output() {
    let repo = catalog();
    let evil = "---\nid: \"Evil\\n::error file=x::forged\\u001b[2J\\u0007\"\nversion: 1.0.0\n---\n";
    repo.write("events/Evil/index.mdx", evil);
    repo.commit_all("an evil id");
    for format in ["text", "markdown", "github"] {
        let out = run(&repo, &["HEAD~1..HEAD", "--format", format]);
        let stdout = text(&out.stdout);
        assert!(
            !stdout.contains('\u{1b}') && !stdout.contains('\u{7}'),
            "{format}: {stdout}"
        );
        assert!(!stdout.contains("\n::error file=x"), "{format}: {stdout}");
        assert!(
            stdout.contains("Evil\\u{a}") || stdout.contains("Evil\\\\u{a}"),
            "{format}: {stdout}"
        );
    }
}

/// Catalog text cannot forge output outside the diff reports either: `log`'s timeline lines
/// and every command's catalog problems (a folder name is catalog text too).
#[test]
fn item_6_catalog_text_cannot_forge_log_lines_or_problem_reports() {
    let repo = catalog();
    let evil = "---\nid: \"Evil\\u001b[2J\\u0007\"\nversion: 1.0.0\nschemaPath: schema.json\n---\n";
    repo.write_all(&[
        ("events/Evil/index.mdx", evil),
        ("events/Evil/schema.json", SCHEMA),
    ]);
    repo.commit_all("an evil id");
    repo.write("events/Evil/schema.json", r#"{"type": "string"}"#);
    repo.commit_all("its schema breaks");
    let stdout = text(&run(&repo, &["log"]).stdout);
    assert!(stdout.contains("BREAKING Evil\\u{1b}[2J\\u{7}"), "{stdout}");
    repo.write("events/Bad\u{1b}[2J/index.mdx", "---\nid: [unclosed\n---\n");
    repo.commit_all("an evil folder");
    for args in [&["HEAD~1..HEAD"][..], &["index"], &["log"]] {
        let out = run(&repo, args);
        for output in [text(&out.stdout), text(&out.stderr)] {
            assert!(
                !output.contains('\u{1b}') && !output.contains('\u{7}'),
                "{args:?}: {output}"
            );
        }
        let all = text(&out.stdout) + &text(&out.stderr);
        assert!(
            all.contains("events/Bad\\u{1b}[2J/index.mdx"),
            "{args:?}: {all}"
        );
    }
    // An error names the path too: a blob missing from the object database.
    let schema = "events/Evil/schema.json";
    let id = repo.git(&["rev-parse", &format!("HEAD:{schema}")]);
    repo.git(&["mv", "events/Evil", "events/Evil\u{1b}[2J"]);
    repo.commit_all("an evil folder holding a schema");
    repo.remove_object(id.trim());
    let out = run(&repo, &["index"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(!stderr.contains('\u{1b}'), "{stderr}");
    assert!(
        stderr.contains("events/Evil\\u{1b}[2J/schema.json"),
        "{stderr}"
    );
}

/// What the user typed is escaped in errors too: a newline in a path cannot start a forged line.
#[test]
fn item_6_paths_given_on_the_command_line_cannot_forge_error_lines() {
    let repo = catalog();
    let evil = "x\u{1b}[31m\nerror: FORGED";
    let missing = format!("/nonexistent/{evil}");
    let schema = format!("{missing}.json");
    let config = format!("{missing}.toml");
    for args in [
        &["--dir", evil][..],
        &["-C", &missing],
        &["schema", &schema, "b.json"],
        &["--config", &config],
    ] {
        let out = run(&repo, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(!stderr.contains('\u{1b}'), "{args:?}: {stderr}");
        assert!(!stderr.contains("\nerror: FORGED"), "{args:?}: {stderr}");
        assert!(
            stderr.contains("x\\u{1b}[31m\\u{a}error: FORGED"),
            "{args:?}: {stderr}"
        );
    }
}

/// Text a file holds is escaped where an error quotes it: a newline in a configuration value,
/// an acknowledgement's `expires`, a YAML tag or an Avro type name cannot start a line of its own
/// (a forged `::error` annotation in CI); the tool's own hint lines stay.
#[test]
fn item_6_file_text_quoted_in_an_error_cannot_forge_error_lines() {
    let forged = "::error::FORGED";
    let assert_escaped = |what: &str, stderr: &str| {
        assert!(!stderr.contains(&format!("\n{forged}")), "{what}: {stderr}");
        assert!(
            stderr.contains(&format!("\\u{{a}}{forged}")),
            "{what}: {stderr}"
        );
    };
    let repo = catalog();
    repo.write(
        "catalog-diff.toml",
        &format!("strategy = \"ful\\n{forged}\"\n"),
    );
    let out = run(&repo, &[]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert_escaped("catalog-diff.toml", &stderr);
    assert!(
        stderr.contains("\n  hint: the README's Policy section"),
        "{stderr}"
    );
    repo.remove("catalog-diff.toml");
    repo.write(
        "catalog-diff.ack.toml",
        &format!("[[ack]]\nfingerprint = \"00112233445566778899aabb\"\nreason = \"ok\"\nexpires = \"2027-01-01\\n{forged}\"\n"),
    );
    repo.commit_all("an acknowledgement");
    for args in [&[][..], &["log"]] {
        let out = run(&repo, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_escaped("catalog-diff.ack.toml", &text(&out.stderr));
    }

    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, content: &str| std::fs::write(dir.path().join(name), content).unwrap();
    write("plain.yaml", "type: object\n");
    write(
        "tagged.yaml",
        &format!("type: object\nproperties:\n  a: !x%0A{forged} {{type: integer}}\n"),
    );
    write("int.avsc", "\"int\"");
    write(
        "record.avsc",
        &format!(
            r#"{{"type":"record","name":"R","fields":[{{"name":"a","type":"x\n{forged}"}}]}}"#
        ),
    );
    write(
        "spec.yaml",
        &format!("asyncapi: 3.0.0\ninfo: !x%0A{forged} {{title: t, version: \"1\"}}\n"),
    );
    for args in [
        ["schema", "plain.yaml", "tagged.yaml"],
        ["schema", "int.avsc", "record.avsc"],
        ["spec", "spec.yaml", "spec.yaml"],
    ] {
        let out = run(dir.path(), &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_escaped(&args.join(" "), &text(&out.stderr));
    }
}

/// The notes printed before a run goes on or fails escape repository text too: a commit subject
/// at the edge of a shallow clone, and a folder holding an eventcatalog.config file.
#[test]
fn item_6_repository_text_in_notes_cannot_forge_output() {
    let repo = catalog();
    repo.write("events/OrderPlaced/schema.json", r#"{"type": "object"}"#);
    repo.commit_all("subject \u{1b}]0;title\u{7}\rwith controls");
    let shallow = repo.clone_with(&["--depth", "1", "--no-local"]);
    let stderr = text(&run(shallow.path(), &["log"]).stderr);
    assert!(!stderr.contains(['\u{1b}', '\u{7}', '\r']), "{stderr}");
    assert!(
        stderr.contains("note: history ends at")
            && stderr.contains("subject \\u{1b}]0;title\\u{7}\\u{d}with"),
        "{stderr}"
    );

    let repo = TestRepo::new();
    repo.write_all(&[
        (
            "docs\u{1b}[31m/eventcatalog.config.js",
            "module.exports = {}\n",
        ),
        ("docs\u{1b}[31m/events/E/index.mdx", EVENT),
        ("events/Foo/index.mdx", "---\nid: Foo\nname: [bad\n---\n"),
    ]);
    repo.commit_all("a catalog below a broken root");
    let stderr = text(&run(&repo, &[]).stderr);
    assert!(!stderr.contains('\u{1b}'), "{stderr}");
    assert!(
        stderr.contains("but `docs\\u{1b}[31m/` holds an eventcatalog.config file"),
        "{stderr}"
    );
}

#[test]
fn item_7_input_is_bounded() {
    let out = run(Path::new("/"), &["schema", "/dev/zero", "/dev/zero"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("larger than 67108864 bytes"));
    let out = run(
        Path::new("/"),
        &[
            "schema",
            "--max-file-size",
            "1K",
            "/dev/urandom",
            "/dev/zero",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--max-file-size"));
    let repo = catalog();
    repo.write("events/OrderPlaced/schema.json", &" ".repeat(5000));
    repo.commit_all("a large schema");
    let out = run(&repo, &["index", "--max-file-size", "4K"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("events/OrderPlaced/schema.json") && stderr.contains("5000 bytes"),
        "{stderr}"
    );
    assert_eq!(
        run(&repo, &["index", "--max-file-size", "1M"])
            .status
            .code(),
        Some(0)
    );
    let out = run(&repo, &["index", "--max-file-size", "lots"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn item_9_and_10_nesting_and_byte_order_marks_are_named() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut deep = String::from(r#"{"type":"object""#);
    for _ in 0..64 {
        deep.push_str(r#","properties":{"a":{"type":"object""#);
    }
    deep.push_str(&"}}".repeat(64));
    deep.push('}');
    let deep_path = dir.path().join("deep.json");
    std::fs::write(&deep_path, &deep).expect("write");
    let shown = deep_path.to_str().expect("utf-8");
    let out = run(dir.path(), &["schema", shown, shown]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("nests deeper than 127 levels") && !stderr.contains("not valid JSON"),
        "{stderr}"
    );
    // Only the after file nests too deep: it is the one named.
    let flat = dir.path().join("flat.json");
    std::fs::write(&flat, r#"{"type": "object"}"#).expect("write");
    let flat_shown = flat.to_str().expect("utf-8");
    let out = run(dir.path(), &["schema", flat_shown, shown]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(&format!("{shown}: schema nests deeper than 127 levels"))
            && !stderr.contains(flat_shown),
        "{stderr}"
    );
    // Two bad files: both are named.
    let cut = dir.path().join("cut.json");
    std::fs::write(&cut, r#"{"type":"#).expect("write");
    let binary = dir.path().join("binary.json");
    std::fs::write(&binary, b"\xff\xfe{}").expect("write");
    let out = run(
        dir.path(),
        &[
            "schema",
            cut.to_str().expect("utf-8"),
            binary.to_str().expect("utf-8"),
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("cut.json:1:9: the before schema is not valid JSON")
            && stderr.contains("binary.json:1:1: the after schema is not UTF-8 text"),
        "{stderr}"
    );
    // YAML nested too deep is named as such, with its line, never as a syntax error.
    for depth in [200, 100_000] {
        let yaml = dir.path().join("deep.yaml");
        let nested = format!("{}1{}", "{a: ".repeat(depth), "}".repeat(depth));
        std::fs::write(&yaml, format!("type: object\nproperties:\n  x: {nested}\n")).unwrap();
        let out = run(dir.path(), &["schema", "flat.json", "deep.yaml"]);
        assert_eq!(out.status.code(), Some(2));
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains("deep.yaml: schema nests deeper than 128 levels at line 3")
                && !stderr.contains("not valid YAML"),
            "{stderr}"
        );
    }
    // One that does not parse and one nested too deep: both are named, before first.
    for (before, after) in [(&cut, &deep_path), (&deep_path, &cut)] {
        let out = run(
            dir.path(),
            &[
                "schema",
                before.to_str().expect("utf-8"),
                after.to_str().expect("utf-8"),
            ],
        );
        assert_eq!(out.status.code(), Some(2));
        let stderr = text(&out.stderr);
        let (cut_at, deep_at) = (stderr.find("cut.json:1:9"), stderr.find("nests deeper"));
        assert!(cut_at.is_some() && deep_at.is_some(), "{stderr}");
        assert_eq!(cut_at < deep_at, before == &cut, "{stderr}");
    }
    // A byte order mark is read as the diff reads it: JSON refuses it (as `JSON.parse` does,
    // naming it), YAML, Avro and Protobuf skip it (buf's compiler does).
    for (name, body, code) in [
        ("bom.json", r#"{"type": "string"}"#, 2),
        ("bom.yaml", "type: string\n", 0),
        ("bom.avsc", r#""string""#, 0),
        (
            "bom.proto",
            "syntax = \"proto3\";\nmessage E { string a = 1; }\n",
            0,
        ),
    ] {
        std::fs::write(dir.path().join(name), format!("\u{feff}{body}")).expect("write");
        let out = run(dir.path(), &["schema", name, name]);
        assert_eq!(out.status.code(), Some(code), "{name}");
        if code == 2 {
            let stderr = text(&out.stderr);
            assert!(stderr.contains("byte order mark (BOM)"), "{stderr}");
        }
    }
}

/// A schema file that is not UTF-8 text is read as the SDK reads it, each bad sequence as
/// U+FFFD, and judged so, as `@eventcatalog/diff` judges it: two enum values that differ only
/// in such a byte are a changed file (its hash is of the bytes) that reads the same, so it is
/// compatible; a warning names the file, line and column. The same with the schema text in the
/// Index (`--include-schema-content`), which is read the same way.
#[test]
fn a_schema_that_is_not_utf8_is_judged_as_the_sdk_reads_it() {
    let repo = catalog();
    let schema = |byte: u8| {
        let mut bytes = br#"{"type": "string",
  "enum": ["a"#
            .to_vec();
        bytes.extend([byte, b'"', b']', b'}']);
        bytes
    };
    let path = repo.path().join("events/OrderPlaced/schema.json");
    std::fs::write(&path, schema(0xfe)).expect("write");
    repo.commit_all("a byte that is not UTF-8");
    std::fs::write(&path, schema(0xff)).expect("write");
    for args in [&["--fail-on", "unknown"][..], &["--include-schema-content"]] {
        let out = run(repo.path(), args);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
        let stdout = text(&out.stdout);
        assert!(
            stdout.contains(
                "both sides: warning: events/OrderPlaced/schema.json:2:14: `schemas`: the schema is not UTF-8 text from byte 32 on; it is read with U+FFFD there"
            ),
            "{stdout}"
        );
        assert!(
            stdout.contains("1 schema change(s) (0 breaking, 0 unknown)"),
            "{stdout}"
        );
    }
    // A change of structure in such a file is judged.
    let mut broken = schema(0xff);
    broken.splice(10..16, *b"number");
    std::fs::write(&path, broken).expect("write");
    let out = run(repo.path(), &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains("[type.changed]"));
}

/// A file or folder whose name is not UTF-8 text cannot be named by any catalog file: each way
/// of reading a side (a commit, the index, the work tree) reports it by its path as an error of
/// the catalog, beside the catalog's other problems, instead of decoding two such names to one
/// and losing a resource.
// Linux: macOS file systems refuse such names.
#[cfg(target_os = "linux")]
#[test]
fn a_name_that_is_not_utf8_is_an_error_naming_it() {
    use std::os::unix::ffi::OsStrExt;
    let repo = catalog();
    let folder = repo
        .path()
        .join("events")
        .join(std::ffi::OsStr::from_bytes(b"X\xfe"));
    std::fs::create_dir_all(&folder).expect("mkdir");
    std::fs::write(folder.join("index.mdx"), EVENT.replace("OrderPlaced", "X")).expect("write");
    repo.commit_all("a folder whose name is not UTF-8");
    for args in [&["index"][..], &["--staged"], &[]] {
        let out = run(repo.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains("events/X\u{fffd}") && stderr.contains("is not UTF-8 text"),
            "{args:?}: {stderr}"
        );
    }
    // Every such name is reported, each folder once however many files it holds.
    let other = repo
        .path()
        .join("events")
        .join(std::ffi::OsStr::from_bytes(b"Y\xff"));
    std::fs::create_dir_all(&other).expect("mkdir");
    std::fs::write(other.join("index.mdx"), EVENT.replace("OrderPlaced", "Y")).expect("write");
    std::fs::write(other.join("schema.json"), "{}").expect("write");
    repo.commit_all("another");
    // ... and so is every other problem of the catalog, in the same run.
    std::fs::write(
        repo.path().join("events/OrderPlaced/index.mdx"),
        "---\nid: [unclosed\n---\n",
    )
    .expect("write");
    repo.commit_all("broken front matter too");
    for args in [&["index"][..], &["--staged"], &[], &["HEAD~1..HEAD"]] {
        let out = run(repo.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        for problem in [
            "events/X\u{fffd}: the name is not UTF-8 text",
            "events/Y\u{fffd}: the name is not UTF-8 text",
            "events/OrderPlaced/index.mdx:3:1: invalid front matter",
        ] {
            assert!(stderr.contains(problem), "{args:?}: {problem}: {stderr}");
        }
        // Once, however many files the folder holds (both sides have it: one problem).
        assert_eq!(stderr.matches("X\u{fffd}").count(), 1, "{args:?}: {stderr}");
    }
    // `log` reports the commits it cannot read in their entries and walks on.
    let out = run(repo.path(), &["log"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("invalid catalog"), "{stdout}");
    assert!(
        stdout.contains("4 commit(s) walked") || text(&out.stderr).contains("4 commit(s) walked"),
        "{stdout}"
    );
}

/// A repository reached through a symbolic link (`-C link`) is the repository it leads to, as
/// for git: its working tree is read, not refused as a link.
#[cfg(unix)]
#[test]
fn a_repository_reached_through_a_symbolic_link_is_read() {
    let repo = catalog();
    let dir = tempfile::tempdir().expect("temp dir");
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(repo.path(), &link).expect("a symlink");
    let link = link.to_str().expect("utf-8");
    repo.write("events/OrderPlaced/schema.json", "{\"type\": \"string\"}");
    let out = run(dir.path(), &["-C", link]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("BREAKING"),
        "{}",
        text(&out.stdout)
    );
    let out = run(dir.path(), &["index", "--worktree", "-C", link]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

/// `-C` naming a file is that mistake, not a repository that cannot be opened.
#[test]
fn a_file_given_to_dash_c_is_named_as_such() {
    let repo = catalog();
    let file = repo.path().join("events/OrderPlaced/schema.json");
    let file = file.to_str().expect("utf-8");
    for args in [
        &["-C", file][..],
        &["index", "-C", file],
        &["log", "-C", file],
    ] {
        let out = run(repo.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains("schema.json is a file, not a folder"),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

/// A tree nested deeper than git itself reads (made with plumbing) is an error naming where,
/// never a stack overflow: in the diff, `index` and `log`.
#[test]
fn folders_nested_deeper_than_git_reads_are_an_error() {
    use std::io::Write;
    let repo = catalog();
    let path = format!("events/Deep/{}index.mdx", "d/".repeat(2100));
    let body = "---\nid: Deep\nversion: 1.0.0\n---\n";
    let stream = format!(
        "commit refs/heads/deep\ncommitter t <t@t> 0 +0000\ndata 4\ndeep\nfrom refs/heads/main\nM 100644 inline {path}\ndata {}\n{body}\n",
        body.len()
    );
    let mut import = std::process::Command::new("git")
        .args(["fast-import", "--quiet"])
        .current_dir(repo.path())
        .stdin(std::process::Stdio::piped())
        .spawn()
        .expect("git fast-import");
    import
        .stdin
        .take()
        .expect("stdin")
        .write_all(stream.as_bytes())
        .expect("the stream");
    assert!(import.wait().expect("it ends").success());
    for args in [
        &["main..deep"][..],
        &["index", "deep"],
        &["log", "main..deep"],
    ] {
        let out = run(repo.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains("`events/Deep/d/d/d/d/d/d/...`: folders nested more than 2048 deep"),
            "{args:?}: {stderr}"
        );
    }
}

/// A `$ref` that names nothing in its schema is judged as accepting anything, as
/// `@eventcatalog/diff` judges it, and said: a warning at its line, in the diff and `schema`.
#[test]
fn a_ref_that_names_nothing_is_judged_as_the_reference_does_and_said() {
    let repo = catalog();
    let schema = |target: &str| {
        format!(
            "{{\n  \"type\": \"object\",\n  \"properties\": {{\n    \"x\": {{\"$ref\": \"#/definitions/{target}\"}}\n  }}\n}}\n"
        )
    };
    repo.write("events/OrderPlaced/schema.json", &schema("Adress"));
    repo.commit_all("a ref with a typo");
    repo.write("events/OrderPlaced/schema.json", &schema("Adresss"));
    let out = run(repo.path(), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("baseline: warning: events/OrderPlaced/schema.json:4: `schemas`: `$ref` `#/definitions/Adress` names nothing in the schema")
            && stdout.contains("candidate: warning: events/OrderPlaced/schema.json:4: `schemas`: `$ref` `#/definitions/Adresss` names nothing"),
        "{stdout}"
    );
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("a.json"), schema("A")).expect("write");
    std::fs::write(dir.path().join("b.json"), schema("B")).expect("write");
    let out = run(dir.path(), &["schema", "a.json", "b.json"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out.stderr).contains("warning: b.json:4: `$ref` `#/definitions/B` names nothing"),
        "{}",
        text(&out.stderr)
    );
}

/// A JSON Schema that stops parsing is named at its line as a catalog problem, as an Avro or
/// Protobuf file that does not compile is, beside its change without a verdict.
#[test]
fn a_json_schema_that_stops_parsing_is_named_at_its_line() {
    let repo = catalog();
    repo.write(
        "events/OrderPlaced/schema.json",
        "{\n  \"type\": \"object\",\n  \"properties\": {\n    \"id\": {\"type\": \"string\"},\n  }\n}\n",
    );
    let out = run(repo.path(), &[]);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("NO VERDICT event OrderPlaced"), "{stdout}");
    assert!(
        stdout.contains("candidate: warning: events/OrderPlaced/schema.json:5:"),
        "{stdout}"
    );
}

/// A JSON Schema written in YAML places its ops at their lines, as one in JSON does.
#[test]
fn a_yaml_json_schema_places_its_ops_at_their_lines() {
    let repo = catalog();
    let event = "---\nid: OrderPlaced\nversion: 2.0.0\nschemaPath: schema.yaml\n---\n";
    let schema = |ty: &str| {
        format!("type: object\nproperties:\n  id:\n    type: string\n  total:\n    type: {ty}\n")
    };
    repo.write("events/OrderPlaced/index.mdx", event);
    repo.write("events/OrderPlaced/schema.yaml", &schema("integer"));
    repo.commit_all("a YAML schema");
    repo.write("events/OrderPlaced/schema.yaml", &schema("string"));
    let out = run(repo.path(), &["--format", "github"]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("::error file=events/OrderPlaced/schema.yaml,line=6,"),
        "{stdout}"
    );
}

/// An import or `$ref` that names a FIFO is never opened: opening one waits for a writer, and
/// the run would hang.
#[test]
fn a_fifo_named_by_an_import_or_a_ref_is_not_read() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("fifo.proto");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    std::fs::write(
        dir.path().join("ok.proto"),
        "syntax = \"proto3\";\nmessage P {}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("b.proto"),
        "syntax = \"proto3\";\nimport \"fifo.proto\";\nmessage P {}\n",
    )
    .unwrap();
    let out = run(dir.path(), &["schema", "ok.proto", "b.proto"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let spec = |payload: &str| {
        format!(
            "asyncapi: 3.0.0\ninfo: {{title: t, version: '1'}}\nchannels:\n  c:\n    messages:\n      m:\n        payload:\n          {payload}\n"
        )
    };
    std::fs::write(dir.path().join("a.yaml"), spec("type: string")).unwrap();
    std::fs::write(dir.path().join("b.yaml"), spec("$ref: 'fifo.proto'")).unwrap();
    let out = run(dir.path(), &["spec", "a.yaml", "b.yaml"]);
    assert!(
        text(&out.stdout).contains("is not a regular file"),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
}
