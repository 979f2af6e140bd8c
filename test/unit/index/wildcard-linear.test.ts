// Wildcard keywords match in linear time (found by qa27 probing: MATCH('*a*a*a*a*a*a*a*a*a*a*a*a*a*ab') over a
// table holding a 40-letter word backtracked in V8's RegExp for minutes, on the event loop that serves every
// connection). `?` and `%` stay one (or at most one) character, a whole surrogate pair among them.
import { describe, expect, it } from 'vitest';
import { expandWildcard, wildcardRegExp } from '../../../src/index/wildcard.js';

describe('wildcard keywords in linear time', () => {
  it('many * over a long word answers', () => {
    const terms = ['a'.repeat(40), 'b'];
    expect(expandWildcard(terms, `${'*a'.repeat(14)}b`)).toEqual([]);
    expect(expandWildcard(terms, `${'*a'.repeat(14)}*`)).toEqual([0]);
    expect(expandWildcard(terms, `${'%a'.repeat(14)}*b`)).toEqual([]);
  });

  it('* any run, ? one character, % zero or one, the rest literal', () => {
    const re = (p: string, s: string) => wildcardRegExp(p).test(s);
    expect(re('x?y', 'x😀y')).toBe(true);
    expect(re('x?y', 'x😀😀y')).toBe(false);
    expect(re('x%y', 'xy')).toBe(true);
    expect(re('x%y', 'xéy')).toBe(true);
    expect(re('x%y', 'xaay')).toBe(false);
    expect(re('a*', 'a\nb')).toBe(true);
    expect(re('a.c', 'abc')).toBe(false);
    expect(re('(a)*', '(a)x')).toBe(true);
  });
});
