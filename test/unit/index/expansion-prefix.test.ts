// expansionPrefix: every expansion expandKeyword finds starts with it (what a page fetches of the dictionary).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expandKeyword, expansionPrefix, type ExpansionSettings } from '../../../src/index/wildcard.js';

const prefixOnly: ExpansionSettings = { minPrefixLen: 2, minInfixLen: 0, exactForms: false };
const infix: ExpansionSettings = { minPrefixLen: 0, minInfixLen: 2, exactForms: false };
const exact: ExpansionSettings = { minPrefixLen: 1, minInfixLen: 0, exactForms: true };

describe('expansionPrefix', () => {
  it('is the lookup pattern\'s literal prefix', () => {
    expect(expansionPrefix('abc*', prefixOnly)).toBe('abc');
    expect(expansionPrefix('a*', prefixOnly)).toBeNull();
    expect(expansionPrefix('*bc*', infix)).toBe('');
    expect(expansionPrefix('ab?d*', infix)).toBe('ab');
    expect(expansionPrefix('ab*', exact)).toBe('=ab');
    expect(expansionPrefix('ab*', { minPrefixLen: 0, minInfixLen: 0, exactForms: false })).toBeNull();
    expect(expansionPrefix('ab*')).toBe('ab');
  });

  it('every expansion starts with it', () => {
    const word = fc.stringMatching(/^=?[abc]{1,5}$/);
    const pattern = fc.stringMatching(/^[abc*?%]{1,5}$/);
    fc.assert(fc.property(fc.uniqueArray(word, { maxLength: 40 }), pattern, fc.constantFrom(prefixOnly, infix, exact), (words, p, s) => {
      const terms = [...words].sort();
      const prefix = expansionPrefix(p, s);
      const ids = expandKeyword(terms, p, s);
      if (prefix === null) expect(ids).toEqual([]);
      else for (const i of ids) expect(terms[i].startsWith(prefix)).toBe(true);
    }));
  });
});
