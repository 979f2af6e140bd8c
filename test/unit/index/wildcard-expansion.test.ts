// Wildcard expansion by the table's min_prefix_len / min_infix_len, as Manticore's sphExpandGetWords.
import { describe, expect, it } from 'vitest';
import { expandKeyword, type ExpansionSettings } from '../../../src/index/wildcard.js';

const dict = ['=run', '=running', '=runs', 'abc', 'abcd', 'run', 'runner', 'xabcx', '\u0002sentence'].sort();
const words = (pattern: string, s?: ExpansionSettings) => expandKeyword(dict, pattern, s).map((i) => dict[i]);
const prefix3 = { minPrefixLen: 3, minInfixLen: 0, exactForms: false };
const infix2 = { minPrefixLen: 1, minInfixLen: 2, exactForms: false };

describe('expandKeyword', () => {
  it('prefixes shorter than min_prefix_len do not expand', () => {
    expect(words('ab*', prefix3)).toEqual([]);
    expect(words('abc*', prefix3)).toEqual(['abc', 'abcd']);
    expect(words('ru?', prefix3)).toEqual([]);
  });
  it('without min_infix_len leading wildcards are dropped (prefix path)', () => {
    expect(words('*abc*', prefix3)).toEqual(['abc', 'abcd']);
  });
  it('infixes need a literal run of min_infix_len characters', () => {
    expect(words('*b*', infix2)).toEqual([]);
    expect(words('*bc*', infix2)).toEqual(['abc', 'abcd', 'xabcx']);
    expect(words('*a*c*', infix2)).toEqual([]);
  });
  it('with exact forms prefixes expand over the unstemmed =word forms', () => {
    expect(words('run*', { ...prefix3, exactForms: true })).toEqual(['=run', '=running', '=runs']);
    expect(words('run*', prefix3)).toEqual(['run', 'runner']);
  });
  it('no prefix and no infix length: nothing expands; no settings: every pattern does', () => {
    expect(words('abc*', { minPrefixLen: 0, minInfixLen: 0, exactForms: false })).toEqual([]);
    expect(words('a*')).toEqual(['abc', 'abcd']);
  });
  it('reserved terms never match', () => {
    expect(words('*e*', infix2)).toEqual([]);
    expect(words('*en*', infix2)).toEqual([]);
  });
});
