// Pair terms built in merges (pair-fill.ts): a part's missing pair postings against the rows and
// positions where the two words stand side by side in the documents.
import { describe, expect, it } from 'vitest';
import { RtIndex } from '../../../../src/index/rt-index.js';
import type { DocInput, IndexSchema } from '../../../../src/index/types.js';
import { FlatPostings } from '../../../../src/index/segment/flat-postings.js';
import { pairAt, PairFiller, pairTable, WORDS } from '../../../../src/index/segment/pair-fill.js';
import { pairTerm } from '../../../../src/index/segment/segment-pairs.js';
import { FIELD_SHIFT } from '../../../../src/index/segment/segment-layout.js';
import { Rng } from '../../../fuzz/rng.js';

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

  /** Rows (of the part holding docs[from, from + n)) where b stands right after a in one field, how often, and where a stands. */
  function expected(a: string, b: string, from: number, n: number): [number[], number[], number[]] {
    const rows: number[] = [];
    const tfs: number[] = [];
    const hits: number[] = [];
    for (let r = 0; r < n; r++) {
      let tf = 0;
      docs[from + r].fields.forEach((f, field) => {
        for (let i = 0; i + 1 < f.terms.length; i++) {
          if (f.terms[i] === a && f.terms[i + 1] === b) { tf++; hits.push(((field << FIELD_SHIFT) | f.positions[i]) >>> 0); }
        }
      });
      if (tf) { rows.push(r); tfs.push(tf); }
    }
    return [rows, tfs, hits];
  }

  it("builds every pair a part lacks from its words' positions, rows renumbered as the merge numbers them", () => {
    const idx = new RtIndex(schema, { autoMerge: false });
    for (let i = 0; i < docs.length; i += 50) idx.addBatch(docs.slice(i, i + 50));
    const parts = idx.segments;
    expect(parts.length).toBe(3);
    const pairs = VOCAB.flatMap((a) => VOCAB.map((b) => pairTerm(a, b))).sort();
    // every pair lacking in every part but the middle one's "cat dog"
    const lacking = new Map(pairs.map((p, m) => [m, p === pairTerm('cat', 'dog') ? [0, 2] : [0, 1, 2]]));
    // the merged numbering: the parts one after another, the first row of the last part deleted
    const maps = parts.map((seg, s) => Int32Array.from({ length: seg.rows }, (_, r) => (s === 2 && r === 0 ? -1 : s * 50 + r - (s === 2 ? 1 : 0))));
    const filler = new PairFiller(parts, pairs, lacking, maps);
    parts.forEach((seg, s) => {
      pairs.forEach((pair, m) => {
        const out = new FlatPostings();
        out.reset(0, 0);
        filler.append(out, s, m);
        const [a, b] = pair.slice(1).split('\u0001');
        let [rows, tfs, hits] = expected(a, b, s * 50, seg.rows);
        if (s === 2 && rows[0] === 0) { hits = hits.slice(tfs[0]); rows = rows.slice(1); tfs = tfs.slice(1); }
        if (!lacking.get(m)!.includes(s)) [rows, tfs, hits] = [[], [], []];
        expect(Array.from(out.rows.subarray(0, out.nRows))).toEqual(rows.map((r) => maps[s][r]));
        expect(Array.from(out.tfs.subarray(0, out.nRows))).toEqual(tfs);
        expect(Array.from(out.hits.subarray(0, out.nHits))).toEqual(hits);
      });
    });
    expect(pairs.some((p, m) => { const out = new FlatPostings(); out.reset(0, 0); filler.append(out, 1, m); return out.nRows > 5; })).toBe(true);
    idx.truncate();
  });

  it('finds a pair by its two word numbers alike in a table and in the map alone (too many words for a table)', () => {
    const words = 40;
    const pairOf = new Map<number, number>();
    for (let k = 0; k < 300; k++) pairOf.set(Math.floor(rng.next() * words) * WORDS + Math.floor(rng.next() * words), k);
    const table = pairTable(pairOf, words);
    const mapOnly = pairTable(pairOf, words, words * words - 1);
    expect(table.table).not.toBeNull();
    expect(mapOnly.table).toBeNull();
    let found = 0;
    for (let a = 0; a < words; a++) {
      for (let b = 0; b < words; b++) {
        const want = pairOf.get(a * WORDS + b) ?? -1;
        expect(pairAt(table, a, b)).toBe(want);
        expect(pairAt(mapOnly, a, b)).toBe(want);
        if (want >= 0) found++;
      }
    }
    expect(found).toBeGreaterThan(100);
  });
});
