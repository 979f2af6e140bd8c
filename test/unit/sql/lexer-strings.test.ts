import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { tokenize } from '../../../src/sql/lexer.js';

const UNESCAPE: Record<string, string> = { b: '\b', n: '\n', r: '\r', t: '\t', 0: ' ' };

/** The string rule char by char, as the lexer did before it jumped with indexOf. */
function referenceString(src: string, i: number): { kind: 'string' | 'bad'; value: string; end: number } {
  const quote = src[i];
  let value = '';
  for (let j = i + 1; j < src.length; j++) {
    if (src[j] === quote) return { kind: 'string', value, end: j + 1 };
    if (src[j] === '\\' && j + 1 < src.length) {
      value += UNESCAPE[src[j + 1]] ?? src[j + 1];
      j++;
      continue;
    }
    value += src[j];
  }
  return { kind: 'bad', value: src.slice(i), end: src.length };
}

describe('lexer: quoted strings', () => {
  it('unescapes and ends strings as the per-character rule does', () => {
    const chars = fc.constantFrom('a', 'é', "'", '"', '\\', 'b', 'n', 't', '0', ' ', 'x');
    fc.assert(fc.property(fc.constantFrom("'", '"'), fc.array(chars, { maxLength: 30 }), (q, body) => {
      const src = q + body.join('');
      const ref = referenceString(src, 0);
      const [tok] = tokenize(src);
      expect(tok.kind).toBe(ref.kind);
      expect(tok.value).toBe(ref.value);
      expect(tok.end).toBe(ref.end);
    }), { numRuns: 2000 });
  });

  it('lexes many string values of a multi-row INSERT', () => {
    const toks = tokenize("INSERT INTO t VALUES (1,'it\\'s','a\\\\b'),(2,\"x\\ny\",'')");
    expect(toks.filter((t) => t.kind === 'string').map((t) => t.value)).toEqual(["it's", 'a\\b', 'x\ny', '']);
  });

  it("has no '' escape (sphinxql.l's string rule): two quotes end one string and open the next", () => {
    const toks = tokenize("'it''s'");
    expect(toks.filter((t) => t.kind !== 'eof').map((t) => [t.kind, t.value, t.start, t.end])).toEqual([['string', 'it', 0, 4], ['string', 's', 4, 7]]);
    // only a backslash escapes the quote
    expect(tokenize("'it\\'s'")[0]).toMatchObject({ kind: 'string', value: "it's", end: 7 });
  });
});
