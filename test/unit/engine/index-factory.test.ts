// A table's index (index-factory.ts): merged down to the same segment count whatever the query threads,
// since the threads cut segments into row ranges and every extra segment is a cost to each query.
import { afterEach, describe, expect, it } from 'vitest';
import { type AutoOptimize, checkOptimizeCutoff, createIndex, IDLE_MERGE_CUTOFF } from '../../../src/engine/index-factory.js';
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
      const idx = createIndex(schema, {}, 1);
      // 9 segments of 300 rows (over the RAM tail's 256): the tiered policy merges none of them
      for (let b = 0; b < 9; b++) idx.addBatch(Array.from({ length: 300 }, (_, i) => doc(schema, b * 300 + i + 1, { body: `common w${i % 7}` }, [i, 's'])));
      await idx.whenMerged();
      await until(() => idx.segments.length === IDLE_MERGE_CUTOFF);
      expect(idx.segments.length).toBe(IDLE_MERGE_CUTOFF);
      expect(idx.segments.reduce((n, s) => n + s.live, 0)).toBe(2700);
      idx.truncate();
    }
  });

  /** 9 segments of 300 rows (over the RAM tail's 256), which the tiered policy leaves alone; their count once quiet. */
  async function quietSegments(settings: Record<string, string>, expected: number, autoOptimize: AutoOptimize = 1): Promise<number> {
    const idx = createIndex(schema, settings, autoOptimize);
    for (let b = 0; b < 9; b++) idx.addBatch(Array.from({ length: 300 }, (_, i) => doc(schema, b * 300 + i + 1, { body: `common w${i % 7}` }, [i, 's'])));
    await idx.whenMerged();
    await until(() => idx.segments.length <= expected);
    // a few more quiet times: a compaction that went too far would have run by then
    await new Promise((r) => setTimeout(r, 3 * IDLE_MERGE_MS));
    await idx.whenMerged();
    const n = idx.segments.length;
    expect(idx.segments.reduce((t, s) => t + s.live, 0)).toBe(2700);
    idx.truncate();
    return n;
  }

  describe('optimize_cutoff and auto_optimize', () => {
    it("compacts down to the table's optimize_cutoff rather than the default", async () => {
      expect(await quietSegments({ optimize_cutoff: '4' }, 4)).toBe(4);
    });

    it('auto_optimize = 0 leaves the segments unmerged; 2 doubles the cutoff', async () => {
      expect(await quietSegments({}, 0, 0)).toBe(9);
      expect(await quietSegments({ optimize_cutoff: '2' }, 4, 2)).toBe(4);
    });

    it('a lower cutoff set later (ALTER TABLE) is acted on once quiet', async () => {
      const idx = createIndex(schema, { optimize_cutoff: '100' }, 1);
      for (let b = 0; b < 5; b++) idx.addBatch(Array.from({ length: 300 }, (_, i) => doc(schema, b * 300 + i + 1, { body: `common w${i % 7}` }, [i, 's'])));
      await idx.whenMerged();
      expect(idx.segments.length).toBe(5);
      idx.setIdleMergeCutoff(3);
      await until(() => idx.segments.length === 3);
      expect(idx.segments.length).toBe(3);
      idx.truncate();
    });

    it('refuses an optimize_cutoff that is not a positive integer', () => {
      expect(() => checkOptimizeCutoff('t', { optimize_cutoff: '0' })).toThrow(/optimize_cutoff must be a positive integer/);
      expect(() => checkOptimizeCutoff('t', { optimize_cutoff: 'many' })).toThrow(/positive integer/);
      expect(() => checkOptimizeCutoff('t', { optimize_cutoff: '8' })).not.toThrow();
    });
  });
});
