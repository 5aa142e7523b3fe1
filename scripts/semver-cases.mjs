#!/usr/bin/env node
// Writes the node-semver truth table that tests/resolve_conformance.rs checks
// src/catalog/version.rs against. Uses the semver copy the SDK oracle installed:
//   ORACLE_DIR=/tmp/sdk-oracle node scripts/semver-cases.mjs > testdata/resolve/semver-cases.json
import { createRequire } from 'node:module';
import path from 'node:path';

const oracle = process.env.ORACLE_DIR ?? '/tmp/sdk-oracle';
const semver = createRequire(path.join(oracle, 'package.json'))('semver');

const versions = [
  '1.2.3', 'v1.2.3', ' 1.2.3 ', '\t1.2.3\n', '=1.2.3', 'V1.2.3', 'vv1.2.3', 'v 1.2.3',
  '1.0', '1', '1.0.0.0', '01.0.0', '1.01.0', '1.0.01', '0.0.0', '0.0.0-0',
  '1.0.0-alpha', '1.0.0-alpha.1', '1.0.0-alpha.beta', '1.0.0-beta', '1.0.0-beta.2',
  '1.0.0-beta.11', '1.0.0-rc.1', '1.0.0', '1.0.0+build', '1.0.0+b.1', '1.0.0-01',
  '1.0.0-0a', '1.0.0--', '1.0.0-a-b', '1.0.0-', '1.0.0+', '1.0.0-a..b', '1.0.0+a..b',
  '1.0.0+001', '2.0.0-beta.1', '1.5.0', 'v1.5.0', '10.0.0', '9.0.0', '2.0', '10.0',
  '9007199254740991.0.0', '9007199254740992.0.0', '1.0.0-9007199254740993',
  '1.0.0-9007199254740992', '1.0.0-x.7.z.92', '1.2.3-beta.a', '1.2.3-beta.1',
  'latest', '', ' ', '1.2.3 ', '\u00a01.0.0', '\ufeff1.0.0', '\u00851.0.0', '1.2.3-é',
  '0.1.0', '0.0.1', '0.0.2', '1.3.0', '2.0.0', '3.0.0', '1.2.4-alpha', '1.2.3-pr.2',
];

const ranges = [
  '', ' ', '*', 'x', 'X', '1', '1.x', '1.2.*', '1.x.x', '1.2', '^1.0.0', '^1.0', '^1',
  '^0.1.0', '^0.0.1', '^0.0', '^0', '^1.2.3-beta.1', '^0.0.1-a', '^0.1.2-a', '~1.2', '~1.2.3',
  '~1', '~0.0.1', '~>1.2.3', '~> 1.2', '~ 1.2', '^ 1.2', '~1.2.3-beta', '>=1.0.0 <2.0.0',
  '>=1.0.0 <1.5.0', '> 1.0.0', '>= 1.0.0', '<=1.2', '<1.2', '>1.2', '>1', '<1', '>*', '<*',
  '>=*', '<=1.x', '=1.x', '=1.2.3', '==1.2.3', 'v1.2.3', '=v1.2.3', '1.0.0 - 2.0.0',
  '1.2 - 2.3', '1 - 2', '1.0.0 - 2.0.0-beta', 'v1.0.0 - v2.0.0', '* - 2.0.0', '1.0.0 - *',
  '1.0.0 || 2.0.0', '1.0.0||2.0.0', '^1.0.0 || ^2.0.0', '1.0.0 ||', '|| 1.0.0', '<0.0.0-0',
  '<0.0.0-0 || 1.0.0', '1.5.0', '3.0.0', 'garbage', '^1.0.0-', '1.0.0+build', '^1.2.3+b',
  '>=1.0.0+b.1', '>=0.0.0', '>=0.0.0-0', '>=2.0.0-beta.1', '2.0.0-beta.1', '>1.0.0-alpha',
  '^2.0.0-0', '1.2.3-pr.1 - 1.2.3-pr.9', '>=1.2.3-pr.1 <2.0.0', '01.0.0', '^01.0.0', '**',
  '1.2.3.4', '1.*.3', '1.x.3', 'latest', '^latest', '1.0', '1.2.3 1.2.4', '>=1 <=2',
  '>= 1 <= 2', '> = 1', '^9007199254740991.0.0', '~9007199254740991.1', '9007199254740992',
  '<=9007199254740991', '>1.2.3 <1.2.5', '~v1.2', '^=1.2.3', 'x.x.x', '1.X', '  ^1.0.0  ',
  '1.0.0\t-\t2.0.0', '1.0.0 -2.0.0', '1.0.0- 2.0.0', '^1.0.0 ^2.0.0', '>=1.0.0 * <2.0.0',
];

// Plus fuzz-like ranges from a fixed-seed generator, so odd token mixes are covered too.
let seed = 20261202;
const rand = (n) => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
};
const pieces = ['1', '2', '0', '10', '.', '.', 'x', '*', '^', '~', '~>', '>', '<', '=', ' ', ' ',
  '-', ' - ', '||', 'v', 'beta', '+b', '-0', '1.2.3', '2.0.0-beta.1', '01'];
for (let i = 0; i < 600; i++) {
  let r = '';
  const len = 1 + rand(7);
  for (let j = 0; j < len; j++) r += pieces[rand(pieces.length)];
  ranges.push(r);
}

const out = {
  versions: versions.map((input) => ({ input, valid: semver.valid(input) })),
  compare: [],
  ranges: [],
};
const valid = versions.filter((v) => semver.valid(v));
for (const a of valid) for (const b of valid) out.compare.push([a, b, semver.compare(a, b)]);
for (const range of ranges) {
  const normal = semver.validRange(range);
  out.ranges.push({
    range,
    valid: normal !== null,
    satisfied: normal === null ? [] : valid.filter((v) => semver.satisfies(v, range)),
  });
}
// The SDK's own comparators (dist/index.mjs of 2.27.1), copied verbatim; `null` below = absent.
const compareText = (left, right) => (left < right ? -1 : left > right ? 1 : 0);
const compareVersions = (left, right) => {
  if (left === right) return 0;
  if (left === void 0) return 1;
  if (right === void 0) return -1;
  if (semver.valid(left) && semver.valid(right)) return semver.rcompare(left, right);
  return compareText(right, left);
};
const isHigherVersion = (candidate, current) => {
  if (candidate === current || candidate === void 0) return false;
  if (current === void 0) return true;
  if (semver.valid(candidate) && semver.valid(current)) return semver.gt(candidate, current);
  return compareText(candidate, current) > 0;
};
const mixed = [null, '1.0.0', 'v1.0.0', '1.0.0+b', '2.0.0', '10.0.0', '1.0.0-beta', '2.0', '10.0',
  '1.0', 'latest', '', 'Z', 'a', '\u{10000}', '\uffff', '0.0.1'];
const undef = (v) => (v === null ? undefined : v);
out.indexOrder = [];
out.isHigher = [];
for (const a of mixed) {
  for (const b of mixed) {
    out.indexOrder.push([a, b, Math.sign(compareVersions(undef(a), undef(b)))]);
    out.isHigher.push([a, b, isHigherVersion(undef(a), undef(b))]);
  }
}
process.stdout.write(`${JSON.stringify(out, null, 1)}\n`);
