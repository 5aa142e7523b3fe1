//! AsyncAPI traits applied to the messages and operations that list them, as the AsyncAPI
//! parser applies them: each trait is a JSON Merge Patch (RFC 7386). In 2.x the traits are
//! merged over the object in their order (a trait's value wins); in 3.x the object is merged
//! last, over its traits (its own value wins, a later trait over an earlier one).
//!
//! An object member that one trait alone gives becomes a `$ref` to it, so a change there is
//! reported where it is written (a scalar is read there as it is); a member that several give
//! is written merged into the object.

use std::collections::{BTreeSet, HashSet};

use serde_json::{Map, Value};

use super::document::{Kind, Parsed, Target, child, follow, members};
use crate::schema::MAX_DEPTH;

/// Applies every message's and operation's traits in `parsed`, in place.
pub(super) fn apply(parsed: &mut Parsed) {
    let merged: Vec<(String, Map<String, Value>)> = holders(parsed)
        .into_iter()
        .filter_map(|at| Some((at.clone(), applied(parsed, &at)?)))
        .collect();
    for (at, members) in merged {
        if let Some(Value::Object(holder)) = parsed.root.pointer_mut(&at) {
            *holder = members;
        }
    }
}

/// Member `key` of `object` (at `at`) with its traits applied, and its place: its own value,
/// else the value of the trait that gives it (what several give is merged into the object by
/// [`apply`]; a scalar that one trait alone gives stays where that trait has it).
pub(super) fn member<'v>(
    parsed: &'v Parsed,
    (object, at): (&'v Value, &str),
    key: &str,
) -> Option<(&'v Value, String)> {
    if let Some(own) = object.get(key) {
        return Some((own, child(at, key)));
    }
    let Some(Value::Array(listed)) = object.get("traits") else {
        return None;
    };
    let traits_at = child(at, "traits");
    listed.iter().enumerate().find_map(|(i, t)| {
        match follow(parsed, t, &child(&traits_at, &i.to_string())) {
            Target::Found(t, t_at) => t.get(key).map(|v| (v, child(&t_at, key))),
            Target::Unresolved(..) => None,
        }
    })
}

/// Where the messages and operations that may list traits are defined (refs followed; each
/// once).
fn holders(parsed: &Parsed) -> Vec<String> {
    let root = &parsed.root;
    let mut found: Vec<String> = Vec::new();
    // A set beside the list, which keeps the order: a document may hold thousands of them.
    let mut seen: HashSet<String> = HashSet::new();
    let mut add = |value: &Value, at: String| {
        if let Target::Found(Value::Object(_), at) = follow(parsed, value, &at)
            && seen.insert(at.clone())
        {
            found.push(at);
        }
    };
    // Each entry where its refs lead.
    let members = |value, at: &str, key: &str| -> Vec<(&Value, String)> {
        members(parsed, value, at, key)
            .into_iter()
            .map(|(_, node, at)| (node, at))
            .collect()
    };
    let components = root.get("components").unwrap_or(&Value::Null);
    let channels = [
        members(root, "", "channels"),
        members(components, "/components", "channels"),
    ]
    .concat();
    for (message, at) in members(components, "/components", "messages") {
        add(message, at);
    }
    if parsed.kind == Kind::AsyncApi3 {
        for (channel, at) in &channels {
            for (message, at) in members(channel, at, "messages") {
                add(message, at);
            }
        }
        for (operation, at) in members(root, "", "operations").into_iter().chain(members(
            components,
            "/components",
            "operations",
        )) {
            add(operation, at);
        }
        return found;
    }
    for (channel, at) in &channels {
        for action in ["publish", "subscribe"] {
            let Some(operation) = channel.get(action) else {
                continue;
            };
            let at = child(at, action);
            add(operation, at.clone());
            let Target::Found(operation, at) = follow(parsed, operation, &at) else {
                continue;
            };
            let Some(message) = operation.get("message") else {
                continue;
            };
            let at = child(&at, "message");
            match message.get("oneOf") {
                Some(Value::Array(list)) => {
                    let at = child(&at, "oneOf");
                    for (i, message) in list.iter().enumerate() {
                        add(message, child(&at, &i.to_string()));
                    }
                }
                _ => add(message, at),
            }
        }
    }
    found
}

/// The members of the object at `at` with its traits applied; `None` when it lists none or
/// they change nothing.
fn applied(parsed: &Parsed, at: &str) -> Option<Map<String, Value>> {
    let Some(Value::Object(own)) = parsed.root.pointer(at) else {
        return None;
    };
    let Some(Value::Array(listed)) = own.get("traits") else {
        return None;
    };
    let traits_at = child(at, "traits");
    let traits: Vec<(&Map<String, Value>, String)> = listed
        .iter()
        .enumerate()
        .filter_map(
            |(i, t)| match follow(parsed, t, &child(&traits_at, &i.to_string())) {
                Target::Found(Value::Object(t), t_at) => Some((t, t_at)),
                _ => None,
            },
        )
        .collect();
    // In the order they are merged: the last one wins.
    let mut sources: Vec<(&Map<String, Value>, Option<&str>)> = traits
        .iter()
        .map(|(t, t_at)| (*t, Some(t_at.as_str())))
        .collect();
    match parsed.kind {
        Kind::AsyncApi3 => sources.push((own, None)),
        _ => sources.insert(0, (own, None)),
    }
    let mut out = own.clone();
    let mut changed = false;
    let keys: BTreeSet<&String> = traits.iter().flat_map(|(t, _)| t.keys()).collect();
    for key in keys {
        let givers: Vec<_> = sources
            .iter()
            .filter(|(source, _)| source.contains_key(key))
            .collect();
        let value = match givers.as_slice() {
            // A value of its own, or one that `member` reads where the trait has it.
            [(_, None)] => continue,
            [(source, Some(_))] if !source[key].is_object() => continue,
            [(_, Some(trait_at))] => {
                Some(serde_json::json!({ "$ref": format!("#{}", child(trait_at, key)) }))
            }
            _ => {
                let mut budget = MERGE_BUDGET;
                givers.iter().fold(None, |merged, (source, _)| {
                    merge(parsed, merged, &source[key], (0, &mut budget))
                })
            }
        };
        changed = true;
        match value {
            Some(value) => out.insert(key.clone(), value),
            None => out.remove(key),
        };
    }
    changed.then_some(out)
}

/// How many nodes one member's merge may visit: refs followed on both sides of a recursive
/// schema would otherwise double the work at every level.
const MERGE_BUDGET: usize = 4096;

/// `patch` merged over `target` (RFC 7386: objects member by member, `null` removes, anything
/// else replaces), with a `$ref` followed where its content must be merged. Past the depth
/// limit or the budget, the patch replaces what it would have merged into.
fn merge(
    parsed: &Parsed,
    target: Option<Value>,
    patch: &Value,
    (depth, budget): (usize, &mut usize),
) -> Option<Value> {
    *budget = budget.saturating_sub(1);
    let room = depth < MAX_DEPTH && *budget > 0;
    if patch.is_null() {
        return None;
    }
    if !room || target.as_ref() == Some(patch) {
        return Some(patch.clone());
    }
    let resolved = |value: &Value| match follow(parsed, value, "") {
        Target::Found(found, _) => Some(found.clone()),
        Target::Unresolved(..) => None,
    };
    let is_ref = |value: &Value| value.get("$ref").is_some();
    let patch = match patch {
        Value::Object(_) if is_ref(patch) && target.is_some() => {
            resolved(patch).unwrap_or_else(|| patch.clone())
        }
        other => other.clone(),
    };
    let Value::Object(patch) = patch else {
        return Some(patch);
    };
    let target = match target {
        Some(value) if is_ref(&value) => resolved(&value),
        other => other,
    };
    let mut out = match target {
        Some(Value::Object(map)) => map,
        _ => Map::new(),
    };
    for (key, value) in patch {
        if let Some(merged) = merge(parsed, out.remove(&key), &value, (depth + 1, budget)) {
            out.insert(key, merged);
        }
    }
    Some(Value::Object(out))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::document::read;

    fn applied(text: &str) -> serde_json::Value {
        let load = |_: &str| Err("no files".to_owned());
        let parsed = read("a.yaml", text, &load).expect("read").expect("judged");
        parsed.root["components"]["messages"]["M"].clone()
    }

    #[test]
    fn in_3x_the_message_wins_then_the_later_trait() {
        let message = applied(
            "asyncapi: 3.0.0\ninfo: {title: T, version: '1'}\ncomponents:\n  messages:\n    M:\n      \
             contentType: application/json\n      traits:\n        - {contentType: text/plain, \
             schemaFormat: a, headers: {properties: {x: {type: string}}}}\n        - {schemaFormat: b}\n",
        );
        assert_eq!(message["contentType"], "application/json");
        assert_eq!(message["schemaFormat"], "b");
        // One trait alone gives the headers: read where that trait has them.
        assert_eq!(
            message["headers"],
            json!({"$ref": "#/components/messages/M/traits/0/headers"})
        );
    }

    #[test]
    fn in_2x_the_trait_wins_and_objects_merge() {
        let message = applied(
            "asyncapi: 2.6.0\ninfo: {title: T, version: '1'}\nchannels: {}\ncomponents:\n  messages:\n    M:\n      \
             contentType: application/json\n      headers: {properties: {x: {type: string}}}\n      \
             traits:\n        - $ref: '#/components/messageTraits/T'\n  messageTraits:\n    T:\n      \
             contentType: application/avro\n      headers: {properties: {y: {type: integer}}}\n",
        );
        assert_eq!(message["contentType"], "application/avro");
        assert_eq!(
            message["headers"],
            json!({"properties": {"x": {"type": "string"}, "y": {"type": "integer"}}})
        );
    }

    #[test]
    fn merging_two_recursive_schemas_ends() {
        // Each level follows both refs into two more: without a budget, 2^128 merges.
        let tree = |name: &str| {
            format!(
                "    {name}:\n      type: object\n      properties:\n        \
                 left: {{$ref: '#/components/schemas/{name}'}}\n        \
                 right: {{$ref: '#/components/schemas/{name}'}}\n"
            )
        };
        let text = format!(
            "asyncapi: 3.0.0\ninfo: {{title: T, version: '1'}}\ncomponents:\n  messages:\n    M:\n      \
             headers: {{$ref: '#/components/schemas/A'}}\n      traits:\n        \
             - headers: {{$ref: '#/components/schemas/B'}}\n  schemas:\n{}{}",
            tree("A"),
            tree("B")
        );
        let message = applied(&text);
        assert_eq!(message["headers"]["type"], "object");
    }
}
