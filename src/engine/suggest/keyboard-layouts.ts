/**
 * Keyboard layouts for Buddy's layout correction (CALL AUTOCOMPLETE / OPTION fuzzy `layouts`): a word
 * typed with the wrong layout active ("ghbdtn" for "привет") is the same keys read through another
 * layout. Each layout is the characters its unshifted keys give, in the order of the US keys
 * `KEYS` (the key left of 1, then the three letter rows); a character is carried from one layout to
 * another by its key. The codes and their order are Manticore's list (manual, Spell_correction.md).
 */
import { SearchError } from '../../util/errors.js';

const KEYS = "`qwertyuiop[]asdfghjkl;'zxcvbnm,./";

const LAYOUTS: Readonly<Record<string, string>> = {
  be: '²azertyuiop^$qsdfghjklmùwxcvbn,;:=',
  bg: '`,уеишщксдзц;ьяаожгтнвмчюйъэфхпрлб',
  br: "'qwertyuiop´[asdfghjklç~zxcvbnm,.;",
  ch: '§qwertzuiopü¨asdfghjklöäyxcvbnm,.-',
  de: '^qwertzuiopü+asdfghjklöäyxcvbnm,.-',
  dk: '½qwertyuiopå¨asdfghjklæøzxcvbnm,.-',
  es: 'ºqwertyuiop`+asdfghjklñ´zxcvbnm,.-',
  fr: '²azertyuiop^$qsdfghjklmùwxcvbn,;:!',
  uk: "`qwertyuiop[]asdfghjkl;'zxcvbnm,./",
  gr: "`;ςερτυθιοπ[]ασδφγηξκλ΄'ζχψωβνμ,./",
  it: '\\qwertyuiopè+asdfghjklòàzxcvbnm,.-',
  no: '|qwertyuiopå¨asdfghjkløæzxcvbnm,.-',
  pt: '\\qwertyuiop+´asdfghjklçºzxcvbnm,.-',
  ru: 'ёйцукенгшщзхъфывапролджэячсмитьбю.',
  se: '§qwertyuiopå¨asdfghjklöäzxcvbnm,.-',
  ua: "'йцукенгшщзхїфівапролджєячсмитьбю.",
  us: KEYS,
};

/** Every supported code, in the manual's order (Buddy's default for CALL AUTOCOMPLETE over SQL). */
export const ALL_LAYOUTS: readonly string[] = Object.keys(LAYOUTS);

/**
 * A `layouts` value as Buddy reads it: a comma-separated list ('' = none); one code alone is
 * Buddy's error, since a mismatch needs two layouts; an unknown code is an error here (Buddy would
 * fail later on it).
 */
export function parseLayouts(value: string): string[] {
  const codes = value === '' ? [] : value.split(',').map((c) => c.trim().toLowerCase());
  if (codes.length === 1) throw new SearchError('PARSE_ERROR', 'At least two languages are required in layouts');
  for (const c of codes) if (!Object.hasOwn(LAYOUTS, c)) throw new SearchError('PARSE_ERROR', `Unsupported layout '${c}'`);
  return codes;
}

/** Each layout's characters by key, and each character's key (its first, as indexOf found it). */
const CHARS: Readonly<Record<string, string[]>> = Object.fromEntries(Object.entries(LAYOUTS).map(([code, chars]) => [code, [...chars]]));
const KEY_OF: Readonly<Record<string, Map<string, number>>> = Object.fromEntries(Object.entries(CHARS).map(([code, chars]) => {
  const keys = new Map<string, number>();
  chars.forEach((c, i) => { if (!keys.has(c)) keys.set(c, i); });
  return [code, keys];
}));

/**
 * The other readings of `text` over every ordered pair of `layouts` (those that differ from it), each
 * once: a character is carried by its key from one layout to the other (its case kept); characters the
 * `from` layout lacks stay. The text's keys are looked up once per `from` layout and each distinct reading
 * is one pass over them: a long text (a fuzzed 140,000-character query) took a per-character search of the
 * layout for each of the 272 pairs of all layouts, 38 s with the event loop stalled.
 */
export function layoutVariants(text: string, layouts: readonly string[]): string[] {
  const chars = [...text];
  const lower = chars.map((c) => c.toLowerCase());
  const out = new Set<string>();
  for (const from of layouts) {
    const keyOf = KEY_OF[from]!;
    const keys = lower.map((c) => keyOf.get(c) ?? -1);
    const used = [...new Set(keys)].filter((k) => k >= 0);
    if (!used.length) continue; // no character of this layout: every reading is the text
    // a reading depends only on what `to` has on the keys the text uses: each one made once
    const made = new Set<string>();
    for (const to of layouts) {
      if (from === to) continue;
      const dst = CHARS[to]!;
      const sameKeys = used.map((k) => dst[k]).join('\0');
      if (made.has(sameKeys)) continue;
      made.add(sameKeys);
      const v = chars.map((ch, i) => {
        const k = keys[i]!;
        return k < 0 ? ch : lower[i] === ch ? dst[k]! : dst[k]!.toUpperCase();
      }).join('');
      if (v !== text) out.add(v);
    }
  }
  return [...out];
}

/** For the layout test: every layout covers every key once. */
export const layoutKeyCount = (code: string): number => [...LAYOUTS[code]!].length;
export const KEY_COUNT = KEYS.length;
