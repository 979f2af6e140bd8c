// Wildcard expansion by the table's min_prefix_len / min_infix_len, as Manticore's sphExpandGetWords.
import { describe, expect, it } from 'vitest';
import {
  expandKeyword, expandWildcard, expansionWarning, limitExpansions, queryExpansionWarning, wildcardRegExp, type ExpansionSettings,
} from '../../../src/index/wildcard.js';
import type { QueryNode } from '../../../src/query/ast.js';

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

describe('expansionWarning (Manticore sphExpandXQNode)', () => {
  it('names the too-short word, with infix when the table has min_infix_len', () => {
    expect(expansionWarning('ab*', prefix3)).toBe("Query word length is less than min prefix length. word: 'ab*' ");
    expect(expansionWarning('*b*', infix2)).toBe("Query word length is less than min infix length. word: '*b*' ");
    expect(expansionWarning('a*', { minPrefixLen: 2, minInfixLen: 3, exactForms: false }))
      .toBe("Query word length is less than min infix length. word: 'a*' ");
  });
  it('says nothing for words that expand, for only-wildcard words, and without prefix/infix settings', () => {
    expect(expansionWarning('abc*', prefix3)).toBeNull();
    expect(expansionWarning('*bc*', infix2)).toBeNull();
    expect(expansionWarning('*', prefix3)).toBeNull();
    expect(expansionWarning('a*', { minPrefixLen: 0, minInfixLen: 0, exactForms: false })).toBeNull();
  });
  it('a query reports its last too-short wildcard', () => {
    const q: QueryNode = { kind: 'and', children: [
      { kind: 'term', text: 'a*', wildcard: true },
      { kind: 'phrase', terms: [{ kind: 'term', text: 'abc*', wildcard: true }, { kind: 'term', text: 'b?', wildcard: true }], offsets: [0, 1] },
      { kind: 'term', text: 'xyz' },
    ] };
    expect(queryExpansionWarning(q, prefix3)).toBe("Query word length is less than min prefix length. word: 'b?' ");
    expect(queryExpansionWarning({ kind: 'term', text: 'abc*', wildcard: true }, prefix3)).toBeUndefined();
    expect(queryExpansionWarning(null, prefix3)).toBeUndefined();
  });
});

describe('limitExpansions (expansion_limit)', () => {
  const docs = [5, 300, 2, 40, 40, 1];
  const hits = [5, 900, 2, 400, 257, 1];
  it('keeps the most frequent (docs, when over 256 hits), ties in dictionary order, ascending', () => {
    const ids = [0, 1, 2, 3, 4, 5];
    expect(limitExpansions(ids, 2, (t) => docs[t], (t) => hits[t])).toEqual([1, 3]);
    expect(limitExpansions(ids, 3, (t) => docs[t], (t) => hits[t])).toEqual([1, 3, 4]);
    // at most 256 hits rank alike: the first in the dictionary stay
    expect(limitExpansions(ids, 4, (t) => docs[t], (t) => hits[t])).toEqual([0, 1, 3, 4]);
  });
  it('0 or a limit not exceeded keeps all', () => {
    expect(limitExpansions([2, 4], 0, (t) => docs[t], (t) => hits[t])).toEqual([2, 4]);
    expect(limitExpansions([2, 4], 2, (t) => docs[t], (t) => hits[t])).toEqual([2, 4]);
  });
});

describe('expandWildcard', () => {
  it('a plain prefix takes every term from it on; other patterns are tested', () => {
    const terms = ['ab', 'abc', 'abd', 'ac', 'b'];
    expect(expandWildcard(terms, 'ab*')).toEqual([0, 1, 2]);
    expect(expandWildcard(terms, 'ab?')).toEqual([1, 2]);
    expect(expandWildcard(terms, 'a*c')).toEqual([1, 3]);
  });
});

describe('expandWildcard fast paths agree with the pattern', () => {
  it('prefix and infix patterns give what the pattern RegExp accepts', () => {
    const terms = ['a', 'ab', 'abab', 'b', 'ba', 'bab', 'bb', 'ca', '=ab', '\u0002p'].sort();
    for (const p of ['a*', 'ab*', 'b*', '*a*', '*ab*', '*b*', '*ba*', '*z*']) {
      const re = wildcardRegExp(p);
      const want = terms.map((t, i) => [t, i] as const).filter(([t]) => t.charCodeAt(0) >= 0x20 && t[0] !== '=' && re.test(t)).map(([, i]) => i);
      expect(expandWildcard(terms, p)).toEqual(want);
    }
  });
});
