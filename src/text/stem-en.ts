/**
 * stem_en: the English stemmer of Manticore (src/dict/stem/sphinxstemen.cpp), i.e. Snowball's
 * English (Porter2) algorithm in its pre-2011 form, with Sphinx's quirks kept (was -> wa, his -> hi,
 * a final "s" dropped after anything but "u"/"s", "ies" -> "ie" only in 4-letter words, ...).
 * Like Manticore it works on the UTF-8 bytes of a folded word; only ASCII suffixes ever change.
 */

/** Words longer than this many UTF-8 bytes are returned unchanged (far above any token). */
const MAX_STEM_BYTES = 256;
/** Zero bytes before the word: the algorithm peeks a few bytes left of short words. */
const GUARD = 8;
const W = new Uint8Array(GUARD + MAX_STEM_BYTES + GUARD);

const a = 0x61, c = 0x63, d = 0x64, e = 0x65, g = 0x67, i_ = 0x69, l = 0x6c;
const m = 0x6d, n = 0x6e, r = 0x72, s = 0x73, t = 0x74, u = 0x75, y = 0x79, Y = 0x59;

/** Vowels for the regions and the short-syllable test: a e i o u y (a consonant 'y' is marked 'Y'). */
const VOWEL = new Uint8Array(256);
for (const ch of 'aeiouy') VOWEL[ch.charCodeAt(0)] = 1;
/** Letters whose doubling is undone after removing -ed/-ing: b d f g m n p r t. */
const DOUBLE = new Uint8Array(256);
for (const ch of 'bdfgmnprt') DOUBLE[ch.charCodeAt(0)] = 1;

/** Byte i of the word (negative i reads the zero guard). */
function at(i: number): number {
  return W[GUARD + i];
}
function put(i: number, ch: number): void {
  W[GUARD + i] = ch;
  if (i < firstPut) firstPut = i;
}
/** The lowest byte put() wrote since load(): the word's bytes before it are as loaded. */
let firstPut = 0;
function vowelAt(i: number): boolean {
  return VOWEL[W[GUARD + i]] === 1;
}
/** Not a vowel, nor w, x or Y: what may end a short syllable. */
function plainConsonant(ch: number): boolean {
  return VOWEL[ch] === 0 && ch !== 0x77 && ch !== 0x78 && ch !== Y;
}
/** The first `len` bytes end with `suffix` (ASCII). */
function endsWith(len: number, suffix: string): boolean {
  const k = suffix.length;
  if (len < k) return false;
  for (let j = 0; j < k; j++) if (W[GUARD + len - k + j] !== suffix.charCodeAt(j)) return false;
  return true;
}
function wordIs(len: number, word: string): boolean {
  return len === word.length && endsWith(len, word);
}

/** 3-letter words kept as they are. */
const KEEP3 = ['the', 'and', 'you', 'for', 'her', 'she', 'but', 'had', 'sky'];
/** 4-letter words kept as they are. */
const KEEP4 = ['that', 'with', 'said', 'from', 'news', 'howe'];
/** 6..7-letter words kept as they are. */
const KEEP_LONG = ['proceed', 'exceed', 'succeed', 'inning', 'outing', 'canning'];
/** 4..8-letter words losing their last letter. */
const DROP_LAST = ['innings', 'outings', 'cannings', 'idly', 'gently', 'singly'];
/** 4..8-letter words whose final y becomes i. */
const Y_TO_I = ['ugly', 'early', 'only'];

/** A word's length, first and last byte: the key EXCEPTION_KEYS holds of every exception word. */
function exceptionKey(len: number, first: number, last: number): number {
  return (len << 16) | (first << 8) | last;
}
/**
 * The keys of every word exception() names: a word of another key is none of them, told by one look-up
 * (exception() runs on every distinct word, and its comparisons with each listed word were a twentieth
 * of a bulk load's first batch build).
 */
const EXCEPTION_KEYS = new Set(
  [...KEEP3, 'was', 'his', ...KEEP4, ...KEEP_LONG, 'dying', 'lying', 'tying', 'skies', ...DROP_LAST, ...Y_TO_I]
    .map((w) => exceptionKey(w.length, w.charCodeAt(0), w.charCodeAt(w.length - 1))),
);

/** Whole-word exceptions; returns the new length, or -1 when the word is not one of them. */
function exception(len: number): number {
  return EXCEPTION_KEYS.has(exceptionKey(len, at(0), at(len - 1))) ? listedException(len) : -1;
}

/**
 * exception() for a word whose key is listed. A function apart: the word lists' loops made exception()
 * a 78 ms TurboFan compile, thrown away and redone each time a rare branch (dying, skies) first ran; the
 * look-up every word takes now compiles small, once.
 */
function listedException(len: number): number {
  if (len === 3) {
    for (const w of KEEP3) if (wordIs(3, w)) return 3;
    if (wordIs(3, 'was') || wordIs(3, 'his')) return 2;
    return -1;
  }
  if (len < 4 || len > 8) return -1;
  if (len === 4) for (const w of KEEP4) if (wordIs(4, w)) return 4;
  const last = at(len - 1);
  if (last !== s && last !== y && last !== g && last !== d) return -1;
  if (last === d || last === g) for (const w of KEEP_LONG) if (wordIs(len, w)) return len;
  if (last === g && (wordIs(len, 'dying') || wordIs(len, 'lying') || wordIs(len, 'tying'))) {
    put(1, i_);
    put(2, e);
    return 3;
  }
  if (last === s && wordIs(len, 'skies')) { put(2, y); return 3; }
  if (last !== s && last !== y) return -1;
  for (const w of DROP_LAST) if (wordIs(len, w)) return len - 1;
  for (const w of Y_TO_I) if (wordIs(len, w)) { put(len - 1, i_); return len; }
  return -1;
}

/** Marks consonant y's as 'Y': a leading y, and a y after a vowel. Returns whether any was marked. */
function markConsonantY(len: number): boolean {
  let marked = false;
  if (at(0) === y) { put(0, Y); marked = true; }
  for (let k = 1; k < len; k++) {
    if (at(k) === y && vowelAt(k - 1)) { put(k, Y); marked = true; }
  }
  return marked;
}

/** End of the first vowel-consonant pair searched from `from` (Porter2's R1/R2 start). */
function regionAfter(from: number, len: number): number {
  let k = from;
  while (k < len - 2 && !(vowelAt(k) && !vowelAt(k + 1))) k++;
  return k + 2;
}

/** Step 1a: plural and -ied/-ies endings, with the pre-2011 "s" rule. */
function step1a(len: number): number {
  const last = at(len - 1);
  const ie = at(len - 3) === i_ && at(len - 2) === e;
  if (last === d) return ie ? (len === 4 ? 3 : len - 2) : len;
  if (last !== s) return len;
  if (endsWith(len, 'sses')) return len - 2;
  if (ie) return len === 4 ? 3 : len - 2;
  const prev = at(len - 2);
  return prev !== u && prev !== s ? len - 1 : len;
}

/** Step 1b: -eed/-eedly in R1; -ed/-edly/-ing/-ingly after a vowel, then tidy the ending. */
function step1b(len: number, firstVowel: number, r1: number): number {
  let cut = 0;
  if (endsWith(len, 'eed')) return len - 3 >= r1 ? len - 1 : len;
  if (endsWith(len, 'ed')) cut = 2;
  else if (endsWith(len, 'eedly')) return len - 5 >= r1 ? len - 3 : len;
  else if (endsWith(len, 'edly')) cut = 4;
  else if (endsWith(len, 'ingly')) cut = 5;
  else if (endsWith(len, 'ing')) cut = 3;
  if (cut === 0 || firstVowel >= len - cut) return len;
  len -= cut;
  if (endsWith(len, 'at') || endsWith(len, 'bl') || endsWith(len, 'iz')) {
    put(len, e);
    return len + 1;
  }
  if (len >= 2 && at(len - 1) === at(len - 2) && DOUBLE[at(len - 1)] === 1) return len - 1;
  const shortTwo = len === 2 && vowelAt(0) && !vowelAt(1);
  const shortAtR1 = len === r1 && !vowelAt(len - 3) && vowelAt(len - 2) && plainConsonant(at(len - 1));
  if (shortTwo || shortAtR1) {
    put(len, e);
    return len + 1;
  }
  return len;
}

/** Step 1c: a final y after a consonant becomes i. */
function step1c(len: number): void {
  const last = at(len - 1);
  if (len > 2 && (last === y || last === Y) && !vowelAt(len - 2)) put(len - 1, i_);
}

/** Replaces the last `drop` bytes of `len` with `add`, if the suffix starts inside R1. */
function swapIn(len: number, drop: number, add: string, region: number): number {
  if (len - drop < region) return len;
  for (let k = 0; k < add.length; k++) put(len - drop + k, add.charCodeAt(k));
  return len - drop + add.length;
}

/** Step 2 for words ending in "i" (-enci, -bli, -aliti, -li, -ogi ...). */
function step2i(len: number, r1: number): number {
  const p = at(len - 2);
  if (len >= 3 && (p === c || p === l || p === t)) {
    for (const sfx of ['enci', 'anci', 'abli']) if (endsWith(len, sfx)) return swapIn(len, 4, sfx.slice(0, 3) + 'e', r1);
    if (endsWith(len, 'bli')) return swapIn(len, 3, 'ble', r1);
    if (endsWith(len, 'entli')) return swapIn(len, 5, 'ent', r1);
    if (endsWith(len, 'aliti')) return swapIn(len, 5, 'al', r1);
    if (endsWith(len, 'ousli')) return swapIn(len, 5, 'ous', r1);
    if (endsWith(len, 'iviti')) return swapIn(len, 5, 'ive', r1);
    if (endsWith(len, 'biliti')) return swapIn(len, 6, 'ble', r1);
    if (endsWith(len, 'fulli')) return swapIn(len, 5, 'ful', r1);
    if (endsWith(len, 'lessli')) return swapIn(len, 6, 'less', r1);
  }
  if (len - 3 >= r1 && endsWith(len, 'ogi')) return len - 1;
  if (!(len - 2 >= r1 && p === l)) return len;
  const stem = len - 2;
  if (stem - 2 >= r1 && endsWith(stem, 'al')) {
    if (stem - 7 >= r1 && endsWith(stem - 2, 'ation')) return swapIn(stem - 2, 5, 'ate', 0);
    return endsWith(stem - 2, 'tion') ? stem - 2 : stem;
  }
  // -li goes after these letters only (Sphinx's list includes 'b')
  return 'bcdeghkmnrt'.includes(String.fromCharCode(at(stem - 1))) ? stem : len;
}

/** Step 2: derivational suffixes in R1 (-ational -> -ate, -izer -> -ize, ...). */
function step2(len: number, r1: number): number {
  if (len - 2 < r1) return len;
  switch (at(len - 1)) {
    case i_: return step2i(len, r1);
    case l:
      if (endsWith(len, 'ational')) return swapIn(len, 7, 'ate', r1);
      if (endsWith(len, 'tional')) return swapIn(len, 6, 'tion', r1);
      return len;
    case m: return endsWith(len, 'alism') ? swapIn(len, 5, 'al', r1) : len;
    case n:
      if (endsWith(len, 'ization')) return swapIn(len, 7, 'ize', r1);
      if (endsWith(len, 'ation')) return swapIn(len, 5, 'ate', r1);
      return len;
    case r:
      if (endsWith(len, 'izer')) return swapIn(len, 4, 'ize', r1);
      if (endsWith(len, 'ator')) return swapIn(len, 4, 'ate', r1);
      return len;
    case s:
      if (len - 7 >= r1 && (endsWith(len, 'fulness') || endsWith(len, 'ousness') || endsWith(len, 'iveness'))) return len - 4;
      return len;
    default: return len;
  }
}

/** Step 3: -alize, -icate, -ative (pre-2011: in R1), -iciti, -ical, -ful, -ness. */
function step3(len: number, r1: number): number {
  if (len - 3 < r1) return len;
  switch (at(len - 1)) {
    case e:
      if (endsWith(len, 'alize') || endsWith(len, 'icate')) return swapIn(len, 5, endsWith(len, 'alize') ? 'al' : 'ic', r1);
      return endsWith(len, 'ative') ? swapIn(len, 5, '', r1) : len;
    case i_: return endsWith(len, 'iciti') ? swapIn(len, 5, 'ic', r1) : len;
    case l:
      if (endsWith(len, 'ical')) return swapIn(len, 4, 'ic', r1);
      return endsWith(len, 'ful') ? len - 3 : len;
    case s: return endsWith(len, 'ness') ? swapIn(len, 4, '', r1) : len;
    default: return len;
  }
}

/** Step 4: plain suffixes removed in R2 (-al, -ance, -er, -ic, -ment, -ion after s/t, ...). */
function step4(len: number, r2: number): number {
  if (len - 2 < r2) return len;
  const p = at(len - 2);
  switch (at(len - 1)) {
    case c: return p === i_ ? len - 2 : len;
    case e:
      if (len - 3 < r2) return len;
      for (const sfx of ['ance', 'ence', 'able', 'ible']) if (endsWith(len, sfx)) return swapIn(len, 4, '', r2);
      return endsWith(len, 'ate') || endsWith(len, 'ive') || endsWith(len, 'ize') ? len - 3 : len;
    case i_: return endsWith(len, 'iti') ? swapIn(len, 3, '', r2) : len;
    case l: return p === a ? len - 2 : len;
    case m: return endsWith(len, 'ism') ? swapIn(len, 3, '', r2) : len;
    case n: {
      const q = at(len - 4);
      return len - 3 >= r2 && endsWith(len, 'ion') && (q === t || q === s) ? len - 3 : len;
    }
    case r: return p === e ? len - 2 : len;
    case s: return endsWith(len, 'ous') ? swapIn(len, 3, '', r2) : len;
    case t:
      if (p !== n) return len;
      if (endsWith(len, 'ement')) return swapIn(len, 5, '', r2);
      if (endsWith(len, 'ment')) return swapIn(len, 4, '', r2);
      return endsWith(len, 'ant') || endsWith(len, 'ent') ? swapIn(len, 3, '', r2) : len;
    default: return len;
  }
}

/** Step 5: a final e in R2, or in R1 unless after a short syllable; then -ll in R2 (pre-2011 order). */
function step5(len: number, r1: number, r2: number): number {
  if (at(len - 1) === e && len > r1) {
    const shortSyllable = (len > 3 && !vowelAt(len - 4) && vowelAt(len - 3) && plainConsonant(at(len - 2)))
      || (len === 3 && vowelAt(0) && !vowelAt(1));
    if (len > r2 || !shortSyllable) len--;
  }
  if (len > r2 && at(len - 1) === l && at(len - 2) === l) len--;
  return len;
}

/** Stems the word in W[GUARD..GUARD+len) in place; returns its new length. */
function stemBuffer(len: number): number {
  if (len <= 2) return len;
  const exc = exception(len);
  if (exc >= 0) return exc;
  // most words hold no y: the marking pass (a look at every byte) only for those that do
  const hasY = loadedY && markConsonantY(len);
  let firstVowel: number;
  let r1: number;
  if (len >= 5 && endsWith(5, 'gener')) {
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
  if (hasY) for (let k = 0; k < len; k++) if (at(k) === Y) put(k, y);
  return len;
}

/** Whether the word load() copied holds a 'y' (stemBuffer marks consonant y's only then). */
let loadedY = false;

/** Copies the word as UTF-8 into W; returns its byte length, or -1 when it does not fit. */
function load(word: string): number {
  let len = 0;
  let ys = 0;
  for (let k = 0; k < word.length; k++) {
    let cp = word.charCodeAt(k);
    ys |= cp === y ? 1 : 0;
    if (cp >= 0xd800 && cp <= 0xdbff && k + 1 < word.length) {
      const lo = word.charCodeAt(k + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) { cp = ((cp - 0xd800) << 10) + (lo - 0xdc00) + 0x10000; k++; }
    }
    const need = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    if (len + need > MAX_STEM_BYTES) return -1;
    let o = GUARD + len;
    if (need === 1) W[o] = cp;
    else if (need === 2) { W[o++] = 0xc0 | (cp >> 6); W[o] = 0x80 | (cp & 63); }
    else if (need === 3) { W[o++] = 0xe0 | (cp >> 12); W[o++] = 0x80 | ((cp >> 6) & 63); W[o] = 0x80 | (cp & 63); }
    else { W[o++] = 0xf0 | (cp >> 18); W[o++] = 0x80 | ((cp >> 12) & 63); W[o++] = 0x80 | ((cp >> 6) & 63); W[o] = 0x80 | (cp & 63); }
    len += need;
  }
  W[GUARD + len] = 0;
  loadedY = ys !== 0;
  firstPut = len;
  return len;
}

const decoder = new TextDecoder();

/** A letter's bit for UNSAFE_BEFORE (a-z: bit 0-25), bit 31 for any other unit before the last. */
function letterBit(ch: number): number {
  return ch >= a && ch <= 0x7a ? 1 << (ch - a) : 1 << 31;
}
/**
 * Per ASCII last unit: the units before it (letterBit) with which some step's suffix may end the word;
 * a word whose last two units are not so is returned unchanged by every step (each step looks only at
 * the word's end, and none changed it before). -1: every suffix of that letter needs the full run
 * (s d g y e i l, the consonant 'Y'). A third of a bulk load's distinct tokens end so (-a -o -h -k,
 * digits, -st -nt..., -on -in, -ar -or but -ator, -um but -ism, -c but -ic), and skip the UTF-8
 * copy, the regions and the seven steps.
 */
const UNSAFE_BEFORE = new Int32Array(128);
for (const ch of 'sdgyeilY') UNSAFE_BEFORE[ch.charCodeAt(0)] = -1;
UNSAFE_BEFORE[t] = letterBit(n); // -ant -ent -ment -ement
UNSAFE_BEFORE[c] = letterBit(i_); // -ic
UNSAFE_BEFORE[m] = letterBit(s); // -ism -alism
UNSAFE_BEFORE[n] = letterBit(0x6f); // -ion -ation -ization
UNSAFE_BEFORE[r] = letterBit(e) | letterBit(0x6f); // -er -izer -ator

/** Stems one folded word with stem_en. Words of two bytes or less come back unchanged. */
export function stemEn(word: string): string {
  // every rule needs an ASCII letter at the end: a word ending otherwise cannot change
  // (unless it holds a 'Y', which the y-marking pass would lowercase)
  const last = word.charCodeAt(word.length - 1);
  if (last >= 0x80 && !word.includes('Y')) return word;
  // an ending no step takes (a 'Y' anywhere may still be lowercased: the full run)
  if (word.length >= 2 && last < 0x80 && (UNSAFE_BEFORE[last] & letterBit(word.charCodeAt(word.length - 2))) === 0
    && !word.includes('Y')) return word;
  const len = load(word);
  if (len < 0) return word;
  const out = stemBuffer(len);
  if (len !== word.length) return decoder.decode(W.subarray(GUARD, GUARD + out));
  // ASCII: the stem shares a prefix with the word and differs at most in a short tail, which starts
  // no earlier than the first byte the steps wrote
  let k = firstPut < out ? firstPut : out;
  while (k < out && at(k) === word.charCodeAt(k)) k++;
  if (k === out) return out === len ? word : word.slice(0, out);
  let tail = '';
  for (let j = k; j < out; j++) tail += String.fromCharCode(at(j));
  return word.slice(0, k) + tail;
}
