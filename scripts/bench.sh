#!/usr/bin/env bash
# bench.sh — catalog-diff's speed on the real examples-default history, each figure next to a
# baseline measured in the same run and printed as a ratio. Not a test: run it by hand.
#   1. `catalog-diff index` at HEAD vs the SDK oracle (`buildIndex` on a checkout) and
#      `git cat-file --batch` reading the same blobs;
#   2. `catalog-diff oldest..newest` vs `git cat-file --batch` reading both sides' blobs;
#   3. `catalog-diff log` over the whole history vs `git log --raw --no-renames` over it and vs
#      one two-revision diff per changed commit (the walk without its caches).
#   3. the pre-commit hook's latency: `catalog-diff --staged` at the newest commit with one staged
#      schema change vs `git diff --cached --stat`.
#
#   scripts/bench.sh [RUNS]        (default 20 runs each; the median is reported)
#
# Needs ../shared (the bundle and the oracle) and node/npm for the oracle column.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
shared=${SHARED_DIR:-../shared}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --release --quiet
bin=$PWD/target/release/catalog-diff
git clone -q -b main "$shared/catalogs/examples-default.bundle" "$work/repo"

oracle=${ORACLE_DIR:-$PWD/target/sdk-oracle}
if [ ! -d "$oracle/node_modules" ]; then
  mkdir -p "$oracle" && cp -r "$shared/tools/sdk-oracle/." "$oracle/" && chmod -R u+w "$oracle"
  (cd "$oracle" && npm ci --silent >/dev/null 2>&1)
fi

# median wall time in milliseconds of a command run $runs times
median_ms() {
  local times=()
  for _ in $(seq "$runs"); do
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s%N)
    times+=($(( (end - start) / 1000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.2f", a[int((NR+1)/2)]/1000}'
}

# the blobs of the given revisions' trees, read with git's own batch reader
cat_file() { for rev in "$@"; do git -C "$work/repo" ls-tree -r --format='%(objectname)' "$rev"; done | git -C "$work/repo" cat-file --batch; }
oldest=$(git -C "$work/repo" rev-list --max-parents=0 HEAD)
ours=$(median_ms "$bin" index -C "$work/repo")
floor=$(median_ms cat_file HEAD)
diff_ours=$(median_ms "$bin" -C "$work/repo" "$oldest..HEAD" --format json)
diff_floor=$(median_ms cat_file "$oldest" HEAD)
log_ours=$(median_ms "$bin" log -C "$work/repo" --format json --fail-on never)
# the same history as one two-revision diff per changed commit: no tree skipping shared, no caches
pairs=$("$bin" log -C "$work/repo" --format json --fail-on never 2>/dev/null | grep -o '^{"commit":"[0-9a-f]*","parent":"[0-9a-f]*"' | sed 's/^{"commit":"\([0-9a-f]*\)","parent":"\([0-9a-f]*\)"/\2..\1/')
per_pair() { for range in $pairs; do "$bin" -C "$work/repo" "$range" --format json --fail-on never; done; }
log_pairs=$(runs=3 median_ms per_pair)
log_floor=$(median_ms git -C "$work/repo" log --first-parent --raw --no-renames HEAD)
sdk=$(runs=3 median_ms node "$oracle/index.mjs" "$work/repo" examples-default local)

printf 'examples-default at HEAD (%s files), median of %s runs\n' "$(git -C "$work/repo" ls-tree -r HEAD | wc -l)" "$runs"
printf '%-40s %10s ms\n' "catalog-diff index" "$ours" "git ls-tree | cat-file --batch (floor)" "$floor" "SDK oracle buildIndex (3 runs)" "$sdk"
awk -v o="$ours" -v f="$floor" -v s="$sdk" 'BEGIN {printf "index: %.1fx the git floor; the SDK takes %.1fx as long\n", o/f, s/o}'
echo
printf '%-40s %10s ms\n' "catalog-diff oldest..HEAD (json)" "$diff_ours" "cat-file --batch, both sides (floor)" "$diff_floor"
awk -v o="$diff_ours" -v f="$diff_floor" 'BEGIN {printf "diff: %.1fx the git floor\n", o/f}'
echo
printf '%-40s %10s ms\n' "catalog-diff log, whole history (json)" "$log_ours" "git log --raw --no-renames (floor)" "$log_floor" "one diff per changed commit (3 runs)" "$log_pairs"
awk -v o="$log_ours" -v f="$log_floor" -v n="$(git -C "$work/repo" rev-list --first-parent --count HEAD)" 'BEGIN {printf "log: %.1fx the git floor, %.2f ms per commit over %d commits\n", o/f, o/n, n}'
awk -v o="$log_ours" -v p="$log_pairs" 'BEGIN {printf "log: the per-pair diffs take %.1fx as long as the cached walk\n", p/o}'

# the hook: one schema change staged on top of the newest commit (this changes the clone, so last)
schema=$(git -C "$work/repo" ls-files '*schema.json' | sed -n 1p)  # not head: under pipefail git's SIGPIPE would stop the script
sed -i '0,/{/s//{"additionalProperties": false, /' "$work/repo/$schema"
git -C "$work/repo" add "$schema"
# --fail-on never: the same work as the hook, without set -e stopping at its exit 1
hook_ours=$(median_ms "$bin" -C "$work/repo" --staged --fail-on never)
hook_git=$(median_ms git -C "$work/repo" diff --cached --stat)
echo
printf '%-40s %10s ms\n' "catalog-diff --staged (the hook)" "$hook_ours" "git diff --cached --stat" "$hook_git"
awk -v o="$hook_ours" -v g="$hook_git" -v f="$schema" 'BEGIN {printf "hook: %.1fx git diff --cached --stat (%s staged)\n", o/g, f}'
