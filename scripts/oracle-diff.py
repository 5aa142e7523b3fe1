#!/usr/bin/env python3
"""Records the reference's ArchitectureDiff for the diff conformance cases (tests/diff_conformance.rs).

    ORACLE_DIFF=DIR python3 scripts/oracle-diff.py              # the mutation pairs
    ORACLE_DIFF=DIR python3 scripts/oracle-diff.py --history    # every first-parent step of
                                                                # examples-default's main
    ORACLE_DIFF=DIR python3 scripts/oracle-diff.py --cases      # testdata/conformance/reference

DIR is a local build of `@eventcatalog/diff` 0.1.0's source (its `src/` folder with `tsx` and the
`@eventcatalog/sdk` 2.27.1 it resolves graphs with installed beside it); it is never part of this
repository and the tests never need it. Each side's Index is the one `catalog-diff index
--include-schema-content` prints (equal to the SDK's `buildIndex`, see tests/index_conformance.rs),
so the recording checks the diff alone. What is stored leaves out `refs`; op reasons stay (the
reference's words, which our JSON document repeats).

* Mutation pairs: `testdata/conformance/diffs/mutations.json` lists, per catalog of
  `$CATALOGS` (default `../shared/catalogs`), edits to apply to a copy (`remove` paths; `replace`
  `[path, old, new]`, every occurrence, which must exist); the baseline is the catalog as it is.
  Writes `testdata/conformance/diffs/<catalog>/<mutation>.expected.json`.
* `--history`: writes `testdata/conformance/diffs/examples-default.jsonl`, one line per step:
  `{"parent", "commit", "diff"}`.

* `--cases`: for each folder of `testdata/conformance/reference/` (catalogs `a/` and `b/`, an
  optional `options.json` with a `strategy`), writes the reference's document, `expected.json`.
  The catalogs are copied out of this repository first, so each is read as a plain folder.

BIN (default target/debug/catalog-diff) is our binary, used only to print the Indexes.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "testdata", "conformance", "diffs")
CATALOGS = os.environ.get("CATALOGS", os.path.join(ROOT, "..", "shared", "catalogs"))
BIN = os.environ.get("BIN", os.path.join(ROOT, "target", "debug", "catalog-diff"))
ORACLE = os.environ.get("ORACLE_DIFF") or sys.exit("set ORACLE_DIFF to the reference's build")

DRIVER = """
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const [dir, input] = process.argv.slice(2);
const { diff } = await import(pathToFileURL(dir + '/src/diff.ts').href);
for (const [a, b, strategy, out] of JSON.parse(readFileSync(input, 'utf8'))) {
  const read = (p) => JSON.parse(readFileSync(p, 'utf8'));
  writeFileSync(out, JSON.stringify(diff(read(a), read(b), { strategy })));
}
"""


def oracle(jobs, work):
    """jobs: [(a.json, b.json, strategy, out.json)]; runs them all in one node process."""
    listing, driver = os.path.join(work, "jobs.json"), os.path.join(work, "driver.mjs")
    with open(listing, "w") as out:
        json.dump(jobs, out)
    with open(driver, "w") as out:
        out.write(DRIVER)
    subprocess.run(["node", "--import", "tsx", driver, os.path.abspath(ORACLE), listing], cwd=ORACLE, check=True)


def normalised(path):
    with open(path) as handle:
        document = json.load(handle)
    document.pop("refs")
    return document


def record(jobs, targets, work):
    """Runs the reference on `jobs` and writes each result, normalised, to its target file."""
    oracle(jobs, work)
    for out, target in targets:
        with open(target, "w") as handle:
            json.dump(normalised(out), handle, indent=2)
            handle.write("\n")


def index(args, out):
    with open(out, "w") as handle:
        subprocess.run([BIN, "index", "--include-schema-content", *args], stdout=handle, stderr=subprocess.DEVNULL, check=True)


def mutations(work):
    with open(os.path.join(OUT, "mutations.json")) as handle:
        catalogs = json.load(handle)
    jobs, targets = [], []
    for catalog, spec in catalogs.items():
        hash_flag = [] if spec["hash"] else ["--no-hash"]
        base = os.path.join(work, catalog, "a")
        shutil.copytree(os.path.join(CATALOGS, catalog), base)
        index(["-C", base, "--source", catalog, *hash_flag], base + ".json")
        os.makedirs(os.path.join(OUT, catalog), exist_ok=True)
        for mutation in spec["mutations"]:
            side = os.path.join(work, catalog, mutation["name"])
            shutil.copytree(base, side)
            for path in mutation.get("remove", []):
                os.remove(os.path.join(side, path))
            for path, old, new in mutation.get("replace", []):
                file = os.path.join(side, path)
                text = open(file).read()
                assert old in text, f"{catalog}/{mutation['name']}: {old!r} is not in {path}"
                open(file, "w").write(text.replace(old, new))
            index(["-C", side, "--source", catalog, *hash_flag], side + ".json")
            out = side + ".diff.json"
            jobs.append([base + ".json", side + ".json", mutation.get("strategy", "full"), out])
            targets.append((out, os.path.join(OUT, catalog, mutation["name"] + ".expected.json")))
    record(jobs, targets, work)
    print(f"{len(targets)} mutation pairs recorded")


def history(work):
    clone = os.path.join(work, "examples-default")
    subprocess.run(["git", "clone", "-q", "-b", "main", os.path.join(CATALOGS, "examples-default.bundle"), clone], check=True)
    commits = subprocess.run(["git", "-C", clone, "rev-list", "--first-parent", "--reverse", "main"],
                             check=True, capture_output=True, text=True).stdout.split()
    for commit in commits:
        index(["-C", clone, commit, "--source", "examples-default"], os.path.join(work, commit + ".json"))
    steps = list(zip(commits, commits[1:]))
    jobs = [[os.path.join(work, a + ".json"), os.path.join(work, b + ".json"), "full", os.path.join(work, b + ".diff.json")]
            for a, b in steps]
    oracle(jobs, work)
    with open(os.path.join(OUT, "examples-default.jsonl"), "w") as handle:
        for a, b in steps:
            line = {"parent": a, "commit": b, "diff": normalised(os.path.join(work, b + ".diff.json"))}
            handle.write(json.dumps(line, separators=(",", ":")) + "\n")
    print(f"{len(steps)} steps recorded")


def cases(work):
    root = os.path.join(ROOT, "testdata", "conformance", "reference")
    jobs, targets = [], []
    for name in sorted(os.listdir(root)):
        case = os.path.join(root, name)
        options = os.path.join(case, "options.json")
        strategy = json.load(open(options)).get("strategy", "full") if os.path.exists(options) else "full"
        for side in ("a", "b"):
            shutil.copytree(os.path.join(case, side), os.path.join(work, name, side))
            index(["-C", os.path.join(work, name, side), "--source", "reference"], os.path.join(work, name, side + ".json"))
        out = os.path.join(work, name, "diff.json")
        jobs.append([os.path.join(work, name, "a.json"), os.path.join(work, name, "b.json"), strategy, out])
        targets.append((out, os.path.join(case, "expected.json")))
    record(jobs, targets, work)
    print(f"{len(targets)} cases recorded")


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as work:
        if "--history" in sys.argv:
            history(work)
        elif "--cases" in sys.argv:
            cases(work)
        else:
            mutations(work)
