#!/usr/bin/env python3
"""Writes case folders under testdata/json-schema/<kind>/ (run from anywhere; commit the result).

Each case lists the schemas and the ops a person expects, in the reference's order, worked out
from the rules table, the worked examples in the compatibility guide and the op rules of issue #14.
The verdict for each strategy is derived here from an independent copy of the table's two columns,
so a wrong row in rules.rs fails the tests. The runner compares op, path, kind and breaking, in
order, and `reason` where an op carries one: the reference's words, which the JSON document carries.

    python3 testdata/json-schema/generate.py                      # write the folders
    python3 testdata/json-schema/generate.py --oracle DIR         # ... and check every case
                                                                  # against the reference first

With `--oracle`, DIR is a local build of `@eventcatalog/diff` 0.1.0's source (its `src/` folder,
with `tsx` installed beside it; never part of this repository): every case is run through the
reference's `checkJsonSchemaCompatibility` under all four strategies, expected.json is written
from what it says (its reasons too), and every case whose stated ops
differ from it is listed, to be fixed here. Without `--oracle`, a case keeps its recorded
expected.json. The tests never need the oracle.
"""
import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# kind -> (breaks backward, breaks forward), from the README table.
TABLE = {
    "property.added": (False, False),
    "property.added-to-closed-object": (False, True),
    "property.removed": (False, False),
    "property.removed-from-closed-object": (True, False),
    "required.added": (True, False),
    "required.added-with-default": (False, False),
    "required.removed": (False, True),
    "type.widened": (False, True),
    "type.narrowed": (True, False),
    "type.changed": (True, True),
    "enum.added": (True, False),
    "enum.removed": (False, True),
    "enum.value.added": (False, True),
    "enum.value.removed": (True, False),
    "constraint.tightened": (True, False),
    "constraint.loosened": (False, True),
    "constraint.changed": (True, True),
    "additionalProperties.closed": (True, False),
    "additionalProperties.opened": (False, True),
    "tuple.item.added": (True, False),
    "tuple.item.removed": (False, True),
    "union.branch.added": (False, True),
    "union.branch.removed": (True, False),
    "allOf.branch.added": (True, False),
    "allOf.branch.removed": (False, True),
    "schema.restricted": (True, False),
    "schema.relaxed": (False, True),
    "schema.deprecated": (False, False),
    "keyword.changed": (True, True),
}

CASES = []


def case(name, before, after, ops, reasons=None, folder=None):
    """`reasons`, when given, is one expected reason text per op (checked by the runner).
    `folder` is the kind folder the case is written to (default: the kind of its first op)."""
    CASES.append((name, before, after, ops, reasons, folder))


def verdicts(ops, reasons=None):
    out = {}
    for strategy, (check_b, check_f) in {
        "backward": (True, False),
        "forward": (False, True),
        "full": (True, True),
        "none": (False, False),
    }.items():
        any_b = any_f = False
        judged = []
        for index, (op, path, kind) in enumerate(ops):
            b, f = TABLE[kind]
            b, f = b and check_b, f and check_f
            any_b |= b
            any_f |= f
            judged.append({"op": op, "path": path, "kind": kind, "breaking": b or f})
            if reasons:
                judged[-1]["reason"] = reasons[index]
        direction = {(True, True): "both", (True, False): "backward", (False, True): "forward"}.get((any_b, any_f))
        out[strategy] = {"breaking": direction is not None, "direction": direction, "ops": judged}
    return out


def order(**changes):
    """The running example, OrderCreated, with top-level keys replaced or removed (None)."""
    schema = {
        "type": "object",
        "properties": {
            "orderId": {"type": "string"},
            "customerId": {"type": "string"},
            "status": {"type": "string", "enum": ["pending", "paid"]},
        },
        "required": ["orderId", "customerId"],
    }
    for key, value in changes.items():
        key = key.replace("_", "")
        if value is None:
            schema.pop(key, None)
        else:
            schema[key] = value
    return schema


def props(**extra):
    base = copy.deepcopy(order()["properties"])
    for key, value in extra.items():
        if value is None:
            base.pop(key, None)
        else:
            base[key] = value
    return base


def field(schema):
    """A one-property object, for keyword cases: the keyword lives at /properties/x."""
    return {"type": "object", "properties": {"x": schema}}


P = "/properties"
X = "/properties/x"

# ---- the running example and its worked examples -------------------------------------------
case("example-order-created-unchanged", order(), order(), [])
case("example-forward-customer-id-no-longer-required", order(), order(required=["orderId"]),
     [("replace", "/properties/customerId", "required.removed")],
     ["property is no longer required"])
case("example-backward-placed-at-required", order(),
     order(properties=props(placedAt={"type": "string", "format": "date-time"}), required=["orderId", "customerId", "placedAt"]),
     [("add", "/properties/placedAt", "property.added"), ("replace", "/properties/placedAt", "required.added")])
case("example-order-id-string-to-integer", order(), order(properties=props(orderId={"type": "integer"})),
     [("replace", f"{P}/orderId/type", "type.changed")])
case("example-status-refunded-added", order(),
     order(properties=props(status={"type": "string", "enum": ["pending", "paid", "refunded"]})),
     [("add", f"{P}/status/enum", "enum.value.added")])
case("example-closed-payment-placed-at-optional", order(additionalProperties=False),
     order(additionalProperties=False, properties=props(placedAt={"type": "string"})),
     [("add", f"{P}/placedAt", "property.added-to-closed-object")])
PAY_CARD = {"type": "object", "properties": {"method": {"const": "card"}, "last4": {"type": "string"}}, "required": ["method"]}
PAY_PAYPAL = {"type": "object", "properties": {"method": {"const": "paypal"}, "email": {"type": "string"}}, "required": ["method"]}
PAY_APPLE = {"type": "object", "properties": {"method": {"const": "apple_pay"}, "token": {"type": "string"}}, "required": ["method"]}
case("example-payment-apple-pay-branch-added",
     order(properties=props(payment={"oneOf": [PAY_CARD, PAY_PAYPAL]})),
     order(properties=props(payment={"oneOf": [PAY_CARD, PAY_PAYPAL, PAY_APPLE]})),
     [("add", f"{P}/payment/oneOf/2", "union.branch.added")])
case("example-lines-items-type",
     order(properties=props(lines={"type": "array", "items": {"type": "object", "properties": {"sku": {"type": "string"}}}})),
     order(properties=props(lines={"type": "array", "items": {"type": "object", "properties": {"sku": {"type": "integer"}}}})),
     [("replace", f"{P}/lines/items/properties/sku/type", "type.changed")])
case("example-customer-id-removed-entirely", order(),
     order(properties=props(customerId=None), required=["orderId"]),
     [("remove", "/properties/customerId", "property.removed"), ("replace", "/properties/customerId", "required.removed")])

# ---- properties ------------------------------------------------------------------------------
case("property-added-optional", order(), order(properties=props(placedAt={"type": "string"})),
     [("add", f"{P}/placedAt", "property.added")])
case("property-removed-optional", order(), order(properties=props(status=None)),
     [("remove", f"{P}/status", "property.removed")])
case("required-added-existing-property", order(), order(required=["orderId", "customerId", "status"]),
     [("replace", "/properties/status", "required.added")])
case("required-added-with-default-new-property", order(),
     order(properties=props(currency={"type": "string", "default": "EUR"}), required=["orderId", "customerId", "currency"]),
     [("add", "/properties/currency", "property.added"), ("replace", "/properties/currency", "required.added-with-default")])
case("required-added-with-default-existing-property", order(),
     order(properties=props(status={"type": "string", "enum": ["pending", "paid"], "default": "pending"}),
           required=["orderId", "customerId", "status"]),
     [("replace", "/properties/status", "required.added-with-default")])
case("required-removed-keeps-property", order(), order(required=["customerId"]),
     [("replace", "/properties/orderId", "required.removed")])
case("required-rename-property", order(),
     order(properties={"orderId": {"type": "string"}, "clientId": {"type": "string"},
                       "status": {"type": "string", "enum": ["pending", "paid"]}},
           required=["orderId", "clientId"]),
     [("remove", "/properties/customerId", "property.removed"), ("add", "/properties/clientId", "property.added"), ("replace", "/properties/clientId", "required.added"), ("replace", "/properties/customerId", "required.removed")])
case("required-keyword-removed", order(), order(required=None),
     [("replace", "/properties/orderId", "required.removed"), ("replace", "/properties/customerId", "required.removed")])
case("required-reordered", order(), order(required=["customerId", "orderId"]), [])
case("properties-reordered", order(),
     order(properties={"status": props()["status"], "customerId": {"type": "string"}, "orderId": {"type": "string"}}), [])
case("property-added-and-removed-optional", order(),
     order(properties=props(status=None, note={"type": "string"})),
     [("remove", "/properties/status", "property.removed"), ("add", "/properties/note", "property.added")])
case("property-name-with-slash-escaped", order(), order(properties=props(**{"a/b": {"type": "string"}})),
     [("add", f"{P}/a~1b", "property.added")])
case("property-nested-object-added", order(properties=props(address={"type": "object", "properties": {"city": {"type": "string"}}})),
     order(properties=props(address={"type": "object", "properties": {"city": {"type": "string"}, "zip": {"type": "string"}}})),
     [("add", f"{P}/address/properties/zip", "property.added")])
case("property-nested-required-added", order(properties=props(address={"type": "object", "properties": {"city": {"type": "string"}}})),
     order(properties=props(address={"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]})),
     [("replace", "/properties/address/properties/city", "required.added")])

# ---- closed objects ------------------------------------------------------------------------------
case("closed-property-removed-optional", order(additionalProperties=False),
     order(additionalProperties=False, properties=props(status=None)),
     [("remove", f"{P}/status", "property.removed-from-closed-object")])
case("closed-required-property-added", order(additionalProperties=False),
     order(additionalProperties=False, properties=props(placedAt={"type": "string"}), required=["orderId", "customerId", "placedAt"]),
     [("add", "/properties/placedAt", "property.added-to-closed-object"), ("replace", "/properties/placedAt", "required.added")])
case("closed-required-property-removed", order(additionalProperties=False),
     order(additionalProperties=False, properties=props(customerId=None), required=["orderId"]),
     [("remove", "/properties/customerId", "property.removed-from-closed-object"), ("replace", "/properties/customerId", "required.removed")])
case("closed-existing-property-made-required", order(additionalProperties=False),
     order(additionalProperties=False, required=["orderId", "customerId", "status"]),
     [("replace", "/properties/status", "required.added")])
case("closed-required-with-default-added", order(additionalProperties=False),
     order(additionalProperties=False, properties=props(currency={"type": "string", "default": "EUR"}),
           required=["orderId", "customerId", "currency"]),
     [("add", "/properties/currency", "property.added-to-closed-object"), ("replace", "/properties/currency", "required.added-with-default")])
case("schema-valued-additional-properties-is-open", order(additionalProperties={"type": "string"}),
     order(additionalProperties={"type": "string"}, properties=props(note={"type": "string"})),
     [("add", f"{P}/note", "property.added")])

# ---- additionalProperties ------------------------------------------------------------------------------
AP = "/additionalProperties"
case("additional-properties-closed", order(), order(additionalProperties=False), [("replace", "/additionalProperties", "additionalProperties.closed")])
case("additional-properties-opened", order(additionalProperties=False), order(), [("replace", "/additionalProperties", "additionalProperties.opened")])
case("additional-properties-true-to-false", order(additionalProperties=True), order(additionalProperties=False),
     [("replace", AP, "additionalProperties.closed")])
case("additional-properties-false-to-true", order(additionalProperties=False), order(additionalProperties=True),
     [("replace", AP, "additionalProperties.opened")])
case("additional-properties-schema-added", order(), order(additionalProperties={"type": "string"}),
     [("replace", AP, "schema.restricted")])
case("additional-properties-schema-removed", order(additionalProperties={"type": "string"}), order(),
     [("replace", AP, "schema.relaxed")])
case("additional-properties-schema-widened", order(additionalProperties={"type": "integer"}), order(additionalProperties={"type": "number"}),
     [("replace", AP + "/type", "type.widened")])
case("additional-properties-false-to-schema", order(additionalProperties=False), order(additionalProperties={"type": "string"}),
     [("replace", AP, "additionalProperties.opened")])
case("additional-properties-schema-to-false", order(additionalProperties={"type": "string"}), order(additionalProperties=False),
     [("replace", AP, "additionalProperties.closed")])
case("additional-properties-absent-to-true", order(), order(additionalProperties=True), [])

# ---- types ------------------------------------------------------------------------------
def type_case(name, before, after, kind, op="replace"):
    case(name, field(before), field(after), [] if kind is None else [(op, X + "/type", kind)])

type_case("type-integer-to-number", {"type": "integer"}, {"type": "number"}, "type.widened")
type_case("type-number-to-integer", {"type": "number"}, {"type": "integer"}, "type.narrowed")
type_case("type-string-to-nullable", {"type": "string"}, {"type": ["string", "null"]}, "type.widened")
type_case("type-nullable-to-string", {"type": ["string", "null"]}, {"type": "string"}, "type.narrowed")
type_case("type-removed", {"type": "string"}, {}, "type.widened")
type_case("type-added", {}, {"type": "string"}, "type.narrowed")
type_case("type-string-to-number", {"type": "string"}, {"type": "number"}, "type.changed")
type_case("type-boolean-to-string", {"type": "boolean"}, {"type": "string"}, "type.changed")
# OpenAPI's `nullable` is not a JSON Schema keyword: the reference ignores it.
type_case("type-openapi-nullable-added", {"type": "string"}, {"type": "string", "nullable": True}, None)
type_case("type-array-reordered", {"type": ["null", "string"]}, {"type": ["string", "null"]}, None)
type_case("type-integer-number-same-values", {"type": ["integer", "number"]}, {"type": "number"}, None)
type_case("type-single-array-same", {"type": ["string"]}, {"type": "string"}, None)
type_case("type-union-narrowed", {"type": ["string", "integer"]}, {"type": ["string"]}, "type.narrowed")
type_case("type-union-partly-swapped", {"type": ["string", "integer"]}, {"type": ["string", "boolean"]}, "type.changed")
type_case("type-integer-to-string-or-number", {"type": "integer"}, {"type": ["string", "number"]}, "type.widened")
case("type-root-object-to-array", {"type": "object"}, {"type": "array"}, [("replace", "/type", "type.changed")])

# ---- enums and const ------------------------------------------------------------------------------
S = "/properties/status"
def status(schema):
    return order(properties=props(status=schema))

case("enum-value-removed", order(), status({"type": "string", "enum": ["pending"]}), [("remove", S + "/enum", "enum.value.removed")])
case("enum-value-added-and-removed", order(), status({"type": "string", "enum": ["pending", "refunded"]}),
     [("add", "/properties/status/enum", "enum.value.added"), ("remove", "/properties/status/enum", "enum.value.removed")])
case("enum-added-restricts-free-string", status({"type": "string"}), order(), [("add", S + "/enum", "enum.added")])
case("enum-removed-lifts-restriction", order(), status({"type": "string"}), [("remove", S + "/enum", "enum.removed")])
case("enum-reordered", order(), status({"type": "string", "enum": ["paid", "pending"]}), [])
case("enum-numbers-equal-values", field({"enum": [1, 2]}), field({"enum": [1.0, 2]}), [])
case("enum-object-values", field({"enum": [{"a": 1, "b": 2}]}), field({"enum": [{"b": 2, "a": 1}, {"a": 3}]}),
     [("add", X + "/enum", "enum.value.added")])
case("const-added", field({"type": "string"}), field({"type": "string", "const": "v1"}), [("add", "/properties/x/enum", "enum.added")])
case("const-removed", field({"type": "string", "const": "v1"}), field({"type": "string"}), [("remove", "/properties/x/enum", "enum.removed")])
case("const-changed", field({"const": "v1"}), field({"const": "v2"}),
     [("add", "/properties/x/enum", "enum.value.added"), ("remove", "/properties/x/enum", "enum.value.removed")])
case("const-to-wider-enum", field({"const": "v1"}), field({"enum": ["v1", "v2"]}), [("add", X + "/enum", "enum.value.added")])
case("enum-to-const-of-one-value", field({"enum": ["v1", "v2"]}), field({"const": "v1"}), [("remove", "/properties/x/enum", "enum.value.removed")])
case("const-unchanged-description-changed", field({"const": "v1", "description": "a"}), field({"const": "v1", "description": "b"}), [])
BIG = [f"value-{i}" for i in range(2000)]
case("enum-huge-one-value-added", field({"enum": BIG}), field({"enum": list(reversed(BIG)) + ["value-new"]}),
     [("add", X + "/enum", "enum.value.added")])

# ---- constraints ------------------------------------------------------------------------------
def constraint(name, keyword, before, after, kind, op="replace", base=None):
    base = base or {}
    b = dict(base, **({} if before is None else {keyword: before}))
    a = dict(base, **({} if after is None else {keyword: after}))
    case(name, field(b), field(a), [] if kind is None else [(op, f"{X}/{keyword}", kind)])

T, L, C = "constraint.tightened", "constraint.loosened", "constraint.changed"
STR, NUM, ARR, OBJ = {"type": "string"}, {"type": "number"}, {"type": "array"}, {"type": "object"}
constraint("min-length-raised", "minLength", 1, 3, T, base=STR)
constraint("min-length-lowered", "minLength", 3, 1, L, base=STR)
constraint("min-length-added", "minLength", None, 1, T, "add", STR)
constraint("min-length-removed", "minLength", 1, None, L, "remove", STR)
constraint("max-length-lowered", "maxLength", 10, 5, T, base=STR)
constraint("max-length-raised", "maxLength", 5, 10, L, base=STR)
constraint("max-length-added", "maxLength", None, 64, T, "add", STR)
constraint("max-length-removed", "maxLength", 64, None, L, "remove", STR)
constraint("minimum-raised", "minimum", 0, 1, T, base=NUM)
constraint("minimum-lowered", "minimum", 1, 0, L, base=NUM)
constraint("minimum-added", "minimum", None, 0, T, "add", NUM)
constraint("minimum-removed", "minimum", 0, None, L, "remove", NUM)
constraint("minimum-same-value-float", "minimum", 1, 1.0, None, base=NUM)
constraint("maximum-lowered", "maximum", 100, 50, T, base=NUM)
constraint("maximum-raised", "maximum", 50, 100, L, base=NUM)
constraint("exclusive-minimum-raised", "exclusiveMinimum", 0, 5, T, base=NUM)
constraint("exclusive-minimum-removed", "exclusiveMinimum", 0, None, L, "remove", NUM)
constraint("exclusive-maximum-lowered", "exclusiveMaximum", 10, 9.5, T, base=NUM)
constraint("exclusive-maximum-added", "exclusiveMaximum", None, 10, T, "add", NUM)
# Draft-04's boolean `exclusiveMinimum` is no number: the reference reads it as absent.
constraint("exclusive-minimum-draft04-boolean-on", "exclusiveMinimum", False, True, None, base={"type": "number", "minimum": 0})
constraint("min-items-raised", "minItems", 0, 1, T, base=ARR)
constraint("min-items-removed", "minItems", 1, None, L, "remove", ARR)
constraint("max-items-lowered", "maxItems", 10, 3, T, base=ARR)
constraint("max-items-raised", "maxItems", 3, 10, L, base=ARR)
constraint("min-properties-raised", "minProperties", 1, 2, T, base=OBJ)
constraint("min-properties-lowered", "minProperties", 2, 1, L, base=OBJ)
constraint("max-properties-lowered", "maxProperties", 5, 4, T, base=OBJ)
constraint("max-properties-removed", "maxProperties", 5, None, L, "remove", OBJ)
constraint("pattern-added", "pattern", None, "^ord_", T, "add", STR)
constraint("pattern-removed", "pattern", "^ord_", None, L, "remove", STR)
constraint("pattern-changed", "pattern", "^ord_", "^order_", C, base=STR)
constraint("format-added", "format", None, "email", T, "add", STR)
constraint("format-removed", "format", "email", None, L, "remove", STR)
constraint("format-changed", "format", "email", "uri", C, base=STR)
constraint("multiple-of-added", "multipleOf", None, 2, T, "add", NUM)
constraint("multiple-of-removed", "multipleOf", 2, None, L, "remove", NUM)
constraint("multiple-of-changed", "multipleOf", 2, 4, C, base=NUM)
constraint("unique-items-added", "uniqueItems", None, True, T, base=ARR)
constraint("unique-items-turned-off", "uniqueItems", True, False, L, base=ARR)
constraint("unique-items-removed", "uniqueItems", True, None, L, base=ARR)
constraint("unique-items-false-dropped", "uniqueItems", False, None, None, base=ARR)
constraint("format-unchanged-on-2020-12", "format", "date-time", "date-time", None, base=STR)

# ---- arrays and tuples ------------------------------------------------------------------------------
case("items-type-narrowed", field({"type": "array", "items": {"type": "number"}}), field({"type": "array", "items": {"type": "integer"}}),
     [("replace", X + "/items/type", "type.narrowed")])
case("items-schema-added", field({"type": "array"}), field({"type": "array", "items": {"type": "string"}}),
     [("replace", X + "/items", "schema.restricted")])
case("items-schema-removed", field({"type": "array", "items": {"type": "string"}}), field({"type": "array"}),
     [("replace", X + "/items", "schema.relaxed")])
case("items-nested-required-removed",
     field({"type": "array", "items": {"type": "object", "properties": {"sku": {"type": "string"}}, "required": ["sku"]}}),
     field({"type": "array", "items": {"type": "object", "properties": {"sku": {"type": "string"}}}}),
     [("replace", "/properties/x/items/properties/sku", "required.removed")])
case("tuple-items-position-added", field({"type": "array", "items": [{"type": "string"}]}),
     field({"type": "array", "items": [{"type": "string"}, {"type": "integer"}]}), [("add", X + "/items/1", "tuple.item.added")])
case("tuple-items-position-removed", field({"type": "array", "items": [{"type": "string"}, {"type": "integer"}]}),
     field({"type": "array", "items": [{"type": "string"}]}), [("remove", X + "/items/1", "tuple.item.removed")])
case("tuple-prefix-items-position-added", field({"type": "array", "prefixItems": [{"type": "string"}]}),
     field({"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]}),
     [("add", X + "/prefixItems/1", "tuple.item.added")])
case("tuple-prefix-items-position-removed", field({"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]}),
     field({"type": "array", "prefixItems": [{"type": "string"}]}), [("remove", X + "/prefixItems/1", "tuple.item.removed")])
case("tuple-position-type-changed", field({"type": "array", "prefixItems": [{"type": "string"}]}),
     field({"type": "array", "prefixItems": [{"type": "boolean"}]}), [("replace", X + "/prefixItems/0/type", "type.changed")])
case("tuple-draft07-to-prefix-items-same", field({"type": "array", "items": [{"type": "string"}, {"type": "integer"}]}),
     field({"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]}), [])
case("tuple-rest-items-added", field({"type": "array", "prefixItems": [{"type": "string"}]}),
     field({"type": "array", "prefixItems": [{"type": "string"}], "items": False}), [("replace", X + "/items", "schema.restricted")])

# ---- composition ------------------------------------------------------------------------------
A, B, Cc = {"type": "string"}, {"type": "integer"}, {"type": "boolean"}
for keyword, added, removed in [("oneOf", "union.branch.added", "union.branch.removed"),
                                ("anyOf", "union.branch.added", "union.branch.removed"),
                                ("allOf", "allOf.branch.added", "allOf.branch.removed")]:
    slug = keyword.lower()
    case(f"{slug}-branch-added", field({keyword: [A, B]}), field({keyword: [A, B, Cc]}), [("add", f"{X}/{keyword}/2", added)])
    case(f"{slug}-branch-removed", field({keyword: [A, B, Cc]}), field({keyword: [A, Cc]}), [("remove", f"{X}/{keyword}/1", removed)])
    case(f"{slug}-reordered", field({keyword: [A, B, Cc]}), field({keyword: [Cc, A, B]}), [])
    case(f"{slug}-keyword-added", field({}), field({keyword: [A, B]}), [("add", f"{X}/{keyword}", "constraint.tightened")])
    case(f"{slug}-keyword-removed", field({keyword: [A, B]}), field({}), [("remove", f"{X}/{keyword}", "constraint.loosened")])
    case(f"{slug}-edit-inside-branch", field({keyword: [A, {"type": "number"}]}), field({keyword: [A, {"type": "integer"}]}),
         [("replace", f"{X}/{keyword}/1/type", "type.narrowed")])
case("oneof-reordered-and-edited", field({"oneOf": [A, {"type": "number"}]}), field({"oneOf": [{"type": "integer"}, A]}),
     [("replace", X + "/oneOf/0/type", "type.narrowed")])
case("oneof-branch-annotation-only", field({"oneOf": [dict(A, title="a"), B]}), field({"oneOf": [B, dict(A, title="b")]}), [])
CARD_WITH_LAST4 = dict(PAY_CARD, required=["method", "last4"])
case("oneof-payment-branch-required-added",
     order(properties=props(payment={"oneOf": [PAY_CARD, PAY_PAYPAL]})),
     order(properties=props(payment={"oneOf": [PAY_PAYPAL, CARD_WITH_LAST4]})),
     [("replace", "/properties/payment/oneOf/1/properties/last4", "required.added")])

# ---- boolean schemas ------------------------------------------------------------------------------
case("boolean-true-to-false", True, False, [("replace", "", "schema.restricted")])
case("boolean-false-to-true", False, True, [("replace", "", "schema.relaxed")])
case("boolean-true-to-schema", True, {"type": "object"}, [("replace", "", "schema.restricted")])
case("boolean-schema-to-true", {"type": "object"}, True, [("replace", "", "schema.relaxed")])
case("boolean-schema-to-false", {"type": "object"}, False, [("replace", "", "schema.restricted")])
case("boolean-false-to-schema", False, {"type": "object"}, [("replace", "", "schema.relaxed")])
case("boolean-property-true-to-empty-object", field(True), field({}), [("replace", "/properties/x", "schema.restricted")])
case("boolean-property-empty-object-to-true", field({"description": "anything"}), field(True), [("replace", "/properties/x", "schema.relaxed")])
case("boolean-property-true-to-schema", field(True), field({"type": "string"}), [("replace", X, "schema.restricted")])
case("boolean-property-schema-to-false", field({"type": "string"}), field(False), [("replace", X, "schema.restricted")])

# ---- annotations ------------------------------------------------------------------------------
case("deprecated-added", order(), order(properties=props(status=dict(props()["status"], deprecated=True))),
     [("replace", "/properties/status", "schema.deprecated")])
case("deprecated-false-to-true", field({"type": "string", "deprecated": False}), field({"type": "string", "deprecated": True}),
     [("replace", "/properties/x", "schema.deprecated")])
case("deprecated-removed", field({"type": "string", "deprecated": True}), field({"type": "string"}), [])
case("deprecated-root", order(), order(deprecated=True), [("replace", "", "schema.deprecated")])
case("annotations-title-description", order(), order(title="Order created", description="Emitted when an order is placed"), [])
case("annotations-examples-comment", field({"type": "string", "examples": ["a"]}),
     field({"type": "string", "examples": ["b", "c"], "$comment": "changed"}), [])
case("annotations-id-schema", dict(order(), **{"$id": "https://example.com/a", "$schema": "http://json-schema.org/draft-07/schema#"}),
     dict(order(), **{"$id": "https://example.com/b", "$schema": "https://json-schema.org/draft/2020-12/schema"}), [])
case("annotations-default-changed", field({"type": "string", "default": "a"}), field({"type": "string", "default": "b"}), [])
case("annotations-unknown-extension-keyword", field({"type": "string", "x-owner": "a"}), field({"type": "string", "x-owner": "b"}), [])

# ---- $ref and definitions ------------------------------------------------------------------------------
ADDRESS = {"type": "object", "properties": {"city": {"type": "string"}, "zip": {"type": "integer"}}}
ADDRESS_ZIP_STRING = {"type": "object", "properties": {"city": {"type": "string"}, "zip": {"type": "string"}}}
def with_defs(defs, properties, key="definitions"):
    return {"type": "object", key: defs, "properties": properties}
two_refs = {"billing": {"$ref": "#/definitions/Address"}, "shipping": {"$ref": "#/definitions/Address"}}
case("ref-definition-change-reported-once", with_defs({"Address": ADDRESS}, two_refs), with_defs({"Address": ADDRESS_ZIP_STRING}, two_refs),
     [("replace", "/definitions/Address/properties/zip/type", "type.changed")])
two_defs_refs = {"billing": {"$ref": "#/$defs/Address"}, "shipping": {"$ref": "#/$defs/Address"}}
case("ref-defs-change-reported-once", with_defs({"Address": ADDRESS}, two_defs_refs, "$defs"),
     with_defs({"Address": dict(ADDRESS, required=["city"])}, two_defs_refs, "$defs"),
     [("replace", "/$defs/Address/properties/city", "required.added")])
chain = {"home": {"$ref": "#/definitions/Home"}}
case("ref-chain-followed", with_defs({"Home": {"$ref": "#/definitions/Address"}, "Address": ADDRESS}, chain),
     with_defs({"Home": {"$ref": "#/definitions/Address"}, "Address": ADDRESS_ZIP_STRING}, chain),
     [("replace", "/definitions/Home/properties/zip/type", "type.changed")])
case("ref-extracted-into-definition", with_defs({}, {"home": ADDRESS}), with_defs({"Address": ADDRESS}, {"home": {"$ref": "#/definitions/Address"}}), [])
case("ref-inlined-from-definition", with_defs({"Address": ADDRESS}, {"home": {"$ref": "#/definitions/Address"}}), with_defs({}, {"home": ADDRESS}), [])
case("ref-definition-renamed", with_defs({"Address": ADDRESS}, {"home": {"$ref": "#/definitions/Address"}}),
     with_defs({"PostalAddress": ADDRESS}, {"home": {"$ref": "#/definitions/PostalAddress"}}), [])
case("ref-definitions-to-defs", with_defs({"Address": ADDRESS}, {"home": {"$ref": "#/definitions/Address"}}),
     with_defs({"Address": ADDRESS}, {"home": {"$ref": "#/$defs/Address"}}, "$defs"), [])
case("ref-definition-renamed-and-changed", with_defs({"Address": ADDRESS}, {"home": {"$ref": "#/definitions/Address"}}),
     with_defs({"PostalAddress": ADDRESS_ZIP_STRING}, {"home": {"$ref": "#/definitions/PostalAddress"}}),
     [("replace", "/definitions/PostalAddress/properties/zip/type", "type.changed")])
case("ref-extracted-and-changed", with_defs({}, {"home": ADDRESS}),
     with_defs({"Address": ADDRESS_ZIP_STRING}, {"home": {"$ref": "#/definitions/Address"}}),
     [("replace", "/properties/home/properties/zip/type", "type.changed")])
case("ref-unused-definition-changed", with_defs({"Unused": ADDRESS}, {"id": {"type": "string"}}),
     with_defs({"Unused": ADDRESS_ZIP_STRING}, {"id": {"type": "string"}}), [])
TREE = {"type": "object", "properties": {"name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/definitions/Node"}}}}
tree_root = {"root": {"$ref": "#/definitions/Node"}}
case("ref-recursive-unchanged", with_defs({"Node": TREE}, tree_root), with_defs({"Node": TREE}, tree_root), [])
case("ref-recursive-changed-once", with_defs({"Node": TREE}, tree_root), with_defs({"Node": dict(TREE, required=["name"])}, tree_root),
     [("replace", "/definitions/Node/properties/name", "required.added")])
case("ref-root-recursion", {"type": "object", "properties": {"parent": {"$ref": "#"}, "id": {"type": "string"}}},
     {"type": "object", "properties": {"parent": {"$ref": "#"}, "id": {"type": "integer"}}},
     [("replace", "/properties/id/type", "type.changed")])
case("ref-sibling-deprecated", with_defs({"Address": ADDRESS}, {"home": {"$ref": "#/definitions/Address"}}),
     with_defs({"Address": ADDRESS}, {"home": {"$ref": "#/definitions/Address", "deprecated": True}}),
     [])
case("ref-sibling-description-only", with_defs({"Address": ADDRESS}, {"home": {"$ref": "#/definitions/Address"}}),
     with_defs({"Address": ADDRESS}, {"home": {"$ref": "#/definitions/Address", "description": "where it goes"}}), [])
case("ref-required-default-through-definition", with_defs({"Currency": {"type": "string", "default": "EUR"}}, {"id": {"type": "string"}}),
     dict(with_defs({"Currency": {"type": "string", "default": "EUR"}}, {"id": {"type": "string"}, "currency": {"$ref": "#/definitions/Currency"}}),
          required=["currency"]),
     [("add", "/properties/currency", "property.added"), ("replace", "/properties/currency", "required.added")])
case("ref-sibling-required-added", with_defs({"Address": ADDRESS}, {"home": {"$ref": "#/definitions/Address"}}),
     with_defs({"Address": ADDRESS}, {"home": {"$ref": "#/definitions/Address", "required": ["city"]}}),
     [])
case("ref-sibling-constraint-per-use", with_defs({"Code": {"type": "string"}}, {"a": {"$ref": "#/definitions/Code", "maxLength": 5}, "b": {"$ref": "#/definitions/Code"}}),
     with_defs({"Code": {"type": "string"}}, {"a": {"$ref": "#/definitions/Code", "maxLength": 4}, "b": {"$ref": "#/definitions/Code", "maxLength": 4}}),
     [])
# The reference looks a pointer up as JavaScript does (`node[key]`): a key an object lacks but
# inherits names a method, walked as a schema with no keywords; an array index written `00` names
# nothing, so the ref accepts anything.
case("ref-to-an-inherited-name", with_defs({}, {"a": {"$ref": "#/definitions/toString"}}),
     with_defs({}, {"a": {"description": "anything"}}), [])
case("ref-to-an-index-written-with-a-leading-zero", {"$defs": {"A": [{"type": "string"}]}, "properties": {"a": {"$ref": "#/$defs/A/00"}}},
     {"$defs": {"A": [{"type": "string"}]}, "properties": {"a": {}}}, [("replace", "/properties/a", "schema.restricted")])
case("ref-external-unchanged", field({"$ref": "./common.json#/Address"}), field({"$ref": "./common.json#/Address"}), [])
case("ref-external-changed", field({"$ref": "./common.json#/Address"}), field({"$ref": "./common.json#/PostalAddress"}),
     [("replace", X + "/$ref", "keyword.changed")])
case("ref-external-to-local", with_defs({"Address": ADDRESS}, {"x": {"$ref": "./common.json#/Address"}}),
     with_defs({"Address": ADDRESS}, {"x": {"$ref": "#/definitions/Address"}}), [("replace", "/properties/x/type", "type.narrowed"), ("add", "/properties/x/properties/city", "property.added"), ("add", "/properties/x/properties/zip", "property.added"), ("remove", "/properties/x/$ref", "keyword.changed")],
     folder="keyword.changed")

# Issue #14 rule 4, the two kinds of `$ref` position. Both sides refs (even to different
# definitions): the pair of targets is compared once, at the after ref's definition. One side a
# ref: compared resolved, at the position's own path.
ADDR_S = {"type": "object", "properties": {"street": {"type": "string"}}}
ADDR_I = {"type": "object", "properties": {"street": {"type": "integer"}}}
case("ref-to-another-definition-reported-at-its-definition",
     with_defs({"Old": ADDR_S, "New": ADDR_I}, {"home": {"$ref": "#/definitions/Old"}}),
     with_defs({"Old": ADDR_S, "New": ADDR_I}, {"home": {"$ref": "#/definitions/New"}}),
     [("replace", "/definitions/New/properties/street/type", "type.changed")])
case("ref-inline-to-ref-reported-at-the-position",
     with_defs({"Address": ADDR_I}, {"home": ADDR_S}),
     with_defs({"Address": ADDR_I}, {"home": {"$ref": "#/definitions/Address"}}),
     [("replace", f"{P}/home/properties/street/type", "type.changed")])
case("ref-to-inline-reported-at-the-position",
     with_defs({"Address": ADDR_S}, {"home": {"$ref": "#/definitions/Address"}}),
     with_defs({"Address": ADDR_S}, {"home": ADDR_I}),
     [("replace", f"{P}/home/properties/street/type", "type.changed")])

# ---- keywords we do not reason about ------------------------------------------------------------------------------
K = "keyword.changed"
unreasoned = [
    ("pattern-properties-added", "patternProperties", None, {"^x-": {"type": "string"}}, "add"),
    ("property-names-changed", "propertyNames", {"maxLength": 10}, {"maxLength": 5}, "replace"),
    ("not-added", "not", None, {"type": "null"}, "add"),
    ("if-changed", "if", {"properties": {"kind": {"const": "a"}}}, {"properties": {"kind": {"const": "b"}}}, "replace"),
    ("then-changed", "then", {"required": ["a"]}, {"required": ["b"]}, "replace"),
    ("else-removed", "else", {"required": ["c"]}, None, "remove"),
    ("dependent-required-added", "dependentRequired", None, {"card": ["billing"]}, "add"),
    ("dependent-schemas-changed", "dependentSchemas", {"card": {"required": ["a"]}}, {"card": {"required": ["b"]}}, "replace"),
    ("dependencies-added", "dependencies", None, {"card": ["billing"]}, "add"),
    ("contains-changed", "contains", {"type": "string"}, {"type": "integer"}, "replace"),
    ("min-contains-added", "minContains", None, 2, "add"),
    ("max-contains-changed", "maxContains", 3, 2, "replace"),
    ("unevaluated-properties-added", "unevaluatedProperties", None, False, "add"),
    ("unevaluated-items-removed", "unevaluatedItems", False, None, "remove"),
    ("additional-items-added", "additionalItems", None, False, "add"),
]
for name, keyword, before, after, op in unreasoned:
    b = {"type": "object"} if before is None else {"type": "object", keyword: before}
    a = {"type": "object"} if after is None else {"type": "object", keyword: after}
    case(f"keyword-{name}", field(b), field(a), [(op, f"{X}/{keyword}", K)])
case("keyword-if-then-unchanged-elsewhere-judged",
     dict(order(), **{"if": {"properties": {"status": {"const": "paid"}}}, "then": {"required": ["paidAt"]}}),
     dict(order(properties=props(note={"type": "string"})), **{"if": {"properties": {"status": {"const": "paid"}}}, "then": {"required": ["paidAt"]}}),
     [("add", f"{P}/note", "property.added")])
case("keyword-not-description-only", field({"not": {"type": "null", "description": "a"}}), field({"not": {"type": "null", "description": "b"}}), [("replace", "/properties/x/not", "keyword.changed")])

# ---- several changes at once ------------------------------------------------------------------------------
case("mixed-forward-and-backward-is-both", order(),
     order(properties=props(status={"type": "string", "enum": ["pending", "paid", "refunded"]}), required=["orderId", "customerId", "status"]),
     [("add", "/properties/status/enum", "enum.value.added"), ("replace", "/properties/status", "required.added")])
case("mixed-safe-only", order(), order(properties=props(note={"type": "string"}, status=dict(props()["status"], description="now documented"))),
     [("add", f"{P}/note", "property.added")])


ORACLE_DRIVER = """
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const [dir, input] = process.argv.slice(2);
const { checkJsonSchemaCompatibility } = await import(pathToFileURL(dir + '/src/json-schema/index.ts').href);
const out = JSON.parse(readFileSync(input, 'utf8')).map(([before, after]) =>
  Object.fromEntries(['backward', 'forward', 'full', 'none'].map((s) => [s, checkJsonSchemaCompatibility(before, after, s)])));
process.stdout.write(JSON.stringify(out));
"""


def oracle_verdicts(directory):
    """Every case's verdicts from the reference (`--oracle DIR`), in CASES order."""
    with tempfile.TemporaryDirectory() as work:
        cases = os.path.join(work, "cases.json")
        driver = os.path.join(work, "driver.mjs")
        with open(cases, "w") as out:
            json.dump([[before, after] for _, before, after, *_ in CASES], out)
        with open(driver, "w") as out:
            out.write(ORACLE_DRIVER)
        text = subprocess.run(["node", "--import", "tsx", driver, os.path.abspath(directory), cases],
                              cwd=directory, check=True, capture_output=True, text=True).stdout
    return json.loads(text)


def without_reasons(verdict):
    return dict(verdict, ops=[{k: v for k, v in op.items() if k != "reason"} for op in verdict["ops"]])


def primary_kind(ops):
    """The kind a case is about: its first op's, except that a `property.*` op that only
    accompanies a `required.*` op at the same path gives way to it."""
    required = {path for _, path, kind in ops if kind.startswith("required.")}
    for _, path, kind in ops:
        if not (kind in ("property.added", "property.removed") and path in required):
            return kind
    return ops[0][2] if ops else "unchanged"


def folder_for(stated, ops):
    """The kind folder: the stated one when the case has an op of that kind, else its first op's."""
    kinds = [op["kind"] for op in ops]
    if stated in kinds:
        return stated
    return kinds[0] if kinds else "unchanged"


def write_case(kind, name, before, after, expected):
    # A case that moved to another kind folder leaves no stale copy behind.
    for other in os.listdir(HERE):
        stale = os.path.join(HERE, other, name)
        if os.path.isdir(stale):
            shutil.rmtree(stale)
    target = os.path.join(HERE, kind, name)
    os.makedirs(target)
    for file, value in [("before.json", before), ("after.json", after), ("expected.json", expected)]:
        with open(os.path.join(target, file), "w") as out:
            json.dump(value, out, indent=2)
            out.write("\n")


def recorded(name):
    """The expected.json already written for a case, if any."""
    for kind in sorted(os.listdir(HERE)):
        path = os.path.join(HERE, kind, name, "expected.json")
        if os.path.isfile(path):
            with open(path) as handle:
                return kind, json.load(handle)
    return None


def main():
    """Writes each case into `<kind>/<name>/`. With `--oracle`, expected.json is the reference's
    verdict under each strategy, reasons and all, and
    every case whose stated ops differ is listed. Without it, a case that already has a recorded
    expected.json keeps it (its schemas are rewritten), and only a new case is written from its
    stated ops, to be recorded with `--oracle` before committing. Only the folders of the cases
    listed here are touched; hand-written folders are left alone."""
    names = set()
    for name, *_ in CASES:
        assert name not in names, name
        names.add(name)
    reference = None
    if "--oracle" in sys.argv:
        reference = oracle_verdicts(sys.argv[sys.argv.index("--oracle") + 1])
    differ = []
    for index, (name, before, after, ops, reasons, folder) in enumerate(CASES):
        stated = verdicts(ops, reasons)
        stated_kind = folder or primary_kind(ops)
        if reference is not None:
            expected = {}
            for strategy, verdict in reference[index].items():
                expected[strategy] = verdict
            if {s: without_reasons(v) for s, v in expected.items()} != {
                    s: without_reasons(v) for s, v in stated.items()}:
                differ.append(name)
        else:
            found = recorded(name)
            expected = found[1] if found else stated
        write_case(folder_for(stated_kind, expected["full"]["ops"] or expected["none"]["ops"]), name, before, after, expected)
    if differ:
        print(f"{len(differ)} case(s) recorded from the reference differ from their stated ops: " + ", ".join(differ))
    print(f"{len(CASES)} cases")


if __name__ == "__main__":
    main()
