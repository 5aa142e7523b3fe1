#!/usr/bin/env python3
"""Records the expected Avro verdicts of testdata/avro/<kind>/<case>/ from Apache Avro itself.

For every case folder (or the folders named on the command line) this reads before.avsc and
after.avsc with the `avro` package from PyPI (`pip install avro`; its `avro.compatibility` is a
port of Java's SchemaCompatibility) and asks it both questions:

  backward breaks  iff a reader on after.avsc cannot read data written with before.avsc
  forward breaks   iff a reader on before.avsc cannot read data written with after.avsc

and writes `breaking` and `direction` under each of backward, forward, full and none into the
folder's expected.json. The `ops` are ours: they are kept as they are; a folder without
expected.json (or with --refresh-ops) takes them from our own binary
(`catalog-diff schema --format json`, built at target/debug), reasons left out. The script never
deletes a folder or a file. It also prints how often our binary's verdicts agree with Avro's.

Run by hand, never by tests or CI:

  pip install avro && cargo build
  scripts/record-avro.py                 # write / update every expected.json
  scripts/record-avro.py --check         # change nothing; exit 1 when a verdict differs
  scripts/record-avro.py --refresh-ops testdata/avro/field.added/without-default
"""

import argparse
import json
import subprocess
import sys
from pathlib import Path

try:
    import avro.schema
    from avro.compatibility import ReaderWriterCompatibilityChecker, SchemaCompatibilityType
except ImportError:
    sys.exit("record-avro.py needs the `avro` package: pip install avro")

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "testdata" / "avro"
BINARY = ROOT / "target" / "debug" / "catalog-diff"
STRATEGIES = ("backward", "forward", "full", "none")


def reads(reader, writer):
    """Whether Avro says a reader on `reader` reads what `writer` wrote."""
    result = ReaderWriterCompatibilityChecker().get_compatibility(reader, writer)
    return result.compatibility is SchemaCompatibilityType.compatible


def reference(folder):
    """Avro's verdict under each strategy: {strategy: (breaking, direction)}."""
    before = avro.schema.parse((folder / "before.avsc").read_text())
    after = avro.schema.parse((folder / "after.avsc").read_text())
    backward = not reads(after, before)
    forward = not reads(before, after)
    both = {(True, True): "both", (True, False): "backward", (False, True): "forward"}
    return {
        "backward": (backward, "backward" if backward else None),
        "forward": (forward, "forward" if forward else None),
        "full": (backward or forward, both.get((backward, forward))),
        "none": (False, None),
    }


def ours(folder, strategy):
    """Our binary's verdict for one strategy (None when it fails to judge)."""
    if not BINARY.exists():
        return None
    run = subprocess.run(
        [str(BINARY), "schema", "--format", "json", "--strategy", strategy,
         str(folder / "before.avsc"), str(folder / "after.avsc")],
        capture_output=True, text=True, check=False)
    if run.returncode not in (0, 1):
        print(f"  {folder.relative_to(ROOT)}: catalog-diff failed: {run.stderr.strip()}")
        return None
    return json.loads(run.stdout)


def without_reasons(ops):
    return [{key: value for key, value in op.items() if key != "reason"} for op in ops]


def record(folder, check, refresh_ops, agreement):
    """Brings one folder's expected.json in line with Avro; returns True when it already was."""
    name = folder.relative_to(CASES)
    try:
        verdicts = reference(folder)
    except Exception as error:  # the avro package refuses the schema: say so, touch nothing
        print(f"  {name}: avro cannot parse it ({error}); left as it is")
        return False
    path = folder / "expected.json"
    expected = json.loads(path.read_text()) if path.exists() else {}
    updated = {}
    for strategy in STRATEGIES:
        breaking, direction = verdicts[strategy]
        mine = ours(folder, strategy)
        if mine is not None:
            same = (mine["breaking"], mine["direction"]) == (breaking, direction)
            agreement[strategy][0 if same else 1] += 1
            if not same:
                print(f"  {name} ({strategy}): avro says {breaking}/{direction}, "
                      f"catalog-diff {mine['breaking']}/{mine['direction']}")
        old = expected.get(strategy, {})
        ops = old.get("ops")
        if ops is None or refresh_ops:
            ops = without_reasons(mine["ops"]) if mine is not None else []
        updated[strategy] = {"breaking": breaking, "direction": direction, "ops": ops}
    if updated == expected:
        return True
    if check:
        print(f"  {name}: expected.json differs from Avro's verdicts")
    else:
        path.write_text(json.dumps(updated, indent=2) + "\n")
        print(f"  {name}: expected.json written")
    return False


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folders", nargs="*", type=Path, help="case folders (default: all)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 on a difference")
    parser.add_argument("--refresh-ops", action="store_true", help="take ops from our binary again")
    args = parser.parse_args()
    folders = [folder.resolve() for folder in args.folders] or sorted(
        case for kind in CASES.iterdir() if kind.is_dir() for case in kind.iterdir() if case.is_dir())
    agreement = {strategy: [0, 0] for strategy in STRATEGIES}
    clean = all([record(folder, args.check, args.refresh_ops, agreement) for folder in folders])
    print(f"{len(folders)} case folder(s)")
    for strategy, (agree, differ) in agreement.items():
        if agree + differ:
            print(f"  {strategy}: catalog-diff agrees with avro.compatibility on {agree} "
                  f"of {agree + differ}")
    if args.check and not clean:
        sys.exit(1)


if __name__ == "__main__":
    main()
