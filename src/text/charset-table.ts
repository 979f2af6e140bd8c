/** The folding table: codepoint -> folded codepoint plus flags, built from a table's charset settings. */
import { SearchError } from '../util/errors.js';
import { charsetAliases, UNSUPPORTED_CHARSET_ALIASES } from './charset-aliases.js';
import { CharsetSyntaxError, parseCharsetDefinition, type CharRange } from './charset-parser.js';

/** Low 24 bits of an entry: the folded codepoint; 0 means "separator". */
export const CODE_MASK = 0x00ffffff;
/** Query-syntax character (`-`, `"`, `@`, ...), used by the query-mode tokenizer only. */
export const FLAG_SPECIAL = 0x01000000;
/** A special that is also a word character in the charset (word part inside a word). */
export const FLAG_DUAL = 0x02000000;
/** `phrase_boundary` character: a separator that adds `phrase_boundary_step` to positions. */
export const FLAG_BOUNDARY = 0x10000000;
/** `ignore_chars` character: dropped without splitting the word. */
export const FLAG_IGNORE = 0x20000000;
/** `blend_chars` character: part of a word and a separator at once. */
export const FLAG_BLEND = 0x40000000;
export const FLAGS_MASK = 0xff000000 | 0;

/**
 * Manticore's folding table covers codepoints below U+30000 (`CSphLowercaser::MAX_CODE`); any
 * codepoint at or above it is passed through unchanged and therefore counts as a word character.
 */
export const TABLE_CODE_LIMIT = 0x30000;
/** Lowest codepoint a charset_table definition may start at; lower starts are clamped (Manticore). */
const MIN_CHARSET_CODE = 0x21;
const BMP_SIZE = 0x10000;

/** The table used when `charset_table` is present but empty: Sphinx's historical default. */
export const LEGACY_DEFAULT_CHARSET =
  '0..9, A..Z->a..z, _, a..z, U+410..U+42F->U+430..U+44F, U+430..U+44F, U+401->U+451, U+451';

export class CharsetTable {
  private constructor(
    /** Entries for the BMP, indexed by UTF-16 code unit. */
    readonly bmp: Uint32Array,
    /** Entries for U+10000..U+2FFFF (absent = separator). */
    readonly astral: Map<number, number>,
  ) {}

  static empty(): CharsetTable {
    return new CharsetTable(new Uint32Array(BMP_SIZE), new Map());
  }

  /** Entry for a codepoint: folded codepoint in CODE_MASK plus FLAG_* bits; 0 = separator. */
  lookup(cp: number): number {
    if (cp < BMP_SIZE) return this.bmp[cp];
    if (cp >= TABLE_CODE_LIMIT) return cp;
    return this.astral.get(cp) ?? 0;
  }

  /** The folded codepoint alone (0 for separators, ignored and special-only characters excluded). */
  fold(cp: number): number {
    return this.lookup(cp) & CODE_MASK;
  }

  set(cp: number, entry: number): void {
    if (cp < BMP_SIZE) this.bmp[cp] = entry;
    else if (cp < TABLE_CODE_LIMIT) {
      if (entry === 0) this.astral.delete(cp);
      else this.astral.set(cp, entry);
    }
  }

  clone(): CharsetTable {
    return new CharsetTable(this.bmp.slice(), new Map(this.astral));
  }

  /**
   * Adds mappings with extra flags, keeping flags already present (Manticore's AddRemaps);
   * a special added over a word character becomes dual.
   */
  addRanges(ranges: readonly CharRange[], flags: number): void {
    for (const r of ranges) {
      const end = Math.min(r.end, TABLE_CODE_LIMIT - 1);
      for (let c = r.start, dest = r.remapStart; c <= end; c++, dest++) {
        const old = this.lookup(c);
        let entry = (dest & CODE_MASK) | flags | (old & FLAGS_MASK);
        if ((old & CODE_MASK) !== 0 && (flags & FLAG_SPECIAL) !== 0) entry |= FLAG_DUAL;
        this.set(c, entry);
      }
    }
  }

  /** Adds each character of `chars` as a special (query syntax), as Manticore's AddChars does. */
  withSpecials(chars: string): CharsetTable {
    const table = this.clone();
    const ranges: CharRange[] = [];
    for (let i = 0; i < chars.length; i++) {
      const c = chars.charCodeAt(i);
      ranges.push({ start: c, end: c, remapStart: c });
    }
    table.addRanges(ranges, FLAG_SPECIAL);
    return table;
  }
}

/** Parses a definition with the alias table; syntax errors become SearchError with the setting name. */
export function parseCharsetSetting(setting: string, spec: string): CharRange[] {
  for (const name of UNSUPPORTED_CHARSET_ALIASES) {
    if (new RegExp(`(^|[\\s,])${name}\\s*(,|$)`).test(spec)) {
      throw new SearchError('BAD_SETTING', `'${setting}': charset '${name}' is not supported (needs n-gram segmentation)`);
    }
  }
  try {
    return parseCharsetDefinition(spec, charsetAliases());
  } catch (e) {
    if (e instanceof CharsetSyntaxError) throw new SearchError('BAD_SETTING', `'${setting}': ${e.message}`);
    throw e;
  }
}

/**
 * Builds the case-folding table from a `charset_table` value: definitions applied in order (later
 * ones win per codepoint), starts below U+21 and destinations at U+20 clamped to U+21, and
 * codepoints at or beyond TABLE_CODE_LIMIT dropped, as Manticore does (with a warning there).
 */
export function buildCaseFolding(spec: string): CharsetTable {
  const ranges = parseCharsetSetting('charset_table', spec === '' ? LEGACY_DEFAULT_CHARSET : spec);
  const table = CharsetTable.empty();
  for (const r of ranges) {
    const end = Math.min(r.end, TABLE_CODE_LIMIT - 1);
    for (let c = Math.max(r.start, MIN_CHARSET_CODE), dest = r.remapStart + (c - r.start); c <= end; c++, dest++) {
      if (dest >= TABLE_CODE_LIMIT) continue;
      table.set(c, Math.max(dest, MIN_CHARSET_CODE));
    }
  }
  return table;
}

/**
 * Adds `ignore_chars`, `phrase_boundary` or `blend_chars` characters with `flags`. They must not
 * already be word characters (nor, when `checkDest`, may their destinations), else Manticore's
 * "<what> characters must not be referenced anywhere else (code=U+xx)".
 */
export function addFlaggedChars(
  table: CharsetTable, setting: string, spec: string, flags: number, what: string, checkDest: boolean,
): void {
  const ranges = parseCharsetSetting(setting, spec);
  const referenced = (c: number): void => {
    if (table.lookup(c) !== 0) {
      throw new SearchError('BAD_SETTING',
        `'${setting}': ${what} characters must not be referenced anywhere else (code=U+${c.toString(16)})`);
    }
  };
  for (const r of ranges) {
    for (let c = r.start; c <= r.end; c++) referenced(c);
    if (!checkDest) continue;
    for (let c = r.remapStart; c <= r.remapStart + r.end - r.start; c++) referenced(c);
  }
  table.addRanges(ranges, flags);
}
