//! The Protobuf rules tables, one per `buf breaking` category this tool judges under
//! (`WIRE_JSON`, the default, and `WIRE`). Both tables have one row per [`ChangeKind`], in the
//! same order, so a kind's id is the same whatever the category; only whether it breaks (and
//! why) differs. Each row names the buf rule it follows. This file is data; the walker in
//! `compare.rs` never judges and `verdict::judge` applies the strategy.
//!
//! A change buf rejects breaks under `backward`, `forward` and `full` alike. Where only one
//! direction truly breaks (an enum value removed: old data may still carry it, so new readers
//! are hurt) the other column says [`Effect::Flagged`], and the verdict's direction names the
//! one that breaks.

use super::ProtoRules;
use crate::schema::verdict::{Effect, Rule};

use Effect::{Breaks, Flagged, Safe};

/// Every kind of change the walker reports, in table order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ChangeKind {
    PackageChanged,
    SyntaxChanged,
    MessageAdded,
    MessageRemoved,
    MessageJsonFormatChanged,
    FieldAdded,
    FieldRemoved,
    FieldRemovedNumberReserved,
    FieldRemovedReserved,
    FieldRenamed,
    FieldJsonNameChanged,
    FieldTypeChanged,
    FieldTypeChangedWireCompatible,
    FieldTypeChangedCompatible,
    FieldTypeBytesToString,
    FieldCardinalityChanged,
    FieldCardinalityChangedWireCompatible,
    FieldPresenceChanged,
    FieldRequiredAdded,
    FieldRequiredRemoved,
    FieldOneofEntered,
    FieldOneofLeft,
    FieldOneofChanged,
    FieldDefaultChanged,
    EnumAdded,
    EnumRemoved,
    EnumJsonFormatChanged,
    EnumValueAdded,
    EnumValueRemoved,
    EnumValueRemovedNumberReserved,
    EnumValueRemovedReserved,
    EnumValueRenamed,
    ReservedRangeRemoved,
    ReservedNameRemoved,
    ServiceAdded,
    ServiceRemoved,
    RpcAdded,
    RpcRemoved,
    RpcRequestChanged,
    RpcResponseChanged,
    RpcClientStreamingChanged,
    RpcServerStreamingChanged,
    RpcIdempotencyChanged,
}

/// How many kinds (rows per table).
pub const KINDS: usize = 43;

impl ChangeKind {
    /// This kind's row in the table of `category`.
    pub fn rule(self, category: ProtoRules) -> &'static Rule {
        &table(category)[self as usize]
    }

    /// The buf rule ids this kind follows, as the README shows them (empty: no buf rule, or
    /// one outside the `WIRE_JSON` and `WIRE` categories).
    pub fn buf_rules(self) -> &'static str {
        BUF[self as usize]
    }
}

/// The rows of one category.
pub fn table(category: ProtoRules) -> &'static [Rule; KINDS] {
    match category {
        ProtoRules::WireJson => &WIRE_JSON,
        ProtoRules::Wire => &WIRE,
    }
}

/// The buf rules behind each kind, in [`ChangeKind`] order.
const BUF: [&str; KINDS] = [
    "FILE_SAME_PACKAGE",
    "FILE_SAME_SYNTAX (FILE only)",
    "",
    "MESSAGE_NO_DELETE (FILE only)",
    "MESSAGE_SAME_JSON_FORMAT",
    "",
    "FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED, FIELD_NO_DELETE_UNLESS_NAME_RESERVED",
    "FIELD_NO_DELETE_UNLESS_NAME_RESERVED",
    "",
    "FIELD_SAME_NAME",
    "FIELD_SAME_JSON_NAME",
    "FIELD_WIRE_JSON_COMPATIBLE_TYPE, FIELD_WIRE_COMPATIBLE_TYPE",
    "FIELD_WIRE_JSON_COMPATIBLE_TYPE",
    "",
    "FIELD_WIRE_JSON_COMPATIBLE_TYPE, FIELD_WIRE_COMPATIBLE_TYPE",
    "FIELD_WIRE_JSON_COMPATIBLE_CARDINALITY, FIELD_WIRE_COMPATIBLE_CARDINALITY",
    "FIELD_WIRE_JSON_COMPATIBLE_CARDINALITY",
    "FIELD_SAME_CARDINALITY (FILE only)",
    "MESSAGE_SAME_REQUIRED_FIELDS",
    "MESSAGE_SAME_REQUIRED_FIELDS",
    "FIELD_SAME_ONEOF",
    "FIELD_SAME_ONEOF",
    "FIELD_SAME_ONEOF",
    "FIELD_SAME_DEFAULT",
    "",
    "ENUM_NO_DELETE (FILE only)",
    "ENUM_SAME_JSON_FORMAT",
    "",
    "ENUM_VALUE_NO_DELETE_UNLESS_NUMBER_RESERVED, ENUM_VALUE_NO_DELETE_UNLESS_NAME_RESERVED",
    "ENUM_VALUE_NO_DELETE_UNLESS_NAME_RESERVED",
    "",
    "ENUM_VALUE_SAME_NAME",
    "RESERVED_MESSAGE_NO_DELETE, RESERVED_ENUM_NO_DELETE",
    "RESERVED_MESSAGE_NO_DELETE, RESERVED_ENUM_NO_DELETE",
    "",
    "SERVICE_NO_DELETE (FILE only)",
    "",
    "RPC_NO_DELETE (FILE only)",
    "RPC_SAME_REQUEST_TYPE",
    "RPC_SAME_RESPONSE_TYPE",
    "RPC_SAME_CLIENT_STREAMING",
    "RPC_SAME_SERVER_STREAMING",
    "RPC_SAME_IDEMPOTENCY_LEVEL",
];

/// Rows whose verdict is the same in both categories.
macro_rules! same {
    ($id:literal, $backward:ident, $forward:ident, $reason:literal, $change:literal) => {
        Rule {
            id: $id,
            backward: $backward,
            forward: $forward,
            reason: $reason,
            change: $change,
        }
    };
}

const PACKAGE_CHANGED: Rule = same!(
    "package.changed",
    Breaks,
    Breaks,
    "every type's full name changes, so the other side no longer finds the types it knows (buf FILE_SAME_PACKAGE)",
    "Change the file's `package`"
);
const SYNTAX_CHANGED: Rule = same!(
    "syntax.changed",
    Safe,
    Safe,
    "the syntax alone changes nothing on the wire; what it changes (presence, defaults, JSON support) is judged field by field and message by message",
    "Change `syntax` (proto2 / proto3; from proto3 to proto2 also drops the JSON support of each message and enum, judged in their rows)"
);
const MESSAGE_ADDED: Rule = same!(
    "message.added",
    Safe,
    Safe,
    "nothing on the other side refers to it yet",
    "Add a message"
);
const MESSAGE_REMOVED: Rule = same!(
    "message.removed",
    Safe,
    Safe,
    "a message name never travels on the wire; buf checks this only in its FILE category (MESSAGE_NO_DELETE)",
    "Remove a message (nested ones too)"
);
const FIELD_ADDED: Rule = same!(
    "field.added",
    Safe,
    Safe,
    "old readers skip the unknown field, new readers see its default in old data",
    "Add a field"
);
const FIELD_REMOVED_RESERVED: Rule = same!(
    "field.removed.reserved",
    Safe,
    Safe,
    "its number and name are reserved, so neither can be reused with another meaning",
    "Remove a field, reserving its number and name"
);
const FIELD_TYPE_CHANGED: Rule = same!(
    "field.type.changed",
    Breaks,
    Breaks,
    "the two types are not read the same way, so each side misreads the other's data (buf FIELD_WIRE_JSON_COMPATIBLE_TYPE / FIELD_WIRE_COMPATIBLE_TYPE)",
    "Change a field's type across encodings (`string` to `int32`, one message or enum for another)"
);
const FIELD_TYPE_CHANGED_COMPATIBLE: Rule = same!(
    "field.type.changed.compatible",
    Safe,
    Safe,
    "both types share the binary and the JSON encoding (`int32`/`uint32`, `int64`/`uint64`, `fixed32`/`sfixed32`, `fixed64`/`sfixed64`, an enum of the same name with all the old values)",
    "Change a field's type within a compatible group"
);
const FIELD_CARDINALITY_CHANGED: Rule = same!(
    "field.cardinality.changed",
    Breaks,
    Breaks,
    "singular, required and repeated fields are written differently (buf FIELD_WIRE_JSON_COMPATIBLE_CARDINALITY / FIELD_WIRE_COMPATIBLE_CARDINALITY)",
    "Change a field's label (optional / required / repeated)"
);
const FIELD_PRESENCE_CHANGED: Rule = same!(
    "field.presence.changed",
    Safe,
    Safe,
    "explicit and implicit presence are written the same way; buf checks this only in its FILE category (FIELD_SAME_CARDINALITY)",
    "Add or drop proto3 `optional` (explicit presence)"
);
const FIELD_REQUIRED_ADDED: Rule = same!(
    "field.required.added",
    Breaks,
    Flagged,
    "old data may lack it, so new readers reject it (buf MESSAGE_SAME_REQUIRED_FIELDS)",
    "Add a required field, or make a field required"
);
const FIELD_REQUIRED_REMOVED: Rule = same!(
    "field.required.removed",
    Flagged,
    Breaks,
    "new data may lack it, so old readers reject it (buf MESSAGE_SAME_REQUIRED_FIELDS)",
    "Remove a required field, or make it optional"
);
const FIELD_ONEOF_ENTERED: Rule = same!(
    "field.oneof.entered",
    Breaks,
    Flagged,
    "old data may set it beside other members, and new readers keep only one (buf FIELD_SAME_ONEOF)",
    "Move a field into a oneof"
);
const FIELD_ONEOF_LEFT: Rule = same!(
    "field.oneof.left",
    Flagged,
    Breaks,
    "new data may set it beside the oneof's members, and old readers keep only one (buf FIELD_SAME_ONEOF)",
    "Move a field out of a oneof"
);
const FIELD_ONEOF_CHANGED: Rule = same!(
    "field.oneof.changed",
    Breaks,
    Breaks,
    "the fields it excludes differ on each side (buf FIELD_SAME_ONEOF)",
    "Move a field from one oneof to another"
);
const FIELD_DEFAULT_CHANGED: Rule = same!(
    "field.default.changed",
    Breaks,
    Breaks,
    "an absent field reads as a different value on each side (buf FIELD_SAME_DEFAULT)",
    "Change a proto2 field's `default` (or the first value of its enum)"
);
const ENUM_ADDED: Rule = same!(
    "enum.added",
    Safe,
    Safe,
    "nothing on the other side refers to it yet",
    "Add an enum"
);
const ENUM_REMOVED: Rule = same!(
    "enum.removed",
    Safe,
    Safe,
    "an enum name never travels on the wire; buf checks this only in its FILE category (ENUM_NO_DELETE)",
    "Remove an enum"
);
const ENUM_VALUE_ADDED: Rule = same!(
    "enum.value.added",
    Safe,
    Safe,
    "old readers keep an unknown number as it is (open enums) or as an unknown field (closed ones)",
    "Add an enum value"
);
const ENUM_VALUE_REMOVED: Rule = same!(
    "enum.value.removed",
    Breaks,
    Flagged,
    "old data may still carry it, and its number is free for reuse (buf ENUM_VALUE_NO_DELETE_UNLESS_NUMBER_RESERVED)",
    "Remove an enum value without reserving its number"
);
const ENUM_VALUE_REMOVED_RESERVED: Rule = same!(
    "enum.value.removed.reserved",
    Safe,
    Safe,
    "its number and name are reserved, so neither can be reused with another meaning",
    "Remove an enum value, reserving its number and name"
);
const RESERVED_RANGE_REMOVED: Rule = same!(
    "reserved.range.removed",
    Breaks,
    Breaks,
    "numbers once reserved become free for reuse with another meaning (buf RESERVED_MESSAGE_NO_DELETE / RESERVED_ENUM_NO_DELETE)",
    "Drop reserved numbers (shrink or remove a `reserved` range)"
);
const RESERVED_NAME_REMOVED: Rule = same!(
    "reserved.name.removed",
    Breaks,
    Breaks,
    "a name once reserved becomes free for reuse with another meaning (buf RESERVED_MESSAGE_NO_DELETE / RESERVED_ENUM_NO_DELETE)",
    "Drop a reserved name"
);
const SERVICE_ADDED: Rule = same!(
    "service.added",
    Safe,
    Safe,
    "no message changes",
    "Add a service"
);
const SERVICE_REMOVED: Rule = same!(
    "service.removed",
    Safe,
    Safe,
    "no message changes; buf checks this only in its FILE category (SERVICE_NO_DELETE)",
    "Remove a service"
);
const RPC_ADDED: Rule = same!("rpc.added", Safe, Safe, "no message changes", "Add an RPC");
const RPC_REMOVED: Rule = same!(
    "rpc.removed",
    Safe,
    Safe,
    "no message changes; buf checks this only in its FILE category (RPC_NO_DELETE)",
    "Remove an RPC"
);
const RPC_REQUEST_CHANGED: Rule = same!(
    "rpc.request.changed",
    Breaks,
    Breaks,
    "callers and servers expect different request messages (buf RPC_SAME_REQUEST_TYPE)",
    "Change an RPC's request type"
);
const RPC_RESPONSE_CHANGED: Rule = same!(
    "rpc.response.changed",
    Breaks,
    Breaks,
    "callers and servers expect different response messages (buf RPC_SAME_RESPONSE_TYPE)",
    "Change an RPC's response type"
);
const RPC_CLIENT_STREAMING_CHANGED: Rule = same!(
    "rpc.client-streaming.changed",
    Breaks,
    Breaks,
    "callers and servers disagree on the shape of the call (buf RPC_SAME_CLIENT_STREAMING)",
    "Make an RPC's request streaming or unary"
);
const RPC_SERVER_STREAMING_CHANGED: Rule = same!(
    "rpc.server-streaming.changed",
    Breaks,
    Breaks,
    "callers and servers disagree on the shape of the call (buf RPC_SAME_SERVER_STREAMING)",
    "Make an RPC's response streaming or unary"
);
const RPC_IDEMPOTENCY_CHANGED: Rule = same!(
    "rpc.idempotency.changed",
    Breaks,
    Breaks,
    "callers may retry or cache differently than the server allows (buf RPC_SAME_IDEMPOTENCY_LEVEL)",
    "Change an RPC's `idempotency_level`"
);

/// The `WIRE_JSON` category: binary and JSON readers must both keep working.
#[rustfmt::skip]
pub const WIRE_JSON: [Rule; KINDS] = [
    PACKAGE_CHANGED,
    SYNTAX_CHANGED,
    MESSAGE_ADDED,
    MESSAGE_REMOVED,
    same!("message.json-format.changed", Breaks, Breaks,
        "proto2 supports JSON only on a best-effort basis, so JSON that proto3 guaranteed may no longer round-trip (buf MESSAGE_SAME_JSON_FORMAT: ALLOW to LEGACY_BEST_EFFORT)",
        "Turn a proto3 file with messages into proto2 (their JSON support drops to best effort)"),
    FIELD_ADDED,
    same!("field.removed", Breaks, Flagged,
        "old data may still carry it (JSON readers reject an unknown name), and its number is free for reuse (buf FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED)",
        "Remove a field without reserving its number"),
    same!("field.removed.number-reserved", Breaks, Flagged,
        "JSON readers reject old data still carrying its name, and the name is free for reuse (buf FIELD_NO_DELETE_UNLESS_NAME_RESERVED)",
        "Remove a field, reserving its number but not its name"),
    FIELD_REMOVED_RESERVED,
    same!("field.renamed", Breaks, Breaks,
        "JSON carries field names, so each side rejects the other's (buf FIELD_SAME_NAME)",
        "Rename a field (same number)"),
    same!("field.json-name.changed", Breaks, Breaks,
        "JSON carries this name, so each side rejects the other's (buf FIELD_SAME_JSON_NAME)",
        "Change a field's JSON name (`json_name`, or a rename that changes it)"),
    FIELD_TYPE_CHANGED,
    same!("field.type.changed.wire-compatible", Breaks, Breaks,
        "the binary encoding is shared but JSON writes the two types differently (buf FIELD_WIRE_JSON_COMPATIBLE_TYPE)",
        "Change a field's type within a wire-compatible group (`int32` to `int64`, `string` to `bytes`, `sint32` to `sint64`, `bool` to `int32`)"),
    FIELD_TYPE_CHANGED_COMPATIBLE,
    same!("field.type.changed.bytes-to-string", Breaks, Breaks,
        "JSON writes bytes as base64 and strings as text, and old bytes need not be UTF-8 (buf FIELD_WIRE_JSON_COMPATIBLE_TYPE)",
        "Change a field from `bytes` to `string`"),
    FIELD_CARDINALITY_CHANGED,
    same!("field.cardinality.changed.wire-compatible", Breaks, Breaks,
        "maps and repeated fields share the binary encoding but not the JSON one (buf FIELD_WIRE_JSON_COMPATIBLE_CARDINALITY)",
        "Turn a map into a repeated field or back"),
    FIELD_PRESENCE_CHANGED,
    FIELD_REQUIRED_ADDED,
    FIELD_REQUIRED_REMOVED,
    FIELD_ONEOF_ENTERED,
    FIELD_ONEOF_LEFT,
    FIELD_ONEOF_CHANGED,
    FIELD_DEFAULT_CHANGED,
    ENUM_ADDED,
    ENUM_REMOVED,
    same!("enum.json-format.changed", Breaks, Breaks,
        "proto2 supports JSON only on a best-effort basis, so JSON that proto3 guaranteed may no longer round-trip (buf ENUM_SAME_JSON_FORMAT: ALLOW to LEGACY_BEST_EFFORT)",
        "Turn a proto3 file with enums into proto2 (their JSON support drops to best effort)"),
    ENUM_VALUE_ADDED,
    ENUM_VALUE_REMOVED,
    same!("enum.value.removed.number-reserved", Breaks, Flagged,
        "JSON readers reject old data still carrying its name, and the name is free for reuse (buf ENUM_VALUE_NO_DELETE_UNLESS_NAME_RESERVED)",
        "Remove an enum value, reserving its number but not its name"),
    ENUM_VALUE_REMOVED_RESERVED,
    same!("enum.value.renamed", Breaks, Breaks,
        "JSON carries enum value names, so each side rejects the other's (buf ENUM_VALUE_SAME_NAME)",
        "Rename an enum value (same number)"),
    RESERVED_RANGE_REMOVED,
    RESERVED_NAME_REMOVED,
    SERVICE_ADDED,
    SERVICE_REMOVED,
    RPC_ADDED,
    RPC_REMOVED,
    RPC_REQUEST_CHANGED,
    RPC_RESPONSE_CHANGED,
    RPC_CLIENT_STREAMING_CHANGED,
    RPC_SERVER_STREAMING_CHANGED,
    RPC_IDEMPOTENCY_CHANGED,
];

/// The `WIRE` category: only binary readers matter, so names are free to change.
#[rustfmt::skip]
pub const WIRE: [Rule; KINDS] = [
    PACKAGE_CHANGED,
    SYNTAX_CHANGED,
    MESSAGE_ADDED,
    MESSAGE_REMOVED,
    same!("message.json-format.changed", Safe, Safe,
        "the binary encoding does not depend on JSON support",
        "Turn a proto3 file with messages into proto2 (their JSON support drops to best effort)"),
    FIELD_ADDED,
    same!("field.removed", Breaks, Flagged,
        "its number is free for reuse with another meaning, and old data still carries it (buf FIELD_NO_DELETE_UNLESS_NUMBER_RESERVED)",
        "Remove a field without reserving its number"),
    same!("field.removed.number-reserved", Safe, Safe,
        "its number is reserved; the binary encoding never carries the name",
        "Remove a field, reserving its number but not its name"),
    FIELD_REMOVED_RESERVED,
    same!("field.renamed", Safe, Safe,
        "the binary encoding carries numbers, not names",
        "Rename a field (same number)"),
    same!("field.json-name.changed", Safe, Safe,
        "the binary encoding never carries the JSON name",
        "Change a field's JSON name (`json_name`, or a rename that changes it)"),
    FIELD_TYPE_CHANGED,
    same!("field.type.changed.wire-compatible", Safe, Safe,
        "both types share the binary encoding (values out of the narrower range are truncated)",
        "Change a field's type within a wire-compatible group (`int32` to `int64`, `string` to `bytes`, `sint32` to `sint64`, `bool` to `int32`)"),
    FIELD_TYPE_CHANGED_COMPATIBLE,
    same!("field.type.changed.bytes-to-string", Breaks, Flagged,
        "old bytes need not be valid UTF-8, which new string readers require (buf FIELD_WIRE_COMPATIBLE_TYPE)",
        "Change a field from `bytes` to `string`"),
    FIELD_CARDINALITY_CHANGED,
    same!("field.cardinality.changed.wire-compatible", Safe, Safe,
        "maps are written as repeated entry messages",
        "Turn a map into a repeated field or back"),
    FIELD_PRESENCE_CHANGED,
    FIELD_REQUIRED_ADDED,
    FIELD_REQUIRED_REMOVED,
    FIELD_ONEOF_ENTERED,
    FIELD_ONEOF_LEFT,
    FIELD_ONEOF_CHANGED,
    FIELD_DEFAULT_CHANGED,
    ENUM_ADDED,
    ENUM_REMOVED,
    same!("enum.json-format.changed", Safe, Safe,
        "the binary encoding does not depend on JSON support",
        "Turn a proto3 file with enums into proto2 (their JSON support drops to best effort)"),
    ENUM_VALUE_ADDED,
    ENUM_VALUE_REMOVED,
    same!("enum.value.removed.number-reserved", Safe, Safe,
        "its number is reserved; the binary encoding never carries the name",
        "Remove an enum value, reserving its number but not its name"),
    ENUM_VALUE_REMOVED_RESERVED,
    same!("enum.value.renamed", Safe, Safe,
        "the binary encoding carries numbers, not names",
        "Rename an enum value (same number)"),
    RESERVED_RANGE_REMOVED,
    RESERVED_NAME_REMOVED,
    SERVICE_ADDED,
    SERVICE_REMOVED,
    RPC_ADDED,
    RPC_REMOVED,
    RPC_REQUEST_CHANGED,
    RPC_RESPONSE_CHANGED,
    RPC_CLIENT_STREAMING_CHANGED,
    RPC_SERVER_STREAMING_CHANGED,
    RPC_IDEMPOTENCY_CHANGED,
];

/// The README's Protobuf table: each kind's verdict under both categories, the direction that
/// truly breaks, and the buf rule it follows.
pub fn markdown_table() -> String {
    let verdict = |rule: &Rule| {
        if rule.backward == Safe && rule.forward == Safe {
            "ok"
        } else {
            "breaking"
        }
    };
    let direction = |rule: &Rule| match (rule.backward, rule.forward) {
        (Safe, Safe) => "",
        (Breaks, Breaks) => "both",
        (Breaks, _) => "backward",
        (_, Breaks) => "forward",
        _ => "",
    };
    let mut out = String::from(
        "| Change | `wire-json` (default) | `wire` | Direction | buf rule | Kind |\n| --- | --- | --- | --- | --- | --- |\n",
    );
    for (index, (json, wire)) in WIRE_JSON.iter().zip(WIRE.iter()).enumerate() {
        let breaks = if direction(json).is_empty() {
            direction(wire)
        } else {
            direction(json)
        };
        let buf = BUF[index];
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | `{}` |\n",
            json.change,
            verdict(json),
            verdict(wire),
            breaks,
            if buf.is_empty() { "-" } else { buf },
            json.id
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_tables_have_the_same_kinds_in_the_same_order() {
        for (json, wire) in WIRE_JSON.iter().zip(WIRE.iter()) {
            assert_eq!(json.id, wire.id);
            assert_eq!(json.change, wire.change);
        }
        let mut ids: Vec<&str> = WIRE_JSON.iter().map(|rule| rule.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), KINDS, "kind ids are unique");
    }

    #[test]
    fn a_one_sided_row_is_one_sided_in_both_categories_where_it_breaks() {
        for (json, wire) in WIRE_JSON.iter().zip(WIRE.iter()) {
            for rule in [json, wire] {
                let flagged = [rule.backward, rule.forward].contains(&Flagged);
                let safe = [rule.backward, rule.forward].contains(&Safe);
                assert!(!(flagged && safe), "{} mixes flagged and safe", rule.id);
            }
        }
    }

    #[test]
    fn kinds_index_their_rows() {
        assert_eq!(ChangeKind::RpcIdempotencyChanged as usize + 1, KINDS);
        assert_eq!(
            ChangeKind::FieldTypeChanged.rule(ProtoRules::Wire).id,
            "field.type.changed"
        );
        assert_eq!(
            ChangeKind::EnumValueRenamed.rule(ProtoRules::WireJson).id,
            "enum.value.renamed"
        );
    }
}
