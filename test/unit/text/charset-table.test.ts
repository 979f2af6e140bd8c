import { describe, expect, it } from 'vitest';
import { charsetAliases, decodeCharsetRuns } from '../../../src/text/charset-aliases.js';
import {
  addFlaggedChars, buildCaseFolding, FLAG_IGNORE, FLAG_SPECIAL, FLAG_DUAL, TABLE_CODE_LIMIT,
} from '../../../src/text/charset-table.js';
import { SearchError } from '../../../src/util/errors.js';

const cp = (s: string) => s.codePointAt(0)!;
const foldOf = (spec: string, ch: string) => String.fromCodePoint(buildCaseFolding(spec).fold(cp(ch)));

describe('non_cont', () => {
  const table = buildCaseFolding('non_cont');
  const fold = (ch: string): string => {
    const f = table.fold(cp(ch));
    return f === 0 ? '' : String.fromCodePoint(f);
  };

  it('folds case and Latin diacritics to ASCII base letters', () => {
    expect([...'CAFÉ'].map(fold).join('')).toBe('cafe');
    expect([...'café'].map(fold).join('')).toBe('cafe');
    expect(fold('Ü')).toBe('u');
    expect(fold('ñ')).toBe('n');
    expect(fold('Ç')).toBe('c');
    expect(fold('ß')).toBe('s');
    expect(fold('Æ')).toBe('æ');
    expect(fold('Þ')).toBe('þ');
    expect(fold('Ŋ')).toBe('ŋ');
  });

  it('folds Cyrillic and Greek, with Ё/ё onto е and Й kept', () => {
    expect(fold('Ё')).toBe('е');
    expect(fold('ё')).toBe('е');
    expect(fold('Й')).toBe('й');
    expect(fold('Я')).toBe('я');
    expect(fold('Ω')).toBe('ω');
  });

  it('keeps digits and makes punctuation a separator', () => {
    expect(fold('7')).toBe('7');
    for (const ch of "_'-.@#&!? ") expect(fold(ch)).toBe('');
  });

  it('leaves CJK out and passes codepoints beyond its table through', () => {
    expect(fold('中')).toBe('');
    expect(fold('😀')).toBe('');
    expect(table.fold(0x30000)).toBe(0x30000);
    expect(table.fold(TABLE_CODE_LIMIT - 1)).toBe(0);
  });

  it('is the same table as non_cjk', () => {
    expect(charsetAliases().get('non_cjk')).toBe(charsetAliases().get('non_cont'));
  });
});

describe('decodeCharsetRuns', () => {
  it('decodes every run kind', () => {
    expect(decodeCharsetRuns('30-31 41-42>61 C0-C1=61 14A-14B/2 AA')).toEqual([
      { start: 0x30, end: 0x31, remapStart: 0x30 },
      { start: 0x41, end: 0x42, remapStart: 0x61 },
      { start: 0xc0, end: 0xc0, remapStart: 0x61 },
      { start: 0xc1, end: 0xc1, remapStart: 0x61 },
      { start: 0x14a, end: 0x14a, remapStart: 0x14b },
      { start: 0x14b, end: 0x14b, remapStart: 0x14b },
      { start: 0xaa, end: 0xaa, remapStart: 0xaa },
    ]);
  });
});

describe('buildCaseFolding', () => {
  it('applies custom definitions, later ones winning', () => {
    expect(foldOf('0..9, A..Z->a..z, a..z', 'Q')).toBe('q');
    expect(foldOf('A..Z->a..z, a..z', '.')).toBe('\0');
    expect(foldOf('non_cont, U+2E', '.')).toBe('.');
    expect(foldOf('a..z, a->b', 'a')).toBe('b');
    expect(foldOf('a->b, a..z', 'a')).toBe('a');
  });

  it('makes a mapped-from-only letter a separator unless listed itself', () => {
    expect(buildCaseFolding('A..Z->a..z').fold(cp('a'))).toBe(0);
  });

  it('uses the legacy Sphinx table for an empty value', () => {
    expect(foldOf('', '_')).toBe('_');
    expect(foldOf('', 'Ё')).toBe('ё');
  });

  it('wraps syntax errors with the setting name', () => {
    expect(() => buildCaseFolding('a..z,, b')).toThrow(SearchError);
    expect(() => buildCaseFolding('a..z,, b')).toThrow("'charset_table': stray ',' not allowed, use 'U+002C' instead near ', b'");
    expect(() => buildCaseFolding('cjk')).toThrow(/not supported/);
  });
});

describe('addFlaggedChars', () => {
  it('marks ignored characters', () => {
    const table = buildCaseFolding('non_cont');
    addFlaggedChars(table, 'ignore_chars', 'U+AD, -', FLAG_IGNORE, 'ignored', false);
    expect(table.lookup(0xad) & FLAG_IGNORE).toBeTruthy();
    expect(table.lookup(cp('-')) & FLAG_IGNORE).toBeTruthy();
  });

  it('refuses characters already in the charset', () => {
    const table = buildCaseFolding('non_cont');
    expect(() => addFlaggedChars(table, 'ignore_chars', 'a', FLAG_IGNORE, 'ignored', false))
      .toThrow("'ignore_chars': ignored characters must not be referenced anywhere else (code=U+61)");
  });

  it('makes a special over a word character dual', () => {
    const table = buildCaseFolding('non_cont, U+2D').withSpecials('-(');
    expect(table.lookup(cp('-')) & (FLAG_SPECIAL | FLAG_DUAL)).toBe(FLAG_SPECIAL | FLAG_DUAL);
    expect(table.lookup(cp('(')) & (FLAG_SPECIAL | FLAG_DUAL)).toBe(FLAG_SPECIAL);
  });
});
