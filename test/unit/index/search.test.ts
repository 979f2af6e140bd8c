// The top-K merge (finishSearch): a page ordered by weight alone, merged from several tops with ties
// at the cut, equals the page a full sort of every row gives (its candidates are only the rows at or
// above the window-th best weight).
import { describe, expect, it } from 'vitest';
import { finishSearch, type PreparedSearch, type SegmentJob, type SegmentTop } from '../../../src/index/search.js';
import type { Segment } from '../../../src/index/segment/segment.js';
import type { SearchRequest } from '../../../src/index/types.js';
import { collation } from '../../../src/util/collation.js';
import { mulberry32 } from '../../../bench/lib/bench-util.js';

/** A stand-in segment: docId = id * 1000 + row, enough for the merge. */
const seg = (id: number): Segment => ({ docId: (row: number) => BigInt(id * 1000 + row) }) as unknown as Segment;

function request(offset: number, limit: number): SearchRequest {
  return { query: null, ranker: 'proximity_bm25', fieldWeights: {}, filters: [], sort: [], offset, limit, maxMatches: 1000 };
}

describe('finishSearch', () => {
  it('merges a weight-ordered page from tops with ties at the cut as a full sort does', () => {
    const rng = mulberry32(7);
    for (let round = 0; round < 200; round++) {
      const jobs: SegmentJob[] = Array.from({ length: 1 + Math.floor(rng() * 5) }, (_, order) => ({ seg: seg(order), order, plan: new Uint32Array(0), owned: [] }));
      // few distinct weights, so ties at the window's edge are common
      const tops: SegmentTop[] = jobs.map((job) => {
        const n = Math.floor(rng() * 25);
        const rows = Array.from({ length: n }, (_, i) => i * 3 + Math.floor(rng() * 3));
        return { job, rowIds: Uint32Array.from(rows), weights: Int32Array.from(rows, () => 1000 + Math.floor(rng() * 6) * 100), total: n };
      });
      const offset = Math.floor(rng() * 5);
      const limit = 1 + Math.floor(rng() * 20);
      const p: PreparedSearch = { jobs, window: offset + limit, keys: [{ kind: 'weight', column: -1, host: false, desc: true, coll: collation(undefined) }], ranked: true, keywords: [], deadline: Infinity };
      const all = tops.flatMap((t) => Array.from(t.rowIds, (row, i) => ({ order: t.job.order, row, weight: t.weights[i] })));
      // ties to the lower document id (order * 1000 + row here), Manticore's docid tie-break
      all.sort((a, b) => b.weight - a.weight || (a.order * 1000 + a.row) - (b.order * 1000 + b.row));
      const expected = all.slice(offset, offset + limit).map((c) => ({ docId: BigInt(c.order * 1000 + c.row), weight: c.weight }));
      const page = finishSearch(p, tops, request(offset, limit));
      expect(page.hits).toEqual(expected);
      expect(page.totalFound).toBe(all.length);
    }
  });
});
