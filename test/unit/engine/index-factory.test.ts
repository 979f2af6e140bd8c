// A table's index (index-factory.ts): merged down to the same segment count whatever the query threads,
// since the threads cut segments into row ranges and every extra segment is a cost to each query.
import { afterEach, describe, expect, it } from 'vitest';
import { createIndex, IDLE_MERGE_CUTOFF } from '../../../src/engine/index-factory.js';
import { IDLE_MERGE_MS } from '../../../src/index/merge-scheduler.js';
import { queryThreads, setQueryThreads } from '../../../src/index/parallel/query-threads.js';
import { doc } from '../index/helpers.js';
import { mergeSchema as schema } from '../index/merge-ops.js';

async function until(cond: () => boolean, ms = 20 * IDLE_MERGE_MS): Promise<void> {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
}

describe('createIndex', () => {
  const threadsBefore = queryThreads();
  afterEach(async () => { await setQueryThreads(threadsBefore); });

  it('compacts a quiet table to IDLE_MERGE_CUTOFF segments with 4 query threads, as with 1', async () => {
    expect(IDLE_MERGE_CUTOFF).toBe(2);
    for (const threads of [4, 1]) {
      await setQueryThreads(threads);
      const idx = createIndex(schema);
      // 9 segments of 300 rows (over the RAM tail's 256): the tiered policy merges none of them
      for (let b = 0; b < 9; b++) idx.addBatch(Array.from({ length: 300 }, (_, i) => doc(schema, b * 300 + i + 1, { body: `common w${i % 7}` }, [i, 's'])));
      await idx.whenMerged();
      await until(() => idx.segments.length === IDLE_MERGE_CUTOFF);
      expect(idx.segments.length).toBe(IDLE_MERGE_CUTOFF);
      expect(idx.segments.reduce((n, s) => n + s.live, 0)).toBe(2700);
      idx.truncate();
    }
  });
});
