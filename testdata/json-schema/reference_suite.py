#!/usr/bin/env python3
"""Writes one case folder per test of the reference's own JSON Schema test suite
(`@eventcatalog/diff` 0.1.0, `src/test/json-schema/json-schema.test.ts`), as
`testdata/json-schema/<kind>/reference-<test>/`, so our walker is held to the reference's tests op for op.

    python3 testdata/json-schema/reference_suite.py --calls CALLS.json --oracle DIR

CALLS.json lists every `checkJsonSchemaCompatibility(before, after, strategy)` call the suite made,
with the test's name and the reference's result: `[{"test", "strategy", "before", "after",
"result"}, ...]` (recorded by running the suite with the call recorded, outside this repository).
DIR is the local build of the reference used by `generate.py --oracle`: each test's schemas are run
through it under all four strategies, and the script stops if the result under the test's own
strategy is not the one the suite saw. The reference's reasons are kept (the JSON document carries
them). Folders are rewritten whole; the tests never need either input.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate  # noqa: E402  (the oracle driver and the folder helpers)

PREFIX = "JSON Schema compatibility > "


def slug(test):
    words = test[len(PREFIX):] if test.startswith(PREFIX) else test
    group, _, rest = words.partition(" > ")
    group = group.split(":")[0]  # "backward: a consumer ..." -> "backward"
    text = re.sub(r"[^a-z0-9]+", "-", f"{group} {rest}".lower()).strip("-")
    return "reference-" + text[:90].rstrip("-")


def main():
    calls = json.load(open(sys.argv[sys.argv.index("--calls") + 1]))
    directory = sys.argv[sys.argv.index("--oracle") + 1]
    tests = {}
    for call in calls:  # one folder per test: its first call (the rest repeat the schemas)
        tests.setdefault(call["test"], call)
    generate.CASES[:] = [(slug(t), c["before"], c["after"], [], None, None) for t, c in tests.items()]
    names = [name for name, *_ in generate.CASES]
    assert len(set(names)) == len(names), "two tests give the same folder name"
    reference = generate.oracle_verdicts(directory)
    for (name, before, after, *_), (test, call), verdicts in zip(generate.CASES, tests.items(), reference):
        if verdicts[call["strategy"]] != call["result"]:
            sys.exit(f"{test}: the oracle gave {verdicts[call['strategy']]}, the suite saw {call['result']}")
        expected = verdicts
        ops = expected[call["strategy"]]["ops"] or expected["none"]["ops"]
        generate.write_case(ops[0]["kind"] if ops else "unchanged", name, before, after, expected)
    print(f"{len(tests)} tests of the reference's suite written")


if __name__ == "__main__":
    main()
