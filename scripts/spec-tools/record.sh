#!/usr/bin/env bash
# Record what established API diff tools say about our specification fixtures, to compare
# catalog-diff's verdicts with theirs (tests/spec_tools.rs reads the record). Run by hand when a
# fixture or a tool version changes; never run by the tests or CI (it needs npm and the network).
#
#   scripts/spec-tools/record.sh            # writes testdata/spec-tools.json
#
# Tools (pinned; installed into a temporary folder, never into the repository):
#   @asyncapi/cli `diff`   AsyncAPI 2.x and 3.x structure and payloads
#   openapi-diff           OpenAPI 3.0 (cannot read 3.1; ignores enums and parameters)
#   @useoptic/optic        OpenAPI 3.0 and 3.1, `optic diff --check` with its default rules
#   api-smart-diff         OpenAPI 3.x and AsyncAPI 2.x
# Each verdict is true (breaking), false (not breaking) or null (the tool could not judge the
# pair: it refused a file, or only reported unclassified changes).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
tools="${SPEC_TOOLS_DIR:-$(mktemp -d)}"
export HOME="$tools/home"   # keeps the AsyncAPI CLI's settings (analytics off) out of yours
mkdir -p "$HOME"
if [ ! -x "$tools/node_modules/.bin/asyncapi" ]; then
  (cd "$tools" && npm init -y >/dev/null \
    && npm install --no-audit --no-fund --silent \
      @asyncapi/cli@6.2.0 openapi-diff@0.24.1 @useoptic/optic@1.0.9 api-smart-diff@1.0.6 js-yaml@4)
fi
"$tools/node_modules/.bin/asyncapi" config analytics --disable >/dev/null 2>&1 || true
# Written beside the record and moved over it, so the record is never seen half written.
NODE_PATH="$tools/node_modules" TOOLS="$tools" node "$root/scripts/spec-tools/record.mjs" "$root" > "$root/testdata/spec-tools.json.new"
mv "$root/testdata/spec-tools.json.new" "$root/testdata/spec-tools.json"
echo "wrote testdata/spec-tools.json"
