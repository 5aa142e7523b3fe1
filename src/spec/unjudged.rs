//! The parts of a specification the walkers do not judge: what a security scheme says beyond
//! how credentials are presented, and AsyncAPI servers (and which a channel is on), bindings,
//! channel parameters, operation security, where a reply goes and where a message's
//! correlation id is. A change there is never "no change": it is an unknown part with the
//! reason, so the verdict says it could not judge everything. Each part is compared with its `$ref`s followed and its documentation
//! (`description`, `summary`, `title`, `externalDocs`, `x-` extensions) left out; a server or
//! scheme that is only added is no change, as nothing that worked stops working.
//!
//! OpenAPI `servers` are left out, as `openapi-diff`, `api-smart-diff` and pacto leave them:
//! they say where a deployment is reached, not what it accepts. An AsyncAPI server is the
//! broker both sides connect to (its protocol and bindings included), so it counts.

use std::collections::{BTreeSet, HashMap};

use serde_json::Value;

use super::document::{Parsed, Target, child, follow, members, unescape};
use super::{Found, asyncapi, openapi, traits};

const BINDINGS: &str = "protocol bindings";

/// Keys that document a node without changing what goes over the wire.
fn is_documentation(key: &str) -> bool {
    // `bearerFormat` is a hint, "primarily for documentation purposes" (OpenAPI).
    matches!(
        key,
        "description" | "summary" | "title" | "externalDocs" | "bearerFormat"
    ) || key.starts_with("x-")
}

/// Whether two nodes say the same, `$ref`s followed (a pair of refs already being compared is
/// taken as equal, so a cycle ends). A scheme is compared where it is defined, so a ref to one
/// is compared as written.
fn same(
    old: (&Parsed, &Value, &str),
    new: (&Parsed, &Value, &str),
    seen: &mut BTreeSet<(String, String)>,
) -> bool {
    let ((old_doc, a, a_at), (new_doc, b, b_at)) = (old, new);
    let is_ref = |v: &Value| v.get("$ref").and_then(Value::as_str).map(str::to_owned);
    let scheme = |r: &str| r.contains("/components/securitySchemes/");
    match (is_ref(a), is_ref(b)) {
        (Some(x), Some(y)) if scheme(&x) || scheme(&y) => return x == y,
        (None, None) => {}
        _ => {
            let (a, a_at) = match follow(old_doc, a, a_at) {
                Target::Found(value, at) => (value, at),
                Target::Unresolved(..) => return a == b,
            };
            let (b, b_at) = match follow(new_doc, b, b_at) {
                Target::Found(value, at) => (value, at),
                Target::Unresolved(..) => return a == b,
            };
            if !seen.insert((a_at.clone(), b_at.clone())) {
                return true;
            }
            return same((old_doc, a, &a_at), (new_doc, b, &b_at), seen);
        }
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys = |m: &serde_json::Map<String, Value>| -> Vec<String> {
                m.keys().filter(|k| !is_documentation(k)).cloned().collect()
            };
            keys(x) == keys(y)
                && keys(x).iter().all(|k| {
                    same(
                        (old_doc, &x[k], &child(a_at, k)),
                        (new_doc, &y[k], &child(b_at, k)),
                        seen,
                    )
                })
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len()
                && x.iter().zip(y).enumerate().all(|(i, (p, q))| {
                    let i = i.to_string();
                    same(
                        (old_doc, p, &child(a_at, &i)),
                        (new_doc, q, &child(b_at, &i)),
                        seen,
                    )
                })
        }
        _ => a == b,
    }
}

/// Two documents read side by side: each part is looked for at the same place in both.
struct Pair<'a> {
    old: &'a Parsed,
    new: &'a Parsed,
    found: &'a mut Found,
}

impl Pair<'_> {
    /// An unknown part at `at` (the new side's place) unless `old` and `new` say the same:
    /// `what` changed, and `area` is what catalog-diff does not judge.
    fn check(
        &mut self,
        old: Option<(&Value, String)>,
        new: Option<(&Value, String)>,
        (what, area): (&str, &str),
    ) {
        let unchanged = match (&old, &new) {
            (None, None) => true,
            (Some((a, a_at)), Some((b, b_at))) => same(
                (self.old, a, a_at),
                (self.new, b, b_at),
                &mut BTreeSet::new(),
            ),
            _ => false,
        };
        if !unchanged {
            let event = match (&old, &new) {
                (Some(_), Some(_)) => "changed",
                (Some(_), None) => "removed",
                _ => "added",
            };
            let at = new.or(old).map(|(_, at)| at).unwrap_or_default();
            self.found.unknown(
                &at,
                format!("{what}: {event}; catalog-diff does not judge {area}"),
                Vec::new(),
            );
        }
    }

    /// The entries of map `key` of `old` and `new`: one changed is an unknown part, one added
    /// is not, and one removed is when `removal` says so.
    fn entries(
        &mut self,
        (old, new): ((&Value, &str), (&Value, &str)),
        key: &str,
        (one, all): (&str, &str),
        removal: bool,
    ) {
        let Some(Value::Object(a)) = old.0.get(key) else {
            return;
        };
        let (a_at, b_at) = (child(old.1, key), child(new.1, key));
        for (name, value) in a {
            let next = new
                .0
                .get(key)
                .and_then(|b| b.get(name))
                .map(|v| (v, child(&b_at, name)));
            // One of the wrong shape is the walker's unknown part, not a change here.
            if !value.is_object() || next.as_ref().is_some_and(|(v, _)| !v.is_object()) {
                continue;
            }
            if next.is_some() || removal {
                let what = format!("{one} `{name}`");
                self.check(Some((value, child(&a_at, name))), next, (&what, all));
            }
        }
    }

    /// The security schemes defined on both sides (a scheme dropped is dropped from every
    /// requirement, or they name nothing, which is judged where the requirements are), less
    /// the keys a rule judges (`judged`).
    fn schemes(&mut self, old_components: &Value, new_components: &Value, judged: &[&str]) {
        // Only the schemes are copied, each where its refs lead, without the judged keys (a
        // scheme behind a `$ref` would otherwise be compared whole).
        let strip = |doc: &Parsed, components: &Value| -> Value {
            // One of the wrong shape is the walker's unknown part, not a change here.
            let schemes = members(doc, components, "/components", "securitySchemes")
                .into_iter()
                .filter(|(_, scheme, _)| scheme.is_object())
                .map(|(name, scheme, _)| {
                    let mut scheme = scheme.clone();
                    if let Value::Object(scheme) = &mut scheme {
                        scheme.retain(|key, _| !judged.contains(&key.as_str()));
                    }
                    (name.to_owned(), scheme)
                })
                .collect::<serde_json::Map<_, _>>();
            serde_json::json!({ "securitySchemes": schemes })
        };
        let (old, new) = (
            strip(self.old, old_components),
            strip(self.new, new_components),
        );
        let sides = ((&old, "/components"), (&new, "/components"));
        let area = ("security scheme", "how credentials are presented");
        self.entries(sides, "securitySchemes", area, false);
    }
}

/// A 2.x operation's one message (not a `oneOf`), refs followed.
fn message<'v>(doc: &'v Parsed, (op, at): (&'v Value, &str)) -> Option<(&'v Value, String)> {
    op.get("message")
        .filter(|m| m.get("oneOf").is_none())
        .map(|m| resolved(doc, m, &child(at, "message")))
}

/// `value`'s member `key`, with its place.
fn part<'v>((value, at): (&'v Value, &str), key: &str) -> Option<(&'v Value, String)> {
    value.get(key).map(|v| (v, child(at, key)))
}

/// The node `value` (at `at`) refers to, or itself.
fn resolved<'v>(doc: &'v Parsed, value: &'v Value, at: &str) -> (&'v Value, String) {
    match follow(doc, value, at) {
        Target::Found(found, at) => (found, at),
        Target::Unresolved(..) => (value, at.to_owned()),
    }
}

/// Adds to `found` an unknown part for each part of the two OpenAPI documents that changed
/// but is not judged.
pub(super) fn openapi(old: &Parsed, new: &Parsed, found: &mut Found) {
    let mut pair = Pair { old, new, found };
    let (a, b) = (&old.root, &new.root);
    if let (Some(x), Some(y)) = (a.get("components"), b.get("components")) {
        // How a scheme in force is presented is judged (`security.scheme.changed`).
        pair.schemes(x, y, openapi::PRESENTATION);
    }
}

/// Adds to `found` an unknown part for each part of the two AsyncAPI documents that changed
/// but is not judged.
pub(super) fn asyncapi(old: &Parsed, new: &Parsed, found: &mut Found) {
    let mut pair = Pair { old, new, found };
    let (a, b) = (&old.root, &new.root);
    pair.entries(((a, ""), (b, "")), "servers", ("server", "servers"), true);
    if let (Some(x), Some(y)) = (a.get("components"), b.get("components")) {
        pair.schemes(x, y, &[]);
    }
    // Paired as the walker pairs them (a 2.x address by its shape).
    let v3 = new.kind == super::Kind::AsyncApi3;
    let old_channels = members(old, a, "", "channels");
    let new_channels = members(new, b, "", "channels");
    let old_keys: Vec<&str> = old_channels.iter().map(|(k, ..)| *k).collect();
    let new_keys: Vec<&str> = new_channels.iter().map(|(k, ..)| *k).collect();
    let pairs = asyncapi::channel_pairing(v3, &old_keys, &new_keys);
    // By key, not by a search per channel: a document may hold thousands.
    let new_by_key: HashMap<&str, &(&str, &Value, String)> =
        new_channels.iter().map(|entry| (entry.0, entry)).collect();
    for (key, channel, channel_at) in old_channels {
        let Some((next_key, next, next_at)) = new_by_key.get(pairs[key].as_str()).copied() else {
            continue;
        };
        let (old_side, new_side) = ((channel, channel_at.as_str()), (*next, next_at.as_str()));
        let what = format!("the bindings of channel `{key}`");
        pair.check(
            part(old_side, "bindings"),
            part(new_side, "bindings"),
            (&what, BINDINGS),
        );
        let new_servers = servers_of(new, next);
        let defined: Vec<&str> = members(new, b, "", "servers")
            .into_iter()
            .map(|(name, ..)| name)
            .collect();
        // A server dropped whole is reported as such.
        let left: Vec<String> = servers_of(old, channel)
            .into_iter()
            .filter(|name| !new_servers.contains(name) && defined.contains(&name.as_str()))
            .map(|name| format!("`{name}`"))
            .collect();
        if !left.is_empty() {
            let at = part(new_side, "servers").map_or_else(|| next_at.clone(), |(_, at)| at);
            pair.found.unknown(
                &at,
                format!(
                    "channel `{key}` is no longer on server {}; catalog-diff does not judge servers",
                    left.join(", ")
                ),
                Vec::new(),
            );
        }
        let old_parameters = parameters(old, channel, &channel_at, key);
        let new_parameters = parameters(new, next, next_at, next_key);
        let changed = old_parameters.len() != new_parameters.len()
            || old_parameters.iter().any(|(place, value, at)| {
                !new_parameters.iter().any(|(other, next, next_at)| {
                    place == other
                        && same((old, value, at), (new, next, next_at), &mut BTreeSet::new())
                })
            });
        if changed {
            pair.found.unknown(
                &child(next_at, "parameters"),
                format!(
                    "the parameters of channel `{key}`: changed; catalog-diff does not judge \
                     channel parameters"
                ),
                Vec::new(),
            );
        }
        for action in ["publish", "subscribe"] {
            let (Some(op), Some(next_op)) = (channel.get(action), next.get(action)) else {
                continue;
            };
            let (op, op_at) = resolved(old, op, &child(&channel_at, action));
            let (next_op, next_op_at) = resolved(new, next_op, &child(next_at, action));
            operation(
                &mut pair,
                (op, &op_at),
                (next_op, &next_op_at),
                &format!("the {action} operation of channel `{key}`"),
            );
        }
        // 2.x messages sit in operations; 3.x ones in their channel.
        let next_messages: HashMap<&str, (&Value, String)> =
            members(new, next, next_at, "messages")
                .into_iter()
                .map(|(name, message, at)| (name, (message, at)))
                .collect();
        for (name, message, message_at) in members(old, channel, &channel_at, "messages") {
            let Some((next_message, next_message_at)) = next_messages.get(name) else {
                continue;
            };
            message_parts(
                &mut pair,
                (message, &message_at),
                (next_message, next_message_at),
                &format!("message `{name}`"),
            );
        }
    }
    let new_operations: HashMap<&str, (&Value, String)> = members(new, b, "", "operations")
        .into_iter()
        .map(|(key, op, at)| (key, (op, at)))
        .collect();
    for (key, op, op_at) in members(old, a, "", "operations") {
        if let Some((next, next_at)) = new_operations.get(key) {
            operation(
                &mut pair,
                (op, &op_at),
                (next, next_at),
                &format!("operation `{key}`"),
            );
        }
    }
}

/// The names of the servers `channel` is on: those its `servers` list names (2.x by name, 3.x
/// by `$ref`), or every server of the document when it lists none.
fn servers_of(doc: &Parsed, channel: &Value) -> BTreeSet<String> {
    let listed: BTreeSet<String> = match channel.get("servers") {
        Some(Value::Array(servers)) => servers
            .iter()
            .filter_map(|server| match server {
                Value::String(name) => Some(name.clone()),
                server => {
                    let reference = server.get("$ref")?.as_str()?;
                    let name = reference.strip_prefix("#/servers/").unwrap_or(reference);
                    Some(unescape(name))
                }
            })
            .collect(),
        _ => BTreeSet::new(),
    };
    if !listed.is_empty() {
        return listed;
    }
    members(doc, &doc.root, "", "servers")
        .into_iter()
        .map(|(name, ..)| name.to_owned())
        .collect()
}

/// A channel's parameters, each by its place in the address (as channels are paired, so a
/// parameter renamed with its placeholder is the same one), else by name.
fn parameters<'v>(
    doc: &'v Parsed,
    channel: &'v Value,
    at: &str,
    key: &str,
) -> Vec<(String, &'v Value, String)> {
    let address = match channel.get("address") {
        Some(Value::String(address)) => address.as_str(),
        _ if doc.kind == super::Kind::AsyncApi3 => "",
        _ => key,
    };
    let names = openapi::template_names(address);
    members(doc, channel, at, "parameters")
        .into_iter()
        .map(|(name, value, at)| {
            let place = match names.iter().position(|n| *n == name) {
                Some(index) => format!("#{index}"),
                None => name.to_owned(),
            };
            (place, value, at)
        })
        .collect()
}

/// An AsyncAPI operation's bindings and security, and for 2.x its message's bindings.
fn operation(pair: &mut Pair<'_>, old: (&Value, &str), new: (&Value, &str), name: &str) {
    for (member, area) in [("bindings", BINDINGS), ("security", "AsyncAPI security")] {
        let what = format!("the {member} of {name}");
        pair.check(part(old, member), part(new, member), (&what, area));
    }
    // A reply only added goes to requesters that never waited for one.
    if let Some((old_reply, old_at)) = reply(pair.old, old) {
        let new_reply = reply(pair.new, new);
        let new_reply = new_reply.as_ref().map(|(v, at)| (v, at.clone()));
        let what = format!("where {name} replies");
        pair.check(
            Some((&old_reply, old_at)),
            new_reply,
            (&what, "where replies go"),
        );
    }
    if let (Some((m, m_at)), Some((n, n_at))) = (message(pair.old, old), message(pair.new, new)) {
        // Named as the walker names a 2.x message: its id, its components key, or its name
        // (traits applied).
        let written = old.0.get("message");
        let reference = written.and_then(|w| w.get("$ref")).and_then(Value::as_str);
        let text = |key| traits::member(pair.old, (m, &m_at), key).and_then(|(v, _)| v.as_str());
        let id = text("messageId")
            .or_else(|| {
                reference
                    .filter(|r| r.contains("/components/messages/"))
                    .and_then(|r| r.rsplit('/').next())
            })
            .or_else(|| text("name"));
        let what = match id {
            Some(id) => format!("message `{id}`"),
            None => format!("the message of {name}"),
        };
        message_parts(pair, (m, &m_at), (n, &n_at), &what);
    }
}

/// Where a 3.x operation's replies go: its reply's `address` and the address of its reply
/// channel, refs followed (the reply's messages are judged in their roles).
fn reply(doc: &Parsed, operation: (&Value, &str)) -> Option<(Value, String)> {
    let (reply, at) = part(operation, "reply")?;
    let (reply, at) = resolved(doc, reply, &at);
    let address = reply
        .get("address")
        .map(|a| resolved(doc, a, &child(&at, "address")).0.clone());
    let channel = reply.get("channel").map(|c| {
        let (channel, _) = resolved(doc, c, &child(&at, "channel"));
        channel.get("address").cloned().unwrap_or(Value::Null)
    });
    Some((
        serde_json::json!({ "address": address, "channel": channel }),
        at,
    ))
}

/// A message's bindings and where its correlation id is found.
fn message_parts(pair: &mut Pair<'_>, old: (&Value, &str), new: (&Value, &str), name: &str) {
    for (member, area) in [("bindings", BINDINGS), ("correlationId", "correlation ids")] {
        let what = format!("the {member} of {name}");
        pair.check(part(old, member), part(new, member), (&what, area));
    }
}

#[cfg(test)]
mod tests {
    use crate::spec::tests::{judged, no_files};

    #[test]
    fn a_message_named_by_its_trait_is_named_so_in_reasons() {
        let doc = |key: &str| {
            format!(
                "asyncapi: 2.6.0\ninfo: {{title: T, version: '1'}}\nchannels:\n  c:\n    subscribe:\n      \
                 message:\n        traits:\n          - name: OrderPlaced\n        bindings:\n          \
                 kafka:\n            key: {{type: {key}}}\n        payload: {{type: object}}\n"
            )
        };
        let (before, after) = (doc("string"), doc("integer"));
        let verdict = judged("a.yaml", (&before, &after), &no_files);
        let reasons: Vec<&str> = verdict.unknown.iter().map(|u| u.reason.as_str()).collect();
        assert_eq!(
            reasons,
            [
                "the bindings of message `OrderPlaced`: changed; catalog-diff does not judge protocol bindings"
            ]
        );
    }
}
