//! The JSON Schema rules table: for every kind of change the walker can report, whether it breaks
//! the backward direction (new reader, old data) and the forward direction (old reader, new data),
//! and why. This file is data plus the words that describe each change; the strategy is applied
//! in `schema::verdict::judge`, and the walker in `compare.rs` decides nothing about breaking-ness.

use std::collections::BTreeSet;

use serde_json::Value;

use super::compare::{Change, canon_value};
use crate::schema::verdict::{Effect, Rule};

/// Every kind of change the walker reports. The ids are a stable contract (`property.added` ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ChangeKind {
    PropertyAdded,
    PropertyAddedToClosedObject,
    PropertyRemoved,
    PropertyRemovedFromClosedObject,
    RequiredAdded,
    RequiredAddedWithDefault,
    RequiredRemoved,
    TypeWidened,
    TypeNarrowed,
    TypeChanged,
    EnumAdded,
    EnumRemoved,
    EnumValueAdded,
    EnumValueRemoved,
    ConstraintTightened,
    ConstraintLoosened,
    ConstraintChanged,
    AdditionalPropertiesClosed,
    AdditionalPropertiesOpened,
    TupleItemAdded,
    TupleItemRemoved,
    UnionBranchAdded,
    UnionBranchRemoved,
    AllOfBranchAdded,
    AllOfBranchRemoved,
    SchemaRestricted,
    SchemaRelaxed,
    SchemaDeprecated,
    KeywordChanged,
}

impl ChangeKind {
    /// Every kind, in table order.
    pub const ALL: [ChangeKind; 29] = [
        ChangeKind::PropertyAdded,
        ChangeKind::PropertyAddedToClosedObject,
        ChangeKind::PropertyRemoved,
        ChangeKind::PropertyRemovedFromClosedObject,
        ChangeKind::RequiredAdded,
        ChangeKind::RequiredAddedWithDefault,
        ChangeKind::RequiredRemoved,
        ChangeKind::TypeWidened,
        ChangeKind::TypeNarrowed,
        ChangeKind::TypeChanged,
        ChangeKind::EnumAdded,
        ChangeKind::EnumRemoved,
        ChangeKind::EnumValueAdded,
        ChangeKind::EnumValueRemoved,
        ChangeKind::ConstraintTightened,
        ChangeKind::ConstraintLoosened,
        ChangeKind::ConstraintChanged,
        ChangeKind::AdditionalPropertiesClosed,
        ChangeKind::AdditionalPropertiesOpened,
        ChangeKind::TupleItemAdded,
        ChangeKind::TupleItemRemoved,
        ChangeKind::UnionBranchAdded,
        ChangeKind::UnionBranchRemoved,
        ChangeKind::AllOfBranchAdded,
        ChangeKind::AllOfBranchRemoved,
        ChangeKind::SchemaRestricted,
        ChangeKind::SchemaRelaxed,
        ChangeKind::SchemaDeprecated,
        ChangeKind::KeywordChanged,
    ];

    /// The stable id, as written in ops and documentation.
    pub fn id(self) -> &'static str {
        self.rule().id
    }

    /// The kind for an id, if there is one.
    pub fn from_id(id: &str) -> Option<ChangeKind> {
        ChangeKind::ALL.into_iter().find(|kind| kind.id() == id)
    }

    /// This kind's row in [`RULES`] (rows are in [`ChangeKind::ALL`] order, tested below).
    pub fn rule(self) -> &'static Rule {
        &RULES[self as usize]
    }
}

use Effect::{Breaks, Safe};

/// The whole rules engine: one row per [`ChangeKind`], in the same order.
#[rustfmt::skip]
pub const RULES: [Rule; 29] = [
    Rule { id: "property.added", backward: Safe, forward: Safe,
        reason: "old messages don't have it and don't need it, old readers ignore the extra field",
        change: "Add an optional property to an open object" },
    Rule { id: "property.added-to-closed-object", backward: Safe, forward: Breaks,
        reason: "old readers reject unknown properties, so they reject new messages carrying it",
        change: "Add an optional property to a closed object (old readers reject unknown properties)" },
    Rule { id: "property.removed", backward: Safe, forward: Safe,
        reason: "nobody was relying on it being there",
        change: "Remove an optional property from an open object" },
    Rule { id: "property.removed-from-closed-object", backward: Breaks, forward: Safe,
        reason: "new readers reject old messages still carrying it",
        change: "Remove an optional property from a closed object (new readers reject old messages still carrying it)" },
    Rule { id: "required.added", backward: Breaks, forward: Safe,
        reason: "old messages may lack it, so new readers reject them; old readers ignore it",
        change: "Make a property required / add a required property" },
    Rule { id: "required.added-with-default", backward: Safe, forward: Safe,
        reason: "new readers fill the gap in old messages with the default",
        change: "Make a property required when it has a `default`" },
    Rule { id: "required.removed", backward: Safe, forward: Breaks,
        reason: "new messages may omit it, old readers insist on it",
        change: "Make a required property optional / remove a required property" },
    Rule { id: "type.widened", backward: Safe, forward: Breaks,
        reason: "new messages may carry values old readers do not accept",
        change: "Widen a type (`integer` to `number`, `string` to `[\"string\",\"null\"]`, type removed)" },
    Rule { id: "type.narrowed", backward: Breaks, forward: Safe,
        reason: "old messages may carry values new readers do not accept",
        change: "Narrow a type (`number` to `integer`, nullable to not, type added)" },
    Rule { id: "type.changed", backward: Breaks, forward: Breaks,
        reason: "neither side accepts the other's values",
        change: "Change a type outright (`string` to `number`)" },
    Rule { id: "enum.added", backward: Breaks, forward: Safe,
        reason: "old messages could have carried any value",
        change: "Restrict a free value to an enum or `const`" },
    Rule { id: "enum.removed", backward: Safe, forward: Breaks,
        reason: "new messages may carry values old readers have never seen",
        change: "Lift an enum restriction" },
    Rule { id: "enum.value.added", backward: Safe, forward: Breaks,
        reason: "new messages may carry a value old readers have never seen",
        change: "Add an enum value" },
    Rule { id: "enum.value.removed", backward: Breaks, forward: Safe,
        reason: "old messages may still carry it",
        change: "Remove an enum value" },
    Rule { id: "constraint.tightened", backward: Breaks, forward: Safe,
        reason: "old messages may not satisfy the stricter rule",
        change: "Tighten a constraint (`min*` up, `max*` down, `pattern`/`format`/`multipleOf`/`uniqueItems`/`oneOf`/`allOf` added)" },
    Rule { id: "constraint.loosened", backward: Safe, forward: Breaks,
        reason: "new messages may break the rule old readers still enforce",
        change: "Loosen a constraint (the reverse)" },
    Rule { id: "constraint.changed", backward: Breaks, forward: Breaks,
        reason: "whether one value accepts everything the other does cannot be decided reliably",
        change: "Change `pattern`, `format` or `multipleOf` to a different value" },
    Rule { id: "additionalProperties.closed", backward: Breaks, forward: Safe,
        reason: "old messages may have carried extra fields",
        change: "Close an open model (`additionalProperties: false`)" },
    Rule { id: "additionalProperties.opened", backward: Safe, forward: Breaks,
        reason: "new messages may carry fields old readers reject",
        change: "Open a closed model" },
    Rule { id: "tuple.item.added", backward: Breaks, forward: Safe,
        reason: "old messages could have carried anything at that position",
        change: "Constrain a new tuple position (`items` array or `prefixItems`)" },
    Rule { id: "tuple.item.removed", backward: Safe, forward: Breaks,
        reason: "new messages may carry anything at a position old readers constrain",
        change: "Drop a tuple position" },
    Rule { id: "union.branch.added", backward: Safe, forward: Breaks,
        reason: "new messages may match a shape old readers have never seen",
        change: "Add a `oneOf` / `anyOf` branch" },
    Rule { id: "union.branch.removed", backward: Breaks, forward: Safe,
        reason: "old messages may have matched it",
        change: "Remove a `oneOf` / `anyOf` branch" },
    Rule { id: "allOf.branch.added", backward: Breaks, forward: Safe,
        reason: "every message must now satisfy one more constraint",
        change: "Add an `allOf` branch" },
    Rule { id: "allOf.branch.removed", backward: Safe, forward: Breaks,
        reason: "a constraint is gone, so new messages may break it",
        change: "Remove an `allOf` branch" },
    Rule { id: "schema.restricted", backward: Breaks, forward: Safe,
        reason: "old messages could have carried values it now rejects",
        change: "Replace `true` (anything) with a schema, or a schema with `false`" },
    Rule { id: "schema.relaxed", backward: Safe, forward: Breaks,
        reason: "new messages may carry values old readers reject",
        change: "Replace a schema with `true`, or `false` with a schema" },
    Rule { id: "schema.deprecated", backward: Safe, forward: Safe,
        reason: "an annotation only, reported because catalogs care about it",
        change: "Mark a node `deprecated: true`" },
    Rule { id: "keyword.changed", backward: Breaks, forward: Breaks,
        reason: "this keyword is not reasoned about, so it is treated as breaking both ways for a human to check",
        change: "Change a keyword we do not reason about (see below)" },
];

/// The last segment of a JSON pointer, unescaped: the property name for property paths.
fn last_segment(path: &str) -> String {
    path.rsplit('/')
        .next()
        .unwrap_or("")
        .replace("~1", "/")
        .replace("~0", "~")
}

fn short(value: &Option<Value>) -> String {
    match value {
        Some(value) => {
            let text = value.to_string();
            if text.len() > 60 {
                // Cut on a char boundary so multi-byte text cannot panic.
                let cut: String = text.chars().take(57).collect();
                format!("{cut}...")
            } else {
                text
            }
        }
        None => "nothing".to_owned(),
    }
}

/// A type as the reader knows it: a name bare, a list as JSON.
fn show_type(value: &Option<Value>) -> String {
    match value {
        Some(Value::String(name)) => name.clone(),
        other => short(other),
    }
}

/// What happened, in words: the first half of an op's reason.
pub fn describe(change: &Change) -> String {
    let name = last_segment(&change.path);
    let keyword = &change.keyword;
    let (before, after) = (short(&change.before), short(&change.after));
    let (added, removed) = (change.before.is_none(), change.after.is_none());
    match change.kind {
        ChangeKind::PropertyAdded => format!("property `{name}` was added"),
        ChangeKind::PropertyAddedToClosedObject => {
            format!("property `{name}` was added to an object that rejects unknown properties")
        }
        ChangeKind::PropertyRemoved => format!("property `{name}` was removed"),
        ChangeKind::PropertyRemovedFromClosedObject => {
            format!("property `{name}` was removed from an object that rejects unknown properties")
        }
        ChangeKind::RequiredAdded => format!("`{name}` is now required"),
        ChangeKind::RequiredAddedWithDefault => {
            format!("`{name}` is now required but has a default")
        }
        ChangeKind::RequiredRemoved => format!("`{name}` is no longer required"),
        ChangeKind::TypeWidened | ChangeKind::TypeNarrowed | ChangeKind::TypeChanged => {
            let verb = match change.kind {
                ChangeKind::TypeWidened => "widened",
                ChangeKind::TypeNarrowed => "narrowed",
                _ => "changed",
            };
            format!(
                "type {verb} from {} to {}",
                show_type(&change.before),
                show_type(&change.after)
            )
        }
        ChangeKind::EnumAdded => format!("values restricted to {after}"),
        ChangeKind::EnumRemoved => format!("the restriction to {before} was lifted"),
        ChangeKind::EnumValueAdded => format!("value {after} was added"),
        ChangeKind::EnumValueRemoved => format!("value {before} was removed"),
        ChangeKind::ConstraintTightened if added => format!("`{keyword}` {after} was added"),
        ChangeKind::ConstraintTightened => {
            format!("`{keyword}` tightened from {before} to {after}")
        }
        ChangeKind::ConstraintLoosened if removed => {
            format!("`{keyword}` {before} was removed")
        }
        ChangeKind::ConstraintLoosened => format!("`{keyword}` loosened from {before} to {after}"),
        ChangeKind::ConstraintChanged => format!("`{keyword}` changed from {before} to {after}"),
        ChangeKind::AdditionalPropertiesClosed => {
            "the object no longer accepts unknown properties".to_owned()
        }
        ChangeKind::AdditionalPropertiesOpened => {
            "the object now accepts unknown properties".to_owned()
        }
        ChangeKind::TupleItemAdded => format!("tuple position {name} is now constrained"),
        ChangeKind::TupleItemRemoved => format!("tuple position {name} is no longer constrained"),
        ChangeKind::UnionBranchAdded => format!("a `{keyword}` branch was added"),
        ChangeKind::UnionBranchRemoved => format!("a `{keyword}` branch was removed"),
        ChangeKind::AllOfBranchAdded => "an `allOf` branch was added".to_owned(),
        ChangeKind::AllOfBranchRemoved => "an `allOf` branch was removed".to_owned(),
        ChangeKind::SchemaRestricted => {
            format!("the schema was restricted from {before} to {after}")
        }
        ChangeKind::SchemaRelaxed => format!("the schema was relaxed from {before} to {after}"),
        ChangeKind::SchemaDeprecated => "the node is now marked deprecated".to_owned(),
        ChangeKind::KeywordChanged if added => format!("`{keyword}` {after} was added"),
        ChangeKind::KeywordChanged if removed => format!("`{keyword}` {before} was removed"),
        ChangeKind::KeywordChanged => format!("`{keyword}` changed from {before} to {after}"),
    }
}

/// A value as the reference's `show` prints it in a reason: a string bare, anything else as
/// `JSON.stringify` writes it, and `undefined` for nothing.
fn show(value: &Option<Value>) -> String {
    match value {
        Some(Value::String(text)) => text.clone(),
        Some(value) => crate::json_text::to_compact(&js_ordered(value)),
        None => "undefined".to_owned(),
    }
}

/// `value` with each object's keys in the order `JSON.parse` leaves them (integer-like first).
fn js_ordered(value: &Value) -> Value {
    match value {
        Value::Object(_) => Value::Object(
            super::compare::entries(Some(value))
                .into_iter()
                .map(|(key, item)| (key.into_owned(), js_ordered(item)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(js_ordered).collect()),
        other => other.clone(),
    }
}

/// The op's `reason` as `@eventcatalog/diff` 0.1.0 words it (its rules table), so the JSON
/// document is the reference's to the letter; [`describe`] says more, for people.
pub fn reference_reason(change: &Change) -> String {
    let keyword = &change.keyword;
    let (before, after) = (show(&change.before), show(&change.after));
    match change.kind {
        ChangeKind::PropertyAdded => "property added".to_owned(),
        ChangeKind::PropertyAddedToClosedObject => {
            "property added to a closed object (old readers reject unknown properties)".to_owned()
        }
        ChangeKind::PropertyRemoved => "property removed".to_owned(),
        ChangeKind::PropertyRemovedFromClosedObject => "property removed from a closed object (new readers reject old messages that still carry it)".to_owned(),
        ChangeKind::RequiredAdded => "property became required".to_owned(),
        ChangeKind::RequiredAddedWithDefault => {
            "property became required but has a default".to_owned()
        }
        ChangeKind::RequiredRemoved => "property is no longer required".to_owned(),
        ChangeKind::TypeWidened => format!("type widened from {before} to {after}"),
        ChangeKind::TypeNarrowed => format!("type narrowed from {before} to {after}"),
        ChangeKind::TypeChanged => format!("type changed from {before} to {after}"),
        ChangeKind::EnumAdded => format!("values restricted to {after}"),
        ChangeKind::EnumRemoved => "enum restriction removed".to_owned(),
        ChangeKind::EnumValueAdded => format!("enum value {after} added"),
        ChangeKind::EnumValueRemoved => format!("enum value {before} removed"),
        ChangeKind::ConstraintTightened if change.before.is_none() => {
            format!("{keyword} added ({after})")
        }
        ChangeKind::ConstraintTightened => {
            format!("{keyword} tightened from {before} to {after}")
        }
        ChangeKind::ConstraintLoosened if change.after.is_none() => format!("{keyword} removed"),
        ChangeKind::ConstraintLoosened => format!("{keyword} loosened from {before} to {after}"),
        ChangeKind::ConstraintChanged => format!("{keyword} changed from {before} to {after}"),
        ChangeKind::AdditionalPropertiesClosed => {
            "additional properties are no longer allowed".to_owned()
        }
        ChangeKind::AdditionalPropertiesOpened => "additional properties are now allowed".to_owned(),
        ChangeKind::TupleItemAdded => "tuple position is now constrained".to_owned(),
        ChangeKind::TupleItemRemoved => "tuple position is no longer constrained".to_owned(),
        ChangeKind::UnionBranchAdded => format!("{keyword} branch added"),
        ChangeKind::UnionBranchRemoved => format!("{keyword} branch removed"),
        ChangeKind::AllOfBranchAdded => "allOf branch added".to_owned(),
        ChangeKind::AllOfBranchRemoved => "allOf branch removed".to_owned(),
        ChangeKind::SchemaRestricted => "schema now accepts fewer values".to_owned(),
        ChangeKind::SchemaRelaxed => "schema now accepts more values".to_owned(),
        ChangeKind::SchemaDeprecated => "marked as deprecated".to_owned(),
        ChangeKind::KeywordChanged => {
            format!("{keyword} changed, compatibility cannot be determined")
        }
    }
}

/// What changed where the op's path does not say (the op's fingerprint hashes it): the members
/// a `type` list lost and gained, the branch of a union or `allOf` (its path is a position), and
/// the value of an enum op (in the reference's words, as acknowledgements already written hash).
pub fn subject(change: &Change) -> Option<String> {
    match change.kind {
        ChangeKind::EnumValueAdded | ChangeKind::EnumValueRemoved => Some(reference_reason(change)),
        ChangeKind::TypeWidened | ChangeKind::TypeNarrowed | ChangeKind::TypeChanged => {
            let members = |value: &Option<Value>| -> BTreeSet<String> {
                // `null` the value is not `"null"` the name (the walk tells them apart too).
                let name = |v: &Value| {
                    v.as_str()
                        .map_or_else(|| format!("({})", canon_value(v)), str::to_owned)
                };
                match value {
                    Some(Value::Array(items)) => items.iter().map(name).collect(),
                    Some(other) => BTreeSet::from([name(other)]),
                    None => BTreeSet::new(),
                }
            };
            let (was, is) = (members(&change.before), members(&change.after));
            let lost = was.difference(&is).map(|m| format!("-{m}"));
            let gained = is.difference(&was).map(|m| format!("+{m}"));
            Some(lost.chain(gained).collect::<Vec<_>>().join(" "))
        }
        ChangeKind::UnionBranchAdded
        | ChangeKind::UnionBranchRemoved
        | ChangeKind::AllOfBranchAdded
        | ChangeKind::AllOfBranchRemoved => change
            .after
            .as_ref()
            .or(change.before.as_ref())
            // What the branch accepts: a later edit of its `description` is the same branch.
            .map(|branch| canon_value(&super::unfollowed::without_annotations(branch))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_its_row_in_order() {
        assert_eq!(RULES.len(), ChangeKind::ALL.len());
        for kind in ChangeKind::ALL {
            assert_eq!(kind.rule().id, kind.id());
        }
    }

    /// The ops of two schema texts judged under `full`.
    fn ops(before: &str, after: &str) -> Vec<crate::schema::verdict::Op> {
        let parse = |text| super::super::parse_text("schema.json", text).expect("JSON");
        let strategy = crate::schema::Strategy::Full;
        let verdict = super::super::judge_values(&parse(before), &parse(after), strategy);
        verdict.expect("judged").ops
    }

    #[test]
    fn subjects_name_what_changed_and_ignore_annotations() {
        let subjects = |before: &str, after: &str| {
            let ops = ops(before, after).into_iter();
            ops.map(|op| op.subject).collect::<Vec<_>>()
        };
        let base = r#"{"oneOf": [{"type": "string"}]}"#;
        let added = |branch: &str| format!(r#"{{"oneOf": [{{"type": "string"}}, {branch}]}}"#);
        assert_eq!(
            subjects(
                base,
                &added(r#"{"type": "integer", "description": "a count"}"#)
            ),
            subjects(
                base,
                &added(r#"{"type": "integer", "description": "how many"}"#)
            ),
        );
        assert_ne!(
            subjects(base, &added(r#"{"type": "integer"}"#)),
            subjects(base, &added(r#"{"type": "boolean"}"#)),
        );
        // `null` the value and `"null"` the name are two members.
        assert_eq!(
            subjects(r#"{"type": null}"#, r#"{"type": "null"}"#),
            [Some("-(null) +null".to_owned())]
        );
    }

    #[test]
    fn reasons_are_the_reference_words_with_values_as_javascript_prints_them() {
        let reason = |before: &str, after: &str| {
            let ops = ops(before, after).into_iter();
            ops.map(|op| op.reason).collect::<Vec<_>>()
        };
        // Read to the nearest double, as `JSON.parse` reads it: not rounded to 119.04.
        assert_eq!(
            reason(
                r#"{"type": "number", "maximum": 119.04}"#,
                r#"{"type": "number", "maximum": 119.03999999999999}"#
            ),
            ["maximum tightened from 119.04 to 119.03999999999999"]
        );
        // Integer-like keys first, as a JavaScript object holds them; strings bare.
        assert_eq!(
            reason(
                r#"{"type": "object"}"#,
                r#"{"type": "object", "anyOf": [{"properties": {"b": {}, "10": {}, "2": {}}}]}"#
            ),
            [r#"anyOf added ([{"properties":{"2":{},"10":{},"b":{}}}])"#]
        );
        assert_eq!(
            reason(r#"{"type": "string"}"#, r#"{}"#),
            ["type widened from string to any"]
        );
    }

    #[test]
    fn ids_round_trip() {
        for kind in ChangeKind::ALL {
            assert_eq!(ChangeKind::from_id(kind.id()), Some(kind));
        }
    }
}
