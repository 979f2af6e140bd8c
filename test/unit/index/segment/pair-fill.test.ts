// Pair terms built in merges (pair-fill.ts): the galloping search against a linear scan, and a part's
// missing pair postings against the rows where the two words stand side by side, with the decoded
// words' arena emptied at every pair and never.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RtIndex } from '../../../../src/index/rt-index.js';
import type { DocInput, IndexSchema } from '../../../../src/index/types.js';
import { FlatPostings } from '../../../../src/index/segment/flat-postings.js';
import { gallop, PairFiller } from '../../../../src/index/segment/pair-fill.js';
import { pairTerm } from '../../../../src/index/segment/segment-pairs.js';
import { Rng } from '../../../fuzz/rng.js';

describe('gallop', () => {
  it('finds the first index in [from, end) whose row is >= target, as a linear scan does', () => {
    const sorted = fc.uniqueArray(fc.nat(300), { maxLength: 80 }).map((xs) => Uint32Array.from(xs.sort((x, y) => x - y)));
    fc.assert(fc.property(sorted, fc.nat(80), fc.nat(80), fc.nat(310), (rows, x, y, target) => {
      const from = Math.min(x, rows.length);
      const end = Math.max(from, Math.min(y, rows.length));
      let want = from;
      while (want < end && rows[want] < target) want++;
      expect(gallop(rows, from, end, target)).toBe(want);
    }));
  });
});

describe('PairFiller', () => {
  const VOCAB = ['the', 'of', 'a', 'cat', 'dog', 'sat'];
  const rng = new Rng(5);
  const field = (): [string[], number[]] => {
    const n = Math.floor(rng.next() * 12);
    const terms = Array.from({ length: n }, () => VOCAB[Math.floor(VOCAB.length * rng.next() * rng.next())]);
    return [terms, terms.map((_, i) => i + 1)];
  };
  const docs: DocInput[] = Array.from({ length: 150 }, (_, i) => ({
    docId: BigInt(i + 1), attrs: [],
    fields: [field(), field()].map(([terms, positions]) => ({ terms, positions, length: positions.length })),
  }));
  const schema: IndexSchema = { fields: ['title', 'body'], attrs: [], pairs: { mode: 'none' } };

  /** Rows (of the part holding docs[from, from + n)) where b stands right after a in one field, and how often. */
  function expected(a: string, b: string, from: number, n: number): [number[], number[]] {
    const rows: number[] = [];
    const tfs: number[] = [];
    for (let r = 0; r < n; r++) {
      let tf = 0;
      for (const f of docs[from + r].fields) for (let i = 0; i + 1 < f.terms.length; i++) if (f.terms[i] === a && f.terms[i + 1] === b) tf++;
      if (tf) { rows.push(r); tfs.push(tf); }
    }
    return [rows, tfs];
  }

  it("builds a part's pair postings from its words' positions, the same with the arena emptied at every pair", () => {
    const idx = new RtIndex(schema, { autoMerge: false });
    for (let i = 0; i < docs.length; i += 50) idx.addBatch(docs.slice(i, i + 50));
    const fillers = [new PairFiller(), new PairFiller(1)];
    idx.segments.forEach((seg, s) => {
      const identity = Int32Array.from({ length: seg.rows }, (_, r) => r);
      for (const a of VOCAB) {
        for (const b of VOCAB) {
          const [rows, tfs] = expected(a, b, s * 50, seg.rows);
          const got = fillers.map((f) => {
            const out = new FlatPostings();
            out.reset(0, 0);
            f.append(out, seg, seg.words(), pairTerm(a, b), identity);
            return out;
          });
          for (const out of got) {
            expect(Array.from(out.rows.subarray(0, out.nRows))).toEqual(rows);
            expect(Array.from(out.tfs.subarray(0, out.nRows))).toEqual(tfs);
          }
          expect(Array.from(got[1].hits.subarray(0, got[1].nHits))).toEqual(Array.from(got[0].hits.subarray(0, got[0].nHits)));
        }
      }
    });
    expect(idx.segments.length).toBe(3);
    idx.truncate();
  });
});
