//! The Avro rules table: for every kind of change the walker reports, whether it breaks the
//! backward direction (a reader on the new schema, data written with the old one) and the forward
//! direction (a reader on the old schema, new data), as Apache Avro's schema resolution decides
//! it, and why. Kinds are fine enough that each row is always right: a field added with a default
//! is another kind than one added without, an enum symbol added where old readers have an enum
//! default another kind than one added where they have none. This file is data; the strategy is
//! applied in `schema::verdict::judge`, and the walker in `compare.rs` only picks the kind.

use crate::schema::verdict::{Effect, Rule};

/// Every kind of change the Avro walker reports. The ids are a stable contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ChangeKind {
    FieldAdded,
    FieldAddedWithDefault,
    FieldRemoved,
    FieldRemovedWithDefault,
    FieldRenamed,
    FieldDefaultChanged,
    AliasesChanged,
    TypePromoted,
    TypeDemoted,
    TypeStringBytes,
    TypeChanged,
    LogicalTypeChanged,
    NameChanged,
    NameChangedAliased,
    NameChangedAliasedBack,
    NameChangedAliasedBoth,
    NamespaceChanged,
    EnumSymbolAdded,
    EnumSymbolAddedWithDefault,
    EnumSymbolRemoved,
    EnumSymbolRemovedWithDefault,
    EnumDefaultChanged,
    FixedSizeChanged,
    UnionBranchAdded,
    UnionBranchAddedReadable,
    UnionBranchRemoved,
    UnionBranchRemovedReadable,
    UnionCreated,
    UnionDissolved,
    ResolutionBackwardOnly,
    ResolutionForwardOnly,
    ResolutionNeither,
}

impl ChangeKind {
    /// Every kind, in table order.
    pub const ALL: [ChangeKind; 32] = [
        ChangeKind::FieldAdded,
        ChangeKind::FieldAddedWithDefault,
        ChangeKind::FieldRemoved,
        ChangeKind::FieldRemovedWithDefault,
        ChangeKind::FieldRenamed,
        ChangeKind::FieldDefaultChanged,
        ChangeKind::AliasesChanged,
        ChangeKind::TypePromoted,
        ChangeKind::TypeDemoted,
        ChangeKind::TypeStringBytes,
        ChangeKind::TypeChanged,
        ChangeKind::LogicalTypeChanged,
        ChangeKind::NameChanged,
        ChangeKind::NameChangedAliased,
        ChangeKind::NameChangedAliasedBack,
        ChangeKind::NameChangedAliasedBoth,
        ChangeKind::NamespaceChanged,
        ChangeKind::EnumSymbolAdded,
        ChangeKind::EnumSymbolAddedWithDefault,
        ChangeKind::EnumSymbolRemoved,
        ChangeKind::EnumSymbolRemovedWithDefault,
        ChangeKind::EnumDefaultChanged,
        ChangeKind::FixedSizeChanged,
        ChangeKind::UnionBranchAdded,
        ChangeKind::UnionBranchAddedReadable,
        ChangeKind::UnionBranchRemoved,
        ChangeKind::UnionBranchRemovedReadable,
        ChangeKind::UnionCreated,
        ChangeKind::UnionDissolved,
        ChangeKind::ResolutionBackwardOnly,
        ChangeKind::ResolutionForwardOnly,
        ChangeKind::ResolutionNeither,
    ];

    /// The stable id, as written in ops and documentation.
    pub fn id(self) -> &'static str {
        self.rule().id
    }

    /// This kind's row in [`RULES`] (rows are in [`ChangeKind::ALL`] order, tested below).
    pub fn rule(self) -> &'static Rule {
        &RULES[self as usize]
    }

    /// The row that keeps only the breaking effects of `rule` that `backward` / `forward`
    /// allow: the same row when nothing is taken away, else a `resolution.*` row. Used where
    /// only one side's readers meet a part of the schema (a field matched through an alias in
    /// one direction only, a union branch whose data another branch reads).
    pub fn within(rule: &'static Rule, backward: bool, forward: bool) -> &'static Rule {
        let breaks_backward = rule.backward == Effect::Breaks;
        let breaks_forward = rule.forward == Effect::Breaks;
        let (b, f) = (breaks_backward && backward, breaks_forward && forward);
        if (b, f) == (breaks_backward, breaks_forward) {
            return rule;
        }
        match (b, f) {
            (true, _) => ChangeKind::ResolutionBackwardOnly.rule(),
            (false, true) => ChangeKind::ResolutionForwardOnly.rule(),
            (false, false) => ChangeKind::ResolutionNeither.rule(),
        }
    }
}

use Effect::{Breaks, Safe};

/// The whole Avro rules engine: one row per [`ChangeKind`], in the same order.
#[rustfmt::skip]
pub const RULES: [Rule; 32] = [
    Rule { id: "field.added", backward: Breaks, forward: Safe,
        reason: "new readers find no value for it in old data and have no default to fill in; old readers skip it",
        change: "Add a field without a default" },
    Rule { id: "field.added-with-default", backward: Safe, forward: Safe,
        reason: "new readers fill it from the default when old data lacks it; old readers skip it",
        change: "Add a field with a default" },
    Rule { id: "field.removed", backward: Safe, forward: Breaks,
        reason: "old readers find no value for it in new data and their schema has no default for it",
        change: "Remove a field that has no default" },
    Rule { id: "field.removed-with-default", backward: Safe, forward: Safe,
        reason: "old readers fill it from their default; new readers skip it in old data",
        change: "Remove a field that has a default" },
    Rule { id: "field.renamed", backward: Safe, forward: Safe,
        reason: "the reader finds it through `aliases`; a side that cannot is reported as a field added or removed",
        change: "Rename a field, one side's `aliases` naming the other (the field's type is compared on)" },
    Rule { id: "field.default.changed", backward: Safe, forward: Safe,
        reason: "a default is only used when the data lacks the field, and both sides have it",
        change: "Add, change or remove the default of a field both sides have" },
    Rule { id: "aliases.changed", backward: Safe, forward: Safe,
        reason: "aliases only help a reader find a renamed field or type; a rename they do not cover is reported on its own",
        change: "Add or remove `aliases` of a field or a named type" },
    Rule { id: "type.promoted", backward: Safe, forward: Breaks,
        reason: "new readers promote the old values; old readers cannot read the wider values",
        change: "Promote a type (`int` to `long`, `float` or `double`; `long` to `float` or `double`; `float` to `double`)" },
    Rule { id: "type.demoted", backward: Breaks, forward: Safe,
        reason: "new readers cannot read the old, wider values; old readers promote the new ones",
        change: "Demote a type (the reverse of a promotion)" },
    Rule { id: "type.string-bytes", backward: Safe, forward: Safe,
        reason: "Avro reads `string` and `bytes` as each other",
        change: "Change `string` to `bytes` or back" },
    Rule { id: "type.changed", backward: Breaks, forward: Breaks,
        reason: "neither side's readers can read the other's values",
        change: "Change a type to one neither side can read (`int` to `string`, a record to an enum)" },
    Rule { id: "logical-type.changed", backward: Safe, forward: Safe,
        reason: "resolution reads a logical type as its physical type, which did not change",
        change: "Add, change or remove a `logicalType` (decimal precision and scale included)" },
    Rule { id: "name.changed", backward: Breaks, forward: Breaks,
        reason: "named types match by name, and neither side lists the other's full name in `aliases`",
        change: "Rename a record, enum or fixed without an alias" },
    Rule { id: "name.changed-aliased", backward: Safe, forward: Breaks,
        reason: "the new type's `aliases` hold the old full name, so new readers match old data; old readers do not know the new name",
        change: "Rename a named type, the new one listing the old full name in `aliases`" },
    Rule { id: "name.changed-aliased-back", backward: Breaks, forward: Safe,
        reason: "the old type's `aliases` already held the new full name, so old readers match new data; new readers do not know the old name",
        change: "Rename a named type to a name the old one listed in `aliases`" },
    Rule { id: "name.changed-aliased-both", backward: Safe, forward: Safe,
        reason: "each side's `aliases` hold the other's full name",
        change: "Rename a named type, each side listing the other's full name in `aliases`" },
    Rule { id: "namespace.changed", backward: Safe, forward: Safe,
        reason: "Avro's compatibility check matches named types by their unqualified name",
        change: "Change the namespace of a named type, keeping its name" },
    Rule { id: "enum.symbol.added", backward: Safe, forward: Breaks,
        reason: "old readers cannot read the new symbol and their enum has no default to fall back on",
        change: "Add an enum symbol (old enum without a default)" },
    Rule { id: "enum.symbol.added-with-default", backward: Safe, forward: Safe,
        reason: "old readers read symbols they do not know as their enum's default",
        change: "Add an enum symbol (old enum with a default)" },
    Rule { id: "enum.symbol.removed", backward: Breaks, forward: Safe,
        reason: "old data may carry it and the new enum has no default to fall back on",
        change: "Remove an enum symbol (new enum without a default)" },
    Rule { id: "enum.symbol.removed-with-default", backward: Safe, forward: Safe,
        reason: "new readers read symbols they do not know as their enum's default",
        change: "Remove an enum symbol (new enum with a default)" },
    Rule { id: "enum.default.changed", backward: Safe, forward: Safe,
        reason: "an enum default only matters for symbols a reader lacks, reported on their own",
        change: "Add, change or remove an enum's `default`" },
    Rule { id: "fixed.size.changed", backward: Breaks, forward: Breaks,
        reason: "a fixed is read only at the size it was written",
        change: "Change the size of a fixed" },
    Rule { id: "union.branch.added", backward: Safe, forward: Breaks,
        reason: "new data may be of this type and no branch of the old schema reads it",
        change: "Add a union branch no old branch reads" },
    Rule { id: "union.branch.added-readable", backward: Safe, forward: Safe,
        reason: "a branch of the old schema reads it (promotion or a matching name)",
        change: "Add a union branch an old branch reads (`long` beside an old `double`)" },
    Rule { id: "union.branch.removed", backward: Breaks, forward: Safe,
        reason: "old data may be of this type and no branch of the new schema reads it",
        change: "Remove a union branch no remaining branch reads" },
    Rule { id: "union.branch.removed-readable", backward: Safe, forward: Safe,
        reason: "a remaining branch reads its old data (promotion or a matching name)",
        change: "Remove a union branch a remaining branch reads (`int` beside a `long`)" },
    Rule { id: "union.created", backward: Safe, forward: Safe,
        reason: "a type reads as a union of itself; the branches added are reported on their own",
        change: "Make a type a union (`string` to `[\"null\", \"string\"]`)" },
    Rule { id: "union.dissolved", backward: Safe, forward: Safe,
        reason: "a union reads as the one type left; the branches removed are reported on their own",
        change: "Make a union a single type" },
    Rule { id: "resolution.backward-only", backward: Breaks, forward: Safe,
        reason: "only new readers meet this part, and they cannot read it (old readers resolve it through a default or another union branch)",
        change: "A change only new readers meet, that they cannot read (inside a field matched through an alias one way only)" },
    Rule { id: "resolution.forward-only", backward: Safe, forward: Breaks,
        reason: "only old readers meet this part, and they cannot read it (new readers resolve it through a default or another union branch)",
        change: "A change only old readers meet, that they cannot read" },
    Rule { id: "resolution.neither", backward: Safe, forward: Safe,
        reason: "the readers that would fail on it never meet it: they resolve this part through a default or another union branch",
        change: "A change no reader that would fail on it meets" },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_its_row_in_order() {
        assert_eq!(RULES.len(), ChangeKind::ALL.len());
        for (index, kind) in ChangeKind::ALL.into_iter().enumerate() {
            assert_eq!(kind as usize, index);
            assert_eq!(kind.rule().id, kind.id());
        }
    }

    #[test]
    fn ids_are_unique() {
        let mut ids: Vec<&str> = RULES.iter().map(|rule| rule.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), RULES.len());
    }

    #[test]
    fn within_keeps_only_what_is_allowed() {
        assert_eq!(
            ChangeKind::within(ChangeKind::TypeChanged.rule(), true, true),
            ChangeKind::TypeChanged.rule()
        );
        assert_eq!(
            ChangeKind::within(ChangeKind::TypeChanged.rule(), true, false),
            ChangeKind::ResolutionBackwardOnly.rule()
        );
        assert_eq!(
            ChangeKind::within(ChangeKind::TypePromoted.rule(), true, false),
            ChangeKind::ResolutionNeither.rule()
        );
        assert_eq!(
            ChangeKind::within(ChangeKind::TypePromoted.rule(), false, true),
            ChangeKind::TypePromoted.rule()
        );
        assert_eq!(
            ChangeKind::within(ChangeKind::FieldAddedWithDefault.rule(), false, false),
            ChangeKind::FieldAddedWithDefault.rule()
        );
    }
}
