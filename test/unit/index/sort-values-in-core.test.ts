// The merge reads expression sort keys' values in place from the core's columns (sort-plan.ts coreColumnReader):
// core memory that grows between the placement (prepareSearch) and the merge (finishSearch) must not leave it a
// stale view. A non-shared memory detaches every view taken before a grow; a shared one keeps them valid.
import { describe, expect, it } from 'vitest';
import type { Core } from '../../../src/wasm/core.js';
import { coreWith, grow, memories } from '../../helpers/core-memory.js';
import { Segment } from '../../../src/index/segment/segment.js';
import { buildSegment, invertDocs } from '../../../src/index/segment/segment-builder.js';
import { prepareSearch, runPrepared } from '../../../src/index/search.js';
import { X } from '../../../src/index/rank-expr/rank-expr-words.js';
import { randOfId } from '../../../src/engine/expr/rand.js';
import type { IndexSchema, SearchRequest } from '../../../src/index/types.js';

const schema: IndexSchema = { fields: ['f'], attrs: [] };
const segmentOf = (core: Core, ids: bigint[]) => new Segment(core, schema, buildSegment(schema, invertDocs(schema,
  ids.map((docId) => ({ docId, fields: [{ terms: ['a'], positions: [1], length: 1 }], attrs: [] })))));

describe('expression sort keys read in place by the merge', () => {
  it.each(memories)('give the same page when the core memory grows before the merge: %s memory', (_name, shared) => {
    const core = coreWith(shared);
    const parts = [[1n, 5n, 9n, 13n, 2n ** 40n], [2n, 6n, 10n, 14n], [3n, 7n, 11n, 2n ** 63n - 1n]];
    const segments = parts.map((ids) => segmentOf(core, ids));
    const all = parts.flat();
    const seed = 77;
    const req: SearchRequest = {
      query: null, ranker: 'proximity_bm25', fieldWeights: {}, filters: [], offset: 1, limit: 8, maxMatches: 1000,
      sort: [{ attr: 'rand()', desc: true, code: [X.RAND_ID, seed] }],
    };
    // the model: keys descending, ties to the lower id
    const want = [...all].sort((a, b) => randOfId(seed, b) - randOfId(seed, a) || (a < b ? -1 : 1)).slice(1, 9);
    const prepared = prepareSearch(schema, segments, all.length, req);
    const before = core.buffer;
    grow(core); // between the placement and the merge
    if (!shared) expect(before.byteLength).toBe(0); // detached: a view kept from before reads nothing
    expect(runPrepared(prepared, req).hits.map((h) => h.docId)).toEqual(want);
  });
});
