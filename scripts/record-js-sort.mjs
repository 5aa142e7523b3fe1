// record-js-sort.mjs — records how Node.js's Array.prototype.sort orders arrays under a
// comparator that is no consistent order, for the TimSort in src/catalog/js_sort.rs.
//
//   node scripts/record-js-sort.mjs > testdata/js-sort/cases.json
//
// The comparator is the SDK's `compareText` (`a < b ? -1 : a > b ? 1 : 0`) on JSON values that
// mix text, numbers and null, as front matter can: JavaScript's `<` between text that is no
// number and anything numeric is false both ways, so such values tie with everything. Arrays
// are built of sorted and reversed stretches with noise, so runs, merges and galloping all
// happen. Deterministic: a fixed seed.
let seed = 20261206;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const pick = (list) => list[Math.floor(random() * list.length)];
const value = () => {
  const r = random();
  if (r < 0.35) return Math.floor(random() * 50);
  if (r < 0.6) return String(Math.floor(random() * 50));
  if (r < 0.85) return pick(["a", "b", "c", "1.0.0", "2.0", "x", "Zeta", ""]);
  return null;
};
const compareText = (left, right) => (left < right ? -1 : left > right ? 1 : 0);
const cases = [];
for (let n = 0; n < 160; n++) {
  const length = pick([0, 1, 2, 3, 5, 8, 20, 40, 63, 64, 65, 100, 130, 200, 300, 500]);
  const values = [];
  while (values.length < length) {
    const stretch = Array.from({ length: 1 + Math.floor(random() * 40) }, value);
    const shape = random();
    if (shape < 0.4) stretch.sort(compareText);
    else if (shape < 0.6) stretch.sort(compareText).reverse();
    values.push(...stretch);
  }
  values.length = length;
  const order = values
    .map((v, i) => ({ v, i }))
    .sort((a, b) => compareText(a.v, b.v))
    .map((x) => x.i);
  cases.push({ values, order });
}
process.stdout.write(JSON.stringify(cases) + "\n");
