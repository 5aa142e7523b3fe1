#!/usr/bin/env bash
# demo.sh — the main job on the bundled sample: commits testdata/sample-catalog to `main` of a
# throw-away repository, applies testdata/sample-change on a branch `change`, and runs
# `catalog-diff main..change` in each output format. Leaves nothing behind; exits with the
# first run's exit code.
#
#   scripts/demo.sh [extra catalog-diff options, e.g. --strategy backward]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
# Wherever cargo puts the binary (CARGO_TARGET_DIR, a config's target-dir), `cargo run` finds it.
catalog_diff() { cargo run --release --quiet -- "$@"; }
repo=$(mktemp -d)/shop
trap 'rm -rf "$(dirname "$repo")"' EXIT
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
git() { command git -C "$repo" -c user.name=demo -c user.email=demo@example.com "$@"; }
mkdir -p "$repo" && cp -r testdata/sample-catalog/. "$repo/"
git init -q -b main && git add -A && git commit -q -m "the catalog"
git switch -q -c change && cp -r testdata/sample-change/. "$repo/" && git commit -q -am "OrderPlaced: optional customerId, refunded status, currency"
first_status=
for format in text markdown; do
  printf '\n$ catalog-diff main..change --format %s %s\n' "$format" "$*"
  status=0
  catalog_diff -C "$repo" main..change --format "$format" "$@" || status=$?
  printf '(exit code %s: %s)\n' "$status" "$([ "$status" = 1 ] && echo "the policy tripped: a breaking change" || echo "see README, Exit codes")"
  first_status=${first_status:-$status}
done
# The demo exits as the tool did (1: the sample change is breaking; 2: it could not run).
exit "$first_status"
