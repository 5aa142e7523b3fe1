// Runs the established API diff tools over every specification fixture
// (testdata/{asyncapi,openapi}/<kind>/<case>/) and prints, as JSON, what each says: breaking
// (true), not breaking (false) or no verdict (null), with the counts behind it. Started by
// record.sh, which installs the tools; see there. Reads only the fixtures, writes only stdout.
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = process.argv[2];
const tools = process.env.TOOLS;
const require = createRequire(path.join(tools, 'package.json'));
const yaml = require('js-yaml');
const openapiDiff = require('openapi-diff');
const smartDiff = require('api-smart-diff');
const bin = (name) => path.join(tools, 'node_modules', '.bin', name);
const version = (name) =>
  JSON.parse(fs.readFileSync(path.join(tools, 'node_modules', name, 'package.json'), 'utf8')).version;

function cases(spec) {
  const out = [];
  const base = path.join(root, 'testdata', spec);
  for (const kind of fs.readdirSync(base).sort()) {
    for (const name of fs.readdirSync(path.join(base, kind)).sort()) {
      const dir = path.join(base, kind, name);
      const files = fs.readdirSync(dir);
      const before = files.find((f) => f.startsWith('before.'));
      const after = files.find((f) => f.startsWith('after.'));
      out.push({ key: `${spec}/${kind}/${name}`, dir, before, after });
    }
  }
  return out;
}

// true when something breaks, false when the tool judged every change, null when it could not.
function verdict(counts) {
  if (counts.breaking > 0) return true;
  if (counts.unclassified > 0 && counts.other === 0) return null;
  return false;
}

async function withOpenapiDiff(c) {
  const read = (f) => fs.readFileSync(path.join(c.dir, f), 'utf8');
  try {
    const result = await openapiDiff.diffSpecs({
      sourceSpec: { content: read(c.before), location: c.before, format: 'openapi3' },
      destinationSpec: { content: read(c.after), location: c.after, format: 'openapi3' },
    });
    const counts = {
      breaking: result.breakingDifferences?.length ?? 0,
      other: result.nonBreakingDifferences?.length ?? 0,
      unclassified: result.unclassifiedDifferences?.length ?? 0,
    };
    return { verdict: verdict(counts), ...counts };
  } catch (error) {
    return { verdict: null, error: String(error.message ?? error).split('\n')[0].slice(0, 160) };
  }
}

function withOptic(c) {
  // In a folder of its own: optic writes a report file into the folder it runs in.
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'optic-'));
  const files = [c.before, c.after].map((f) => path.join(c.dir, f));
  const run = spawnSync(bin('optic'), ['diff', ...files, '--check'], {
    cwd: scratch,
    encoding: 'utf8',
    env: { ...process.env, OPTIC_TELEMETRY_LEVEL: 'off', CI: 'true' },
  });
  const text = `${run.stdout}\n${run.stderr}`;
  const checks = text.match(/Checks: (\d+)\/(\d+) passed/);
  if (!checks) {
    const changed = /Operations: .*(changed|added|removed)/.test(text);
    if (run.status === 0 && !/error/i.test(run.stderr)) {
      return { verdict: changed ? null : false, note: 'no checks ran' };
    }
    return { verdict: null, error: text.trim().split('\n').slice(-1)[0]?.slice(0, 160) };
  }
  const [passed, total] = [Number(checks[1]), Number(checks[2])];
  return { verdict: passed < total, passed, total };
}

function withSmartDiff(c) {
  const load = (f) => yaml.load(fs.readFileSync(path.join(c.dir, f), 'utf8'));
  try {
    const { diffs } = smartDiff.apiCompare(load(c.before), load(c.after));
    const counts = { breaking: 0, other: 0, unclassified: 0 };
    for (const diff of diffs) {
      if (diff.type === 'breaking') counts.breaking++;
      else if (diff.type === 'unclassified') counts.unclassified++;
      else counts.other++;
    }
    return { verdict: verdict(counts), ...counts };
  } catch (error) {
    return { verdict: null, error: String(error.message ?? error).split('\n')[0].slice(0, 160) };
  }
}

function withAsyncapiCli(c) {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'asyncapi-diff-')), 'diff.json');
  const run = spawnSync(
    bin('asyncapi'),
    ['diff', c.before, c.after, '--format', 'json', '--type', 'all', '--no-error', '-s', out],
    { cwd: c.dir, encoding: 'utf8', env: { ...process.env, SUPPRESS_NO_CONFIG_WARNING: 'y' } },
  );
  if (!fs.existsSync(out)) {
    const lines = `${run.stdout}\n${run.stderr}`.split('\n').filter((l) => l.trim() && !l.startsWith('WARNING'));
    return { verdict: null, error: (lines[0] ?? 'no output').slice(0, 160) };
  }
  const result = JSON.parse(fs.readFileSync(out, 'utf8'));
  const counts = { breaking: 0, other: 0, unclassified: 0 };
  for (const change of result.changes ?? []) {
    if (change.type === 'breaking') counts.breaking++;
    else if (change.type === 'unclassified') counts.unclassified++;
    else counts.other++;
  }
  return { verdict: verdict(counts), ...counts };
}

const record = {
  tools: {
    '@asyncapi/cli': version('@asyncapi/cli'),
    'openapi-diff': version('openapi-diff'),
    '@useoptic/optic': version('@useoptic/optic'),
    'api-smart-diff': version('api-smart-diff'),
  },
  cases: {},
};
for (const c of cases('openapi')) {
  record.cases[c.key] = {
    'openapi-diff': await withOpenapiDiff(c),
    optic: withOptic(c),
    'api-smart-diff': withSmartDiff(c),
  };
}
for (const c of cases('asyncapi')) {
  const entry = { 'asyncapi-cli': withAsyncapiCli(c) };
  if (c.key.includes('/v2-')) entry['api-smart-diff'] = withSmartDiff(c);
  record.cases[c.key] = entry;
}
// Tools name files by absolute path in their errors; the record names them from the repository.
const text = JSON.stringify(record, null, 2).split(`${root}/`).join('');
process.stdout.write(`${text}\n`);
