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

/** `text` retyped from layout `from` to layout `to` key by key; characters `from` lacks stay. */
function retype(text: string, from: string, to: string): string {
  const src = [...LAYOUTS[from]!];
  const dst = [...LAYOUTS[to]!];
  let out = '';
  for (const ch of text) {
    const lower = ch.toLowerCase();
    const at = src.indexOf(lower);
    if (at < 0) { out += ch; continue; }
    out += lower === ch ? dst[at]! : dst[at]!.toUpperCase();
  }
  return out;
}

/** The other readings of `text` over every ordered pair of `layouts` (those that differ from it), each once. */
export function layoutVariants(text: string, layouts: readonly string[]): string[] {
  const out = new Set<string>();
  for (const from of layouts) {
    for (const to of layouts) {
      if (from === to) continue;
      const v = retype(text, from, to);
      if (v !== text) out.add(v);
    }
  }
  return [...out];
}

/** For the layout test: every layout covers every key once. */
export const layoutKeyCount = (code: string): number => [...LAYOUTS[code]!].length;
export const KEY_COUNT = KEYS.length;
