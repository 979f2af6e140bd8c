/**
 * The weights of MySQL's utf8_general_ci as searchd uses them (src/collation.cpp sphCollationInit): each
 * BMP code point compares as its weight, which is the upper case of its base letter for the planes
 * U+00xx-U+05xx, U+1Exx and U+1Fxx (accents dropped: 'é' and 'E' weigh the same; 'ß' weighs 'S'), the
 * upper case for the small Roman numerals, circled letters and fullwidth letters, and the code point itself
 * everywhere else. The table is derived here from the Unicode data the runtime carries (NFD and upper
 * case), limited to what that older table knows: case pairs Unicode added later (Latin Extended-B's end,
 * IPA letters given capitals since, Greek and Cyrillic additions, U+1EFA-U+1EFF) keep their own code
 * point, singleton decompositions (Greek oxia forms, U+0340) are not followed, a decomposition whose base
 * is not a letter (U+0385) is not either, and 'й' keeps its breve. Checked against the 2048 entries of
 * searchd's table for those eight planes.
 */
const LETTER = /\p{L}/u;

/** Case pairs and letters newer than the table: their weight is their own code point. */
function newer(cp: number): boolean {
  return cp >= 0x2c00 || cp === 0x220 || (cp >= 0x234 && cp <= 0x24f) || (cp >= 0x500 && cp <= 0x52f)
    || (cp >= 0x370 && cp <= 0x37f) || (cp >= 0x3f3 && cp <= 0x3ff) || (cp >= 0x1efa && cp <= 0x1eff)
    || (cp >= 0x3cf && cp <= 0x3d9 && ![0x3d0, 0x3d1, 0x3d2, 0x3d3, 0x3d4, 0x3d5, 0x3d6].includes(cp))
    || cp === 0x48a || cp === 0x48b || (cp >= 0x4c5 && cp <= 0x4cf && ![0x4c7, 0x4c8, 0x4cb, 0x4cc].includes(cp))
    || (cp >= 0x4f6 && cp <= 0x4ff && cp !== 0x4f8 && cp !== 0x4f9);
}

function weightOf(cp: number): number {
  if (cp === 0xdf) return 0x53; // ß
  if (cp === 0x3f2) return 0x3a3; // lunate sigma
  if (cp === 0x439) return 0x419; // й
  const ch = String.fromCodePoint(cp);
  const parts = [...ch.normalize('NFD')];
  let base = cp;
  if (parts.length > 1 && LETTER.test(parts[0]!) && ch.normalize('NFC') === ch && cp !== 0x419) base = parts[0]!.codePointAt(0)!;
  const upper = [...String.fromCodePoint(base).toUpperCase()];
  const w = upper.length === 1 ? upper[0]!.codePointAt(0)! : base;
  return newer(w) || newer(cp) ? cp : w;
}

let table: Uint16Array | undefined;

/** Weight by UTF-16 code unit (surrogates weigh themselves), built on first use. */
export function utf8GeneralWeights(): Uint16Array {
  if (table) return table;
  const t = new Uint16Array(0x10000);
  for (let i = 0; i < 0x10000; i++) t[i] = i;
  for (const plane of [0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x1e, 0x1f]) {
    for (let i = 0; i < 0x100; i++) t[plane * 0x100 + i] = weightOf(plane * 0x100 + i);
  }
  for (let i = 0x2170; i <= 0x217f; i++) t[i] = i - 16; // small Roman numerals
  for (let i = 0x24d0; i <= 0x24e9; i++) t[i] = i - 26; // circled small letters
  for (let i = 0xff41; i <= 0xff5a; i++) t[i] = i - 32; // fullwidth small letters
  return (table = t);
}
