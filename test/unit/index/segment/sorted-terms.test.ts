// A segment's termId is a binary search of its sorted dictionary: it must find every term at its
// index and nothing else, for words of any script (surrogate pairs and the code units above them
// sort differently by code point and by UTF-16 unit), in built and in merged segments.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RtIndex } from '../../../../src/index/rt-index.js';
import type { DocInput } from '../../../../src/index/types.js';
import { indexOfSorted, lowerBound } from '../../../../src/index/segment/sorted-terms.js';

const char = fc.constantFrom('a', 'b', 'z', 'é', 'ß', 'я', '中', '\uff41', '\ue000', '😀', '𝔸', '=', '_');
const word = fc.array(char, { minLength: 1, maxLength: 4 }).map((cs) => cs.join(''));
const docs = fc.array(fc.array(word, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 30 });

const asDocs = (texts: string[][], from: number): DocInput[] => texts.map((terms, i) => ({
  docId: BigInt(from + i), fields: [{ terms, positions: terms.map((_, j) => j + 1), length: terms.length }], attrs: [],
}));

describe('sorted dictionary lookups', () => {
  it('lowerBound and indexOfSorted agree with a linear scan', () => {
    fc.assert(fc.property(fc.uniqueArray(word), word, (ws, key) => {
      const terms = ws.slice().sort();
      expect(lowerBound(terms, key)).toBe(terms.filter((t) => t < key).length);
      expect(indexOfSorted(terms, key)).toBe(terms.indexOf(key));
    }));
  });

  it('termId finds each term of built and merged segments at its index, and no other word', () => {
    fc.assert(fc.property(docs, docs, word, (a, b, absent) => {
      const idx = new RtIndex({ fields: ['body'], attrs: [] }, { autoMerge: false });
      idx.addBatch(asDocs(a, 1));
      idx.addBatch(asDocs(b, 1000));
      const check = () => {
        for (const seg of idx.segments) {
          seg.terms.forEach((t, i) => expect(seg.termId(t)).toBe(i));
          expect(seg.termId(absent)).toBe(seg.terms.indexOf(absent));
        }
      };
      check();
      idx.optimize();
      check();
      idx.truncate();
    }), { numRuns: 100 });
  });
});
