// The tokenizer's hot loop checked against a naive per-codepoint reading of Manticore's rules.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addFlaggedChars, buildCaseFolding, CODE_MASK, FLAG_BOUNDARY, FLAG_IGNORE, type CharsetTable,
} from '../../../src/text/charset-table.js';
import { MAX_TOKEN_BYTES, MAX_TOKEN_CODEPOINTS, Tokenizer } from '../../../src/text/tokenizer.js';

interface Tok { text: string; start: number; end: number; overshort: number; boundary: boolean }

/** Index-mode tokenization, one codepoint at a time, no fast paths. */
function reference(table: CharsetTable, text: string, minWordLen: number): Tok[] {
  const out: Tok[] = [];
  let acc: number[] = [];
  let bytes = 0;
  let start = 0;
  let overshort = 0;
  let boundary = false;
  let afterBoundary = false;
  const flush = (end: number): void => {
    if (acc.length === 0) return;
    if (acc.length < minWordLen) overshort++;
    else {
      out.push({ text: String.fromCodePoint(...acc), start, end, overshort, boundary });
      overshort = 0;
      boundary = false;
    }
    acc = [];
    bytes = 0;
  };
  let i = 0;
  while (i < text.length) {
    let cp = text.codePointAt(i)!;
    let width = cp > 0xffff ? 2 : 1;
    if (cp >= 0xd800 && cp <= 0xdfff) { cp = 0xfffd; width = 1; }
    const entry = table.lookup(cp);
    if (entry & FLAG_IGNORE) { i += width; continue; }
    if (afterBoundary && entry === 0) boundary = true;
    afterBoundary = (entry & FLAG_BOUNDARY) !== 0;
    if (entry === 0 || afterBoundary) { flush(i); i += width; continue; }
    const code = entry & CODE_MASK;
    if (acc.length === 0) start = i;
    const need = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (acc.length < MAX_TOKEN_CODEPOINTS && bytes + need <= MAX_TOKEN_BYTES) { acc.push(code); bytes += need; }
    i += width;
  }
  flush(text.length);
  return out;
}

function scan(table: CharsetTable, text: string, minWordLen: number): Tok[] {
  const tok = new Tokenizer(table, { minWordLen, queryMode: false });
  const out: Tok[] = [];
  tok.reset(text);
  while (tok.next()) out.push({ text: tok.text, start: tok.start, end: tok.end, overshort: tok.overshort, boundary: tok.boundary });
  return out;
}

const table = buildCaseFolding('non_cont, U+2E');
addFlaggedChars(table, 'phrase_boundary', 'U+2C, U+3B', FLAG_BOUNDARY, 'phrase boundary', false);
addFlaggedChars(table, 'ignore_chars', 'U+AD, U+27', FLAG_IGNORE, 'ignored', false);

const pieces = ['a', 'B', 'z', 'É', 'ß', 'я', 'Ω', '5', ' ', ',', ';', '.', "'", '\u00ad', '-', '_', '😀', '\u{30005}',
  '\ud800', '\udc00', '中', 'ǅ', 'x'.repeat(50), 'é'.repeat(45), '𝔸'];

describe('Tokenizer against the naive reference', () => {
  it('agrees on random text with ignore and boundary characters', () => {
    fc.assert(fc.property(
      fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((a) => a.join('')),
      fc.integer({ min: 1, max: 4 }),
      (text, minWordLen) => {
        expect(scan(table, text, minWordLen)).toEqual(reference(table, text, minWordLen));
      },
    ), { numRuns: 2000 });
  });

  it('agrees on arbitrary strings', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
      expect(scan(table, text, 1)).toEqual(reference(table, text, 1));
    }), { numRuns: 400 });
  });
});
