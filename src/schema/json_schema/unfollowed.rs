//! The references the walker does not follow, and whether what they reach changed. The walker,
//! as `@eventcatalog/diff` does, follows only a `$ref` that is a local pointer (`#/...`) met in a
//! keyword it walks; every other reference (to an `$anchor`, by the document's own `$id`,
//! `$dynamicRef`, `$recursiveRef`, or any `$ref` inside a keyword it compares as text, such as
//! `then`) is compared as its own text, so a change behind it goes unseen. Such a change gets no
//! verdict: [`first_difference`] finds it, and a change that cannot reach one keeps the walker's.

use std::cell::OnceCell;
use std::collections::{BTreeMap, BTreeSet, HashSet};

use serde_json::{Map, Value};

use super::compare::{UNREASONED, canon_value, local_ref, resolve_pointer, resolve_ref};
use crate::path::pointer_segment as escape;

/// The keywords that name another schema.
const REFERENCES: &[&str] = &["$ref", "$dynamicRef", "$recursiveRef"];

/// Keywords holding subschemas that the walker walks (refs in them are followed): a schema, or
/// a list or map of schemas.
const WALKED: &[&str] = &[
    "properties",
    "additionalProperties",
    "items",
    "prefixItems",
    "oneOf",
    "anyOf",
    "allOf",
];

/// The keywords above that hold a map of schemas by name; the others hold a schema or a list.
const SCHEMA_MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "dependentSchemas",
    "dependencies",
];

/// A reference the walker does not follow: the pointer of the node that makes it, the keyword
/// and what it says.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Reference {
    pub at: String,
    pub keyword: &'static str,
    pub reference: String,
}

/// The unfollowed references of one side, and what each (by keyword and text) reaches
/// (`None`: a schema of another document).
struct Side {
    references: BTreeSet<Reference>,
    reach: BTreeMap<(&'static str, String), Option<String>>,
}

/// One side's document, with its anchors found once, when a reference first names one.
struct Doc<'a> {
    root: &'a Value,
    anchors: OnceCell<Vec<(String, &'a Map<String, Value>)>>,
}

/// The first unfollowed reference whose reach differs between the sides and that `judged` (the
/// walker already judged its node whole, or its keyword, as a changed keyword) does not hold,
/// with the side it is only on (`None`: on both, reaching different schemas). References are
/// told apart by keyword and text, not by where they sit: one moved with its node (branches
/// reordered, a schema moved into `$defs`) is the same reference. One that a side has more
/// often than the other (added or removed) differs; one on both that reaches the same schemas
/// does not.
pub fn first_difference(
    before: &Value,
    after: &Value,
    judged: impl Fn(&Reference) -> bool,
) -> Option<(Reference, Option<&'static str>)> {
    let (old, new) = (Side::of(before), Side::of(after));
    let places = |side: &Side, key: &(&'static str, String)| -> Vec<Reference> {
        side.references
            .iter()
            .filter(|r| r.keyword == key.0 && r.reference == key.1)
            .cloned()
            .collect()
    };
    let keys: BTreeSet<(&'static str, String)> = old
        .references
        .iter()
        .chain(&new.references)
        .map(|r| (r.keyword, r.reference.clone()))
        .collect();
    keys.into_iter().find_map(|key| {
        let (was, is) = (places(&old, &key), places(&new, &key));
        // A copy that stays where it was is neither added nor removed.
        let stays = |r: &Reference, other: &[Reference]| other.iter().any(|o| o.at == r.at);
        let gone: Vec<Reference> = was.iter().filter(|r| !stays(r, &is)).cloned().collect();
        let came: Vec<Reference> = is.iter().filter(|r| !stays(r, &was)).cloned().collect();
        let differs = match gone.len().cmp(&came.len()) {
            std::cmp::Ordering::Greater => Some((gone, Some("before"))),
            std::cmp::Ordering::Less => Some((came, Some("after"))),
            std::cmp::Ordering::Equal => {
                (old.reach.get(&key) != new.reach.get(&key)).then_some((is, None))
            }
        };
        let (found, side) = differs?;
        found.into_iter().find(|r| !judged(r)).map(|r| (r, side))
    })
}

impl Side {
    /// Every unfollowed reference met from the root through the keywords that hold schemas and
    /// through the refs the walker follows; `$defs` are met only through refs.
    fn of(root: &Value) -> Side {
        let mut side = Side {
            references: BTreeSet::new(),
            reach: BTreeMap::new(),
        };
        let doc = Doc {
            root,
            anchors: OnceCell::new(),
        };
        let mut seen = HashSet::new();
        // (pointer, node, whether the walker walks it)
        let mut pending = vec![(String::new(), root, true)];
        while let Some((at, node, walked)) = pending.pop() {
            if !seen.insert((at.clone(), walked)) {
                continue;
            }
            let Value::Object(map) = node else {
                continue;
            };
            if walked && let Some(reference) = local_ref(node) {
                // Followed, through any chain; the keywords beside it are not read.
                let (last, target) = resolve_ref(root, reference);
                pending.push((last[1..].to_owned(), target, true));
                continue;
            }
            for keyword in REFERENCES {
                let Some(Value::String(reference)) = map.get(*keyword) else {
                    continue;
                };
                let reach = side
                    .reach
                    .entry((keyword, reference.clone()))
                    .or_insert_with(|| Some(doc.reach(doc.targets(keyword, reference)?)));
                // A reference to another document is compared as its text (README).
                if reach.is_none() {
                    continue;
                }
                side.references.insert(Reference {
                    at: at.clone(),
                    keyword,
                    reference: reference.clone(),
                });
            }
            for (keyword, value) in map {
                // The keywords the walker compares as text only hold subschemas as well.
                let walks = WALKED.contains(&keyword.as_str());
                if !walks && !UNREASONED.contains(&keyword.as_str()) {
                    continue;
                }
                let at = format!("{at}/{}", escape(keyword));
                match value {
                    Value::Array(items) => pending.extend(
                        items
                            .iter()
                            .enumerate()
                            .map(|(i, item)| (format!("{at}/{i}"), item, walked && walks)),
                    ),
                    Value::Object(members) if SCHEMA_MAPS.contains(&keyword.as_str()) => pending
                        .extend(members.iter().map(|(name, member)| {
                            (format!("{at}/{}", escape(name)), member, walked && walks)
                        })),
                    _ => pending.push((at, value, walked && walks)),
                }
            }
        }
        side
    }
}

impl<'a> Doc<'a> {
    /// The schemas of this document a reference can name, with their pointers; `None` for one
    /// to another document. A `$dynamicRef` may land on any `$dynamicAnchor` of its name.
    fn targets(&self, keyword: &str, reference: &str) -> Option<Vec<(String, &'a Value)>> {
        let root = self.root;
        let (base, fragment) = reference.split_once('#').unwrap_or((reference, ""));
        if !base.is_empty() && !names_this_document(root, base) {
            return None;
        }
        if fragment.is_empty() {
            return Some(vec![(String::new(), root)]);
        }
        if fragment.starts_with('/') {
            return Some(vec![(
                fragment.to_owned(),
                resolve_pointer(root, &format!("#{fragment}")),
            )]);
        }
        let kinds: &[&str] = match keyword {
            "$dynamicRef" => &["$dynamicAnchor", "$anchor"],
            _ => &["$anchor", "$dynamicAnchor"],
        };
        let anchors = self.anchors.get_or_init(|| {
            crate::path::objects(root)
                .into_iter()
                .filter(|(_, map)| {
                    map.contains_key("$anchor") || map.contains_key("$dynamicAnchor")
                })
                .collect()
        });
        Some(
            anchors
                .iter()
                .filter(|(_, map)| {
                    kinds
                        .iter()
                        .any(|kind| map.get(*kind).and_then(Value::as_str) == Some(fragment))
                })
                .map(|(at, _)| (at.clone(), root.pointer(at).unwrap_or(&Value::Null)))
                .collect(),
        )
    }

    /// What a reference reaches, as text: the content of each schema it names and of every
    /// schema those name in turn, without annotations (which judge nothing) and without their
    /// pointers (a definition renamed reaches the same). The root stands for itself: the walker
    /// compares it, and each unfollowed reference inside it is listed on its own.
    fn reach(&self, named: Vec<(String, &'a Value)>) -> String {
        let mut closure: BTreeMap<String, &Value> = BTreeMap::new();
        let mut pending = named;
        while let Some((at, node)) = pending.pop() {
            if closure.insert(at.clone(), node).is_some() || at.is_empty() {
                continue;
            }
            for (_, map) in crate::path::objects(node) {
                for keyword in REFERENCES {
                    if let Some(more) = map
                        .get(*keyword)
                        .and_then(Value::as_str)
                        .and_then(|reference| self.targets(keyword, reference))
                    {
                        pending.extend(more);
                    }
                }
            }
        }
        let contents: BTreeSet<String> = closure
            .into_iter()
            .map(|(at, node)| match at.is_empty() {
                true => "#\n".to_owned(),
                false => format!("{}\n", canon_value(&without_annotations(node))),
            })
            .collect();
        contents.into_iter().collect()
    }
}

/// The keywords that only annotate a schema: no rule reads them.
const ANNOTATIONS: &[&str] = &["title", "description", "$comment", "examples", "example"];

/// The keywords whose values are data, not schemas: nothing in them is an annotation.
const DATA: &[&str] = &["enum", "const", "default"];

/// `schema` without its annotations, at every depth; the members of a map of schemas by name
/// (`properties`) keep their names, whatever they are.
pub(super) fn without_annotations(schema: &Value) -> Value {
    let Value::Object(map) = schema else {
        return schema.clone();
    };
    let by_name = |members: &Map<String, Value>| {
        let members = members
            .iter()
            .map(|(name, member)| (name.clone(), without_annotations(member)));
        Value::Object(members.collect())
    };
    let kept = map
        .iter()
        .filter(|(keyword, _)| !ANNOTATIONS.contains(&keyword.as_str()))
        .map(|(keyword, value)| {
            let value = match value {
                _ if DATA.contains(&keyword.as_str()) => value.clone(),
                Value::Object(members)
                    if SCHEMA_MAPS.contains(&keyword.as_str())
                        || ["$defs", "definitions"].contains(&keyword.as_str()) =>
                {
                    by_name(members)
                }
                Value::Array(items) => {
                    Value::Array(items.iter().map(without_annotations).collect())
                }
                other => without_annotations(other),
            };
            (keyword.clone(), value)
        });
    Value::Object(kept.collect())
}

/// Whether a reference's part before `#` names this document: its root `$id` (draft-04: `id`),
/// written whole or relative to it.
fn names_this_document(root: &Value, base: &str) -> bool {
    let Some(id) = ["$id", "id"]
        .iter()
        .find_map(|key| root.get(*key).and_then(Value::as_str))
    else {
        return false;
    };
    let id = id.split('#').next().unwrap_or_default();
    if base == id {
        return true;
    }
    // A relative reference replaces the last segment of the `$id`'s path.
    !base.contains(':')
        && !base.starts_with('/')
        && id
            .rfind('/')
            .is_some_and(|slash| format!("{}{base}", &id[..=slash]) == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn differs(before: Value, after: Value) -> Option<String> {
        first_difference(&before, &after, |_| false).map(|(r, side)| {
            format!(
                "{} {} {}{}",
                r.keyword,
                r.reference,
                r.at,
                side.map_or(String::new(), |s| format!(" {s}"))
            )
        })
    }

    #[test]
    fn an_anchor_whose_schema_changed_differs() {
        let side = |zip: &str| json!({"properties": {"a": {"$ref": "#addr"}}, "$defs": {"A": {"$anchor": "addr", "properties": {"zip": {"type": zip}}}}});
        assert_eq!(
            differs(side("string"), side("integer")).as_deref(),
            Some("$ref #addr /properties/a")
        );
        assert_eq!(differs(side("string"), side("string")), None);
    }

    #[test]
    fn a_change_the_reference_cannot_reach_does_not_differ() {
        let side = |kind: &str| json!({"properties": {"a": {"$ref": "#addr"}, "b": {"type": kind}}, "$defs": {"A": {"$anchor": "addr", "type": "string"}}});
        assert_eq!(differs(side("string"), side("integer")), None);
    }

    #[test]
    fn a_ref_to_the_root_stands_for_the_root() {
        let side = |kind: &str| json!({"type": "object", "properties": {"next": {"$ref": "#"}, "v": {"type": kind}}});
        assert_eq!(differs(side("string"), side("integer")), None);
    }

    #[test]
    fn a_local_ref_in_a_keyword_compared_as_text_is_not_followed() {
        let side = |required: Value| json!({"then": {"$ref": "#/$defs/P"}, "$defs": {"P": {"required": required}}});
        assert_eq!(
            differs(side(json!(["x"])), side(json!([]))).as_deref(),
            Some("$ref #/$defs/P /then")
        );
    }

    #[test]
    fn a_local_ref_the_walker_follows_is_its_business() {
        let side = |kind: &str| json!({"properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": kind}}});
        assert_eq!(differs(side("string"), side("integer")), None);
    }

    #[test]
    fn a_reference_on_one_side_only_differs() {
        let before = json!({"$recursiveAnchor": true, "properties": {"t": {"$recursiveRef": "#"}}});
        let after = json!({"$recursiveAnchor": true, "properties": {"t": {"type": "string"}}});
        assert_eq!(
            differs(before, after).as_deref(),
            Some("$recursiveRef # /properties/t before")
        );
    }

    #[test]
    fn the_documents_own_id_names_it() {
        let side = |kind: &str| json!({"$id": "https://example.com/s/order.json", "properties": {"a": {"$ref": "order.json#/$defs/A"}, "b": {"$ref": "https://example.com/other.json#/A"}}, "$defs": {"A": {"type": kind}}});
        assert_eq!(
            differs(side("string"), side("integer")).as_deref(),
            Some("$ref order.json#/$defs/A /properties/a")
        );
    }
}
