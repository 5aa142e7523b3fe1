#!/usr/bin/env python3
"""Writes the reference's op reasons into every JSON Schema case's expected.json.

    python3 testdata/json-schema/record_reasons.py --oracle DIR

DIR is the local build of `@eventcatalog/diff` 0.1.0 that `generate.py --oracle` uses (never part
of this repository). Each case folder's schemas are run through the reference's
`checkJsonSchemaCompatibility` under all four strategies; where its ops, reasons aside, are the
recorded ones, their `reason`s (the reference's words, which the JSON document carries) are
written in, so the runner compares them too. A case whose ops differ is listed and left alone.
The tests never need the oracle.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate  # noqa: E402  (the oracle driver)


def main():
    directory = sys.argv[sys.argv.index("--oracle") + 1]
    folders = []
    for kind in sorted(os.listdir(generate.HERE)):
        for name in sorted(os.listdir(os.path.join(generate.HERE, kind)) if os.path.isdir(os.path.join(generate.HERE, kind)) else []):
            folder = os.path.join(generate.HERE, kind, name)
            if os.path.isfile(os.path.join(folder, "expected.json")) and os.path.isfile(os.path.join(folder, "before.json")):
                folders.append(folder)
    load = lambda folder, file: json.load(open(os.path.join(folder, file)))
    generate.CASES[:] = [(f, load(f, "before.json"), load(f, "after.json"), [], None, None) for f in folders]
    reference = generate.oracle_verdicts(directory)
    differ = []
    for folder, verdicts in zip(folders, reference):
        expected = load(folder, "expected.json")
        if any(generate.without_reasons(verdicts[s]) != generate.without_reasons(expected[s]) for s in verdicts):
            differ.append(os.path.relpath(folder, generate.HERE))
            continue
        with open(os.path.join(folder, "expected.json"), "w") as out:
            json.dump(verdicts, out, indent=2)
            out.write("\n")
    if differ:
        print(f"{len(differ)} case(s) differ from the reference and keep their expected.json: " + ", ".join(differ))
    print(f"{len(folders) - len(differ)} of {len(folders)} cases carry the reference's reasons")


if __name__ == "__main__":
    main()
