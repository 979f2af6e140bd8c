// User patterns too large for V8's RegExp become a query error, not a SyntaxError (fuzzer found).
import { describe, expect, it } from 'vitest';
import { patternRegExp } from '../../../src/util/pattern-regexp.js';
import { likeMatcher } from '../../../src/engine/like.js';

describe('patternRegExp', () => {
  it('builds an ordinary pattern', () => {
    expect(patternRegExp('^a.c$', 'i', 'LIKE pattern').test('ABC')).toBe(true);
  });

  it('turns a pattern V8 refuses as too large into a QUERY_ERROR naming it', () => {
    const huge = '^' + '(?:über)'.repeat(400_000) + '$';
    expect(() => patternRegExp(huge, 'i', 'LIKE pattern')).toThrow(expect.objectContaining({ code: 'QUERY_ERROR', message: expect.stringContaining('LIKE pattern is too long') }));
  });

  it('LIKE keeps working for ordinary patterns', () => {
    expect(likeMatcher('t%_x')('TabX')).toBe(true);
    expect(likeMatcher('t%_x')('tx')).toBe(false);
  });
});
