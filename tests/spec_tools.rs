//! Our specification verdicts against those of the established API diff tools, as
//! `scripts/spec-tools/record.sh` recorded them on the fixtures (`testdata/spec-tools.json`; the
//! tools are never run here). The tools check what a client or consumer on the old
//! specification meets when the service upgrades, which is our `forward` strategy, so that is
//! the verdict compared.
//!
//! Where at least two tools judged a pair and agree with each other, we must agree with them on
//! at least 90% of the pairs, and every pair where we do not is listed below with the reason
//! (the README's closing note on the tools says the same). Where only one tool judged a pair
//! (AsyncAPI has one, `@asyncapi/cli`), the pairs where we differ are listed too.

use std::collections::BTreeMap;
use std::path::Path;

use catalog_diff::schema::Strategy;
use catalog_diff::spec::{self, Source};
use serde_json::Value;

/// Pairs where we deliberately differ from the tools, and why.
const DELIBERATE: &[(&str, &str)] = &[
    (
        "openapi/parameter.serialization.changed/3.0-status-list-not-exploded",
        "`explode: false` turns `status=NEW&status=PAID` into `status=NEW,PAID`: the wire format changed; the tools do not model serialization",
    ),
    (
        "openapi/parameter.serialization.changed/3.1-status-list-not-exploded",
        "as in 3.0",
    ),
    (
        "openapi/parameter.serialization.changed/3.0-order-id-as-matrix",
        "`style: matrix` writes `/orders/;orderId=7`: every old client's URL is wrong",
    ),
    (
        "openapi/parameter.serialization.changed/3.1-order-id-as-matrix",
        "as in 3.0",
    ),
    (
        "openapi/request-body.required.added/3.1-new-required-cancel-reason",
        "old clients send no body, which the service now requires (openapi-diff agrees on 3.0; optic and api-smart-diff do not flag a new required body)",
    ),
    (
        "openapi/request-body.required.added/3.0-new-required-cancel-reason",
        "as in 3.1",
    ),
    (
        "openapi/parameter.removed/3.1-status-filter",
        "old clients may still send it and the service ignores what it no longer reads: the open-content rule of the seed, which the issue keeps for specifications (api-smart-diff breaks, oasdiff only warns)",
    ),
    (
        "openapi/parameter.required.removed/3.1-required-header-removed",
        "as for a removed parameter; the requiredness it drops breaks `backward` only (new clients may omit it, an old service needs it)",
    ),
    (
        "openapi/request-body.removed/3.1-optional-cancel-reason-dropped",
        "as for a removed parameter: old clients may still send a body the service no longer reads",
    ),
    (
        "openapi/request-body.required.removed/3.1-required-create-body-dropped",
        "as for a removed required parameter",
    ),
    (
        "asyncapi/operation.channel.changed/v3-events-on-a-new-channel",
        "the operation's counterparties still listen on the old channel; the CLI reads a changed channel ref as a harmless edit",
    ),
    (
        "asyncapi/operation.message.removed/v2-subscribe-one-of-shrinks",
        "consumers expecting OrderPaid no longer get it (the issue: removing a message from an operation breaks whoever used it)",
    ),
    (
        "asyncapi/unchanged/v3-annotations-and-parameter-names",
        "renaming an address parameter, reordering `required` and `enum` and editing titles and versions changes nothing on the wire",
    ),
    (
        "asyncapi/unchanged/v3-bindings-moved-to-components-and-parameter-renamed",
        "as above for the address parameter renamed with its placeholder; bindings moved behind a `$ref` are the same bindings",
    ),
    (
        "openapi/response.header.removed/3.1-total-count-dropped",
        "the header was optional, so clients already do without it (api-smart-diff flags every removed response header; openapi-diff, on 3.0, does not)",
    ),
    (
        "openapi/response.header.required.added/3.1-total-count-promised",
        "the service now always sends the header: nothing an old client reads goes missing (openapi-diff agrees on 3.0)",
    ),
    (
        "openapi/unknown/3.0-response-header-ref-to-nothing",
        "the new header's `$ref` points at nothing, so whether it is required and what it carries cannot be told; api-smart-diff passes it as a harmless addition",
    ),
    (
        "openapi/unknown/3.1-security-not-a-list",
        "`security: apiKey` is not a list of requirement objects: no verdict rather than a guess at what it demands (api-smart-diff calls it breaking)",
    ),
    (
        "openapi/operation.removed/3.0-settlement-callback-dropped",
        "the service no longer calls the URL old clients register, so they never learn of the settlement; the tools do not judge callbacks (openapi-diff skips them, api-smart-diff calls any callback change harmless)",
    ),
    (
        "openapi/security.scheme.changed/3.0-api-key-behind-a-ref",
        "old clients send the key in a header the service no longer reads (openapi-diff does not compare schemes, and api-smart-diff does not follow this ref)",
    ),
    (
        "openapi/unchanged/3.1-scheme-names-in-other-capitals",
        "HTTP header names and HTTP authentication schemes are case-insensitive (RFC 9110), so the same credentials still pass; api-smart-diff compares the text",
    ),
    (
        "openapi/unknown/3.0-oauth-token-url-moved",
        "whether tokens from the old URL still work cannot be told from the documents, so no verdict (openapi-diff does not compare schemes: it passes a renamed API-key header too; api-smart-diff leaves it unclassified)",
    ),
    (
        "openapi/type.changed/3.0-response-header-request-id-now-integer",
        "a header's type change is judged as a body's (`type.changed`, both ways), as the tools judge a parameter's; openapi-diff does not compare header schemas",
    ),
    (
        "asyncapi/unknown/v3-eu-server-removed",
        "whether anyone still connects through the removed server cannot be told from the documents, so no verdict, as for a changed server (the CLI calls every removed server breaking)",
    ),
    (
        "asyncapi/unchanged/v3-message-content-type-overrides-its-trait",
        "in 3.x the message's own `contentType` wins over its traits, so the message is encoded as before; the CLI flags the edit to the trait's text, not a change of the message",
    ),
    (
        "openapi/unknown/3.0-response-moved-to-a-file-that-is-missing",
        "the file the new `$ref` names is missing, so what the response now holds cannot be told: no verdict (openapi-diff and optic refuse the pair; api-smart-diff compares the old schema with the unread ref)",
    ),
    (
        "asyncapi/unknown/v2-payload-moved-to-a-file-that-is-missing",
        "as in OpenAPI: the payload's new file is missing, so no verdict (the CLI refuses the pair; api-smart-diff compares the old schema with the unread ref)",
    ),
];

fn ours(key: &str) -> Option<bool> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(key);
    let side = |stem: &str| {
        std::fs::read_dir(&folder)
            .expect("a case folder")
            .map(|e| e.expect("entry").path())
            .find(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with(&format!("{stem}.")))
            })
            .expect("a side")
    };
    let (before, after) = (side("before"), side("after"));
    let text = |p: &Path| std::fs::read_to_string(p).expect("readable");
    let name = |p: &Path| {
        p.file_name()
            .expect("a name")
            .to_string_lossy()
            .into_owned()
    };
    let load = |path: &str| std::fs::read_to_string(folder.join(path)).map_err(|e| e.to_string());
    let (before_name, after_name) = (name(&before), name(&after));
    let (before_text, after_text) = (text(&before), text(&after));
    spec::compare(
        Source {
            path: &before_name,
            text: &before_text,
            load: &load,
        },
        Source {
            path: &after_name,
            text: &after_text,
            load: &load,
        },
        Strategy::Forward,
        &Default::default(),
    )
    .expect("judged")
    .breaking
}

#[test]
fn we_agree_with_the_tools_where_they_agree() {
    let record: Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/spec-tools.json"),
        )
        .expect("testdata/spec-tools.json (scripts/spec-tools/record.sh writes it)"),
    )
    .expect("JSON");
    let deliberate: BTreeMap<&str, &str> = DELIBERATE.iter().copied().collect();
    let (mut agreed, mut same, mut single, mut single_same) = (0, 0, 0, 0);
    let mut unexplained = Vec::new();
    let mut explained_but_agreeing = Vec::new();
    for (key, tools) in record["cases"].as_object().expect("cases") {
        let verdicts: Vec<bool> = tools
            .as_object()
            .expect("tools")
            .values()
            .filter_map(|t| t["verdict"].as_bool())
            .collect();
        let Some(&first) = verdicts.first() else {
            continue;
        };
        if verdicts.iter().any(|v| *v != first) {
            continue;
        }
        let matches = ours(key) == Some(first);
        if verdicts.len() >= 2 {
            agreed += 1;
            same += usize::from(matches);
        } else {
            single += 1;
            single_same += usize::from(matches);
        }
        match (matches, deliberate.contains_key(key.as_str())) {
            (false, false) => unexplained.push(format!("{key}: the tools say {first}")),
            (true, true) => explained_but_agreeing.push(key.as_str()),
            _ => {}
        }
    }
    let share = same as f64 / agreed as f64;
    eprintln!(
        "where two or more tools agree: {same} of {agreed} ({:.1}%); where one tool judged: {single_same} of {single}",
        share * 100.0
    );
    assert!(agreed >= 40, "only {agreed} pairs where the tools agree");
    assert!(share >= 0.9, "agreement {share:.3} is under 90%");
    assert!(
        unexplained.is_empty(),
        "we differ from the tools without a recorded reason:\n{}",
        unexplained.join("\n")
    );
    assert!(
        explained_but_agreeing.is_empty(),
        "these now agree with the tools; drop them from DELIBERATE: {explained_but_agreeing:?}"
    );
}
