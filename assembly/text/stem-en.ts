// stem_en in the core: src/text/stem-en.ts step for step (Manticore's sphinxstemen.cpp, Snowball's
// pre-2011 English with Sphinx's quirks), for ASCII words only (a word with any other unit is left to
// the host's stemmer). The scanner's new token ids are stemmed here in one call a run (stemIds): the
// host's stemmer was ~0.5 us of each distinct token of a bulk load, with the strings it made.

import { arena, scanKeyLengths, scanKeyOffsets } from "./scan-ids";

/** Zero bytes before the word: the steps peek a few bytes left of short words. */
const GUARD: usize = 8;
/** Longer words are left to the host (far above any scanned token: 42 code points). */
const MAX_STEM_UNITS: i32 = 64;
const W: usize = memory.data(<i32>GUARD + MAX_STEM_UNITS + <i32>GUARD);

const a: u32 = 0x61, c: u32 = 0x63, d: u32 = 0x64, e: u32 = 0x65, g: u32 = 0x67, i_: u32 = 0x69, l: u32 = 0x6c;
const m: u32 = 0x6d, n: u32 = 0x6e, o: u32 = 0x6f, r: u32 = 0x72, s: u32 = 0x73, t: u32 = 0x74, u: u32 = 0x75;
const y: u32 = 0x79, Y: u32 = 0x59;

/** The lowest byte put() wrote since the word was loaded. */
let firstPut: i32 = 0;

@inline function at(i: i32): u32 {
  return <u32>load<u8>(W + GUARD + <usize>i);
}
@inline function put(i: i32, ch: u32): void {
  store<u8>(W + GUARD + <usize>i, <u8>ch);
  if (i < firstPut) firstPut = i;
}
/** a e i o u y (a consonant 'y' is marked 'Y'). */
@inline function isVowel(ch: u32): bool {
  return ch == a || ch == e || ch == i_ || ch == o || ch == u || ch == y;
}
@inline function vowelAt(i: i32): bool {
  return isVowel(at(i));
}
/** Not a vowel, nor w, x or Y: what may end a short syllable. */
@inline function plainConsonant(ch: u32): bool {
  return !isVowel(ch) && ch != 0x77 && ch != 0x78 && ch != Y;
}
/** b d f g m n p r t: doubled letters undone after -ed / -ing. */
@inline function isDouble(ch: u32): bool {
  return ch == 0x62 || ch == d || ch == 0x66 || ch == g || ch == m || ch == n || ch == 0x70 || ch == r || ch == t;
}

/** The first `len` bytes end with the ASCII `sfx` (its bytes as a little-endian u64, `k` of them). */
function ends(len: i32, sfx: u64, k: i32): bool {
  if (len < k) return false;
  for (let j = 0; j < k; j++) if (at(len - k + j) != <u32>((sfx >> (<u64>j << 3)) & 0xff)) return false;
  return true;
}
/** The word is exactly `word` (packed as ends() takes it). */
@inline function wordIs(len: i32, word: u64, k: i32): bool {
  return len == k && ends(len, word, k);
}
/** Packs up to 8 ASCII letters into a u64 for ends() (compile-time strings). */
@inline function pk(sfx: string): u64 {
  let v: u64 = 0;
  for (let j = sfx.length - 1; j >= 0; j--) v = (v << 8) | <u64>sfx.charCodeAt(j);
  return v;
}
/** Writes `add` (packed, `k` bytes) at byte `at0`. */
function putPacked(at0: i32, add: u64, k: i32): void {
  for (let j = 0; j < k; j++) put(at0 + j, <u32>((add >> (<u64>j << 3)) & 0xff));
}

/** Whole-word exceptions; the new length, or -1 when the word is none of them. */
function exception(len: i32): i32 {
  if (len == 3) {
    if (wordIs(3, pk("the"), 3) || wordIs(3, pk("and"), 3) || wordIs(3, pk("you"), 3) || wordIs(3, pk("for"), 3)
      || wordIs(3, pk("her"), 3) || wordIs(3, pk("she"), 3) || wordIs(3, pk("but"), 3) || wordIs(3, pk("had"), 3)
      || wordIs(3, pk("sky"), 3)) return 3;
    if (wordIs(3, pk("was"), 3) || wordIs(3, pk("his"), 3)) return 2;
    return -1;
  }
  if (len < 4 || len > 8) return -1;
  if (len == 4 && (wordIs(4, pk("that"), 4) || wordIs(4, pk("with"), 4) || wordIs(4, pk("said"), 4)
    || wordIs(4, pk("from"), 4) || wordIs(4, pk("news"), 4) || wordIs(4, pk("howe"), 4))) return 4;
  const last = at(len - 1);
  if (last != s && last != y && last != g && last != d) return -1;
  if ((last == d || last == g) && (wordIs(len, pk("proceed"), 7) || wordIs(len, pk("exceed"), 6) || wordIs(len, pk("succeed"), 7)
    || wordIs(len, pk("inning"), 6) || wordIs(len, pk("outing"), 6) || wordIs(len, pk("canning"), 7))) return len;
  if (last == g && (wordIs(len, pk("dying"), 5) || wordIs(len, pk("lying"), 5) || wordIs(len, pk("tying"), 5))) {
    put(1, i_);
    put(2, e);
    return 3;
  }
  if (last == s && wordIs(len, pk("skies"), 5)) { put(2, y); return 3; }
  if (last != s && last != y) return -1;
  if (wordIs(len, pk("innings"), 7) || wordIs(len, pk("outings"), 7) || wordIs(len, pk("cannings"), 8)
    || wordIs(len, pk("idly"), 4) || wordIs(len, pk("gently"), 6) || wordIs(len, pk("singly"), 6)) return len - 1;
  if (wordIs(len, pk("ugly"), 4) || wordIs(len, pk("early"), 5) || wordIs(len, pk("only"), 4)) { put(len - 1, i_); return len; }
  return -1;
}

/** Marks consonant y's as 'Y': a leading y, and a y after a vowel. Whether any was marked. */
function markConsonantY(len: i32): bool {
  let marked = false;
  if (at(0) == y) { put(0, Y); marked = true; }
  for (let k = 1; k < len; k++) {
    if (at(k) == y && vowelAt(k - 1)) { put(k, Y); marked = true; }
  }
  return marked;
}

/** End of the first vowel-consonant pair searched from `from` (R1 / R2's start). */
function regionAfter(from: i32, len: i32): i32 {
  let k = from;
  while (k < len - 2 && !(vowelAt(k) && !vowelAt(k + 1))) k++;
  return k + 2;
}

function step1a(len: i32): i32 {
  const last = at(len - 1);
  const ie = at(len - 3) == i_ && at(len - 2) == e;
  if (last == d) return ie ? (len == 4 ? 3 : len - 2) : len;
  if (last != s) return len;
  if (ends(len, pk("sses"), 4)) return len - 2;
  if (ie) return len == 4 ? 3 : len - 2;
  const prev = at(len - 2);
  return prev != u && prev != s ? len - 1 : len;
}

function step1b(len: i32, firstVowel: i32, r1: i32): i32 {
  let cut = 0;
  if (ends(len, pk("eed"), 3)) return len - 3 >= r1 ? len - 1 : len;
  if (ends(len, pk("ed"), 2)) cut = 2;
  else if (ends(len, pk("eedly"), 5)) return len - 5 >= r1 ? len - 3 : len;
  else if (ends(len, pk("edly"), 4)) cut = 4;
  else if (ends(len, pk("ingly"), 5)) cut = 5;
  else if (ends(len, pk("ing"), 3)) cut = 3;
  if (cut == 0 || firstVowel >= len - cut) return len;
  len -= cut;
  if (ends(len, pk("at"), 2) || ends(len, pk("bl"), 2) || ends(len, pk("iz"), 2)) {
    put(len, e);
    return len + 1;
  }
  if (len >= 2 && at(len - 1) == at(len - 2) && isDouble(at(len - 1))) return len - 1;
  const shortTwo = len == 2 && vowelAt(0) && !vowelAt(1);
  const shortAtR1 = len == r1 && !vowelAt(len - 3) && vowelAt(len - 2) && plainConsonant(at(len - 1));
  if (shortTwo || shortAtR1) {
    put(len, e);
    return len + 1;
  }
  return len;
}

function step1c(len: i32): void {
  const last = at(len - 1);
  if (len > 2 && (last == y || last == Y) && !vowelAt(len - 2)) put(len - 1, i_);
}

/** Replaces the last `drop` bytes of `len` with `add` (`k` bytes), if the suffix starts inside `region`. */
function swapIn(len: i32, drop: i32, add: u64, k: i32, region: i32): i32 {
  if (len - drop < region) return len;
  putPacked(len - drop, add, k);
  return len - drop + k;
}

function step2i(len: i32, r1: i32): i32 {
  const p = at(len - 2);
  if (len >= 3 && (p == c || p == l || p == t)) {
    if (ends(len, pk("enci"), 4)) return swapIn(len, 4, pk("ence"), 4, r1);
    if (ends(len, pk("anci"), 4)) return swapIn(len, 4, pk("ance"), 4, r1);
    if (ends(len, pk("abli"), 4)) return swapIn(len, 4, pk("able"), 4, r1);
    if (ends(len, pk("bli"), 3)) return swapIn(len, 3, pk("ble"), 3, r1);
    if (ends(len, pk("entli"), 5)) return swapIn(len, 5, pk("ent"), 3, r1);
    if (ends(len, pk("aliti"), 5)) return swapIn(len, 5, pk("al"), 2, r1);
    if (ends(len, pk("ousli"), 5)) return swapIn(len, 5, pk("ous"), 3, r1);
    if (ends(len, pk("iviti"), 5)) return swapIn(len, 5, pk("ive"), 3, r1);
    if (ends(len, pk("biliti"), 6)) return swapIn(len, 6, pk("ble"), 3, r1);
    if (ends(len, pk("fulli"), 5)) return swapIn(len, 5, pk("ful"), 3, r1);
    if (ends(len, pk("lessli"), 6)) return swapIn(len, 6, pk("less"), 4, r1);
  }
  if (len - 3 >= r1 && ends(len, pk("ogi"), 3)) return len - 1;
  if (!(len - 2 >= r1 && p == l)) return len;
  const stem = len - 2;
  if (stem - 2 >= r1 && ends(stem, pk("al"), 2)) {
    if (stem - 7 >= r1 && ends(stem - 2, pk("ation"), 5)) return swapIn(stem - 2, 5, pk("ate"), 3, 0);
    return ends(stem - 2, pk("tion"), 4) ? stem - 2 : stem;
  }
  // -li goes after these letters only (Sphinx's list includes 'b'): b c d e g h k m n r t
  const q = at(stem - 1);
  return q == 0x62 || q == c || q == d || q == e || q == g || q == 0x68 || q == 0x6b || q == m || q == n || q == r || q == t ? stem : len;
}

function step2(len: i32, r1: i32): i32 {
  if (len - 2 < r1) return len;
  const last = at(len - 1);
  if (last == i_) return step2i(len, r1);
  if (last == l) {
    if (ends(len, pk("ational"), 7)) return swapIn(len, 7, pk("ate"), 3, r1);
    if (ends(len, pk("tional"), 6)) return swapIn(len, 6, pk("tion"), 4, r1);
    return len;
  }
  if (last == m) return ends(len, pk("alism"), 5) ? swapIn(len, 5, pk("al"), 2, r1) : len;
  if (last == n) {
    if (ends(len, pk("ization"), 7)) return swapIn(len, 7, pk("ize"), 3, r1);
    if (ends(len, pk("ation"), 5)) return swapIn(len, 5, pk("ate"), 3, r1);
    return len;
  }
  if (last == r) {
    if (ends(len, pk("izer"), 4)) return swapIn(len, 4, pk("ize"), 3, r1);
    if (ends(len, pk("ator"), 4)) return swapIn(len, 4, pk("ate"), 3, r1);
    return len;
  }
  if (last == s) {
    if (len - 7 >= r1 && (ends(len, pk("fulness"), 7) || ends(len, pk("ousness"), 7) || ends(len, pk("iveness"), 7))) return len - 4;
    return len;
  }
  return len;
}

function step3(len: i32, r1: i32): i32 {
  if (len - 3 < r1) return len;
  const last = at(len - 1);
  if (last == e) {
    if (ends(len, pk("alize"), 5)) return swapIn(len, 5, pk("al"), 2, r1);
    if (ends(len, pk("icate"), 5)) return swapIn(len, 5, pk("ic"), 2, r1);
    return ends(len, pk("ative"), 5) ? swapIn(len, 5, 0, 0, r1) : len;
  }
  if (last == i_) return ends(len, pk("iciti"), 5) ? swapIn(len, 5, pk("ic"), 2, r1) : len;
  if (last == l) {
    if (ends(len, pk("ical"), 4)) return swapIn(len, 4, pk("ic"), 2, r1);
    return ends(len, pk("ful"), 3) ? len - 3 : len;
  }
  if (last == s) return ends(len, pk("ness"), 4) ? swapIn(len, 4, 0, 0, r1) : len;
  return len;
}

function step4(len: i32, r2: i32): i32 {
  if (len - 2 < r2) return len;
  const p = at(len - 2);
  const last = at(len - 1);
  if (last == c) return p == i_ ? len - 2 : len;
  if (last == e) {
    if (len - 3 < r2) return len;
    if (ends(len, pk("ance"), 4) || ends(len, pk("ence"), 4) || ends(len, pk("able"), 4) || ends(len, pk("ible"), 4)) return swapIn(len, 4, 0, 0, r2);
    return ends(len, pk("ate"), 3) || ends(len, pk("ive"), 3) || ends(len, pk("ize"), 3) ? len - 3 : len;
  }
  if (last == i_) return ends(len, pk("iti"), 3) ? swapIn(len, 3, 0, 0, r2) : len;
  if (last == l) return p == a ? len - 2 : len;
  if (last == m) return ends(len, pk("ism"), 3) ? swapIn(len, 3, 0, 0, r2) : len;
  if (last == n) {
    const q = at(len - 4);
    return len - 3 >= r2 && ends(len, pk("ion"), 3) && (q == t || q == s) ? len - 3 : len;
  }
  if (last == r) return p == e ? len - 2 : len;
  if (last == s) return ends(len, pk("ous"), 3) ? swapIn(len, 3, 0, 0, r2) : len;
  if (last == t) {
    if (p != n) return len;
    if (ends(len, pk("ement"), 5)) return swapIn(len, 5, 0, 0, r2);
    if (ends(len, pk("ment"), 4)) return swapIn(len, 4, 0, 0, r2);
    return ends(len, pk("ant"), 3) || ends(len, pk("ent"), 3) ? swapIn(len, 3, 0, 0, r2) : len;
  }
  return len;
}

function step5(len: i32, r1: i32, r2: i32): i32 {
  if (at(len - 1) == e && len > r1) {
    const shortSyllable = (len > 3 && !vowelAt(len - 4) && vowelAt(len - 3) && plainConsonant(at(len - 2)))
      || (len == 3 && vowelAt(0) && !vowelAt(1));
    if (len > r2 || !shortSyllable) len--;
  }
  if (len > r2 && at(len - 1) == l && at(len - 2) == l) len--;
  return len;
}

/** Stems the word in W in place (`hasY`: it holds a 'y'); its new length. */
function stemBuffer(len: i32, hasY: bool): i32 {
  if (len <= 2) return len;
  const exc = exception(len);
  if (exc >= 0) return exc;
  const marked = hasY && markConsonantY(len);
  let firstVowel: i32;
  let r1: i32;
  if (len >= 5 && ends(5, pk("gener"), 5)) {
    firstVowel = 1;
    r1 = 5;
  } else {
    firstVowel = 0;
    while (firstVowel < len && !vowelAt(firstVowel)) firstVowel++;
    r1 = regionAfter(firstVowel, len);
  }
  const r2 = regionAfter(r1, len);
  len = step1a(len);
  len = step1b(len, firstVowel, r1);
  step1c(len);
  len = step2(len, r1);
  len = step3(len, r1);
  len = step4(len, r2);
  len = step5(len, r1, r2);
  if (marked) for (let k = 0; k < len; k++) if (at(k) == Y) put(k, y);
  return len;
}

/** stemIds' answer for a word the core does not stem (a unit above 0x7f, or too long): the host's stemmer runs. */
const NOT_TAKEN: i32 = -1;

/**
 * Stems the `units` UTF-16 units at `key` (ASCII) into W. Returns the stem's length << 8 | the
 * length of its prefix shared with the word (at most 64 each), or NOT_TAKEN.
 */
function stemKey(key: usize, units: i32): i32 {
  if (units > MAX_STEM_UNITS) return NOT_TAKEN;
  let hasY = false;
  for (let k = 0; k < units; k++) {
    const ch = <u32>load<u16>(key + (<usize>k << 1));
    if (ch >= 0x80) return NOT_TAKEN;
    hasY = hasY || ch == y;
    store<u8>(W + GUARD + <usize>k, <u8>ch);
  }
  store<u8>(W + GUARD + <usize>units, 0);
  firstPut = units;
  const out = stemBuffer(units, hasY);
  let k = firstPut < out ? firstPut : out;
  while (k < out && at(k) == <u32>load<u16>(key + (<usize>k << 1))) k++;
  return (out << 8) | k;
}

/**
 * The stems of the scanner's token ids [from, to) (scan-ids.ts), for a table whose morphology is
 * stem_en alone: at `out` an i32 per id, the stem's length << 8 | the length of the prefix it
 * shares with the token, or NOT_TAKEN (the host stems it); the stem's units past that prefix
 * (mostly none: a stem is most often a prefix) one after another at `tails` (u16, room for 64 a
 * word). Words shorter than `minLen` code points are not stemmed (min_stemming_len). Returns the
 * tail units written.
 */
export function stemIds(from: i32, to: i32, minLen: i32, out: usize, tails: usize): i32 {
  const offs = scanKeyOffsets();
  const lens = scanKeyLengths();
  let used = 0;
  for (let id = from; id < to; id++) {
    const units = <i32>load<u32>(lens + (<usize>id << 2));
    const key = arena + (<usize>load<u32>(offs + (<usize>id << 2)) << 1);
    let res: i32;
    if (units < minLen) {
      // ASCII or not, as short in code points as in units or shorter: unchanged
      res = (units << 8) | units;
    } else {
      res = stemKey(key, units);
      if (res != NOT_TAKEN) {
        const len = res >> 8;
        for (let k = res & 0xff; k < len; k++) {
          store<u16>(tails + (<usize>used << 1), <u16>at(k));
          used++;
        }
      }
    }
    store<i32>(out + (<usize>(id - from) << 2), res);
  }
  return used;
}
