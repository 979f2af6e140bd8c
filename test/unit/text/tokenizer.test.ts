import { describe, expect, it } from 'vitest';
import { addFlaggedChars, buildCaseFolding, FLAG_BOUNDARY, FLAG_IGNORE } from '../../../src/text/charset-table.js';
import { MAX_TOKEN_CODEPOINTS, QUERY_SPECIALS, Tokenizer } from '../../../src/text/tokenizer.js';

const NON_CONT = buildCaseFolding('non_cont');

interface Seen { text: string; start: number; end: number; overshort: number; boundary: boolean; special: boolean }

function scan(tok: Tokenizer, text: string): Seen[] {
  const out: Seen[] = [];
  tok.reset(text);
  while (tok.next()) {
    out.push({ text: tok.text, start: tok.start, end: tok.end, overshort: tok.overshort, boundary: tok.boundary, special: tok.special });
  }
  return out;
}
const words = (text: string, minWordLen = 1) =>
  scan(new Tokenizer(NON_CONT, { minWordLen, queryMode: false }), text).map((t) => t.text);

describe('Tokenizer (index mode)', () => {
  it('splits on everything outside the charset and folds', () => {
    expect(words("Hello, WORLD! don't foo_bar 3.14 x86_64")).toEqual(
      ['hello', 'world', 'don', 't', 'foo', 'bar', '3', '14', 'x86', '64']);
    expect(words('Café Über straße Ёлка')).toEqual(['cafe', 'uber', 'strase', 'елка']);
    expect(words('')).toEqual([]);
    expect(words('  ...  ')).toEqual([]);
  });

  it('reports UTF-16 offsets of the source, surrogate pairs included', () => {
    const tok = new Tokenizer(NON_CONT, { minWordLen: 1, queryMode: false });
    const text = '😀 Ab 😀cd𝔸';
    const seen = scan(tok, text);
    expect(seen.map((t) => [t.text, text.slice(t.start, t.end)])).toEqual([['ab', 'Ab'], ['cd', 'cd']]);
  });

  it('passes codepoints beyond the table through as word characters', () => {
    expect(words('a\u{30001}b c')).toEqual(['a\u{30001}b', 'c']);
  });

  it('reads a lone surrogate as a separator', () => {
    expect(words('ab\ud800cd')).toEqual(['ab', 'cd']);
  });

  it('drops tokens shorter than min_word_len and counts them for the next token', () => {
    const tok = new Tokenizer(NON_CONT, { minWordLen: 3, queryMode: false });
    expect(scan(tok, 'a bb ccc d eeee ff').map((t) => [t.text, t.overshort])).toEqual([['ccc', 2], ['eeee', 1]]);
  });

  it('truncates long words to 42 codepoints but keeps their full span', () => {
    const long = 'x'.repeat(60);
    const [t] = scan(new Tokenizer(NON_CONT, { minWordLen: 1, queryMode: false }), `${long} y`);
    expect(t.text).toBe('x'.repeat(MAX_TOKEN_CODEPOINTS));
    expect(t.end).toBe(60);
  });

  it('drops ignored characters without splitting the word', () => {
    const table = buildCaseFolding('non_cont');
    addFlaggedChars(table, 'ignore_chars', 'U+AD, -', FLAG_IGNORE, 'ignored', false);
    const tok = new Tokenizer(table, { minWordLen: 1, queryMode: false });
    expect(scan(tok, 'Soft\u00adware well-known - x').map((t) => t.text)).toEqual(['software', 'wellknown', 'x']);
  });

  it('flags a phrase boundary only when a separator follows the boundary character', () => {
    const table = buildCaseFolding('non_cont');
    addFlaggedChars(table, 'phrase_boundary', 'U+2C', FLAG_BOUNDARY, 'phrase boundary', false);
    const tok = new Tokenizer(table, { minWordLen: 1, queryMode: false });
    expect(scan(tok, 'a, b,c ,d').map((t) => [t.text, t.boundary])).toEqual(
      [['a', false], ['b', true], ['c', false], ['d', false]]);
  });
});

describe('Tokenizer (query mode)', () => {
  const query = (text: string, spec = 'non_cont') =>
    scan(new Tokenizer(buildCaseFolding(spec).withSpecials(QUERY_SPECIALS), { minWordLen: 1, queryMode: true }), text)
      .map((t) => (t.special ? `[${t.text}]` : t.text));

  it('returns operators as special tokens', () => {
    expect(query('-hello "a b" @title x|y')).toEqual(['[-]', 'hello', '["]', 'a', 'b', '["]', '[@]', 'title', 'x', '[|]', 'y']);
  });

  it('treats a dash inside a word as a separator, or a word part when in the charset', () => {
    expect(query('well-known')).toEqual(['well', 'known']);
    expect(query('well-known -x', 'non_cont, U+2D')).toEqual(['well-known', '[-]', 'x']);
  });

  it('unescapes with a backslash', () => {
    expect(query('IT\\/Tech')).toEqual(['it', 'tech']);
    expect(query('a\\-b', 'non_cont, U+2D')).toEqual(['a-b']);
  });
});
