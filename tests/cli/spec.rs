//! `catalog-diff spec BEFORE AFTER` end to end: exit codes, the exact JSON shape, errors that
//! name the file, unknown verdicts that say why, and bounded reads.

use std::path::{Path, PathBuf};
use std::process::Output;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata")
}

fn run(cwd: impl AsRef<Path>, args: &[&str]) -> Output {
    crate::binary(cwd)
        .arg("spec")
        .args(args)
        .output()
        .expect("the binary runs")
}

/// The diff (not `spec`) in `cwd`.
fn run_diff(cwd: &Path, args: &[&str]) -> Output {
    crate::binary(cwd)
        .args(args)
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

const REMOVED: &str = "openapi/operation.removed/3.1-cancel-order";

#[test]
fn breaking_exits_1_and_explains() {
    let out = run(fixtures().join(REMOVED), &["before.yaml", "after.yaml"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains(
            "BREAKING (forward) /paths/~1orders~1{orderId}/delete: operation `DELETE /orders/{orderId}` was removed"
        ),
        "{}",
        text(&out.stdout)
    );
    let backward = run(
        fixtures().join(REMOVED),
        &["--strategy", "backward", "before.yaml", "after.yaml"],
    );
    assert_eq!(backward.status.code(), Some(0));
    assert!(text(&backward.stdout).starts_with("Compatible: 1 change(s), none breaking."));
}

#[test]
fn json_is_exactly_the_verdict() {
    let out = run(
        fixtures().join(REMOVED),
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
        "      \"reason\": \"operation `DELETE /orders/{orderId}` was removed: clients still on the old specification rely on it\",\n",
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
        fixtures().join("asyncapi/required.added/v3-receive-payload-read-by-service"),
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
    // Both files bad: one run names both.
    let out = run(dir.path(), &["schema.json", "broken.yaml"]);
    assert_eq!(out.status.code(), Some(2));
    let errors = text(&out.stderr);
    assert!(
        errors.contains("schema.json: the before file is not an AsyncAPI or OpenAPI document")
            && errors.contains("broken.yaml:3:1: the after specification is not valid YAML"),
        "{errors}"
    );
}

/// A file that cannot be read does not hide the other's problem: both are named, as `schema`
/// names them.
#[test]
fn a_file_that_cannot_be_read_hides_no_other_problem() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("bad.yaml"),
        "openapi: 3.0.0\ninfo: {title: t\n",
    )
    .expect("write");
    let syntax = "bad.yaml:3:1: the before specification is not valid YAML";
    for (args, wanted) in [
        (
            ["bad.yaml", "missing.yaml"],
            [syntax, "cannot read the after specification missing.yaml"],
        ),
        (
            ["missing1.yaml", "missing2.yaml"],
            [
                "cannot read the before specification missing1.yaml",
                "cannot read the after specification missing2.yaml",
            ],
        ),
        (
            ["bad.yaml", "/dev/zero"],
            [syntax, "/dev/zero: the after specification is larger than"],
        ),
        (
            ["/dev/zero", "bad.yaml"],
            [
                "/dev/zero: the before specification is larger than",
                "bad.yaml:3:1: the after specification",
            ],
        ),
    ] {
        let out = run(dir.path(), &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let errors = text(&out.stderr);
        let at = wanted.map(|w| errors.find(w));
        assert!(
            at[0].is_some() && at[1].is_some() && at[0] < at[1],
            "{args:?}: {errors}"
        );
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
fn the_same_unread_ref_naming_two_files_has_no_verdict() {
    // `a/api/openapi.yml` and `b/api/openapi.yml` both say `../body.json`: two files, which
    // differ, neither read from a third folder.
    let root = tempfile::tempdir().expect("temp dir");
    let spec = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /orders:\n    post:\n      requestBody:\n        content:\n          application/json:\n            schema: {$ref: '../body.json'}\n      responses:\n        '200': {description: ok}\n";
    for (side, id) in [("a", "string"), ("b", "integer")] {
        let api = root.path().join(side).join("api");
        std::fs::create_dir_all(&api).expect("mkdir");
        std::fs::write(api.join("openapi.yml"), spec).expect("write");
        let body =
            format!("{{\"type\": \"object\", \"properties\": {{\"id\": {{\"type\": \"{id}\"}}}}}}");
        std::fs::write(root.path().join(side).join("body.json"), body).expect("write");
    }
    let elsewhere = root.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).expect("mkdir");
    let paths = ["a", "b"].map(|side| {
        let path = root.path().join(side).join("api").join("openapi.yml");
        path.to_str().expect("UTF-8").to_owned()
    });
    let out = run(&elsewhere, &["--format", "json", &paths[0], &paths[1]]);
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(value["breaking"], serde_json::Value::Null, "{value}");
    assert_eq!(
        value["unknown"][0]["path"],
        "/paths/~1orders/post/requestBody/content/application~1json/schema",
        "{value}"
    );
    assert!(
        value["unknown"][0]["reason"]
            .as_str()
            .is_some_and(|r| r.contains("outside")),
        "{value}"
    );
    let out = run(&elsewhere, &["--fail-on", "unknown", &paths[0], &paths[1]]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
}

#[test]
fn a_specification_named_above_the_current_folder_reads_its_refs() {
    let root = tempfile::tempdir().expect("temp dir");
    let api = "asyncapi: 2.6.0\ninfo: {title: t, version: '1'}\nchannels:\n  c:\n    subscribe:\n      \
        message:\n        name: M\n        payload:\n          $ref: 'order.json'\n";
    for (version, id) in [("v1", "string"), ("v2", "integer")] {
        let folder = root.path().join(version);
        std::fs::create_dir(&folder).expect("mkdir");
        std::fs::write(folder.join("api.yaml"), api).expect("write");
        let schema =
            format!("{{\"type\": \"object\", \"properties\": {{\"id\": {{\"type\": \"{id}\"}}}}}}");
        std::fs::write(folder.join("order.json"), schema).expect("write");
    }
    // `../v1/api.yaml` names `../v1/order.json`, which text alone cannot reach from here.
    let out = run(
        root.path().join("v2"),
        &["--format", "json", "../v1/api.yaml", "api.yaml"],
    );
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(value["breaking"], true, "{value}");
    assert_eq!(value["ops"][0]["kind"], "type.changed", "{value}");
}

#[test]
fn input_is_bounded() {
    let out = run(Path::new("/"), &["/dev/zero", "/dev/zero"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("larger than 67108864 bytes"));
    assert!(text(&out.stderr).contains("before specification"));
}

/// `testdata/spec-catalog`, a small catalog shaped like EventCatalog's `template-default` (a
/// service carrying an AsyncAPI and an OpenAPI file, the messages they describe, and the
/// services that send and receive them), committed on `main`.
fn spec_catalog() -> crate::support::TestRepo {
    let repo = crate::support::TestRepo::new();
    let root = fixtures().join("spec-catalog");
    for entry in walk(&root) {
        let relative = entry.strip_prefix(&root).expect("below the root");
        let text = std::fs::read_to_string(&entry).expect("readable");
        repo.write(&relative.to_string_lossy(), &text);
    }
    repo.commit_all("the catalog");
    repo
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("readable folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files.sort();
    files
}

const SERVICE: &str = "domains/Ordering/services/OrderService";

#[test]
fn a_payload_made_stricter_and_an_operation_removed_hurt_their_parties() {
    let repo = spec_catalog();
    let read = |file: &str| {
        std::fs::read_to_string(repo.path().join(SERVICE).join(file)).expect("readable")
    };
    let asyncapi = read("asyncapi.yml").replace(
        "required: [orderId, customerId]\n      properties:\n        orderId:",
        "required: [orderId, customerId, total]\n      properties:\n        orderId:",
    );
    let openapi = read("openapi.yml");
    let (start, end) = (
        openapi.find("  /orders/{orderId}:").expect("the operation"),
        openapi.find("components:").expect("components"),
    );
    let openapi = format!("{}{}", &openapi[..start], &openapi[end..]);
    repo.write(&format!("{SERVICE}/asyncapi.yml"), &asyncapi)
        .write(&format!("{SERVICE}/openapi.yml"), &openapi);
    repo.commit_all("OrderCreated carries its total; orders are no longer read one by one");

    let out = run_diff(&repo.path(), &["main~1..main", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let diff: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    // The v1 keys keep their meaning: no message schema changed.
    assert_eq!(diff["summary"]["breaking"], false);
    assert_eq!(diff["summary"]["schemaChanges"], 0);
    assert_eq!(diff["impact"], serde_json::json!([]));
    assert_eq!(diff["summary"]["specificationChanges"], 2);
    assert_eq!(diff["summary"]["specificationBreaking"], 2);
    let changes = diff["specificationChanges"].as_array().expect("a list");
    let of = |kind: &str| {
        changes
            .iter()
            .find(|c| c["type"] == kind)
            .unwrap_or_else(|| panic!("a {kind} change in {changes:?}"))
    };
    let party = |id: &str, owner: &str| {
        let version = match id {
            "order-service" => "1.0.0",
            "shipping-service" => "2.0.0",
            _ => "3.1.0",
        };
        serde_json::json!({"type": "service", "id": id, "version": version, "owners": [owner]})
    };

    let asyncapi = of("asyncapi");
    assert_eq!(asyncapi["resource"]["id"], "order-service");
    assert_eq!(
        (&asyncapi["breaking"], &asyncapi["direction"]),
        (&true.into(), &"backward".into())
    );
    assert_eq!(asyncapi["ops"][0]["kind"], "required.added");
    assert_eq!(
        asyncapi["ops"][0]["path"],
        "/components/schemas/OrderCreated/properties/total"
    );
    let impact = &asyncapi["impact"][0];
    assert_eq!(
        impact["message"],
        serde_json::json!({"type": "event", "id": "order-created", "version": "1.0.0"})
    );
    assert_eq!(impact["reason"], "specification_breaking_change");
    assert_eq!(
        impact["producers"],
        serde_json::json!([party("order-service", "ordering-platform")])
    );
    assert_eq!(
        impact["consumers"],
        serde_json::json!([party("shipping-service", "fulfilment-team")])
    );

    let openapi = of("openapi");
    assert_eq!(
        (&openapi["breaking"], &openapi["direction"]),
        (&true.into(), &"forward".into())
    );
    assert_eq!(openapi["ops"][0]["kind"], "operation.removed");
    let impact = &openapi["impact"][0];
    // `operation: {method: GET, path: /orders/{id}}` names the removed `/orders/{orderId}`.
    assert_eq!(
        impact["message"],
        serde_json::json!({"type": "query", "id": "get-order", "version": "1.0.0"})
    );
    assert_eq!(
        impact["producers"],
        serde_json::json!([party("customer-portal", "customer-experience")])
    );
    assert_eq!(
        impact["consumers"],
        serde_json::json!([party("order-service", "ordering-platform")])
    );

    // Under `forward` only the removed operation breaks; the exit code follows.
    let forward = run_diff(&repo.path(), &["main~1..main", "--strategy", "forward"]);
    assert_eq!(forward.status.code(), Some(1));
    let report = text(&forward.stdout);
    assert!(report.contains("Breaking specification changes\n  BREAKING openapi of service order-service 1.0.0 (forward)"), "{report}");
    assert!(
        report.contains(
            "Compatible specification changes\n  ok asyncapi of service order-service 1.0.0"
        ),
        "{report}"
    );
    assert!(report.contains("hurt: query get-order 1.0.0: consumers: service order-service 1.0.0 (ordering-platform); producers: service customer-portal 3.1.0 (customer-experience)"), "{report}");
    assert!(report.ends_with("[strategy forward]\n"), "{report}");
    let backward = run_diff(&repo.path(), &["main~1..main", "--strategy", "backward"]);
    assert!(
        text(&backward.stdout)
            .contains("BREAKING asyncapi of service order-service 1.0.0 (backward)")
    );

    // GitHub annotations sit on the specification file, at the changed node.
    let github = text(&run_diff(&repo.path(), &["main~1..main", "--format", "github"]).stdout);
    let line = asyncapi_line(&repo.path().join(SERVICE).join("asyncapi.yml"));
    assert!(
        github.contains(&format!(
            "::error file={SERVICE}/asyncapi.yml,line={line},title=catalog-diff%3A asyncapi of service order-service 1.0.0::"
        )),
        "{github}"
    );
    let markdown = text(&run_diff(&repo.path(), &["main~1..main", "--format", "markdown"]).stdout);
    assert!(
        markdown.contains("#### Breaking specification changes"),
        "{markdown}"
    );

    // SARIF: one error per breaking op at its line, with the policy's fingerprint; acknowledging
    // both lets the check pass.
    let sarif: serde_json::Value = serde_json::from_slice(
        &run_diff(&repo.path(), &["main~1..main", "--format", "sarif"]).stdout,
    )
    .expect("SARIF");
    let results: Vec<&serde_json::Value> = sarif["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .is_some_and(|uri| uri.starts_with(SERVICE))
        })
        .collect();
    assert_eq!(results.len(), 2, "{sarif}");
    let required = results
        .iter()
        .find(|r| r["ruleId"] == "required.added")
        .expect("the payload's break");
    assert_eq!(
        required["locations"][0]["physicalLocation"]["region"]["startLine"],
        line
    );
    for result in &results {
        let fingerprint = result["partialFingerprints"]["catalogDiff/v2"]
            .as_str()
            .expect("a fingerprint");
        let out = run_diff(
            &repo.path(),
            &["ack", fingerprint, "--reason", "clients moved"],
        );
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
    let out = run_diff(&repo.path(), &["HEAD~1"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
}

/// The line of `total:` under `OrderCreated` in the AsyncAPI file.
fn asyncapi_line(file: &Path) -> usize {
    let text = std::fs::read_to_string(file).expect("readable");
    let schema = text
        .find("    OrderCreated:\n      type: object")
        .expect("the schema");
    let total = schema + text[schema..].find("        total:").expect("total");
    text[..total].lines().count() + 1
}

/// A specification broken on both sides has no verdict, and its reason names both problems.
#[test]
fn a_specification_broken_on_both_sides_names_both() {
    let repo = spec_catalog();
    let path = format!("{SERVICE}/openapi.yml");
    repo.write(&path, "openapi: 3.0.0\npaths: [\n");
    repo.commit_all("break the baseline");
    repo.write(&path, "openapi: 3.0.0\ninfo: {title: x\npaths: {}\n");
    repo.commit_all("break the candidate differently");
    let out = run_diff(&repo.path(), &["main~1..main", "--format", "json"]);
    let diff: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let change = &diff["specificationChanges"][0];
    assert_eq!(change["breaking"], serde_json::Value::Null, "{change}");
    let reason = change["unknownReason"].as_str().expect("a reason");
    assert!(
        reason.starts_with("baseline: ")
            && reason.contains("(line 3, column 1)")
            && reason.contains("; candidate: ")
            && reason.contains("(line 3, column"),
        "{reason}"
    );
}

/// A change to a part no rule judges (here Kafka bindings given to an operation) is a
/// specification change without a verdict, shown at that part's line; never "no change".
#[test]
fn a_change_no_rule_judges_has_no_verdict_at_its_line() {
    let repo = spec_catalog();
    let path = format!("{SERVICE}/asyncapi.yml");
    let before = std::fs::read_to_string(repo.path().join(&path)).expect("readable");
    let after = before.replace(
        "  publishOrderCreated:\n    action: send\n",
        "  publishOrderCreated:\n    action: send\n    bindings:\n      kafka:\n        clientId: {type: string}\n",
    );
    assert_ne!(before, after);
    repo.write(&path, &after);
    repo.commit_all("the producer names its Kafka client");
    let out = run_diff(&repo.path(), &["main~1..main", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let diff: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let change = &diff["specificationChanges"][0];
    assert_eq!(change["breaking"], serde_json::Value::Null, "{change}");
    assert_eq!(
        change["unknown"][0]["path"], "/operations/publishOrderCreated/bindings",
        "{change}"
    );
    assert_eq!(diff["summary"]["specificationUnknown"], 1);
    let strict = run_diff(&repo.path(), &["main~1..main", "--fail-on", "unknown"]);
    assert_eq!(strict.status.code(), Some(1));
    let github = text(&run_diff(&repo.path(), &["main~1..main", "--format", "github"]).stdout);
    let line = after
        .lines()
        .position(|l| l == "    bindings:")
        .expect("the bindings")
        + 1;
    assert!(
        github.contains(&format!("::warning file={path},line={line},")),
        "{github}"
    );
}

/// A specification whose own text did not change still changes when a file it bundles by a
/// relative `$ref` does: beside it, or shared from a folder below no resource.
#[test]
fn a_change_only_in_a_bundled_file_is_judged() {
    let repo = crate::support::TestRepo::new();
    let spec = "asyncapi: 3.0.0\ninfo:\n  title: S\n  version: 1.0.0\nchannels:\n  orders:\n    address: orders\n    messages:\n      OrderCreated:\n        $ref: './messages/order-created.yml#/OrderCreated'\n      OrderPaid:\n        $ref: '../../shared/order-paid.yml#/OrderPaid'\noperations:\n  sendOrders:\n    action: send\n    channel:\n      $ref: '#/channels/orders'\n";
    let message = |name: &str, ty: &str| {
        format!(
            "{name}:\n  payload:\n    type: object\n    properties:\n      id:\n        type: {ty}\n"
        )
    };
    repo.write_all(&[
        (
            "services/S/index.mdx",
            "---\nid: S\nversion: 1.0.0\nspecifications:\n  asyncapiPath: asyncapi.yml\n---\n",
        ),
        ("services/S/asyncapi.yml", spec),
        (
            "services/S/messages/order-created.yml",
            &message("OrderCreated", "string"),
        ),
        ("shared/order-paid.yml", &message("OrderPaid", "string")),
    ]);
    repo.commit_all("a specification in three files");
    for (file, name) in [
        ("services/S/messages/order-created.yml", "OrderCreated"),
        ("shared/order-paid.yml", "OrderPaid"),
    ] {
        repo.write(file, &message(name, "integer"));
        let out = run_diff(&repo.path(), &["--format", "json"]);
        assert_eq!(out.status.code(), Some(1), "{file}: {}", text(&out.stderr));
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let ops = &doc["specificationChanges"][0]["ops"];
        assert!(
            ops[0]["path"]
                .as_str()
                .is_some_and(|path| path.ends_with("/payload/properties/id/type")),
            "{file}: {ops}"
        );
        repo.write(file, &message(name, "string"));
    }
}

/// Two messages removed from one operation are two ops, each naming its message, and two
/// breaks an acknowledgement tells apart.
#[test]
fn each_message_removed_from_one_operation_is_its_own_break() {
    let repo = crate::support::TestRepo::new();
    let spec = "asyncapi: 3.0.0\ninfo:\n  title: S\n  version: 1.0.0\nchannels:\n  orders:\n    address: orders\n    messages:\n      OrderCreated:\n        payload: {type: object}\n      OrderCancelled:\n        payload: {type: object}\n      OrderShipped:\n        payload: {type: object}\noperations:\n  sendOrders:\n    action: send\n    channel:\n      $ref: '#/channels/orders'\n    messages:\n      - $ref: '#/channels/orders/messages/OrderCreated'\n      - $ref: '#/channels/orders/messages/OrderCancelled'\n      - $ref: '#/channels/orders/messages/OrderShipped'\n";
    repo.write_all(&[
        (
            "services/S/index.mdx",
            "---\nid: S\nversion: 1.0.0\nspecifications:\n  asyncapiPath: asyncapi.yml\n---\n",
        ),
        ("services/S/asyncapi.yml", spec),
        ("catalog-diff.toml", "fail-on = \"breaking\"\n"),
    ]);
    repo.commit_all("three messages");
    let after = spec
        .replace(
            "      - $ref: '#/channels/orders/messages/OrderCancelled'\n",
            "",
        )
        .replace(
            "      - $ref: '#/channels/orders/messages/OrderShipped'\n",
            "",
        );
    repo.write("services/S/asyncapi.yml", &after);
    repo.commit_all("one message");
    let out = run_diff(&repo.path(), &["main~1..main", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let diff: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let reasons: Vec<&str> = diff["specificationChanges"][0]["ops"]
        .as_array()
        .expect("ops")
        .iter()
        .map(|op| op["reason"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(reasons.len(), 2, "{reasons:?}");
    assert!(reasons[0].contains("`OrderCancelled`"), "{reasons:?}");
    assert!(reasons[1].contains("`OrderShipped`"), "{reasons:?}");
    let breaks = diff["policy"]["breaks"].as_array().expect("breaks");
    assert_eq!(breaks.len(), 2, "{breaks:?}");
    assert_ne!(breaks[0]["fingerprint"], breaks[1]["fingerprint"]);
}

/// A part that could not be judged beside a break is shown by every report, counted, and
/// trips `--fail-on unknown` once the break is acknowledged.
#[test]
fn a_part_without_a_verdict_beside_a_break_is_never_hidden() {
    let repo = spec_catalog();
    let path = format!("{SERVICE}/asyncapi.yml");
    let before = std::fs::read_to_string(repo.path().join(&path)).expect("readable");
    let after = before
        .replace(
            "  publishOrderCreated:\n    action: send\n",
            "  publishOrderCreated:\n    action: send\n    bindings:\n      kafka:\n        clientId: {type: string}\n",
        )
        .replace(
            "        cartId:\n          type: string\n",
            "        cartId:\n          type: integer\n",
        );
    assert_ne!(before, after);
    repo.write(&path, &after);
    repo.commit_all("cartId as a number; the producer names its Kafka client");
    let bindings = after
        .lines()
        .position(|l| l == "    bindings:")
        .expect("the bindings")
        + 1;
    let out = run_diff(&repo.path(), &["main~1..main", "--format", "json"]);
    let diff: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(diff["specificationChanges"][0]["breaking"], true);
    assert_eq!(diff["summary"]["specificationUnknown"], 1);
    let markdown = text(&run_diff(&repo.path(), &["main~1..main", "--format", "markdown"]).stdout);
    assert!(
        markdown.contains("1 breaking, 1 with something not judged")
            && markdown.contains("no verdict /operations/publishOrderCreated/bindings"),
        "{markdown}"
    );
    let github = text(&run_diff(&repo.path(), &["main~1..main", "--format", "github"]).stdout);
    assert!(
        github.contains(&format!("::warning file={path},line={bindings},")),
        "{github}"
    );
    let sarif = run_diff(&repo.path(), &["main~1..main", "--format", "sarif"]);
    let sarif: serde_json::Value = serde_json::from_slice(&sarif.stdout).expect("SARIF");
    let rules: Vec<&str> = sarif["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter_map(|r| r["ruleId"].as_str())
        .collect();
    assert!(rules.contains(&"specification.unknown"), "{rules:?}");
    // The break acknowledged, the part without a verdict still trips `--fail-on unknown`.
    repo.write("catalog-diff.toml", "fail-on = \"breaking\"\n");
    repo.commit_all("policy");
    let out = run_diff(&repo.path(), &["main~2..main", "--format", "json"]);
    let policy: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    for found in policy["policy"]["breaks"].as_array().expect("breaks") {
        let fingerprint = found["fingerprint"].as_str().expect("fingerprint");
        let out = crate::binary(repo.path())
            .args(["ack", fingerprint, "--reason", "agreed"])
            .output()
            .expect("ack runs");
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
    repo.commit_all("acknowledged");
    let accepted = run_diff(&repo.path(), &["main~3..main"]);
    assert_eq!(
        accepted.status.code(),
        Some(0),
        "{}",
        text(&accepted.stdout)
    );
    let strict = run_diff(&repo.path(), &["main~3..main", "--fail-on", "unknown"]);
    assert_eq!(strict.status.code(), Some(1), "{}", text(&strict.stdout));
}

/// A removed parameter is annotated at the list it was in, never at the sibling that now holds
/// its index.
#[test]
fn a_removed_parameter_is_placed_at_its_list_not_at_a_sibling() {
    let repo = crate::support::TestRepo::new();
    let spec = "openapi: 3.0.3\ninfo:\n  title: T\n  version: '1'\npaths:\n  /orders/{id}:\n    get:\n      parameters:\n        - name: id\n          in: path\n          required: true\n          schema: {type: string}\n        - name: tenant\n          in: query\n          required: true\n          schema: {type: string}\n        - name: verbose\n          in: query\n          schema: {type: boolean}\n      responses:\n        '200':\n          description: ok\n";
    repo.write_all(&[
        (
            "services/S/index.mdx",
            "---\nid: s\nversion: 1.0.0\nname: S\nspecifications:\n  - type: openapi\n    path: openapi.yml\n---\n",
        ),
        ("services/S/openapi.yml", spec),
    ]);
    repo.commit_all("three parameters");
    let tenant = "        - name: tenant\n          in: query\n          required: true\n          schema: {type: string}\n";
    repo.write("services/S/openapi.yml", &spec.replace(tenant, ""));
    repo.commit_all("no tenant");
    let out = run_diff(
        &repo.path(),
        &[
            "main~1..main",
            "--format",
            "github",
            "--strategy",
            "backward",
        ],
    );
    let github = text(&out.stdout);
    let annotation = github
        .lines()
        .find(|l| l.contains("parameter.required.removed"))
        .unwrap_or_else(|| panic!("{github}"));
    // Line 8 is `parameters:`; line 13 now holds `verbose`.
    assert!(
        annotation.starts_with("::error file=services/S/openapi.yml,line=8,"),
        "{annotation}"
    );
}
