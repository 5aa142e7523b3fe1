// record-locale-order.mjs — records how Node.js orders ids with `localeCompare` (ICU's root
// collation, which the reference diff sorts resources, edges and parties by), for the
// comparison in src/diff/order.rs.
//
//   node scripts/record-locale-order.mjs > testdata/locale-order/cases.json
//
// Each case is a list of ids, sorted: ASCII ids, the same with accents, other scripts,
// ligatures, digits of other kinds, symbols and control characters mixed in, so ties at the
// first level are broken by accents and then by case as ICU breaks them. Deterministic: a
// fixed seed.
let seed = 20261206;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const pick = (list) => list[Math.floor(random() * list.length)];
const pieces = [
  "a", "A", "b", "B", "e", "E", "o", "O", "s", "S", "z", "Z", "0", "1", "9", "-", "_", ".", " ",
  "é", "É", "è", "ê", "ë", "á", "à", "â", "ä", "Ä", "å", "ã", "ç", "Ç", "ñ", "Ñ", "ö", "Ö", "ø",
  "ü", "Ü", "ß", "æ", "Æ", "œ", "ﬁ", "ı", "İ", "ł", "đ", "þ", "ð",
  "α", "Ω", "ж", "Я", "ש", "ع", "中", "日", "한", "ア", "あ",
  "½", "①", "²", "٣", "Ａ", "ｚ", "€", "$", "§", "©", "→", "😀", "\u0301", "\t", "\u00a0",
];
const id = () => {
  const parts = [];
  const length = 1 + Math.floor(random() * 6);
  while (parts.length < length) parts.push(random() < 0.5 ? pick(pieces.slice(0, 19)) : pick(pieces));
  return parts.join("");
};
const cases = [];
for (let n = 0; n < 120; n++) {
  const ids = Array.from({ length: pick([2, 3, 5, 10, 30, 80]) }, id);
  cases.push([...ids].sort((left, right) => left.localeCompare(right)));
}
process.stdout.write(JSON.stringify(cases) + "\n");
