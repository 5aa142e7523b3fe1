#!/usr/bin/env python3
"""Measures how often catalog-diff's Avro verdicts agree with Apache Avro's on random schema pairs.

Generates N random record schemas (primitives, logical types, arrays, maps, unions, nested and
recursive records, enums with and without defaults, fixed, aliases, namespaces, defaults) and a
mutation of each (fields added, removed, retyped, renamed with or without aliases; symbols, enum
defaults, union branches, names, namespaces and sizes changed), asks the `avro` package's
`avro.compatibility` (a port of Java's SchemaCompatibility) both questions, runs our binary
(`catalog-diff schema --format json --strategy S`, built at target/debug) under each strategy,
and prints the agreement per strategy, with the first disagreements written to a folder.

Run by hand, never by tests or CI:

  pip install avro && cargo build
  scripts/avro-agreement.py [--pairs 2000] [--seed 1] [--keep DIR]
"""

import argparse
import copy
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

try:
    import avro.schema
    from avro.compatibility import ReaderWriterCompatibilityChecker, SchemaCompatibilityType
except ImportError:
    sys.exit("avro-agreement.py needs the `avro` package: pip install avro")

ROOT = Path(__file__).resolve().parent.parent
BINARY = ROOT / "target" / "debug" / "catalog-diff"
PRIMITIVES = ["null", "boolean", "int", "long", "float", "double", "bytes", "string"]
LOGICAL = [{"type": "long", "logicalType": "timestamp-millis"}, {"type": "int", "logicalType": "date"},
           {"type": "string", "logicalType": "uuid"},
           {"type": "bytes", "logicalType": "decimal", "precision": 8, "scale": 2}]
NAMES = ["A", "B", "C", "D", "E"]
SPACES = [None, "acme", "acme.orders"]
FIELDS = ["id", "amount", "status", "note", "items", "ref"]
SYMBOLS = ["NEW", "PAID", "SHIPPED", "REFUNDED"]


class Generator:
    """Random valid schemas: every named type defined once, references by full name."""

    def __init__(self, rng):
        self.rng = rng

    def schema(self):
        self.defined = {}
        return self.record(0, None)

    def full(self, name, space):
        return f"{space}.{name}" if space else name

    def ref(self, full, space):
        # A short name only where it cannot mean another type.
        return full if "." in full or not space else None

    def type(self, depth, space):
        r = self.rng.random()
        if depth > 3 or r < 0.45:
            return self.rng.choice(PRIMITIVES[1:] + ["string", "int", "long"])
        if r < 0.5:
            return copy.deepcopy(self.rng.choice(LOGICAL))
        if r < 0.57 and self.defined:
            full = self.rng.choice(sorted(self.defined))
            return self.ref(full, space) or "string"
        if r < 0.64:
            return {"type": "array", "items": self.type(depth + 1, space)}
        if r < 0.68:
            return {"type": "map", "values": self.type(depth + 1, space)}
        if r < 0.8:
            return self.union(depth, space)
        if r < 0.87:
            return self.enum(space)
        if r < 0.9:
            return self.fixed(space)
        return self.record(depth + 1, space)

    def key(self, schema, space):
        if isinstance(schema, str):
            if schema in PRIMITIVES:
                return schema
            return schema if schema in self.defined else self.full(schema, space)
        if schema["type"] in ("record", "enum", "fixed"):
            return self.full(schema["name"], schema.get("namespace", space))
        return schema["type"]

    def union(self, depth, space):
        branches, keys = [], set()
        if self.rng.random() < 0.6:
            branches.append("null")
            keys.add("null")
        for _ in range(self.rng.randint(1, 3)):
            saved = dict(self.defined)
            branch = self.type(depth + 1, space)
            if isinstance(branch, list) or self.key(branch, space) in keys:
                self.defined = saved
                continue
            keys.add(self.key(branch, space))
            branches.append(branch)
        return branches or ["null", "string"]

    def fresh_name(self, space):
        for name in self.rng.sample(NAMES, len(NAMES)):
            if self.full(name, space) not in self.defined:
                return name
        return None

    def enum(self, space):
        name = self.fresh_name(space)
        if name is None:
            return "string"
        symbols = self.rng.sample(SYMBOLS, self.rng.randint(1, 3))
        schema = {"type": "enum", "name": name, "symbols": symbols}
        if self.rng.random() < 0.3:
            schema["default"] = symbols[0]
        self.defined[self.full(name, space)] = schema
        return schema

    def fixed(self, space):
        name = self.fresh_name(space)
        if name is None:
            return "string"
        schema = {"type": "fixed", "name": name, "size": self.rng.choice([4, 8, 16])}
        self.defined[self.full(name, space)] = schema
        return schema

    def record(self, depth, space):
        own = self.rng.choice(SPACES) if depth == 0 or self.rng.random() < 0.3 else space
        name = self.fresh_name(own)
        if name is None:
            return "string"
        schema = {"type": "record", "name": name}
        if depth == 0:
            schema["namespace"] = own or ""
        elif own != space and own:
            # Not "" below the root: the avro package reads a nested `"namespace": ""` as
            # the enclosing namespace, where Java and the specification read the null one.
            schema["namespace"] = own
        else:
            own = space
        self.defined[self.full(name, own)] = None  # being defined: referable, no default yet
        fields = []
        for field in self.rng.sample(FIELDS, self.rng.randint(1, 4)):
            entry = {"name": field, "type": self.type(depth + 1, own)}
            if self.rng.random() < 0.35:
                value = self.default(entry["type"], own, 0)
                if value is not NO_DEFAULT:
                    entry["default"] = value
            fields.append(entry)
        schema["fields"] = fields
        self.defined[self.full(name, own)] = schema
        return schema

    def default(self, schema, space, depth):
        if depth > 4:
            return NO_DEFAULT
        if isinstance(schema, list):
            return self.default(schema[0], space, depth + 1)
        if isinstance(schema, str):
            simple = {"null": None, "boolean": True, "int": 1, "long": 2, "float": 1.5,
                      "double": 2.5, "bytes": "b", "string": "s"}
            if schema in simple:
                return simple[schema]
            target = self.defined.get(schema if schema in self.defined else self.full(schema, space))
            return NO_DEFAULT if target is None else self.default(target, space, depth + 1)
        kind = schema["type"]
        if kind == "array":
            return []
        if kind == "map":
            return {}
        if kind == "enum":
            return schema["symbols"][0]
        if kind == "fixed":
            return "\u0000" * schema["size"]
        if kind == "record":
            # A mutation of the record would make the default stale; none is simpler.
            return NO_DEFAULT
        return self.default(kind, space, depth + 1)


NO_DEFAULT = object()


def nodes(schema, out):
    """Every JSON object or list of a schema that a mutation may edit, in walk order."""
    if isinstance(schema, dict):
        out.append(schema)
        for field in schema.get("fields", []):
            out.append(field)
            nodes(field["type"], out)
        for key in ("items", "values"):
            if key in schema:
                nodes(schema[key], out)
    elif isinstance(schema, list):
        out.append(schema)
        for branch in schema:
            nodes(branch, out)
    return out


def mutate(schema, rng):
    """One small edit somewhere in `schema`, in place."""
    target = rng.choice(nodes(schema, []))
    roll = rng.random()
    if isinstance(target, list):  # a union
        if roll < 0.5 and len(target) > 1:
            target.pop(rng.randrange(len(target)))
        else:
            extra = rng.choice(PRIMITIVES)
            if extra not in target:
                target.append(extra)
    elif "symbols" in target:
        if roll < 0.35:
            extra = [s for s in SYMBOLS if s not in target["symbols"]]
            if extra:
                target["symbols"].append(rng.choice(extra))
        elif roll < 0.65 and len(target["symbols"]) > 1:
            gone = target["symbols"].pop(rng.randrange(len(target["symbols"])))
            if target.get("default") == gone:
                del target["default"]
        elif roll < 0.85:
            if "default" in target:
                del target["default"]
            else:
                target["default"] = target["symbols"][0]
        else:
            target["name"] = rng.choice(NAMES) + "X"
    elif "size" in target:
        target["size"] = rng.choice([4, 8, 16, 32])
    elif "fields" in target:  # a record
        if roll < 0.3:
            name = rng.choice([f for f in FIELDS + ["extra"] if f not in [x["name"] for x in target["fields"]]] or ["extra2"])
            field = {"name": name, "type": rng.choice(["string", "int", ["null", "string"]])}
            if rng.random() < 0.5:
                field["default"] = None if isinstance(field["type"], list) else ("" if field["type"] == "string" else 0)
            target["fields"].append(field)
        elif roll < 0.55 and len(target["fields"]) > 1:
            target["fields"].pop(rng.randrange(len(target["fields"])))
        elif roll < 0.75:
            old = target["name"]
            target["name"] = old + "V2"
            if rng.random() < 0.5:
                space = target.get("namespace")
                target["aliases"] = [f"{space}.{old}" if space else old]
        else:
            target["namespace"] = rng.choice(["acme", "other"])
    elif "name" in target and "type" in target:  # a field
        if roll < 0.35:
            target["type"] = rng.choice(PRIMITIVES + [["null", "string"], ["null", "long"], ["int", "string"]])
            target.pop("default", None)
        elif roll < 0.6:
            if "default" in target:
                del target["default"]
            elif target["type"] in ("string", "bytes"):
                target["default"] = ""
            elif target["type"] in ("int", "long", "float", "double"):
                target["default"] = 0
            elif isinstance(target["type"], list) and target["type"][0] == "null":
                target["default"] = None
        elif roll < 0.85:
            old = target["name"]
            target["name"] = old + "2"
            if rng.random() < 0.6:
                target["aliases"] = [old]
        else:
            promotions = {"int": "long", "long": "double", "float": "double", "string": "bytes",
                          "bytes": "string", "double": "float"}
            if isinstance(target["type"], str) and target["type"] in promotions:
                target["type"] = promotions[target["type"]]
    else:  # array, map, primitive object
        if "items" in target:
            target["items"] = rng.choice(PRIMITIVES)
        elif "values" in target:
            target["values"] = rng.choice(PRIMITIVES)
        else:
            target["type"] = rng.choice(PRIMITIVES)
            target.pop("logicalType", None)


def reads(reader, writer):
    result = ReaderWriterCompatibilityChecker().get_compatibility(reader, writer)
    return result.compatibility is SchemaCompatibilityType.compatible


def avro_verdicts(before, after):
    b, a = avro.schema.parse(before), avro.schema.parse(after)
    backward, forward = not reads(a, b), not reads(b, a)
    both = {(True, True): "both", (True, False): "backward", (False, True): "forward"}
    return {"backward": (backward, "backward" if backward else None),
            "forward": (forward, "forward" if forward else None),
            "full": (backward or forward, both.get((backward, forward))),
            "none": (False, None)}


def ours(folder, strategy):
    run = subprocess.run([str(BINARY), "schema", "--format", "json", "--strategy", strategy,
                          str(folder / "before.avsc"), str(folder / "after.avsc")],
                         capture_output=True, text=True, check=False)
    if run.returncode not in (0, 1):
        return ("error", run.stderr.strip())
    verdict = json.loads(run.stdout)
    return (verdict["breaking"], verdict["direction"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="write disagreeing pairs here")
    args = parser.parse_args()
    if not BINARY.exists():
        sys.exit("build catalog-diff first: cargo build")
    rng = random.Random(args.seed)
    generator = Generator(rng)
    tally = {s: [0, 0] for s in ("backward", "forward", "full", "none")}
    skipped, kept, refused = 0, 0, 0
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        for index in range(args.pairs):
            before = generator.schema()
            after = copy.deepcopy(before)
            for _ in range(rng.randint(1, 3)):
                mutate(after, rng)
            texts = json.dumps(before, indent=2), json.dumps(after, indent=2)
            try:
                expected = avro_verdicts(*texts)
            except Exception:  # a mutation the avro package refuses: not a pair to judge
                skipped += 1
                continue
            (folder / "before.avsc").write_text(texts[0])
            (folder / "after.avsc").write_text(texts[1])
            differs = False
            refused += ours(folder, "full")[0] == "error"
            for strategy, want in expected.items():
                got = ours(folder, strategy)
                same = got == want
                tally[strategy][0 if same else 1] += 1
                differs |= not same
            if differs and args.keep and kept < 50:
                case = args.keep / f"pair-{index}"
                case.mkdir(parents=True, exist_ok=True)
                (case / "before.avsc").write_text(texts[0])
                (case / "after.avsc").write_text(texts[1])
                (case / "avro.json").write_text(json.dumps(expected, indent=2))
                kept += 1
    judged = args.pairs - skipped
    print(f"{judged} pairs judged ({skipped} refused by the avro package), seed {args.seed}; "
          f"catalog-diff refuses {refused} of them as invalid Avro (a default of the wrong type, "
          f"which Java's parser rejects and the avro package does not check)")
    for strategy, (agree, differ) in tally.items():
        print(f"  {strategy}: {agree} of {agree + differ} agree ({100.0 * agree / max(1, agree + differ):.2f}%)")


if __name__ == "__main__":
    main()
