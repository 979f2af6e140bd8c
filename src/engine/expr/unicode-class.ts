/**
 * REGEX()'s Unicode property classes (\p{L}, \PN, [^\p{Z}a]) spelled out as plain UTF-16 classes, so the
 * pattern runs without the 'u' flag on V8's linear engine. With the 'u' flag (Node 20's linear engine has
 * none) '(\p{L}+)+$' over a 40-letter value backtracked for ever and held the event loop, so every
 * connection of the server (found by qa29's fuzzing). Each such atom's set of code points is found by
 * the 'u' RegExp itself over every code point written in order, then written as a BMP class and
 * surrogate-pair alternatives.
 */

/** Atoms spelled out before, by atom and flags (a few distinct classes are used over and over). */
const cache = new Map<string, string>();
const CACHE_MAX = 256;

const hex = (u: number) => `\\u${u.toString(16).padStart(4, '0')}`;

/**
 * Every code point in order, in runs that share one UTF-16 width: [first code point, the run as a string].
 * The surrogate halves each get their own run (a high one next to a low one would read as a pair).
 */
let runs: [number, string][] | undefined;

function codePointRuns(): [number, string][] {
  if (runs) return runs;
  const units = (from: number, to: number) => {
    let s = '';
    for (let lo = from; lo < to; lo += 8192) s += String.fromCharCode(...Array.from({ length: Math.min(8192, to - lo) }, (_, k) => lo + k));
    return s;
  };
  let astral = '';
  for (let cp = 0x10000; cp < 0x110000; cp += 4096) astral += String.fromCodePoint(...Array.from({ length: 4096 }, (_, k) => cp + k));
  runs = [[0, units(0, 0xd800)], [0xd800, units(0xd800, 0xdc00)], [0xdc00, units(0xdc00, 0xe000)], [0xe000, units(0xe000, 0x10000)], [0x10000, astral]];
  return runs;
}

/**
 * The ranges [lo, hi) of the code points `atom` matches: over the code points written in order, each
 * match of '(?:atom)+' is one range (a star of one atom does not backtrack).
 */
function collect(atom: string, flags: string): [number, number][] {
  const re = new RegExp(`(?:${atom})+`, `g${flags}`); // throws on an unknown property name, as 'u' does
  const out: [number, number][] = [];
  for (const [first, text] of codePointRuns()) {
    const width = first >= 0x10000 ? 2 : 1;
    for (const m of text.matchAll(re)) {
      const lo = first + m.index! / width;
      push(out, lo, lo + m[0].length / width);
    }
  }
  return out;
}

function push(out: [number, number][], lo: number, hi: number): void {
  const last = out[out.length - 1];
  if (last && last[1] === lo) last[1] = hi;
  else out.push([lo, hi]);
}

/** The ranges as a non-'u' expression: one BMP class, then a surrogate pair alternative per high part. */
function spell(ranges: [number, number][]): string {
  let bmp = '';
  const pairs: string[] = [];
  for (const [lo, end] of ranges) {
    const hi = end - 1;
    if (lo < 0x10000) bmp += lo === Math.min(hi, 0xffff) ? hex(lo) : `${hex(lo)}-${hex(Math.min(hi, 0xffff))}`;
    if (hi < 0x10000) continue;
    const a = Math.max(lo, 0x10000) - 0x10000;
    const b = hi - 0x10000;
    const [ah, al, bh, bl] = [0xd800 + (a >> 10), 0xdc00 + (a & 0x3ff), 0xd800 + (b >> 10), 0xdc00 + (b & 0x3ff)];
    if (ah === bh) { pairs.push(`${hex(ah)}[${hex(al)}-${hex(bl)}]`); continue; }
    pairs.push(`${hex(ah)}[${hex(al)}-\\udfff]`);
    if (bh - ah > 1) pairs.push(`[${hex(ah + 1)}-${hex(bh - 1)}][\\udc00-\\udfff]`);
    pairs.push(`${hex(bh)}[\\udc00-${hex(bl)}]`);
  }
  const alts = [...(bmp ? [`[${bmp}]`] : []), ...pairs];
  return alts.length ? `(?:${alts.join('|')})` : '[^\\s\\S]';
}

/** One atom (a \p escape or a class holding one) as a non-'u' expression; throws when 'u' refuses it. */
function spellAtom(atom: string, caseless: boolean): string {
  const key = `${caseless ? 'i' : ''}${atom}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const ranges = collect(atom, caseless ? 'ui' : 'u');
  const spelled = spell(ranges);
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(key, spelled);
  return spelled;
}

/** Whether `source` holds a \p or \P escape (outside or inside a class). */
export function hasUnicodeClass(source: string): boolean {
  for (let i = 0; i < source.length; i++) {
    if (source[i] !== '\\') continue;
    if (source[i + 1] === 'p' || source[i + 1] === 'P') return true;
    i++;
  }
  return false;
}

/** End (exclusive) of the \p escape at i: '\p{Name}' or '\pL'. */
function escapeEnd(source: string, i: number): number {
  if (source[i + 2] !== '{') return Math.min(i + 3, source.length);
  const close = source.indexOf('}', i + 2);
  return close < 0 ? source.length : close + 1;
}

/**
 * `source` with every \p atom, and every class holding one, spelled out (see above); the rest as it is.
 * `caseless`: the pattern's (?i), under which a property class matches either case.
 */
export function spellUnicodeClasses(source: string, caseless: boolean): string {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      if (source[i + 1] === 'p' || source[i + 1] === 'P') {
        const end = escapeEnd(source, i);
        out += spellAtom(source.slice(i, end), caseless);
        i = end - 1;
      } else {
        out += source.slice(i, i + 2);
        i++;
      }
      continue;
    }
    if (c === '[') {
      let j = i + 1;
      if (source[j] === '^') j++;
      if (source[j] === ']') j++;
      while (j < source.length && source[j] !== ']') j += source[j] === '\\' ? 2 : 1;
      if (j >= source.length) return out + source.slice(i); // an unclosed class: refused as it is
      const cls = source.slice(i, j + 1);
      out += hasUnicodeClass(cls) ? spellAtom(cls, caseless) : cls;
      i = j;
      continue;
    }
    out += c;
  }
  return out;
}
