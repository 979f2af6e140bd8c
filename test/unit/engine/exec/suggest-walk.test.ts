// The trie walk CALL SUGGEST uses finds exactly the terms a scan of the whole dictionary finds: the
// same terms and distances, for random dictionaries (with `=exact` forms, marker terms and characters
// outside the BMP) and random limits; and it does not read every term to find them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editDistance } from '../../../../src/util/edit-distance.js';
import { isWordTerm, walkSuggestions } from '../../../../src/engine/exec/suggest-walk.js';

/** The scan the walk replaced: every word term within the length window and the edit limit. */
function scan(terms: string[], word: string, maxEdits: number, deltaLen: number): [string, number][] {
  const w = [...word];
  const out: [string, number][] = [];
  for (const t of terms) {
    if (!isWordTerm(t)) continue;
    const chars = [...t];
    if (Math.abs(chars.length - w.length) >= deltaLen) continue;
    const d = editDistance(w, chars, maxEdits);
    if (d <= maxEdits) out.push([t, d]);
  }
  return out;
}

function walk(terms: string[], word: string, maxEdits: number, deltaLen: number): [string, number][] {
  const out: [string, number][] = [];
  walkSuggestions(terms, [...word].map((c) => c.codePointAt(0)!), maxEdits, deltaLen, (i, d) => out.push([terms[i]!, d]));
  return out;
}

const letter = fc.constantFrom('a', 'b', 'c', 'd', 'é', '\u{1F600}', '\u{1F601}');
const wordArb = fc.array(letter, { minLength: 1, maxLength: 9 }).map((cs) => cs.join(''));
const termArb = fc.oneof({ weight: 8, arbitrary: wordArb }, { weight: 1, arbitrary: wordArb.map((w) => `=${w}`) }, { weight: 1, arbitrary: wordArb.map((w) => `\x01${w}`) });
const dict = fc.uniqueArray(termArb, { maxLength: 300 }).map((ts) => ts.sort());

describe('walkSuggestions', () => {
  it('finds what a whole-dictionary scan finds, in dictionary order', () => {
    fc.assert(fc.property(dict, wordArb, fc.integer({ min: -1, max: 5 }), fc.integer({ min: -1, max: 6 }), (terms, word, maxEdits, deltaLen) => {
      expect(walk(terms, word, maxEdits, deltaLen)).toEqual(scan(terms, word, maxEdits, deltaLen));
    }), { numRuns: 400 });
  });

  it('passes over the holes of a partly loaded dictionary and finds the loaded terms a scan finds', () => {
    const holes = fc.array(fc.boolean(), { minLength: 300, maxLength: 300 });
    fc.assert(fc.property(dict, holes, wordArb, fc.integer({ min: 0, max: 4 }), fc.integer({ min: 1, max: 6 }), (terms, hole, word, maxEdits, deltaLen) => {
      const sparse: string[] = new Array<string>(terms.length); // a page's dictionary: unloaded terms are holes
      terms.forEach((t, i) => { if (!hole[i]) sparse[i] = t; });
      const loaded = terms.filter((_, i) => !hole[i]);
      expect(walk(sparse, word, maxEdits, deltaLen)).toEqual(scan(loaded, word, maxEdits, deltaLen));
    }), { numRuns: 200 });
  });

  it('skips the prefixes that cannot match instead of reading every term', () => {
    const terms: string[] = [];
    for (let i = 0; i < 20_000; i++) terms.push(`z${i.toString(36).padStart(4, '0')}tail`);
    terms.push('bag', 'bags', 'baggage');
    terms.sort();
    let reads = 0;
    const counted = new Proxy(terms, { get: (o, k) => { if (typeof k === 'string' && /^\d+$/.test(k)) reads++; return Reflect.get(o, k); } });
    const found: string[] = [];
    walkSuggestions(counted, [...'bagz'].map((c) => c.codePointAt(0)!), 1, 3, (i) => found.push(terms[i]!));
    expect(found).toEqual(['bag', 'bags']);
    expect(reads).toBeLessThan(2_000);
  });
});
