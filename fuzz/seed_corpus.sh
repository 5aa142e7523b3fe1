#!/bin/sh
# Seed each fuzz target's corpus from the project's own test data (run from anywhere):
#   schema_compare  before, a 0xFF separator, after, from testdata/json-schema/<kind>/<case>/
#   frontmatter     every file of testdata/frontmatter/ and the Markdown of testdata/index/
#   version         versions and ranges the conformance data uses
#   index_build     each testdata/index case's files, 0xFF-separated, in the target's path order
#   spec_compare    before, a 0xFF separator, after, from testdata/{asyncapi,openapi}/<kind>/<case>/
set -eu
cd "$(dirname "$0")"
mkdir -p corpus/schema_compare corpus/frontmatter corpus/version corpus/index_build \
  corpus/avro_compare corpus/proto_compare corpus/spec_compare
for before in ../testdata/avro/*/*/before.avsc; do
  case=$(dirname "$before")
  { cat "$before"; printf '\377'; cat "$case/after.avsc"; } > "corpus/avro_compare/$(basename "$case")"
done
for before in ../testdata/protobuf/*/*/before.proto; do
  case=$(dirname "$before")
  { cat "$before"; printf '\377'; cat "$case/after.proto"; } > "corpus/proto_compare/$(basename "$case")"
done
for before in ../testdata/json-schema/*/*/before.json; do
  case=$(dirname "$before")
  { cat "$before"; printf '\377'; cat "$case/after.json"; } > "corpus/schema_compare/$(basename "$case")"
done
n=0
for file in $(find ../testdata/frontmatter ../testdata/index -type f \( -name '*.md' -o -name '*.mdx' -o -name 'input*' \)); do
  n=$((n + 1)); cp "$file" "corpus/frontmatter/seed-$n"
done
n=0
for text in 1.0.0 v2.1.3 1.0.0-beta.1 '^1.0.0' '~2.3' '>=1.2.3 <2.0.0' '1.x || 3 - 4' latest '*' 0.0.1+build; do
  n=$((n + 1)); printf '%s' "$text" > "corpus/version/seed-$n"
done
for case in ../testdata/index/*/catalog; do
  event=$(find "$case" -path '*events*' -name 'index.md*' | head -n 1)
  service=$(find "$case" -path '*services*' -name 'index.md*' | head -n 1)
  {
    [ -n "$event" ] && cat "$event"; printf '\377'
    [ -n "$event" ] && cat "$(dirname "$event")/schema.json" 2>/dev/null; printf '\377\377'
    [ -n "$service" ] && cat "$service"; printf '\377'
  } > "corpus/index_build/$(basename "$(dirname "$case")")" || true
done
for before in ../testdata/asyncapi/*/*/before.* ../testdata/openapi/*/*/before.*; do
  case=$(dirname "$before")
  { cat "$before"; printf '\377'; cat "$case"/after.*; } > "corpus/spec_compare/$(basename "$(dirname "$case")")-$(basename "$case")"
done
echo "corpus seeded: $(find corpus -type f | wc -l) files"
