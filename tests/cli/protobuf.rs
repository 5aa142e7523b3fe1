//! Protobuf message schemas in a catalog kept in git, from the command line: a `.proto` schema
//! that imports a sibling file, a file from the catalog root and a well-known type is judged
//! with `buf breaking`'s rules, imports read from the same commit, with impact on producers and
//! consumers; `--proto-rules` on the diff, `log` and `hook install`; a missing import or a file
//! that does not compile is an unknown verdict, never a failed diff.

use crate::support::TestRepo;
use crate::{json, run};

const EVENT: &str = "---\nid: OrderPlaced\nversion: 1.0.0\nschemaPath: schema.proto\n---\n";
const PRODUCER: &str =
    "---\nid: Orders\nversion: 1.0.0\nowners:\n  - team-orders\nsends:\n  - id: OrderPlaced\n---\n";
const CONSUMER: &str = "---\nid: Billing\nversion: 1.0.0\nowners:\n  - team-billing\nreceives:\n  - id: OrderPlaced\n---\n";

const SCHEMA: &str = r#"syntax = "proto3";

package acme.orders.v1;

import "google/protobuf/timestamp.proto";
import "money.proto";
import "common/ids.proto";

message OrderPlaced {
  acme.common.v1.OrderId order_id = 1;
  acme.common.v1.Money total = 2;
  google.protobuf.Timestamp placed_at = 3;
  int64 item_count = 4;
}
"#;

const MONEY: &str = r#"syntax = "proto3";

package acme.common.v1;

message Money {
  int64 cents = 1;
  string currency = 2;
}
"#;

const IDS: &str = r#"syntax = "proto3";

package acme.common.v1;

message OrderId {
  string value = 1;
}
"#;

/// `catalog-diff schema ARGS` run in `cwd`.
fn schema_in(cwd: &std::path::Path, args: &[&str]) -> std::process::Output {
    crate::binary(cwd)
        .arg("schema")
        .args(args)
        .output()
        .expect("runs")
}

/// A catalog whose event is described in Protobuf, with a producer and a consumer.
fn catalog() -> TestRepo {
    let repo = TestRepo::new();
    repo.write_all(&[
        ("events/OrderPlaced/index.mdx", EVENT),
        ("events/OrderPlaced/schema.proto", SCHEMA),
        ("events/OrderPlaced/money.proto", MONEY),
        ("common/ids.proto", IDS),
        ("services/Orders/index.mdx", PRODUCER),
        ("services/Billing/index.mdx", CONSUMER),
    ]);
    repo.commit_all("catalog");
    repo
}

#[test]
fn a_field_type_change_is_breaking_with_impact() {
    let repo = catalog();
    repo.write(
        "events/OrderPlaced/schema.proto",
        &SCHEMA.replace("int64 item_count", "string item_count"),
    );
    repo.commit_all("item count as text");
    let output = run(&repo, &["HEAD~1..HEAD", "--format", "json"]);
    assert_eq!(
        output.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let diff = json(&output);
    assert_eq!(diff["summary"]["schemaBreaking"], 1);
    let change = &diff["schemaChanges"][0];
    assert_eq!(change["breaking"], true);
    assert_eq!(change["direction"], "both");
    let op = &change["ops"][0];
    assert_eq!(op["kind"], "field.type.changed");
    assert_eq!(op["path"], "/acme.orders.v1.OrderPlaced/fields/4");
    let reason = op["reason"].as_str().expect("a reason");
    assert!(
        reason.contains("`item_count`") && reason.contains("FIELD_WIRE"),
        "{reason}"
    );
    let impact = &diff["impact"][0];
    assert_eq!(impact["producers"][0]["id"], "Orders");
    assert_eq!(impact["consumers"][0]["id"], "Billing");
    assert_eq!(impact["consumers"][0]["owners"][0], "team-billing");
    // The text report names the file and the field.
    let text = String::from_utf8_lossy(&run(&repo, &["HEAD~1..HEAD"]).stdout).into_owned();
    assert!(text.contains("item_count"), "{text}");
}

#[test]
fn imports_are_read_from_each_side_of_the_diff() {
    let repo = catalog();
    // Only the sibling changes in a way that breaks; the schema itself gets a comment.
    repo.write(
        "events/OrderPlaced/money.proto",
        &MONEY.replace("int64 cents", "string cents"),
    );
    repo.write(
        "events/OrderPlaced/schema.proto",
        &format!("// Placed orders.\n{SCHEMA}"),
    );
    repo.commit_all("cents as text");
    let diff = json(&run(&repo, &["HEAD~1..HEAD", "--format", "json"]));
    let change = &diff["schemaChanges"][0];
    assert_eq!(change["breaking"], true, "{change}");
    assert_eq!(change["ops"][0]["path"], "/acme.common.v1.Money/fields/1");
    // The same pair of schema texts, judged again in the log with the other imports, is not
    // served from a verdict cached for the first ones.
    repo.write("events/OrderPlaced/money.proto", MONEY);
    repo.write("events/OrderPlaced/schema.proto", SCHEMA);
    repo.commit_all("back");
    repo.write(
        "events/OrderPlaced/schema.proto",
        &format!("// Placed orders.\n{SCHEMA}"),
    );
    repo.commit_all("comment only");
    let log = run(&repo, &["log", "--format", "json"]);
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&log.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object per line"))
        .collect();
    let verdicts: Vec<&serde_json::Value> = lines
        .iter()
        .map(|step| &step["diff"]["schemaChanges"][0]["breaking"])
        .collect();
    assert_eq!(
        verdicts,
        [
            &serde_json::Value::Null,
            &serde_json::Value::Bool(true),
            &serde_json::Value::Bool(true),
            &serde_json::Value::Bool(false)
        ],
        "{lines:#?}"
    );
}

/// A schema whose own text is the same on both sides but whose import changed compiles to
/// another schema: a modified schema, judged, whether the import lies beside it or in a folder
/// below no resource. Deleting the import leaves it without a verdict, never "no change".
#[test]
fn a_change_only_in_an_import_is_judged() {
    let repo = catalog();
    for (file, text) in [
        (
            "events/OrderPlaced/money.proto",
            MONEY.replace("int64 cents", "string cents"),
        ),
        (
            "common/ids.proto",
            IDS.replace("string value", "int64 value"),
        ),
    ] {
        repo.write(file, &text);
        let diff = json(&run(&repo, &["--format", "json"]));
        let change = &diff["schemaChanges"][0];
        assert_eq!(change["change"], "modified", "{file}: {change}");
        assert_eq!(change["breaking"], true, "{file}: {change}");
        let original = if file.ends_with("money.proto") {
            MONEY
        } else {
            IDS
        };
        repo.write(file, original);
    }
    repo.remove("events/OrderPlaced/money.proto");
    let out = run(&repo, &["--fail-on", "unknown"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("imports `money.proto` at line 6, which is not in the same revision"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// `--history` judges each earlier version with the imports of its own commit: a type that
/// changed in an import two releases back breaks the transitive check.
#[test]
fn history_checks_read_each_version_with_its_own_imports() {
    let repo = catalog();
    repo.write(
        "events/OrderPlaced/money.proto",
        &MONEY.replace("int64 cents", "string cents"),
    );
    repo.write(
        "events/OrderPlaced/schema.proto",
        &SCHEMA.replace(
            "int64 item_count = 4;",
            "int64 item_count = 4;\n  string note = 5;",
        ),
    );
    repo.commit_all("money in text");
    repo.write(
        "events/OrderPlaced/schema.proto",
        &SCHEMA.replace(
            "int64 item_count = 4;",
            "int64 item_count = 4;\n  string note = 5;\n  string tag = 6;",
        ),
    );
    repo.commit_all("a tag");
    let out = run(
        &repo,
        &[
            "HEAD~1..HEAD",
            "--strategy",
            "backward-transitive",
            "--history",
            "--format",
            "json",
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let diff = json(&out);
    let check = &diff["transitiveChecks"][0];
    assert_eq!(check["breaking"], true, "{check}");
    assert_eq!(check["ops"][0]["kind"], "field.type.changed", "{check}");
    // Annotated where the field is declared: in the imported file.
    let github = run(
        &repo,
        &[
            "HEAD~1..HEAD",
            "--strategy",
            "backward-transitive",
            "--history",
            "--format",
            "github",
        ],
    );
    let github = String::from_utf8_lossy(&github.stdout);
    assert!(
        github.contains("::error file=events/OrderPlaced/money.proto,line=6,"),
        "{github}"
    );
}

/// A schema's folder is the include root of its imports' own imports, as protoc's `-I` or a buf
/// module there reads them: `acme/common/ids.proto` importing `acme/common/kind.proto`.
#[test]
fn imports_of_imports_resolve_from_the_schema_folder() {
    let repo = TestRepo::new();
    let kind = |value: &str| {
        format!(
            "syntax = \"proto3\";\npackage acme.common;\nenum Kind {{ KIND_UNSPECIFIED = 0; {value} = 1; }}\n"
        )
    };
    repo.write_all(&[
        ("events/OrderPlaced/index.mdx", EVENT),
        (
            "events/OrderPlaced/schema.proto",
            "syntax = \"proto3\";\npackage acme.v1;\nimport \"acme/common/ids.proto\";\nmessage OrderPlaced { acme.common.Id id = 1; }\n",
        ),
        (
            "events/OrderPlaced/acme/common/ids.proto",
            "syntax = \"proto3\";\npackage acme.common;\nimport \"acme/common/kind.proto\";\nmessage Id { Kind kind = 1; }\n",
        ),
        ("events/OrderPlaced/acme/common/kind.proto", &kind("KIND_A")),
    ]);
    repo.commit_all("catalog");
    repo.write("events/OrderPlaced/acme/common/kind.proto", &kind("KIND_B"));
    let out = run(&repo, &["--format", "json"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let change = &json(&out)["schemaChanges"][0];
    assert_eq!(change["breaking"], true, "{change}");
    assert_eq!(change["ops"][0]["kind"], "enum.value.renamed", "{change}");
}

/// `catalog-diff schema` run inside one side's folder reads each side's imports from its own
/// folder: the other side's import of an import is never the one at hand.
#[test]
fn the_schema_command_reads_each_side_with_its_own_imports() {
    let dir = tempfile::tempdir().unwrap();
    let write = |path: &str, text: &str| {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    for side in ["before", "after"] {
        write(
            &format!("{side}/schema.proto"),
            "syntax = \"proto3\";\npackage a;\nimport \"sub/x.proto\";\nmessage M { b.O o = 1; }\n",
        );
        write(
            &format!("{side}/sub/x.proto"),
            "syntax = \"proto3\";\npackage b;\nimport \"sub/y.proto\";\nmessage O { Y y = 1; }\n",
        );
    }
    write(
        "before/sub/y.proto",
        "syntax = \"proto3\";\npackage b;\nmessage Y { int32 q = 1; }\n",
    );
    write(
        "after/sub/y.proto",
        "syntax = \"proto3\";\npackage b;\nmessage Y { string q = 1; }\n",
    );
    for (cwd, args) in [
        ("before", ["schema.proto", "../after/schema.proto"]),
        ("after", ["../before/schema.proto", "schema.proto"]),
        ("", ["before/schema.proto", "after/schema.proto"]),
    ] {
        let out = schema_in(&dir.path().join(cwd), &args);
        assert_eq!(
            out.status.code(),
            Some(1),
            "from `{cwd}`: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// An earlier version's import over `--max-file-size` is named as such, not as missing.
#[test]
fn history_names_an_earlier_import_over_the_size_limit() {
    let repo = catalog();
    repo.write(
        "events/OrderPlaced/money.proto",
        &format!("{MONEY}{}", "// padding\n".repeat(200)),
    );
    repo.write(
        "events/OrderPlaced/schema.proto",
        &format!("{SCHEMA}// money in cents\n"),
    );
    repo.commit_all("a long comment");
    repo.write("events/OrderPlaced/money.proto", MONEY);
    repo.write("events/OrderPlaced/schema.proto", SCHEMA);
    repo.commit_all("comments gone");
    repo.write(
        "events/OrderPlaced/schema.proto",
        &SCHEMA.replace(
            "int64 item_count = 4;",
            "int64 item_count = 4;\n  string note = 5;",
        ),
    );
    repo.commit_all("a note");
    let out = run(
        &repo,
        &[
            "HEAD~1..HEAD",
            "--strategy",
            "backward-transitive",
            "--history",
            "--max-file-size",
            "1K",
            "--format",
            "json",
        ],
    );
    let diff = json(&out);
    let reasons: Vec<&str> = (diff["transitiveChecks"].as_array().into_iter().flatten())
        .filter_map(|check| check["unknownReason"].as_str())
        .collect();
    assert!(
        reasons
            .iter()
            .any(|r| r.contains("`events/OrderPlaced/money.proto` is 2305 bytes in that commit")),
        "{diff}"
    );
}

#[test]
fn proto_rules_pick_the_buf_category() {
    let repo = catalog();
    repo.write(
        "events/OrderPlaced/schema.proto",
        &SCHEMA.replace("item_count", "items_count"),
    );
    repo.commit_all("rename a field");
    assert_eq!(run(&repo, &["HEAD~1..HEAD"]).status.code(), Some(1));
    let wire = run(
        &repo,
        &["HEAD~1..HEAD", "--proto-rules", "wire", "--format", "json"],
    );
    assert_eq!(wire.status.code(), Some(0));
    let change = &json(&wire)["schemaChanges"][0];
    assert_eq!(change["breaking"], false);
    assert_eq!(change["ops"][0]["kind"], "field.renamed");
    assert_eq!(
        run(&repo, &["log", "--proto-rules", "wire"]).status.code(),
        Some(0)
    );
    assert_eq!(run(&repo, &["log"]).status.code(), Some(1));
    let bad = run(&repo, &["HEAD~1..HEAD", "--proto-rules", "binary"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("wire-json or wire"));
}

#[test]
fn a_missing_import_or_a_broken_file_is_an_unknown_verdict() {
    let repo = catalog();
    repo.write(
        "events/OrderPlaced/schema.proto",
        &SCHEMA.replace(
            "import \"money.proto\";",
            "import \"money.proto\";\nimport \"missing.proto\";",
        ),
    );
    repo.commit_all("import a file that is not there");
    let output = run(&repo, &["HEAD~1..HEAD", "--format", "json"]);
    assert_eq!(output.status.code(), Some(0));
    let change = &json(&output)["schemaChanges"][0];
    assert!(change["breaking"].is_null());
    let reason = change["unknownReason"].as_str().expect("a reason");
    assert!(reason.contains("missing.proto"), "{reason}");
    assert_eq!(
        run(&repo, &["HEAD~1..HEAD", "--fail-on", "unknown"])
            .status
            .code(),
        Some(1)
    );

    repo.write(
        "events/OrderPlaced/schema.proto",
        "syntax = \"proto3\";\nmessage {\n",
    );
    repo.commit_all("broken");
    let output = run(&repo, &["HEAD~2..HEAD", "--format", "json"]);
    assert_eq!(output.status.code(), Some(0));
    let diff = json(&output);
    let change = &diff["schemaChanges"][0];
    let reason = change["unknownReason"].as_str().expect("a reason");
    assert!(
        reason.contains("events/OrderPlaced/schema.proto") && reason.contains("line 2"),
        "{reason}"
    );
    // The problem is also a diagnostic of the candidate side, at the file and line.
    let diagnostic = diff["diagnostics"]
        .as_array()
        .and_then(|list| {
            list.iter()
                .find(|d| d["file"] == "events/OrderPlaced/schema.proto")
        })
        .unwrap_or_else(|| panic!("no diagnostic: {diff}"));
    assert_eq!(diagnostic["side"], "b");
    assert_eq!(diagnostic["line"], 2);
}

#[test]
fn an_editions_file_has_no_verdict_and_says_why() {
    let repo = catalog();
    let editions = SCHEMA
        .replace("syntax = \"proto3\";", "edition = \"2023\";")
        .replace("int64 item_count", "int32 item_count");
    repo.write("events/OrderPlaced/schema.proto", &editions);
    repo.commit_all("move to editions");
    let output = run(&repo, &["HEAD~1..HEAD", "--format", "json"]);
    assert_eq!(output.status.code(), Some(0));
    let diff = json(&output);
    let change = &diff["schemaChanges"][0];
    assert!(change["breaking"].is_null());
    let reason = change["unknownReason"].as_str().expect("a reason");
    assert!(
        reason.contains("Protobuf editions") && reason.contains("cannot read yet"),
        "{reason}"
    );
    assert_eq!(diff["diagnostics"][0]["line"], 1, "{diff}");

    let folder = repo.path().join("events/OrderPlaced");
    std::fs::write(folder.join("old.proto"), SCHEMA).expect("write");
    let refused = schema_in(
        &repo.path(),
        &[
            "events/OrderPlaced/old.proto",
            "events/OrderPlaced/schema.proto",
        ],
    );
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("OrderPlaced/schema.proto:1:1: the after schema uses Protobuf editions"),
        "{stderr}"
    );
}

#[test]
fn the_hook_passes_the_proto_rules_on() {
    let repo = catalog();
    let output = run(&repo, &["hook", "install", "--proto-rules", "wire"]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let script = std::fs::read_to_string(repo.path().join(".git/hooks/pre-commit"))
        .expect("the hook was written");
    assert!(script.contains("--proto-rules wire"), "{script}");
    // A rename is staged: safe under WIRE, so the hook lets the commit through.
    repo.write(
        "events/OrderPlaced/schema.proto",
        &SCHEMA.replace("item_count", "items_count"),
    );
    repo.git(&["add", "-A"]);
    let staged = run(&repo, &["--staged", "--proto-rules", "wire"]);
    assert_eq!(staged.status.code(), Some(0));
    assert_eq!(run(&repo, &["--staged"]).status.code(), Some(1));
}

#[test]
fn the_schema_command_reads_imports_beside_the_file_and_names_broken_files() {
    let repo = catalog();
    let folder = repo.path().join("events/OrderPlaced");
    std::fs::write(
        folder.join("after.proto"),
        SCHEMA
            .replace("import \"common/ids.proto\";\n", "")
            .replace("acme.common.v1.OrderId order_id", "string order_id"),
    )
    .expect("write");
    let schema = |args: &[&str]| schema_in(&folder, args);
    // From the event's folder, `common/ids.proto` is not there: exit 2 naming the import.
    let missing = schema(&["schema.proto", "after.proto"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("common/ids.proto"));
    // From the catalog root it is.
    let output = schema_in(
        &repo.path(),
        &[
            "--format",
            "json",
            "events/OrderPlaced/schema.proto",
            "events/OrderPlaced/after.proto",
        ],
    );
    assert_eq!(
        output.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let ops = json(&output)["ops"].clone();
    assert!(
        ops.as_array()
            .expect("ops")
            .iter()
            .any(|op| op["kind"] == "field.type.changed"
                && op["path"] == "/acme.orders.v1.OrderPlaced/fields/1"),
        "{ops}"
    );
    std::fs::write(
        folder.join("broken.proto"),
        "syntax = \"proto3\";\nmessage A {\n  string a = 1\n}\n",
    )
    .expect("write");
    let broken = schema(&["broken.proto", "after.proto"]);
    assert_eq!(broken.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&broken.stderr).contains("broken.proto:4:1"),
        "{}",
        String::from_utf8_lossy(&broken.stderr)
    );
    // Both files broken: both named, the before file first.
    std::fs::write(
        folder.join("unknown.proto"),
        "syntax = \"proto3\";\nmessage A {\n  Missing a = 1;\n}\n",
    )
    .expect("write");
    let both = schema(&["broken.proto", "unknown.proto"]);
    assert_eq!(both.status.code(), Some(2));
    let errors = String::from_utf8_lossy(&both.stderr);
    let (before, after) = (
        errors.find("broken.proto:4:1"),
        errors.find("unknown.proto:3:3"),
    );
    assert!(before.is_some() && before < after, "{errors}");
}

#[test]
fn the_schema_command_reads_the_imports_of_a_file_named_above_the_current_folder() {
    let root = tempfile::tempdir().expect("temp dir");
    for (version, id) in [("v1", "string"), ("v2", "int64")] {
        let folder = root.path().join(version);
        std::fs::create_dir(&folder).expect("mkdir");
        let common =
            format!("syntax = \"proto3\";\npackage acme;\nmessage Common {{ {id} id = 1; }}\n");
        std::fs::write(folder.join("common.proto"), common).expect("write");
        let order = "syntax = \"proto3\";\npackage acme;\nimport \"common.proto\";\nmessage Order { Common c = 1; }\n";
        std::fs::write(folder.join("order.proto"), order).expect("write");
    }
    // `../v1/order.proto` imports `../v1/common.proto`, not the `common.proto` found here.
    let output = schema_in(
        &root.path().join("v2"),
        &["--format", "json", "../v1/order.proto", "order.proto"],
    );
    assert_eq!(
        output.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    assert_eq!(json(&output)["ops"][0]["path"], "/acme.Common/fields/1");
}

/// An option value nested 5000 levels deep once overflowed the stack and aborted the run: it is
/// an unknown verdict in a diff, and `schema` exits 2 naming the file, line and column.
#[test]
fn an_option_value_nested_too_deep_is_unknown_never_an_abort() {
    let repo = catalog();
    let levels = 5000;
    let deep = format!(
        "syntax = \"proto3\";\npackage acme.orders.v1;\nimport \"google/protobuf/descriptor.proto\";\n\
         message O {{ O o = 1; }}\nextend google.protobuf.MessageOptions {{ O opt = 50000; }}\n\
         message OrderPlaced {{ option (opt) = {}{{}}{}; int32 a = 1; }}\n",
        "{o: ".repeat(levels),
        "}".repeat(levels)
    );
    repo.write("events/OrderPlaced/schema.proto", &deep);
    repo.commit_all("deep option");
    let output = run(&repo, &["HEAD~1..HEAD", "--format", "json"]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let change = &json(&output)["schemaChanges"][0];
    assert!(change["breaking"].is_null(), "{change}");
    let reason = change["unknownReason"].as_str().expect("a reason");
    assert!(reason.contains("nesting depth"), "{reason}");

    std::fs::write(repo.path().join("before.proto"), IDS).expect("write");
    let refused = schema_in(
        &repo.path(),
        &["before.proto", "events/OrderPlaced/schema.proto"],
    );
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("events/OrderPlaced/schema.proto:6:438:"),
        "{stderr}"
    );
}

#[test]
fn the_schema_command_places_a_byte_that_is_not_utf8_at_its_line_and_column() {
    let folder = tempfile::tempdir().expect("temp dir");
    std::fs::write(folder.path().join("before.proto"), MONEY).expect("write");
    std::fs::write(
        folder.path().join("after.proto"),
        b"syntax = \"proto3\";\npackage acme.v1;\n// caf\xe9\nmessage M { int32 a = 1; }\n",
    )
    .expect("write");
    let refused = schema_in(folder.path(), &["before.proto", "after.proto"]);
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("after.proto:3:7: "), "{stderr}");
}

/// `--max-file-size` bounds every file read, the imported ones too (and theirs).
#[test]
fn the_schema_command_refuses_an_import_larger_than_max_file_size() {
    let folder = tempfile::tempdir().expect("temp dir");
    let fields: String = (1..=200)
        .map(|n| format!("  int32 f{n} = {n};\n"))
        .collect();
    let big = format!("syntax = \"proto3\";\npackage acme.v1;\nmessage Big {{\n{fields}}}\n");
    let write = |name: &str, text: &str| {
        std::fs::write(folder.path().join(name), text).expect("write");
    };
    write("big.proto", &big);
    write(
        "middle.proto",
        "syntax = \"proto3\";\npackage acme.v1;\nimport \"big.proto\";\nmessage Middle { Big b = 1; }\n",
    );
    write(
        "before.proto",
        "syntax = \"proto3\";\npackage acme.v1;\nmessage M { int32 a = 1; }\n",
    );
    write(
        "after.proto",
        "syntax = \"proto3\";\npackage acme.v1;\nimport \"middle.proto\";\nmessage M { Middle a = 1; }\n",
    );
    let limited = schema_in(
        folder.path(),
        &["before.proto", "after.proto", "--max-file-size", "1K"],
    );
    assert_eq!(limited.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&limited.stderr);
    assert!(
        stderr.contains("big.proto: the imported schema is larger than 1024 bytes"),
        "{stderr}"
    );
    let judged = schema_in(folder.path(), &["before.proto", "after.proto"]);
    assert_eq!(judged.status.code(), Some(1));
}

/// An import is looked for beside the importing file and from its root, never from the file
/// system's root: `import "usr/bin/env"` beside the files is a missing import, not /usr/bin/env.
#[test]
fn an_import_beside_files_in_the_current_folder_stays_in_it() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let text =
        "syntax = \"proto3\";\npackage a;\nimport \"usr/bin/env\";\nmessage M { int32 a = 1; }\n";
    for name in ["a.proto", "b.proto"] {
        std::fs::write(dir.path().join(name), text).expect("written");
    }
    let out = schema_in(dir.path(), &["a.proto", "b.proto"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("usr/bin/env") && !stderr.contains("/usr/bin/env:"),
        "{stderr}"
    );
}

/// An AsyncAPI 3 document whose message payload is Protobuf text, with field 1 named `name`.
fn asyncapi_with_proto_payload(name: &str) -> String {
    format!(
        "asyncapi: 3.0.0\ninfo: {{title: Orders, version: 1.0.0}}\nchannels:\n  orders:\n    address: orders\n    messages:\n      OrderPlaced:\n        payload:\n          schemaFormat: application/vnd.google.protobuf;version=3\n          schema: |\n            syntax = \"proto3\";\n            message OrderPlaced {{ int32 {name} = 1; }}\noperations:\n  sendOrderPlaced:\n    action: send\n    channel: {{$ref: '#/channels/orders'}}\n"
    )
}

/// `--proto-rules` (and `proto-rules` in catalog-diff.toml) reaches Protobuf payloads inside
/// specifications, as it reaches message schemas: a field renamed in an AsyncAPI payload breaks
/// under wire-json and not under wire, in `catalog-diff spec` and in a catalog diff.
#[test]
fn proto_rules_reach_protobuf_payloads_in_specifications() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("a.yaml"), asyncapi_with_proto_payload("n")).expect("writes");
    std::fs::write(dir.path().join("b.yaml"), asyncapi_with_proto_payload("m")).expect("writes");
    let spec = |extra: &[&str]| {
        crate::binary(dir.path())
            .args(["spec", "a.yaml", "b.yaml", "--format", "json"])
            .args(extra)
            .output()
            .expect("runs")
    };
    assert_eq!(spec(&[]).status.code(), Some(1));
    let wire = spec(&["--proto-rules", "wire"]);
    assert_eq!(
        wire.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&wire.stdout)
    );
    let verdict = json(&wire);
    assert_eq!(verdict["breaking"], false, "{verdict}");
    assert_eq!(verdict["ops"][0]["kind"], "field.renamed", "{verdict}");
    assert_eq!(spec(&["--proto-rules", "binary"]).status.code(), Some(2));

    let repo = TestRepo::new();
    repo.write_all(&[
        (
            "services/Orders/index.mdx",
            "---\nid: Orders\nversion: 1.0.0\nspecifications:\n  asyncapiPath: asyncapi.yaml\n---\n",
        ),
        ("services/Orders/asyncapi.yaml", &asyncapi_with_proto_payload("n")),
    ]);
    repo.commit_all("catalog");
    repo.write(
        "services/Orders/asyncapi.yaml",
        &asyncapi_with_proto_payload("m"),
    );
    repo.commit_all("rename a payload field");
    assert_eq!(run(&repo, &["HEAD~1..HEAD"]).status.code(), Some(1));
    let wire = run(
        &repo,
        &["HEAD~1..HEAD", "--proto-rules", "wire", "--format", "json"],
    );
    assert_eq!(wire.status.code(), Some(0));
    let change = &json(&wire)["specificationChanges"][0];
    assert_eq!(change["breaking"], false, "{change}");
    assert_eq!(change["ops"][0]["kind"], "field.renamed", "{change}");
    // The configuration file reaches it too; the flag still wins over it.
    repo.write("catalog-diff.toml", "proto-rules = \"wire\"\n");
    repo.commit_all("judge Protobuf under WIRE");
    assert_eq!(run(&repo, &["HEAD~2..HEAD"]).status.code(), Some(0));
    assert_eq!(
        run(&repo, &["HEAD~2..HEAD", "--proto-rules", "wire-json"])
            .status
            .code(),
        Some(1)
    );
}

/// A Protobuf op is annotated (GitHub, SARIF) where its element is declared: an extension at
/// its field in the `extend` block, an element of an imported file in that file.
#[test]
fn ops_are_placed_where_their_elements_are_declared() {
    let schema = "syntax = \"proto2\";\npackage acme.v1;\nimport \"money.proto\";\nmessage OrderPlaced {\n  optional acme.m.Money total = 1;\n  extensions 100 to 200;\n}\n\nextend OrderPlaced {\n  optional int32 channel = 100;\n}\n";
    let money = "syntax = \"proto2\";\npackage acme.m;\n\nmessage Money {\n  optional int64 cents = 1;\n}\n";
    let repo = TestRepo::new();
    repo.write_all(&[
        ("events/OrderPlaced/index.mdx", EVENT),
        ("events/OrderPlaced/schema.proto", schema),
        ("events/OrderPlaced/money.proto", money),
    ]);
    repo.commit_all("catalog");
    repo.write_all(&[
        (
            "events/OrderPlaced/schema.proto",
            &schema.replace("optional int32 channel", "optional string channel"),
        ),
        (
            "events/OrderPlaced/money.proto",
            &money.replace("optional int64 cents", "optional string cents"),
        ),
    ]);
    repo.commit_all("two type changes");
    let github = String::from_utf8(run(&repo, &["HEAD~1..HEAD", "--format", "github"]).stdout)
        .expect("utf-8");
    let line_of = |path: &str| {
        github
            .lines()
            .find(|l| l.contains(path))
            .unwrap_or_else(|| panic!("{path}: {github}"))
            .to_owned()
    };
    assert!(
        line_of("/acme.v1.OrderPlaced/extensions/100")
            .starts_with("::error file=events/OrderPlaced/schema.proto,line=10,"),
        "{github}"
    );
    assert!(
        line_of("/acme.m.Money/fields/1")
            .starts_with("::error file=events/OrderPlaced/money.proto,line=5,"),
        "{github}"
    );
    let sarif = json(&run(&repo, &["HEAD~1..HEAD", "--format", "sarif"]));
    let places: Vec<(String, u64)> = sarif["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|result| {
            let at = &result["locations"][0]["physicalLocation"];
            (
                at["artifactLocation"]["uri"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
                at["region"]["startLine"].as_u64().unwrap_or_default(),
            )
        })
        .collect();
    assert!(
        places.contains(&("events/OrderPlaced/schema.proto".to_owned(), 10)),
        "{places:?}"
    );
    assert!(
        places.contains(&("events/OrderPlaced/money.proto".to_owned(), 5)),
        "{places:?}"
    );
}

/// A `.proto` file that starts with a byte order mark is judged, as buf's compiler reads it
/// (it skips the mark); protox refused it as an invalid token, so no change to it was judged.
#[test]
fn a_proto_file_with_a_byte_order_mark_is_judged() {
    let schema =
        |kind: &str| format!("\u{feff}syntax = \"proto3\";\nmessage E {{ {kind} a = 1; }}\n");
    let repo = TestRepo::new();
    repo.write_all(&[
        ("events/OrderPlaced/index.mdx", EVENT),
        ("events/OrderPlaced/schema.proto", &schema("string")),
    ]);
    repo.commit_all("with a BOM");
    repo.write("events/OrderPlaced/schema.proto", &schema("int64"));
    let doc = json(&run(&repo, &["--format", "json"]));
    assert_eq!(doc["schemaChanges"][0]["breaking"], true, "{doc}");
}
