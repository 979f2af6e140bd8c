/**
 * stem_ru: Manticore's Russian stemmer (src/dict/stem/sphinxstemru.inl), a Snowball-style suffix
 * stripper over RV/R2 regions. Like Manticore it reads the UTF-8 bytes of the word as 2-byte
 * units, stems only the part after the last ASCII byte, and leaves words ending in ASCII alone.
 */

/** Suffix tables: `suffix:remove` (letters removed, which may differ from the suffix length). */
const DIMINUTIVE = 'чек:3 чок:3 нок:3 чка:3 нка:3 чков:4 нков:4 чке:3 нке:3 чки:3 нки:3 чками:5 нками:5 '
  + 'чкой:4 нкой:4 чкам:4 нкам:4 чком:4 нком:4 чко:3 нко:3 чку:3 нку:3 чках:4 нках:4 чкою:4 нкою:4';
const ADJECTIVE = 'ее:2 ие:2 ые:2 ое:2 ими:3 ыми:3 ей:2 ий:2 ый:2 ой:2 аем:0 уем:0 яем:0 ем:2 им:2 ым:2 ом:2 '
  + 'его:3 ого:3 ему:3 ому:3 их:2 ых:2 ею:2 ою:2 ую:2 юю:2 ая:2 яя:2';
const PARTICIPLE = 'анна:2 енна:2 янна:2 яем:2 анн:1 енн:1 янн:1 анно:2 енно:2 янно:2 анны:2 енны:2 янны:2 '
  + 'авш:2 ивш:3 ывш:3 явш:2 ающ:2 ащ:1 яющ:2 ящ:1 ующ:3';
const VERB = 'ала:3 ана:3 яла:3 яна:3 ила:3 ыла:3 ена:3 аете:4 айте:4 ьте:3 уете:4 яете:4 яйте:4 ейте:4 '
  + 'уйте:4 ите:3 али:3 яли:3 или:3 ыли:3 ай:2 яй:2 ей:2 уй:2 ал:2 ял:2 ил:2 ыл:2 аем:3 яем:3 уем:3 '
  + 'им:2 ым:2 ало:3 ано:3 яло:3 яно:3 ило:3 ыло:3 ено:3 ает:3 ают:3 яет:3 яют:3 ят:2 ует:3 уют:3 '
  + 'ит:2 ыт:2 аны:3 яны:3 ены:3 аешь:4 уешь:4 яешь:4 ать:3 еть:3 ить:3 уть:3 ыть:3 ишь:3 ять:3 '
  + 'аю:2 ую:2 яю:2 ю:1 уя:2';
const NOUN = 'а:1 ев:2 ов:2 ие:2 ье:2 е:1 иями:4 ями:3 ами:3 еи:2 ии:2 и:1 ией:3 ей:2 ой:2 ий:2 иям:3 '
  + 'ям:2 ием:3 ам:2 ом:2 о:1 у:1 ах:2 иях:3 ях:2 ы:1 ь:1 ию:2 ью:2 ю:1 ия:2 ья:2 я:1';

interface Suffix { letters: number[]; remove: number }

/** Suffixes grouped by their last letter, in table order: the first match decides. */
type SuffixTable = Map<number, Suffix[]>;

function table(spec: string): SuffixTable {
  const out: SuffixTable = new Map();
  for (const item of spec.split(' ')) {
    const [suffix, remove] = item.split(':');
    const letters = [...suffix].map((ch) => ch.codePointAt(0)!);
    const last = letters[letters.length - 1];
    if (!out.has(last)) out.set(last, []);
    out.get(last)!.push({ letters, remove: Number(remove) });
  }
  return out;
}

const TABLES = {
  diminutive: table(DIMINUTIVE), adjective: table(ADJECTIVE), participle: table(PARTICIPLE),
  verb: table(VERB), noun: table(NOUN),
};

const cyr = (ch: string): number => ch.codePointAt(0)!;
const A = cyr('а'), V = cyr('в'), E = cyr('е'), I = cyr('и'), IY = cyr('й'), N = cyr('н'), O = cyr('о');
const S = cyr('с'), T = cyr('т'), SH = cyr('ш'), Y = cyr('ы'), SOFT = cyr('ь'), YA = cyr('я');
const VOWELS = new Set([...'аеёиоуыэюя'].map(cyr));

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The word's 2-byte units from the stemming start, each as its codepoint (-1 if not a 2-byte char). */
class Units {
  readonly values: number[] = [];

  constructor(bytes: Uint8Array, from: number) {
    for (let k = from; k + 1 < bytes.length; k += 2) {
      const b0 = bytes[k];
      const b1 = bytes[k + 1];
      this.values.push(b0 >= 0xc0 && b0 < 0xe0 && (b1 & 0xc0) === 0x80 ? ((b0 & 0x1f) << 6) | (b1 & 0x3f) : -1);
    }
  }
}

/**
 * The word region being stemmed: units[base..base+len). Reads left of the region see the units
 * before it (the first vowel, the stem), and -1 before the start (ASCII can never match).
 */
class Region {
  constructor(readonly units: number[], readonly base: number, public len: number) {}

  /** Letter at region index i (may be negative). */
  at(i: number): number {
    const k = this.base + i;
    return k >= 0 && k < this.units.length ? this.units[k] : -1;
  }

  /** The p-th letter from the end of the region. */
  c(p: number): number {
    return this.at(this.len - p);
  }

  endsWith(letters: number[]): boolean {
    if (this.len < letters.length) return false;
    for (let k = 0; k < letters.length; k++) if (this.c(letters.length - k) !== letters[k]) return false;
    return true;
  }
}

/** Letters removed by the first listed suffix of the region's end (only suffixes inside it), or 0. */
function match(t: SuffixTable, r: Region, len: number): number {
  if (len <= 0) return 0;
  const group = t.get(r.at(len - 1));
  if (!group) return 0;
  for (const sfx of group) {
    const n = sfx.letters.length;
    if (n > len) continue;
    let k = 0;
    while (k < n && r.at(len - n + k) === sfx.letters[k]) k++;
    if (k === n) return sfx.remove;
  }
  return 0;
}

function adjectival(r: Region, len: number): number {
  const k = match(TABLES.adjective, r, len);
  return k ? k + match(TABLES.participle, r, len - k) : 0;
}

/** A verb suffix, taking a preceding "ов" with it. */
function verbOv(r: Region, len: number): number {
  const k = match(TABLES.verb, r, len);
  if (k && len >= k + 2 && r.at(len - k - 2) === O && r.at(len - k - 1) === V) return k + 2;
  return k;
}

const GERUND_VOWELS = [A, I, Y, YA];

/** Step 1: one ending removed (diminutive, gerund, adjectival, reflexive + verb, noun). */
function removeEnding(r: Region): void {
  let k = match(TABLES.diminutive, r, r.len);
  if (k) { r.len -= k; return; }
  if (r.c(1) === V && r.len >= 2) {
    if (r.c(2) === I || r.c(2) === Y || r.c(2) === YA) { r.len -= 2; return; }
    if (r.c(2) === A) { r.len -= r.c(3) === V && r.c(4) === A ? 4 : 2; return; }
  }
  if (r.len >= 3 && r.endsWith([V, SH, I]) && GERUND_VOWELS.includes(r.c(4))) { r.len -= 4; return; }
  if (r.len >= 5 && r.endsWith([V, SH, I, S, SOFT]) && GERUND_VOWELS.includes(r.c(6))) { r.len -= 6; return; }
  k = adjectival(r, r.len);
  if (k) { r.len -= k; return; }
  if (r.len >= 2 && r.c(2) === S && (r.c(1) === SOFT || r.c(1) === YA)) {
    r.len -= 2;
    k = adjectival(r, r.len) || verbOv(r, r.len);
  } else {
    k = verbOv(r, r.len);
  }
  if (k) { r.len -= k; return; }
  r.len -= match(TABLES.noun, r, r.len);
}

/** First index k >= from with a vowel at k and a non-vowel at k+1, plus 2; else len. */
function regionStart(r: Region, from: number): number {
  for (let k = from; k < r.len - 1; k++) if (VOWELS.has(r.at(k)) && !VOWELS.has(r.at(k + 1))) return k + 2;
  return r.len;
}

/** Stems the units; returns how many are kept, or -1 when the word has no vowel. */
function stemUnits(units: number[]): number {
  let first = 0;
  while (first < units.length && !VOWELS.has(units[first])) first++;
  if (first >= units.length) return -1;
  const r = new Region(units, first + 1, units.length - first - 1);
  const r1 = regionStart(r, -1);
  const r2 = r1 < r.len ? regionStart(r, r1) : r.len;
  removeEnding(r);
  if (r.len > 0 && (r.c(1) === IY || r.c(1) === I)) r.len--;
  if (r.len - r2 >= 3 && r.endsWith([O, S, T])) r.len -= 3;
  else if (r.len - r2 >= 4 && r.endsWith([O, S, T, SOFT])) r.len -= 4;
  if (r.len >= 3 && r.endsWith([E, IY, SH])) r.len -= 3;
  else if (r.len >= 4 && r.endsWith([E, IY, SH, E])) r.len -= 4;
  if (r.len >= 2 && r.endsWith([N, N])) r.len--;
  if (r.len > 0 && r.c(1) === SOFT) r.len--;
  return r.base + r.len;
}

/** Stems one folded word with stem_ru. */
export function stemRu(word: string): string {
  const bytes = encoder.encode(word);
  let lastAscii = -1;
  for (let k = 0; k < bytes.length; k++) if (bytes[k] < 0x80) lastAscii = k;
  if (lastAscii === bytes.length - 1) return word;
  const from = lastAscii + 1;
  const units = new Units(bytes, from).values;
  const kept = stemUnits(units);
  if (kept < 0 || kept === units.length && (bytes.length - from) % 2 === 0) return word;
  return decoder.decode(bytes.subarray(0, from + kept * 2));
}
