#!/bin/sh
# Seed the fuzz corpus from the case folders: before.json, a 0xFF separator, after.json.
cd "$(dirname "$0")" && mkdir -p corpus/schema_compare || exit 1
for before in ../testdata/json-schema/*/before.json; do
  name=$(basename "$(dirname "$before")")
  { cat "$before"; printf '\377'; cat "$(dirname "$before")/after.json"; } > "corpus/schema_compare/$name"
done
