// record-frontmatter.mjs — records what the SDK's front-matter parser (gray-matter 4.0.3 with
// js-yaml 3, as @eventcatalog/sdk 2.27.1 installs them) makes of each testdata/frontmatter case.
//
//   node scripts/record-frontmatter.mjs [CASE...]      (from the project root)
//
// For each case folder with an `input.md` (all, or the ones named), it writes `expected.json`,
// `JSON.stringify(matter(text, {}).data, null, 2)` plus a newline, when gray-matter reads the
// file. When gray-matter throws, it removes a stale `expected.json`, writes the first line of
// its message to `sdk-error.txt` and says so: the case is then an error case, whose
// `expected-error.txt` is ours (FRONTMATTER_BLESS=1 cargo test --test frontmatter_cases) and
// must name the same line (the test checks it). Front matter in JavaScript is never run: its
// engine is replaced by one that throws, and a case that reaches it is left as it is (one
// whose block is blank never does: gray-matter reads it as `{}` first). ORACLE_DIR is the
// oracle install (default target/sdk-oracle).
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";

const oracle = path.resolve(process.env.ORACLE_DIR ?? "target/sdk-oracle");
const require = createRequire(path.join(oracle, "index.mjs"));
const matter = require("gray-matter");
const root = "testdata/frontmatter";
const notRun = "JavaScript front matter, not run";
// Given as options, which also keeps gray-matter from caching by text.
const options = { engines: { javascript: { parse: () => { throw new Error(notRun); } } } };
const names = process.argv.length > 2 ? process.argv.slice(2) : fs.readdirSync(root).sort();
for (const name of names) {
  const dir = path.join(root, name);
  const input = path.join(dir, "input.md");
  if (!fs.existsSync(input)) continue;
  const text = fs.readFileSync(input, "utf8");
  const expected = path.join(dir, "expected.json");
  const sdkError = path.join(dir, "sdk-error.txt");
  try {
    const data = matter(text, options).data;
    fs.writeFileSync(expected, JSON.stringify(data, null, 2) + "\n");
    fs.rmSync(sdkError, { force: true });
  } catch (error) {
    if (error.message === notRun) {
      console.log(`${name}: ${notRun}`);
      continue;
    }
    fs.rmSync(expected, { force: true });
    const message = String(error.message).split("\n")[0];
    fs.writeFileSync(sdkError, message + "\n");
    console.log(`${name}: the SDK throws: ${message}`);
  }
}
