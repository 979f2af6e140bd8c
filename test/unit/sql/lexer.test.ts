import { describe, expect, it } from 'vitest';
import { tokenize, type Token } from '../../../src/sql/lexer.js';

const kinds = (src: string): string[] => tokenize(src).map((t) => `${t.kind}:${t.value}`);
const values = (src: string): string[] => tokenize(src).filter((t) => t.kind !== 'eof').map((t) => t.value);

describe('tokenize', () => {
  it('splits words, numbers, strings and punctuation, ending with eof', () => {
    expect(kinds("SELECT a, 12 FROM t WHERE x>=1.5")).toEqual([
      'ident:SELECT', 'ident:a', 'punct:,', 'int:12', 'ident:FROM', 'ident:t', 'ident:WHERE', 'ident:x',
      'punct:>=', 'float:1.5', 'eof:',
    ]);
  });

  it('upper-cases bare words for keyword matching only', () => {
    const [t] = tokenize('sElEcT');
    expect(t).toMatchObject({ kind: 'ident', value: 'sElEcT', upper: 'SELECT' });
    expect(tokenize('`select`')[0]).toMatchObject({ kind: 'quoted_ident', value: 'select', upper: '' });
  });

  it('records source offsets', () => {
    const toks: Token[] = tokenize('  ab  "cd"');
    expect(toks.map((t) => [t.start, t.end])).toEqual([[2, 4], [6, 10], [10, 10]]);
  });

  it.each([
    ["'it\\'s'", "it's"],
    ['"say \\"hi\\""', 'say "hi"'],
    ["'a\\\\b'", 'a\\b'],
    ["'l1\\nl2\\tx\\r'", 'l1\nl2\tx\r'],
    ["'nul\\0here'", 'nul here'],
    ["'\\b'", '\b'],
    ["'\\q'", 'q'],
    ["'semi;colon'", 'semi;colon'],
    ["''", ''],
    ["'тест'", 'тест'],
  ])('unescapes %s', (src, value) => {
    expect(tokenize(src)[0]).toMatchObject({ kind: 'string', value });
  });

  it('marks an unterminated string as bad', () => {
    expect(tokenize("'abc")[0]).toMatchObject({ kind: 'bad', value: "'abc" });
  });

  it.each([
    ['1', 'int'], ['007', 'int'], ['1.', 'float'], ['1.5', 'float'], ['.5', 'float'], ['1e3', 'float'],
    ['1.5E-3', 'float'], ['2e+2', 'float'], ['18446744073709551616', 'int'],
  ])('reads %s as %s', (src, kind) => {
    expect(tokenize(src)[0]).toMatchObject({ kind, value: src });
  });

  it('treats digits running into letters as one bad token', () => {
    expect(kinds('123abc')).toEqual(['bad:123abc', 'eof:']);
  });

  it('reads .5 after a name as a path step, not a number', () => {
    expect(kinds('j.5')).toEqual(['ident:j', 'punct:.', 'int:5', 'eof:']);
  });

  it('folds <> into != and := into =', () => {
    expect(values('a<>b c:=1 d!=e f<=g h>=i')).toEqual(['a', '!=', 'b', 'c', '=', '1', 'd', '!=', 'e', 'f', '<=', 'g', 'h', '>=', 'i']);
  });

  it('reads system and user variables', () => {
    expect(kinds('@@version_comment @@session.autocommit @uv @@`x`')).toEqual([
      'sysvar:version_comment', 'sysvar:session.autocommit', 'uservar:uv', 'sysvar:x', 'eof:',
    ]);
  });

  it('skips /* */, -- and # comments', () => {
    expect(values('a /* b; c */ d -- e\nf # g\nh /*+ hint */ i')).toEqual(['a', 'd', 'f', 'h', 'i']);
    expect(values('a /* unterminated')).toEqual(['a']);
  });

  it('keeps 5--3 as arithmetic: -- needs a space to open a comment', () => {
    expect(values('5--3')).toEqual(['5', '-', '-', '3']);
    expect(values('5 -- 3')).toEqual(['5']);
  });

  it('marks characters no rule accepts as bad', () => {
    expect(kinds('a $ b')).toEqual(['ident:a', 'bad:$', 'ident:b', 'eof:']);
    expect(tokenize('é')[0]!.kind).toBe('bad');
  });

  it('keeps semicolons inside quotes and backquotes', () => {
    expect(values("'a;b' `c;d` ;")).toEqual(['a;b', 'c;d', ';']);
  });
});
