#!/usr/bin/env bash
# bench-scale.sh — catalog-diff at three catalog sizes, each figure next to a git plumbing
# floor measured in the same run on the same repository. Not a test: run it by hand.
#
#   scripts/bench-scale.sh [SIZE...]      SIZE: small, medium, large (default: all three)
#
#   small   the real examples-default history (needs ../shared; skipped without it)
#   medium  generated: 2,000 messages, 200 services, 20 domains, 300 commits
#   large   generated: 10,000 messages, 1,000 services, 50 domains, 1,000 commits
#
# Generated repositories are written once by `cargo run --example generate` (deterministic,
# seed 1) and kept in target/bench-scale/. For each size it measures, as wall time (median of
# RUNS runs, default 3) and peak resident memory (one run, GNU time):
#   index    `catalog-diff index` at HEAD         vs git ls-tree | git cat-file --batch (HEAD's blobs)
#   A..B     `catalog-diff ROOT..HEAD --format json` vs cat-file --batch over both sides' blobs
#   log      `catalog-diff log --format json`      vs git log --first-parent --raw --no-renames, then
#                                                     git cat-file --batch over every changed blob
#   staged   `catalog-diff --staged`, one schema edit staged on HEAD, second run (warm cache)
#                                                  vs git diff --cached --raw
#   first    `catalog-diff --staged` for a schema edit the cache has not seen (each run stages
#            a new one first, untimed), as a pre-commit hook meets one per commit
#                                                  vs git diff --cached --raw
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
shared=${SHARED_DIR:-../shared}
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(small medium large)
out=target/bench-scale
mkdir -p "$out"

cargo build --release --quiet
bin=$PWD/target/release/catalog-diff
# A cache of its own, so runs of this script neither use nor fill the user's.
export CATALOG_DIFF_CACHE=$PWD/$out/cache
time_bin=/usr/bin/time
[ -x "$time_bin" ] || { echo "needs GNU time at /usr/bin/time (apt install time)" >&2; exit 2; }
[ -n "${EPOCHREALTIME:-}" ] || { echo "needs bash 5 or later (for EPOCHREALTIME)" >&2; exit 2; }

# median wall time in milliseconds of a command run $runs times. The clock is bash's own
# (EPOCHREALTIME, microseconds; digits only, whatever the locale's decimal mark): forking
# `date` around each run added a millisecond or two to every figure, floors included.
median_ms() {
  local times=()
  for _ in $(seq "$runs"); do
    local start end
    start=${EPOCHREALTIME//[!0-9]/}
    "$@" >/dev/null 2>&1 || true
    end=${EPOCHREALTIME//[!0-9]/}
    times+=($(( end - start )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR+1)/2)]/1000}'
}

# peak resident memory in MB of one run
peak_mb() {
  "$time_bin" -f '%M' -o "$out/rss" "$@" >/dev/null 2>&1 || true
  awk '{printf "%.0f", $1/1024}' "$out/rss"
}

# stages a new edit of schema file $2 in repository $1: a blob no run has seen
stage_new_edit() {
  sed -i "0,/{/s//{\"x-bench-${EPOCHREALTIME//[!0-9]/}\": 1, /" "$1/$2"
  git -C "$1" add "$2"
}

# median wall time in milliseconds of `--staged` runs, each for a new edit of schema file $2
first_staged_ms() {
  local times=()
  for _ in $(seq "$runs"); do
    stage_new_edit "$1" "$2"
    local start end
    start=${EPOCHREALTIME//[!0-9]/}
    "$bin" -C "$1" --staged --fail-on never >/dev/null 2>&1 || true
    end=${EPOCHREALTIME//[!0-9]/}
    times+=($(( end - start )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR+1)/2)]/1000}'
}

repo_for() {
  local size=$1 dir="$out/$1"
  case $size in
    small)
      [ -d "$shared/catalogs" ] || return 1
      [ -d "$dir" ] || git clone -q -b main "$shared/catalogs/examples-default.bundle" "$dir" ;;
    medium) [ -d "$dir" ] || cargo run --release --quiet --example generate -- "$dir" --messages 2000 --services 200 --domains 20 --commits 300 --seed 1 >/dev/null ;;
    large) [ -d "$dir" ] || cargo run --release --quiet --example generate -- "$dir" --messages 10000 --services 1000 --domains 50 --commits 1000 --seed 1 >/dev/null ;;
    *) echo "unknown size $size (small, medium, large)" >&2; exit 2 ;;
  esac
  echo "$dir"
}

blobs() { local repo=$1; shift; for rev in "$@"; do git -C "$repo" ls-tree -r --format='%(objectname)' "$rev"; done | git -C "$repo" cat-file --batch; }
changed_blobs() { git -C "$1" log --first-parent --raw --no-renames --format= HEAD | awk '$4 !~ /^0+$/ {print $4}' | sort -u | git -C "$1" cat-file --batch; }

row() { # name ours floor rss
  awk -v n="$1" -v o="$2" -v f="$3" -v m="$4" -v s="$size" \
    'BEGIN {printf "| %s | %s | %.1f ms | %.1f ms | %.1fx | %s MB |\n", s, n, o, f, o/f, m}'
}

echo "| size | measurement | catalog-diff | git floor | ratio | peak RSS |"
echo "| --- | --- | --- | --- | --- | --- |"
notes=()
for size in "${sizes[@]}"; do
  if ! repo=$(repo_for "$size"); then
    notes+=("$size: skipped, $shared/catalogs is not there")
    continue
  fi
  git -C "$repo" reset -q --hard HEAD
  root=$(git -C "$repo" rev-list --max-parents=0 HEAD)
  files=$(git -C "$repo" ls-tree -r HEAD | wc -l)
  commits=$(git -C "$repo" rev-list --first-parent --count HEAD)

  row "index ($files files)" "$(median_ms "$bin" index -C "$repo")" \
    "$(median_ms blobs "$repo" HEAD)" "$(peak_mb "$bin" index -C "$repo")"
  row "A..B (root..HEAD)" "$(median_ms "$bin" -C "$repo" "$root..HEAD" --format json --fail-on never)" \
    "$(median_ms blobs "$repo" "$root" HEAD)" "$(peak_mb "$bin" -C "$repo" "$root..HEAD" --format json --fail-on never)"
  index_ms=$(median_ms "$bin" index -C "$repo")
  log_ms=$(median_ms "$bin" log -C "$repo" --format json --fail-on never)
  row "log ($commits commits)" "$log_ms" \
    "$(median_ms changed_blobs "$repo")" \
    "$(peak_mb "$bin" log -C "$repo" --format json --fail-on never)"
  changed=$("$bin" log -C "$repo" --format json --fail-on never 2>&1 >/dev/null | sed -n 's/.*(\([0-9]*\) with changes to report).*/\1/p')
  # the walk builds its first commit whole (about one `index`), then pays per change
  notes+=("$size: log $(awk -v t="$log_ms" -v i="$index_ms" -v n="$changed" 'BEGIN {printf "%.2f", (t-i)/n}') ms per changed commit after the first whole build ($changed of $commits commits have changes to report)")

  # one schema edit staged on HEAD (undone by the reset above on the next run)
  schema=$(git -C "$repo" ls-files '*schema.json' | sed -n 1p)
  sed -i '0,/{/s//{"additionalProperties": false, /' "$repo/$schema"
  git -C "$repo" add "$schema"
  "$bin" -C "$repo" --staged --fail-on never >/dev/null 2>&1 || true   # warm the parse cache
  row "--staged (1 schema edit, warm)" "$(median_ms "$bin" -C "$repo" --staged --fail-on never)" \
    "$(median_ms git -C "$repo" diff --cached --raw)" "$(peak_mb "$bin" -C "$repo" --staged --fail-on never)"
  first_ms=$(first_staged_ms "$repo" "$schema")
  stage_new_edit "$repo" "$schema"
  row "--staged (1 new schema edit, first run)" "$first_ms" \
    "$(median_ms git -C "$repo" diff --cached --raw)" "$(peak_mb "$bin" -C "$repo" --staged --fail-on never)"
  git -C "$repo" reset -q --hard HEAD
done
echo
printf '%s\n' "${notes[@]}"
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo); median of $runs runs"
