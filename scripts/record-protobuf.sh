#!/usr/bin/env bash
# record-protobuf.sh — writes what the real `buf breaking` says about every Protobuf fixture
# into its expected.json, under "buf": for each category the tool judges with (WIRE_JSON as
# `wire-json`, WIRE as `wire`), whether buf failed the change and the ids of the rules that
# failed it. Not a test and not run by CI: run it by hand after adding or editing a case, then
# let tests/schema_cases.rs check the tool against it.
#
#   scripts/record-protobuf.sh [CASE_FOLDER...]     default: every testdata/protobuf/*/*/
#
# buf comes from npm (@bufbuild/buf), installed once into target/buf unless BUF names a binary.
# Each side becomes a buf module: the case's before.proto (after.proto) as schema.proto, plus the
# files of its before/ (after/) folder, which the main file imports. buf runs with a v2 config
# using only the category, so no other rule interferes. The script only adds or replaces the
# "buf" key: the hand-reviewed verdicts beside it and the case files are never touched, and no
# folder is ever deleted.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${BUF:-}" ]; then
  if [ ! -x target/buf/node_modules/.bin/buf ]; then
    mkdir -p target/buf
    (cd target/buf && npm install --silent --no-save @bufbuild/buf >/dev/null)
  fi
  BUF=$PWD/target/buf/node_modules/.bin/buf
fi
export BUF

cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
  cases=(testdata/protobuf/*/*/)
fi

python3 - "${cases[@]}" <<'PY'
import json, os, shutil, subprocess, sys, tempfile

buf = os.environ["BUF"]
version = subprocess.run([buf, "--version"], capture_output=True, text=True).stdout.strip()
categories = [("wire-json", "WIRE_JSON"), ("wire", "WIRE")]
failures = 0

def module(case, side, root):
    folder = os.path.join(root, side)
    os.makedirs(folder)
    shutil.copy(os.path.join(case, side + ".proto"), os.path.join(folder, "schema.proto"))
    imports = os.path.join(case, side)
    if os.path.isdir(imports):
        shutil.copytree(imports, folder, dirs_exist_ok=True)

for case in sys.argv[1:]:
    case = case.rstrip("/")
    with tempfile.TemporaryDirectory() as root:
        module(case, "before", root)
        module(case, "after", root)
        recorded = {"version": version}
        for key, category in categories:
            config = json.dumps({"version": "v2", "breaking": {"use": [category]}})
            run = subprocess.run(
                [buf, "breaking", "--against", "../before", "--config", config, "--error-format", "json"],
                cwd=os.path.join(root, "after"), capture_output=True, text=True)
            if run.returncode not in (0, 100):
                print(f"{case}: buf could not judge it ({category}): {run.stderr.strip()}", file=sys.stderr)
                failures += 1
                recorded = None
                break
            rules = sorted({json.loads(line)["type"] for line in run.stdout.splitlines() if line.strip()})
            recorded[key] = {"breaking": bool(rules), "rules": rules}
    if recorded is None:
        continue
    path = os.path.join(case, "expected.json")
    expected = {}
    if os.path.exists(path):
        with open(path) as handle:
            expected = json.load(handle)
    expected["buf"] = recorded
    with open(path, "w") as handle:
        json.dump(expected, handle, indent=2)
        handle.write("\n")
    print(f"{case}: wire-json {recorded['wire-json']['rules'] or 'ok'}, wire {recorded['wire']['rules'] or 'ok'}")

sys.exit(1 if failures else 0)
PY
