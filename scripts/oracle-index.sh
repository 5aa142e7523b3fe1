#!/usr/bin/env bash
# oracle-index.sh — regenerate the SDK oracle fixtures (EventCatalog SDK 2.27.1 buildIndex).
#
# Usage (from anywhere; paths are relative to the project root):
#
#   scripts/oracle-index.sh            # everything: synthetic cases + real catalogs + history
#   scripts/oracle-index.sh cases      # only testdata/index/<case>/
#   scripts/oracle-index.sh real       # only testdata/conformance/{sdk-test-catalog,template-*}
#   scripts/oracle-index.sh history    # only testdata/conformance/examples-default/<sha>.index.json
#   scripts/oracle-index.sh cases CASE [CASE...]   # only the named synthetic cases
#
# Environment:
#   ORACLE_DIR   oracle install (default target/sdk-oracle). If it has no node_modules, it is
#                installed there from $SHARED_DIR/tools/sdk-oracle with `npm ci`.
#   SHARED_DIR   the shared folder (default ../shared, relative to the project root).
#
# What it writes, for each catalog (synthetic case testdata/index/<case>/catalog, or a shared catalog):
#   expected.index.json          oracle output with hashing on (`node index.mjs DIR <name> local`)
#   expected.sdk-error.txt       only when the SDK throws with hashing on: first line of the error,
#                                with the absolute catalog directory replaced by `<catalog>`
#   expected.nohash.index.json   only when the SDK throws with hashing on: output with HASH_CONTENT=0
#                                (absent when the SDK also throws without hashing)
# Stale files of the other kind are removed, so the script is idempotent.
#
# Synthetic catalogs are copied to a fresh temporary directory before indexing, because the SDK
# tests the substring `versioned` on the *absolute* path (spec §4.1): the copy lives at
# $TMP/oracle.XXXXXX/catalog, and the script refuses to run if that path contains `versioned`.
# Shared catalogs are indexed in place (their paths must not contain `versioned` either).
#
# History: clones $SHARED_DIR/catalogs/examples-default.bundle into a temporary directory, and for
# every commit with sdk_hashed = ok in $SHARED_DIR/spec/examples-default-history.tsv writes
# testdata/conformance/examples-default/<sha>.index.json (source examples-default, commit = sha),
# then checks its SHA-256 against the tsv column sha256_hashed_json. Real-catalog outputs are
# checked against the §14.1 table too. A mismatch is reported and makes the exit status 1.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
ORACLE_DIR="${ORACLE_DIR:-target/sdk-oracle}"
SHARED_DIR="${SHARED_DIR:-../shared}"
ORACLE_DIR="$(mkdir -p "$ORACLE_DIR" && cd "$ORACLE_DIR" && pwd)"

if [ ! -d "$ORACLE_DIR/node_modules/@eventcatalog/sdk" ]; then
  echo "installing oracle into $ORACLE_DIR" >&2
  cp -r "$SHARED_DIR/tools/sdk-oracle/." "$ORACLE_DIR/"
  (cd "$ORACLE_DIR" && npm ci --no-audit --no-fund >&2)
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/oracle.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
case "$WORK" in *versioned*) echo "temporary directory $WORK contains 'versioned'; set TMPDIR" >&2; exit 2;; esac

status=0

# run_oracle DIR NAME COMMIT OUTDIR [PREFIX]
# Writes OUTDIR/${PREFIX}expected.index.json, or the error + nohash pair.
run_oracle() {
  local dir="$1" name="$2" commit="$3" out="$4"
  local abs; abs="$(cd "$dir" && pwd)"
  case "$abs" in *versioned*) echo "catalog path $abs contains 'versioned'" >&2; return 2;; esac
  mkdir -p "$out"
  rm -f "$out/expected.index.json" "$out/expected.sdk-error.txt" "$out/expected.nohash.index.json"
  if node "$ORACLE_DIR/index.mjs" "$abs" "$name" "$commit" >"$WORK/out.json" 2>"$WORK/err.txt"; then
    mv "$WORK/out.json" "$out/expected.index.json"
    echo "ok      $name" >&2
  else
    # first line of the SDK's error, without the oracle's "buildIndex failed: " prefix; a file
    # beside the catalog (an id climbing out of it) is named from it too
    printf '%s\n' "$(head -n 1 "$WORK/err.txt" | sed -e 's/^buildIndex failed: //' -e "s#$abs#<catalog>#g" \
      -e "s#$(dirname "$abs")/#<catalog>/../#g")" \
      >"$out/expected.sdk-error.txt"
    if HASH_CONTENT=0 node "$ORACLE_DIR/index.mjs" "$abs" "$name" "$commit" >"$WORK/out.json" 2>/dev/null; then
      mv "$WORK/out.json" "$out/expected.nohash.index.json"
      echo "error   $name (nohash ok): $(cat "$out/expected.sdk-error.txt")" >&2
    else
      echo "error   $name (nohash fails too): $(cat "$out/expected.sdk-error.txt")" >&2
    fi
  fi
}

do_cases() {
  local cases=("$@")
  if [ ${#cases[@]} -eq 0 ]; then
    for d in testdata/index/*/; do [ -d "$d/catalog" ] && cases+=("$(basename "$d")"); done
  fi
  for c in "${cases[@]}"; do
    local src="testdata/index/$c/catalog"
    [ -d "$src" ] || { echo "no catalog: $src" >&2; status=1; continue; }
    rm -rf "$WORK/catalog"
    cp -r "$src" "$WORK/catalog"
    run_oracle "$WORK/catalog" "$c" local "testdata/index/$c"
  done
  rm -rf "$WORK/catalog"
}

# expected text SHA-256 from spec §14.1 (hashing where it succeeds, HASH_CONTENT=0 otherwise)
spec_sha() {
  case "$1" in
    sdk-test-catalog) echo 1f273334834de911b2dc6b414203bf2aceb35fd7161ab1bea31985a093f6bc54 ;;
    template-default) echo 1114538d124907e4c534226910f26e2febdb647d3e65dfd03e4d0b2e1e570af6 ;;
    template-asyncapi) echo dde2a8a14bc88136e4561596fb4c75c8744c0f401275a4cd5066cf43f8314ff3 ;;
  esac
}

do_real() {
  for name in sdk-test-catalog template-default template-asyncapi; do
    run_oracle "$SHARED_DIR/catalogs/$name" "$name" local "testdata/conformance/$name"
    local f="testdata/conformance/$name/expected.index.json"
    [ -f "$f" ] || f="testdata/conformance/$name/expected.nohash.index.json"
    local got; got="$(sha256sum "$f" | cut -d' ' -f1)"
    if [ "$got" != "$(spec_sha "$name")" ]; then
      echo "MISMATCH $f: $got, spec §14.1 says $(spec_sha "$name")" >&2; status=1
    fi
  done
}

do_history() {
  local tsv="$SHARED_DIR/spec/examples-default-history.tsv"
  local repo="$WORK/exdef" out="testdata/conformance/examples-default"
  git clone -q -b main "$SHARED_DIR/catalogs/examples-default.bundle" "$repo"
  mkdir -p "$out"
  # columns located by header name
  awk -F'\t' 'NR==1{for(i=1;i<=NF;i++)c[$i]=i; next} $c["sdk_hashed"]=="ok"{print $c["commit"], $c["sha256_hashed_json"]}' "$tsv" |
  while read -r sha want; do
    (cd "$repo" && git checkout -q -f "$sha" && git clean -fdxq)
    if node "$ORACLE_DIR/index.mjs" "$repo" examples-default "$sha" >"$WORK/out.json" 2>"$WORK/err.txt"; then
      mv "$WORK/out.json" "$out/$sha.index.json"
      local got; got="$(sha256sum "$out/$sha.index.json" | cut -d' ' -f1)"
      if [ "$got" = "$want" ]; then echo "ok      examples-default $sha" >&2
      else echo "MISMATCH examples-default $sha: $got, tsv says $want" >&2; echo x >"$WORK/mismatch"; fi
    else
      echo "FAILED  examples-default $sha: $(head -n1 "$WORK/err.txt")" >&2; echo x >"$WORK/mismatch"
    fi
  done
  [ ! -f "$WORK/mismatch" ] || status=1
  # the head commit, indexed with commit `local`, must also match the §14.1 table
  (cd "$repo" && git checkout -q -f main && git clean -fdxq)
  local got; got="$(node "$ORACLE_DIR/index.mjs" "$repo" examples-default local | sha256sum | cut -d' ' -f1)"
  if [ "$got" = 69fa787a2c901d077a8f8bd2eefe314aad2af2d28e841d2fb800b29217ea4937 ]; then
    echo "ok      examples-default head (commit local) matches §14.1" >&2
  else
    echo "MISMATCH examples-default head (commit local): $got" >&2; status=1
  fi
}

what="${1:-all}"; [ $# -gt 0 ] && shift
case "$what" in
  all) do_cases; do_real; do_history ;;
  cases) do_cases "$@" ;;
  real) do_real ;;
  history) do_history ;;
  *) sed -n '2,12p' "$0" >&2; exit 2 ;;
esac
exit $status
