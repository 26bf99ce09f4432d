// Writes engine/sources/collation.txt: the order ICU's root collation (what Claude Code's
// `a.localeCompare(b)` uses; Node's ICU agrees with the binary on tests/oracle/cases/listing/
// order_scripts) gives each single code point, level by level. Run: node tests/oracle/make_collation.js
//
// A line of the table is a run of entries in collation order; an entry is a level digit and a
// code point in hex: 1 a new base letter (primary), 2 a new accent (secondary), 3 a new case or
// form (tertiary), 0 no difference at all from the one before. `1xxxx-yyyy` is a run of code
// points, each a new base letter. Code points whose compatibility decomposition (not a canonical one) is longer than
// one character (ﬁ, ½, ™, Hangul syllables) are left out: skilldeck weighs their decomposition.
// The `ignorable` line lists the code points ICU gives no weight at all.
"use strict";
const fs = require("fs");
const path = require("path");
const ranges = [[0x00, 0xd7ff], [0xf900, 0xfffd], [0x10000, 0x1faff], [0x20000, 0x2a6df]];
const compare = (sensitivity) => new Intl.Collator("en", { sensitivity }).compare;
const base = compare("base"), accent = compare("accent"), full = compare("variant");
const chars = [], ignorable = [];
for (const [lo, hi] of ranges) {
  for (let c = lo; c <= hi; c++) {
    const s = String.fromCodePoint(c);
    if (/\p{Cn}|\p{Cs}|\p{Co}/u.test(s) || (s.normalize("NFD") === s && [...s.normalize("NFKD")].length > 1)) continue;
    if (full(s, "") === 0) ignorable.push(c);
    else chars.push(s);
  }
}
chars.sort((a, b) => full(a, b) || a.codePointAt(0) - b.codePointAt(0));
const entries = chars.map((s, i) => {
  const prev = chars[i - 1];
  const level = i === 0 ? 1 : base(prev, s) ? 1 : accent(prev, s) ? 2 : full(prev, s) ? 3 : 0;
  return [level, s.codePointAt(0)];
});
const hex = (n) => n.toString(16);
const parts = [];
for (let i = 0; i < entries.length; ) {
  let j = i;
  while (entries[i][0] === 1 && j + 1 < entries.length && entries[j + 1][0] === 1 && entries[j + 1][1] === entries[j][1] + 1) j++;
  parts.push(`${entries[i][0]}${hex(entries[i][1])}` + (j > i ? `-${hex(entries[j][1])}` : ""));
  i = j + 1;
}
const spans = [];
for (let i = 0; i < ignorable.length; ) {
  let j = i;
  while (j + 1 < ignorable.length && ignorable[j + 1] === ignorable[j] + 1) j++;
  spans.push(hex(ignorable[i]) + (j > i ? `-${hex(ignorable[j])}` : ""));
  i = j + 1;
}
const lines = [];
for (let i = 0; i < parts.length; i += 16) lines.push(parts.slice(i, i + 16).join(" "));
const out = path.join(__dirname, "..", "..", "engine", "sources", "collation.txt");
fs.writeFileSync(out, `# ICU ${process.versions.icu}, Unicode ${process.versions.unicode}: made by tests/oracle/make_collation.js\nignorable ${spans.join(" ")}\n${lines.join("\n")}\n`);
console.log(out, entries.length, "entries");
