#!/usr/bin/env bash
# Regenerates the resolve() conformance cases in testdata/resolve/<case>/ with the SDK oracle:
# index*.json = `node index.mjs` (buildIndex), expected.json = `node resolve.mjs` over them, in
# file-name order. The oracle must be installed (see shared/tools/sdk-oracle/README.md):
#   ORACLE_DIR=/tmp/sdk-oracle scripts/oracle-resolve.sh
# With `--history DIR`, instead writes one case per commit of examples-default's `main` to DIR
# (too big to commit; check with RESOLVE_EXTRA_CASES=DIR cargo test --test resolve_conformance).
# The shared catalogs are read from $CATALOGS (default: ../shared/catalogs); only their SDK
# outputs are written here. Our own synthetic catalogs live in testdata/resolve/catalogs/.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
oracle=${ORACLE_DIR:-/tmp/sdk-oracle}
catalogs=${CATALOGS:-$root/../shared/catalogs}
out=$root/testdata/resolve
own=$out/catalogs
work=$(mktemp -d /tmp/oracle-resolve.XXXXXX)   # must not contain "versioned" (README)
trap 'rm -rf "$work"' EXIT

# index <catalogDir> <source> <commit> <outFile>: hashing on, off when the SDK cannot hash.
index() {
  if ! node "$oracle/index.mjs" "$1" "$2" "$3" > "$4" 2> "$work/err"; then
    echo "  $2: hashing fails, using HASH_CONTENT=0" >&2
    HASH_CONTENT=0 node "$oracle/index.mjs" "$1" "$2" "$3" > "$4"
  fi
}

expected() { # expected <caseDir>
  node "$oracle/resolve.mjs" "$1"/index*.json > "$1/expected.json"
  echo "$(basename "$1"): $(ls "$1"/index*.json | wc -l) index(es)" >&2
}

fresh() { rm -rf "${out:?}/$1"; mkdir -p "$out/$1"; echo "$out/$1"; }

git clone -q -b main "$catalogs/examples-default.bundle" "$work/examples-default"

if [[ ${1:-} == --history ]]; then
  dest=$(mkdir -p "$2" && cd "$2" && pwd)
  for sha in $(git -C "$work/examples-default" rev-list --reverse main); do
    git -C "$work/examples-default" checkout -q -f "$sha"
    git -C "$work/examples-default" clean -fdxq
    mkdir -p "$dest/$sha"
    HASH_CONTENT=0 node "$oracle/index.mjs" "$work/examples-default" examples-default "$sha" > "$dest/$sha/index.json"
    node "$oracle/resolve.mjs" "$dest/$sha/index.json" > "$dest/$sha/expected.json" 2> /dev/null
  done
  exit 0
fi

for name in sdk-test-catalog template-default template-asyncapi; do
  dir=$(fresh "$name"); index "$catalogs/$name" "$name" local "$dir/index.json"; expected "$dir"
done
dir=$(fresh examples-default); index "$work/examples-default" examples-default local "$dir/index.json"; expected "$dir"

# §14.1: the four together, in this order.
dir=$(fresh combined-four)
n=1
for name in examples-default template-default sdk-test-catalog template-asyncapi; do
  cp "$out/$name/index.json" "$dir/index-$n.json"; n=$((n + 1))
done
expected "$dir"

# §14.3 item 20 and friends: our synthetic catalogs.
dir=$(fresh pointers); index "$own/pointers" pointers local "$dir/index.json"; expected "$dir"

dir=$(fresh assets-agree)
index "$own/assets-a" a c1 "$dir/index-1.json"; index "$own/assets-b" b c1 "$dir/index-2.json"; expected "$dir"

dir=$(fresh assets-mixed)
index "$own/assets-c" c c1 "$dir/index-1.json"; index "$own/assets-a" a c1 "$dir/index-2.json"
index "$own/assets-b" b c1 "$dir/index-3.json"; expected "$dir"

dir=$(fresh assets-nohash)
index "$own/assets-a" a c1 "$dir/index-1.json"
HASH_CONTENT=0 node "$oracle/index.mjs" "$own/assets-b" b c1 > "$dir/index-2.json"; expected "$dir"

dir=$(fresh assets-same-source)
index "$own/assets-a" a c2 "$dir/index-1.json"; index "$own/assets-a" a c1 "$dir/index-2.json"; expected "$dir"

# Number and mixed semver/non-semver versions, `type` values that are not strings.
dir=$(fresh odd-versions); index "$own/odd-versions" odd-versions local "$dir/index.json"; expected "$dir"
