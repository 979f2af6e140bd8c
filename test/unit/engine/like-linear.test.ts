// SHOW ... LIKE runs in time bounded by pattern x subject length (found by qa27 probing: SHOW TABLES LIKE
// '%a%a%a%a%a%a%a%a%a%a%a%a%a%ab' with a 60-letter table name backtracked in V8's RegExp for minutes,
// holding the event loop and so every connection of the server).
import { describe, expect, it } from 'vitest';
import { likeMatcher } from '../../../src/engine/like.js';

describe('LIKE without backtracking', () => {
  it('a pattern of many % over a long name answers', () => {
    const name = 'a'.repeat(60);
    expect(likeMatcher(`${'%a'.repeat(14)}b`)(name)).toBe(false);
    expect(likeMatcher(`${'%a'.repeat(14)}%`)(name)).toBe(true);
    expect(likeMatcher('%a'.repeat(61))(name)).toBe(false);
  });

  it('% any run, _ one character, everything else literal and case-insensitive', () => {
    expect(likeMatcher('t%_x')('TabX')).toBe(true);
    expect(likeMatcher('t%_x')('tx')).toBe(false);
    expect(likeMatcher('%')('')).toBe(true);
    expect(likeMatcher('_')('')).toBe(false);
    expect(likeMatcher('')('')).toBe(true);
    expect(likeMatcher('')('a')).toBe(false);
    expect(likeMatcher('a.c')('abc')).toBe(false);
    expect(likeMatcher('a.c')('A.C')).toBe(true);
    expect(likeMatcher('%(x]*%')('a(X]*b')).toBe(true);
    expect(likeMatcher('auto%')('auto_optimize')).toBe(true);
    expect(likeMatcher('%_%')('\n')).toBe(true);
    expect(likeMatcher('ÜBER%')('über_x')).toBe(true);
    expect(likeMatcher(undefined)('anything')).toBe(true);
  });
});
