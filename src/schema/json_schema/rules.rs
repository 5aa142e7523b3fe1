//! The JSON Schema rules table: for every kind of change the walker can report, whether it breaks
//! the backward direction (new reader, old data) and the forward direction (old reader, new data),
//! and why. This file is data plus the one function that applies a strategy to it; the walker in
//! `compare.rs` decides nothing about breaking-ness.

use std::fmt;

use serde::{Serialize, Serializer};
use serde_json::Value;

use super::compare::Change;
use crate::schema::{Direction, Op, Strategy, Verdict};

/// What a change does to one direction of compatibility.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    Safe,
    Breaks,
}

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
        match self {
            ChangeKind::PropertyAdded => "property.added",
            ChangeKind::PropertyAddedToClosedObject => "property.added-to-closed-object",
            ChangeKind::PropertyRemoved => "property.removed",
            ChangeKind::PropertyRemovedFromClosedObject => "property.removed-from-closed-object",
            ChangeKind::RequiredAdded => "required.added",
            ChangeKind::RequiredAddedWithDefault => "required.added-with-default",
            ChangeKind::RequiredRemoved => "required.removed",
            ChangeKind::TypeWidened => "type.widened",
            ChangeKind::TypeNarrowed => "type.narrowed",
            ChangeKind::TypeChanged => "type.changed",
            ChangeKind::EnumAdded => "enum.added",
            ChangeKind::EnumRemoved => "enum.removed",
            ChangeKind::EnumValueAdded => "enum.value.added",
            ChangeKind::EnumValueRemoved => "enum.value.removed",
            ChangeKind::ConstraintTightened => "constraint.tightened",
            ChangeKind::ConstraintLoosened => "constraint.loosened",
            ChangeKind::ConstraintChanged => "constraint.changed",
            ChangeKind::AdditionalPropertiesClosed => "additionalProperties.closed",
            ChangeKind::AdditionalPropertiesOpened => "additionalProperties.opened",
            ChangeKind::TupleItemAdded => "tuple.item.added",
            ChangeKind::TupleItemRemoved => "tuple.item.removed",
            ChangeKind::UnionBranchAdded => "union.branch.added",
            ChangeKind::UnionBranchRemoved => "union.branch.removed",
            ChangeKind::AllOfBranchAdded => "allOf.branch.added",
            ChangeKind::AllOfBranchRemoved => "allOf.branch.removed",
            ChangeKind::SchemaRestricted => "schema.restricted",
            ChangeKind::SchemaRelaxed => "schema.relaxed",
            ChangeKind::SchemaDeprecated => "schema.deprecated",
            ChangeKind::KeywordChanged => "keyword.changed",
        }
    }

    /// The kind for an id, if there is one.
    pub fn from_id(id: &str) -> Option<ChangeKind> {
        ChangeKind::ALL.into_iter().find(|kind| kind.id() == id)
    }

    /// This kind's row in [`RULES`].
    pub fn rule(self) -> &'static Rule {
        // Every kind has exactly one row (tested below), so the lookup cannot miss; the fallback
        // to the most cautious row keeps library code free of panics all the same.
        RULES
            .iter()
            .find(|rule| rule.kind == self)
            .unwrap_or(&KEYWORD_CHANGED_RULE)
    }
}

impl fmt::Display for ChangeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl Serialize for ChangeKind {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.id())
    }
}

/// One row of the rules table.
#[derive(Debug, PartialEq, Eq)]
pub struct Rule {
    pub kind: ChangeKind,
    /// New reader, old data.
    pub backward: Effect,
    /// Old reader, new data.
    pub forward: Effect,
    /// Why, in words a person understands; appended to each op's description.
    pub reason: &'static str,
}

use Effect::{Breaks, Safe};

const KEYWORD_CHANGED_RULE: Rule = Rule {
    kind: ChangeKind::KeywordChanged,
    backward: Breaks,
    forward: Breaks,
    reason: "this keyword is not reasoned about, so it is treated as breaking both ways for a human to check",
};

/// The whole rules engine: one row per [`ChangeKind`].
#[rustfmt::skip]
pub const RULES: &[Rule] = &[
    Rule { kind: ChangeKind::PropertyAdded, backward: Safe, forward: Safe,
        reason: "old messages don't have it and don't need it, old readers ignore the extra field" },
    Rule { kind: ChangeKind::PropertyAddedToClosedObject, backward: Safe, forward: Breaks,
        reason: "old readers reject unknown properties, so they reject new messages carrying it" },
    Rule { kind: ChangeKind::PropertyRemoved, backward: Safe, forward: Safe,
        reason: "nobody was relying on it being there" },
    Rule { kind: ChangeKind::PropertyRemovedFromClosedObject, backward: Breaks, forward: Safe,
        reason: "new readers reject old messages still carrying it" },
    Rule { kind: ChangeKind::RequiredAdded, backward: Breaks, forward: Safe,
        reason: "old messages may lack it, so new readers reject them; old readers ignore it" },
    Rule { kind: ChangeKind::RequiredAddedWithDefault, backward: Safe, forward: Safe,
        reason: "new readers fill the gap in old messages with the default" },
    Rule { kind: ChangeKind::RequiredRemoved, backward: Safe, forward: Breaks,
        reason: "new messages may omit it, old readers insist on it" },
    Rule { kind: ChangeKind::TypeWidened, backward: Safe, forward: Breaks,
        reason: "new messages may carry values old readers do not accept" },
    Rule { kind: ChangeKind::TypeNarrowed, backward: Breaks, forward: Safe,
        reason: "old messages may carry values new readers do not accept" },
    Rule { kind: ChangeKind::TypeChanged, backward: Breaks, forward: Breaks,
        reason: "neither side accepts the other's values" },
    Rule { kind: ChangeKind::EnumAdded, backward: Breaks, forward: Safe,
        reason: "old messages could have carried any value" },
    Rule { kind: ChangeKind::EnumRemoved, backward: Safe, forward: Breaks,
        reason: "new messages may carry values old readers have never seen" },
    Rule { kind: ChangeKind::EnumValueAdded, backward: Safe, forward: Breaks,
        reason: "new messages may carry a value old readers have never seen" },
    Rule { kind: ChangeKind::EnumValueRemoved, backward: Breaks, forward: Safe,
        reason: "old messages may still carry it" },
    Rule { kind: ChangeKind::ConstraintTightened, backward: Breaks, forward: Safe,
        reason: "old messages may not satisfy the stricter rule" },
    Rule { kind: ChangeKind::ConstraintLoosened, backward: Safe, forward: Breaks,
        reason: "new messages may break the rule old readers still enforce" },
    Rule { kind: ChangeKind::ConstraintChanged, backward: Breaks, forward: Breaks,
        reason: "whether one value accepts everything the other does cannot be decided reliably" },
    Rule { kind: ChangeKind::AdditionalPropertiesClosed, backward: Breaks, forward: Safe,
        reason: "old messages may have carried extra fields" },
    Rule { kind: ChangeKind::AdditionalPropertiesOpened, backward: Safe, forward: Breaks,
        reason: "new messages may carry fields old readers reject" },
    Rule { kind: ChangeKind::TupleItemAdded, backward: Breaks, forward: Safe,
        reason: "old messages could have carried anything at that position" },
    Rule { kind: ChangeKind::TupleItemRemoved, backward: Safe, forward: Breaks,
        reason: "new messages may carry anything at a position old readers constrain" },
    Rule { kind: ChangeKind::UnionBranchAdded, backward: Safe, forward: Breaks,
        reason: "new messages may match a shape old readers have never seen" },
    Rule { kind: ChangeKind::UnionBranchRemoved, backward: Breaks, forward: Safe,
        reason: "old messages may have matched it" },
    Rule { kind: ChangeKind::AllOfBranchAdded, backward: Breaks, forward: Safe,
        reason: "every message must now satisfy one more constraint" },
    Rule { kind: ChangeKind::AllOfBranchRemoved, backward: Safe, forward: Breaks,
        reason: "a constraint is gone, so new messages may break it" },
    Rule { kind: ChangeKind::SchemaRestricted, backward: Breaks, forward: Safe,
        reason: "old messages could have carried values it now rejects" },
    Rule { kind: ChangeKind::SchemaRelaxed, backward: Safe, forward: Breaks,
        reason: "new messages may carry values old readers reject" },
    Rule { kind: ChangeKind::SchemaDeprecated, backward: Safe, forward: Safe,
        reason: "an annotation only, reported because catalogs care about it" },
    KEYWORD_CHANGED_RULE,
];

/// Apply a strategy to the walker's changes: one op per change, and the overall verdict.
/// `full` breaks when either column breaks, `none` never breaks.
pub fn judge(changes: &[Change], strategy: Strategy) -> Verdict {
    let mut broke_backward = false;
    let mut broke_forward = false;
    let ops = changes
        .iter()
        .map(|change| {
            let rule = change.kind.rule();
            let backward = strategy.checks_backward() && rule.backward == Breaks;
            let forward = strategy.checks_forward() && rule.forward == Breaks;
            broke_backward |= backward;
            broke_forward |= forward;
            Op {
                op: change.op,
                path: change.path.clone(),
                kind: change.kind,
                reason: format!("{}: {}", describe(change), rule.reason),
                breaking: backward || forward,
            }
        })
        .collect();
    let direction = Direction::from_flags(broke_backward, broke_forward);
    Verdict {
        breaking: direction.is_some(),
        direction,
        ops,
    }
}

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

/// What happened, in words: the first half of an op's reason.
pub fn describe(change: &Change) -> String {
    let name = last_segment(&change.path);
    let keyword = &change.keyword;
    let (before, after) = (short(&change.before), short(&change.after));
    match change.kind {
        ChangeKind::PropertyAdded => format!("optional property `{name}` was added"),
        ChangeKind::PropertyAddedToClosedObject => {
            format!("property `{name}` was added to an object that rejects unknown properties")
        }
        ChangeKind::PropertyRemoved => format!("optional property `{name}` was removed"),
        ChangeKind::PropertyRemovedFromClosedObject => {
            format!("property `{name}` was removed from an object that rejects unknown properties")
        }
        ChangeKind::RequiredAdded => format!("`{name}` is now required"),
        ChangeKind::RequiredAddedWithDefault => {
            format!("`{name}` is now required but has a default")
        }
        ChangeKind::RequiredRemoved => format!("`{name}` is no longer required"),
        ChangeKind::TypeWidened => format!("type widened from {before} to {after}"),
        ChangeKind::TypeNarrowed => format!("type narrowed from {before} to {after}"),
        ChangeKind::TypeChanged => format!("type changed from {before} to {after}"),
        ChangeKind::EnumAdded => format!("values restricted to `{keyword}` {after}"),
        ChangeKind::EnumRemoved => format!("`{keyword}` restriction {before} was lifted"),
        ChangeKind::EnumValueAdded => format!("value {after} was added"),
        ChangeKind::EnumValueRemoved => format!("value {before} was removed"),
        ChangeKind::ConstraintTightened => {
            format!("`{keyword}` tightened from {before} to {after}")
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
        ChangeKind::KeywordChanged => format!("`{keyword}` changed from {before} to {after}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_exactly_one_row() {
        for kind in ChangeKind::ALL {
            let rows = RULES.iter().filter(|rule| rule.kind == kind).count();
            assert_eq!(rows, 1, "{kind} has {rows} rows");
        }
        assert_eq!(RULES.len(), ChangeKind::ALL.len());
    }

    #[test]
    fn ids_round_trip() {
        for kind in ChangeKind::ALL {
            assert_eq!(ChangeKind::from_id(kind.id()), Some(kind));
        }
    }

    #[test]
    fn strategies_apply_the_columns() {
        let change = |kind| Change {
            kind,
            path: "/x".into(),
            keyword: "type".into(),
            op: super::super::compare::OpKind::Replace,
            before: None,
            after: None,
        };
        let widened = [change(ChangeKind::TypeWidened)];
        assert_eq!(judge(&widened, Strategy::Backward).direction, None);
        assert_eq!(
            judge(&widened, Strategy::Forward).direction,
            Some(Direction::Forward)
        );
        assert_eq!(
            judge(&widened, Strategy::Full).direction,
            Some(Direction::Forward)
        );
        assert!(!judge(&widened, Strategy::None).breaking);
        let both = [
            change(ChangeKind::TypeWidened),
            change(ChangeKind::TypeNarrowed),
        ];
        assert_eq!(
            judge(&both, Strategy::Full).direction,
            Some(Direction::Both)
        );
        assert_eq!(
            judge(&both, Strategy::Backward).direction,
            Some(Direction::Backward)
        );
    }
}
