//! `catalog-diff spec BEFORE AFTER` end to end: exit codes, the exact JSON shape, errors that
//! name the file, unknown verdicts that say why, and bounded reads.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata")
}

fn run(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_catalog-diff"))
        .arg("spec")
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

const REMOVED: &str = "openapi/operation.removed/3.1-cancel-order";

#[test]
fn breaking_exits_1_and_explains() {
    let out = run(&fixtures().join(REMOVED), &["before.yaml", "after.yaml"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains(
            "BREAKING (forward) /paths/~1orders~1{orderId}/delete: operation `DELETE /orders/{orderId}` was removed"
        ),
        "{}",
        text(&out.stdout)
    );
    let backward = run(
        &fixtures().join(REMOVED),
        &["--strategy", "backward", "before.yaml", "after.yaml"],
    );
    assert_eq!(backward.status.code(), Some(0));
    assert!(text(&backward.stdout).starts_with("Compatible: 1 change(s), none breaking."));
}

#[test]
fn json_is_exactly_the_verdict() {
    let out = run(
        &fixtures().join(REMOVED),
        &["--format", "json", "before.yaml", "after.yaml"],
    );
    assert_eq!(out.status.code(), Some(1));
    let expected = concat!(
        "{\n",
        "  \"breaking\": true,\n",
        "  \"direction\": \"forward\",\n",
        "  \"ops\": [\n",
        "    {\n",
        "      \"op\": \"remove\",\n",
        "      \"path\": \"/paths/~1orders~1{orderId}/delete\",\n",
        "      \"kind\": \"operation.removed\",\n",
        "      \"reason\": \"operation `DELETE /orders/{orderId}` was removed: clients still on the old specification call it\",\n",
        "      \"breaking\": true\n",
        "    }\n",
        "  ]\n",
        "}\n"
    );
    assert_eq!(text(&out.stdout), expected);
}

#[test]
fn a_payload_change_names_its_role() {
    let out = run(
        &fixtures().join("asyncapi/required.added/v3-receive-payload-read-by-service"),
        &["--strategy", "forward", "before.yaml", "after.yaml"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains(
            "payload of message `CreateOrder` (read by the service): `channel` is now required"
        ),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn files_that_do_not_parse_or_are_no_specification_are_exit_2_naming_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let good = fixtures().join(REMOVED).join("before.yaml");
    let broken = dir.path().join("broken.yaml");
    std::fs::write(&broken, "openapi: 3.0.0\npaths: [\n").expect("write");
    let schema = dir.path().join("schema.json");
    std::fs::write(&schema, r#"{"type": "object"}"#).expect("write");
    let asyncapi = fixtures().join("asyncapi/channel.added/v3-audit-channel/before.yaml");
    for (args, wanted) in [
        (
            [good.to_str(), broken.to_str()],
            "broken.yaml:3:1: the after specification is not valid YAML",
        ),
        (
            [schema.to_str(), good.to_str()],
            "the before file is not an AsyncAPI or OpenAPI document",
        ),
        (
            [good.to_str(), asyncapi.to_str()],
            "compare two documents of the same kind",
        ),
    ] {
        let args: Vec<&str> = args.iter().map(|a| a.expect("UTF-8 path")).collect();
        let out = run(dir.path(), &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stderr).contains(wanted), "{}", text(&out.stderr));
    }
}

#[test]
fn swagger_2_has_no_verdict_and_says_why() {
    let case = fixtures().join("openapi/unknown/swagger-2.0");
    let out = run(&case, &["before.yaml", "after.yaml"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out.stdout).starts_with("No verdict: Swagger 2.0 (OpenAPI 2) is not compared"),
        "{}",
        text(&out.stdout)
    );
    let strict = run(
        &case,
        &["--fail-on", "unknown", "before.yaml", "after.yaml"],
    );
    assert_eq!(strict.status.code(), Some(1));
    let json = run(&case, &["--format", "json", "before.yaml", "after.yaml"]);
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(value["breaking"], serde_json::Value::Null);
    assert!(
        value["unknownReason"]
            .as_str()
            .is_some_and(|r| r.contains("Swagger"))
    );
}

#[test]
fn refs_outside_the_folders_are_not_read() {
    let outer = tempfile::tempdir().expect("temp dir");
    for name in ["secret-1.yaml", "secret-2.yaml"] {
        std::fs::write(outer.path().join(name), "type: string\n").expect("write");
    }
    let inner = outer.path().join("specs");
    std::fs::create_dir(&inner).expect("mkdir");
    let spec = |n: &str| {
        format!(
            "openapi: 3.1.0\ninfo: {{title: t, version: '1'}}\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema:\n                $ref: '../secret-{n}.yaml'\n"
        )
    };
    let (before, after) = (inner.join("before.yaml"), inner.join("after.yaml"));
    std::fs::write(&before, spec("1")).expect("write");
    std::fs::write(&after, spec("2")).expect("write");
    let paths = [
        before.to_str().expect("UTF-8"),
        after.to_str().expect("UTF-8"),
    ];
    // From the specifications' folder, the files above it are not read: no verdict, and why.
    let out = run(&inner, &["--format", "json", paths[0], paths[1]]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(value["breaking"], serde_json::Value::Null, "{value}");
    assert!(
        value["unknown"][0]["reason"]
            .as_str()
            .is_some_and(|r| r.contains("outside")),
        "{value}"
    );
    // From the folder above, they are read, and the two schemas are the same.
    let out = run(outer.path(), &["--format", "json", paths[0], paths[1]]);
    assert!(
        text(&out.stdout).contains("\"breaking\": false"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn input_is_bounded() {
    let out = run(Path::new("/"), &["/dev/zero", "/dev/zero"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("larger than 67108864 bytes"));
    assert!(text(&out.stderr).contains("before specification"));
}
