import { describe, expect, it } from 'vitest';
import { CharScanner, defaultIsWordChar, type RawToken } from '../../../src/query/char-scanner.js';

function tokens(text: string, phrase = false, opts = {}): string[] {
  const s = new CharScanner(text, opts);
  s.phrase = phrase;
  const out: string[] = [];
  for (let t: RawToken | null = s.next(); t; t = s.next()) out.push(t.special ? `<${t.text}>` : t.text);
  return out;
}

describe('CharScanner', () => {
  it('splits words at separators and operators, keeping the typed case', () => {
    expect(tokens('Hello, wörld-x!y')).toEqual(['Hello', 'wörld', 'x', '<!>', 'y']);
  });

  it('reads a leading dash as an operator and an inner one as a separator', () => {
    expect(tokens('-a-b')).toEqual(['<->', 'a', 'b']);
  });

  it('reads $ as an operator only before a boundary', () => {
    expect(tokens('a$ b$c d$)')).toEqual(['a', '<$>', 'b', 'c', 'd', '<$>', '<)>']);
  });

  it('keeps only quotes, modifiers and group operators special inside a phrase', () => {
    expect(tokens('a-b @c ~d /e | ( ) ^f g$ "', true)).toEqual(['a', 'b', 'c', 'd', 'e', '<|>', '<(>', '<)>', '<^>', 'f', 'g', '<$>', '<">']);
  });

  it('turns an escaped operator into a separator unless the charset holds it', () => {
    expect(tokens('a\\/b \\\\c')).toEqual(['a', 'b', 'c']);
    expect(tokens('a\\/b', false, { isWordChar: (cp: number) => cp === 47 || defaultIsWordChar(cp) })).toEqual(['a/b']);
  });

  it('keeps wildcards inside words only when the table has them', () => {
    expect(tokens('a*b ?c%')).toEqual(['a*b', '?c%']);
    expect(tokens('a*b', false, { wildcards: false })).toEqual(['a', 'b']);
  });

  it('reads = as an operator only with exact words, and none in JSON text', () => {
    expect(tokens('=a')).toEqual(['<=>', 'a']);
    expect(tokens('=a', false, { exactWords: false })).toEqual(['a']);
    expect(tokens('-a|"b"', false, { json: true })).toEqual(['a', 'b']);
  });

  it('counts a run of non-ASCII separators ended by a space as a skipped word', () => {
    const s = new CharScanner('— x');
    expect(s.next()?.text).toBe('x');
    expect(s.overshort).toBe(1);
  });

  it('records where the last token started and ended', () => {
    const s = new CharScanner('ab^2');
    s.next();
    expect([s.tokenStart, s.tokenEnd, s.pos]).toEqual([0, 2, 2]);
  });
});
