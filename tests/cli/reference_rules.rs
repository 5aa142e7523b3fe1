//! Issue #14, rules 5-7, on scripted repositories through the command line: the edges and impact
//! of a diff are the ones `@eventcatalog/diff` 0.1.0 gives for the same two catalogs.
//!
//! * Rule 5: an edge whose target vanished (a removed message or service) is a removed edge,
//!   from services and domains alike.
//! * Rule 6: an end whose id is unknown has neither `type` nor `version`; an end whose id is
//!   known but whose requested version is not has its `type` and no `version`; both are edges.
//! * Rule 7: an in-place bump (1.0.0 replaced by 2.0.0) is a changed resource, never a removed
//!   one, and raises no `message_removed`; pointers that no longer match lose their edge.

use std::process::Output;

use crate::support::TestRepo;
use serde_json::{Value, json};

const SCHEMA: &str =
    r#"{"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}"#;

fn event(version: &str) -> String {
    format!("---\nid: OrderCreated\nversion: {version}\nschemaPath: schema.json\n---\n")
}

fn service(id: &str, owner: &str, pointers: &str) -> String {
    format!("---\nid: {id}\nversion: 1.0.0\nowners:\n  - {owner}\n{pointers}---\n")
}

/// Orders sends OrderCreated; Payments receives its latest, Shipping a caret range and Audit an
/// exact pin; the Sales domain contains Orders and Payments.
fn catalog() -> TestRepo {
    let repo = TestRepo::new();
    repo.write_all(&[
        ("events/OrderCreated/index.mdx", &event("1.0.0")),
        ("events/OrderCreated/schema.json", SCHEMA),
        (
            "services/Orders/index.mdx",
            &service("Orders", "team-orders", "sends:\n  - id: OrderCreated\n"),
        ),
        (
            "services/Payments/index.mdx",
            &service(
                "Payments",
                "team-payments",
                "receives:\n  - id: OrderCreated\n",
            ),
        ),
        (
            "services/Shipping/index.mdx",
            &service(
                "Shipping",
                "team-shipping",
                "receives:\n  - id: OrderCreated\n    version: ^1.0.0\n",
            ),
        ),
        (
            "services/Audit/index.mdx",
            &service(
                "Audit",
                "team-audit",
                "receives:\n  - id: OrderCreated\n    version: 1.0.0\n",
            ),
        ),
        (
            "domains/Sales/index.mdx",
            "---\nid: Sales\nversion: 1.0.0\nservices:\n  - id: Orders\n  - id: Payments\n---\n",
        ),
    ]);
    repo.commit_all("catalog");
    repo
}

fn diff(repo: &TestRepo) -> (Output, Value) {
    let output = crate::binary(repo.path())
        .args(["HEAD~1..HEAD", "--format", "json"])
        .output()
        .expect("runs");
    let value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output, value)
}

fn service_end(id: &str) -> Value {
    json!({"type": "service", "id": id, "version": "1.0.0"})
}

fn party(id: &str, owner: &str) -> Value {
    json!({"type": "service", "id": id, "version": "1.0.0", "owners": [owner]})
}

const ORDER_CREATED: fn() -> Value =
    || json!({"type": "event", "id": "OrderCreated", "version": "1.0.0"});

#[test]
fn removing_a_message_removes_every_edge_to_it_and_names_who_used_it() {
    let repo = catalog();
    repo.remove("events/OrderCreated/index.mdx");
    repo.remove("events/OrderCreated/schema.json");
    repo.commit_all("drop OrderCreated");
    let (output, diff) = diff(&repo);
    assert_eq!(output.status.code(), Some(1), "message_removed is breaking");
    let edge = |direction: &str, from: &str| json!({"direction": direction, "from": service_end(from), "to": ORDER_CREATED()});
    assert_eq!(
        diff["edges"],
        json!({"added": [], "removed": [
            edge("receives", "Audit"),
            edge("receives", "Payments"),
            edge("receives", "Shipping"),
            edge("sends", "Orders"),
        ]})
    );
    assert_eq!(
        diff["impact"],
        json!([{
            "message": ORDER_CREATED(),
            "reason": "message_removed",
            "producers": [party("Orders", "team-orders")],
            "consumers": [
                party("Audit", "team-audit"),
                party("Payments", "team-payments"),
                party("Shipping", "team-shipping"),
            ],
        }]),
        "the edges lost with the message are covered by message_removed, not consumer_removed"
    );
}

#[test]
fn removing_a_service_removes_its_edges_and_the_domain_edge_to_it() {
    let repo = catalog();
    repo.remove("services/Payments/index.mdx");
    repo.commit_all("drop Payments");
    let (output, diff) = diff(&repo);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        diff["resources"]["removed"],
        json!([{"type": "service", "id": "Payments", "version": "1.0.0"}])
    );
    let removed = diff["edges"]["removed"].as_array().expect("a list");
    assert_eq!(removed.len(), 2, "{removed:#?}");
    assert_eq!(removed[0]["direction"], "contains");
    assert_eq!(
        removed[0]["from"],
        json!({"type": "domain", "id": "Sales", "version": "1.0.0"})
    );
    assert_eq!(removed[0]["to"], service_end("Payments"));
    assert_eq!(
        removed[1],
        json!({"direction": "receives", "from": service_end("Payments"), "to": ORDER_CREATED()})
    );
    assert_eq!(
        diff["impact"],
        json!([{
            "message": {"type": "event", "id": "OrderCreated"},
            "reason": "consumer_removed",
            "producers": [],
            "consumers": [party("Payments", "team-payments")],
        }])
    );
}

#[test]
fn pointers_to_an_unknown_id_or_an_unknown_version_are_added_edges() {
    let repo = catalog();
    repo.write(
        "services/Payments/index.mdx",
        &service(
            "Payments",
            "team-payments",
            "receives:\n  - id: OrderCreated\n  - id: Ghost\n",
        ),
    );
    repo.write(
        "services/Audit/index.mdx",
        &service(
            "Audit",
            "team-audit",
            "receives:\n  - id: OrderCreated\n    version: 1.0.0\nsends:\n  - id: OrderCreated\n    version: 7.0.0\n",
        ),
    );
    repo.commit_all("point at things that do not exist");
    let (output, diff) = diff(&repo);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        diff["edges"],
        json!({"added": [
            {"direction": "receives", "from": service_end("Payments"), "to": {"id": "Ghost"}},
            {"direction": "sends", "from": service_end("Audit"), "to": {"type": "event", "id": "OrderCreated"}},
        ], "removed": []})
    );
    assert_eq!(diff["summary"]["edgesAdded"], 2);
    assert_eq!(diff["impact"], json!([]));
}

#[test]
fn an_in_place_bump_is_a_change_and_pinned_pointers_lose_their_edge() {
    let repo = catalog();
    repo.write("events/OrderCreated/index.mdx", &event("2.0.0"));
    repo.commit_all("OrderCreated 2.0.0 replaces 1.0.0");
    let (output, diff) = diff(&repo);
    assert_eq!(output.status.code(), Some(0), "a bump removes no message");
    assert_eq!(diff["resources"]["removed"], json!([]));
    assert_eq!(
        diff["resources"]["changed"],
        json!([{"type": "event", "id": "OrderCreated", "version": {"a": "1.0.0", "b": "2.0.0"}, "fields": ["version"]}])
    );
    // `latest` (Payments, Orders) follows the bump; the caret range and the exact pin no longer
    // resolve, so their edges are removed, shown as they were in the baseline.
    let edge = |from: &str| json!({"direction": "receives", "from": service_end(from), "to": ORDER_CREATED()});
    assert_eq!(
        diff["edges"],
        json!({"added": [], "removed": [edge("Audit"), edge("Shipping")]})
    );
    assert_eq!(
        diff["impact"],
        json!([{
            "message": {"type": "event", "id": "OrderCreated"},
            "reason": "consumer_removed",
            "producers": [],
            "consumers": [party("Audit", "team-audit"), party("Shipping", "team-shipping")],
        }]),
        "no message_removed for the old latest version"
    );
    assert_eq!(diff["summary"]["breaking"], false);
}

/// Issue #14, "Also": `catalog-diff schema` on two files of a format it cannot judge (two GraphQL
/// schemas whose field type differs) exits 2, naming the format it saw, never "No changes".
#[test]
fn the_schema_subcommand_refuses_a_format_it_cannot_judge() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("before.graphql"), "type A { x: Int }\n").expect("write");
    std::fs::write(dir.path().join("after.graphql"), "type A { x: String }\n").expect("write");
    let output = crate::binary(dir.path())
        .args(["schema", "before.graphql", "after.graphql"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("before.graphql")
            && stderr.contains("GraphQL")
            && stderr.contains("cannot be judged"),
        "{stderr}"
    );
    assert!(!String::from_utf8_lossy(&output.stdout).contains("No changes"));
}
