// The idle compaction (merge-policy.ts compactRange, run by merge-scheduler.ts once a table is quiet) and
// the merge pass over segments loaded from files.
import { describe, expect, it } from 'vitest';
import { RtIndex, type RtIndexOptions } from '../../../src/index/rt-index.js';
import { COMPACT_ROWS_PER_NEW_ROW, IDLE_MERGE_MS } from '../../../src/index/merge-scheduler.js';
import { compactRange } from '../../../src/index/merge-policy.js';
import { Core } from '../../../src/wasm/core.js';
import { doc, req, t } from './helpers.js';
import { mergeSchema as schema } from './merge-ops.js';
import { indexTrace } from '../../../src/index/index-trace.js';

/** Adds batches of these sizes (ids from 1 on) to `idx`. */
function addBatches(idx: RtIndex, sizes: number[]): RtIndex {
  let id = 1;
  for (const n of sizes) idx.addBatch(Array.from({ length: n }, () => { id++; return doc(schema, id - 1, { body: `common w${id % 7}` }, [id, 's']); }));
  return idx;
}

/** An index whose segments are exactly `sizes` (each batch its own segment, the tiered merges held). */
function heldIndex(sizes: number[], opts: RtIndexOptions = {}): { idx: RtIndex; release: () => Promise<void> } {
  const idx = new RtIndex(schema, opts);
  const release = idx.holdMerges();
  addBatches(idx, sizes);
  return { idx, release };
}

/** Every hit of a word in a seventh of the documents (under max_matches, so no tie is cut off). */
const hits = (idx: RtIndex) => idx.search(req(t('w3'), { limit: 1000 })).hits.map((h) => `${h.docId}:${h.weight}`).sort();

async function until(cond: () => boolean, ms = 20 * IDLE_MERGE_MS): Promise<void> {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
}

describe('compactRange', () => {
  it('the adjacent run bringing the count to the cutoff with the fewest live rows', () => {
    expect(compactRange([50, 40, 30, 20, 10, 5], 4)).toEqual([3, 6]); // 3 merge into 1: 35 rows
    expect(compactRange([5, 40, 30, 20, 10, 50], 4)).toEqual([2, 5]); // 60 rows, not 75 at the start
    expect(compactRange([1000, 2, 900, 3, 800], 4)).toEqual([3, 5]); // a pair: 803 rows, the last two
    expect(compactRange([10, 10, 10, 10], 4)).toBeNull(); // at the cutoff
    expect(compactRange([10, 10], 1)).toEqual([0, 2]);
    expect(compactRange([10, 10, 10, 10, 10], 0)).toBeNull(); // off
    expect(compactRange([], 4)).toBeNull();
  });

  it('passes over runs `accept` refuses: a shorter one then, none at all gives null', () => {
    const small = ([a, b]: [number, number]) => b - a <= 2; // e.g. only a two-part result fits a hole
    expect(compactRange([50, 40, 30, 20, 10, 5], 2)).toEqual([1, 6]);
    expect(compactRange([50, 40, 30, 20, 10, 5], 2, Infinity, small)).toEqual([4, 6]);
    expect(compactRange([50, 40, 30, 20, 10, 5], 2, Infinity, () => false)).toBeNull();
  });

  it('never builds more than maxRows: a cheaper run over the cap is passed over, none at all gives null', () => {
    expect(compactRange([600, 600, 100, 900, 900], 4, 1000)).toEqual([1, 3]);
    expect(compactRange([600, 600, 600, 600, 600], 4, 1000)).toBeNull();
  });

  it('merges as near the cutoff as maxRows lets it when no run down to the cutoff fits', () => {
    // a 1M table under its quarter cap: down to 2 would build 500k+, the last three make 250k
    expect(compactRange([250, 250, 250, 200, 40, 10], 2, 250)).toEqual([3, 6]);
    expect(compactRange([250, 250, 250, 200, 40, 10], 4, 250)).toEqual([3, 6]);
    expect(compactRange([250, 250, 200, 40, 10], 2, 50)).toEqual([3, 5]); // only a pair fits
    expect(compactRange([250, 250, 250, 250], 2, 250)).toBeNull();
  });
});

describe('the idle compaction of an index', () => {
  it('merges a quiet index down to the cutoff, answers unchanged; none without the option', async () => {
    const sizes = [300, 300, 30, 300, 30, 3, 300, 30, 3]; // the tiered policy merges none of these
    const on = addBatches(new RtIndex(schema, { idleMergeCutoff: 4 }), sizes);
    const off = addBatches(new RtIndex(schema), sizes);
    const before = hits(on);
    await on.whenMerged();
    await off.whenMerged();
    expect(on.segments.length).toBe(sizes.length); // the tiered pass alone: nothing to merge
    await until(() => on.segments.length === 4);
    expect(on.segments.length).toBe(4);
    expect(on.segments.map((s) => s.live).reduce((a, b) => a + b)).toBe(1296);
    expect(hits(on)).toEqual(before);
    expect(off.segments.length).toBe(sizes.length);
    on.truncate();
    off.truncate();
  });

  /** A core with a free 4 MiB hole below a block in use: the carried merges' results fit it. */
  function coreWithHole(): Core {
    const core = new Core();
    const hole = core.alloc(4 << 20);
    core.alloc(64);
    core.free(hole);
    return core;
  }

  /** The first compaction of 3 x 300 rows, then 10-row trickles; `core` holds the segments. */
  async function trickled(core: Core) {
    const idx = addBatches(new RtIndex(schema, { idleMergeCutoff: 2, core }), [300, 300, 300]);
    await until(() => idx.segments.length === 2); // the first compaction: 900 new rows earn 9000, 600 rewritten
    expect(idx.segments.map((s) => s.live)).toEqual([600, 300]); // 8400 left, carried as 900 (the table's rows)
    const more = (from: number, n: number) => idx.addBatch(Array.from({ length: n }, (_, i) => doc(schema, from + i, { body: 'common w3' }, [from + i, 's'])));
    const waited = async () => {
      await new Promise((r) => setTimeout(r, 4 * IDLE_MERGE_MS));
      await idx.whenMerged();
    };
    return { idx, more, waited };
  }

  it('rewrites at most COMPACT_ROWS_PER_NEW_ROW rows per row added, carrying what it left unspent up to the table rows', async () => {
    const { idx, more, waited } = await trickled(coreWithHole());
    // each 10-row trickle earns 100; the carry pays the rest of 310, 320, 330, 340 (900 -> 690 -> 470 -> 240 -> 0)
    for (let i = 0; i < 4; i++) {
      more(10_001 + i * 10, 10);
      await until(() => idx.segments.length === 2);
      expect(idx.segments.map((s) => s.live)).toEqual([600, 310 + i * 10]);
    }
    more(10_101, 10); // the carry is spent: 350 rows to rewrite for 10 new ones waits
    await waited();
    expect(idx.segments.map((s) => s.live)).toEqual([600, 340, 10]);
    more(10_201, 30); // 340 + 10 + 30 within 10 x 40
    await until(() => idx.segments.length === 2);
    expect(idx.segments.map((s) => s.live)).toEqual([600, 380]);
    expect(COMPACT_ROWS_PER_NEW_ROW).toBe(10);
    idx.truncate();
  });

  it('spends the carry only on a merge whose result fits a hole the core has: none, and a trickle waits', async () => {
    const core = new Core(); // blocks from its start up: no free block below the top one
    const { idx, more, waited } = await trickled(core);
    expect(core.heapStats().largestFree).toBeLessThan(64 << 10);
    more(10_001, 10); // 310 rows for 10 new ones: only the carry would pay, and the result has no hole
    await waited();
    expect(idx.segments.map((s) => s.live)).toEqual([600, 300, 10]);
    idx.truncate();
  });

  it('waits for a stream of writes into the RAM tail to pause, not only for the quiet time after the last merge pass', async () => {
    const marks: string[] = [];
    indexTrace.mark = (m) => { marks.push(`${Math.round(performance.now() - t0)} ${m}`); };
    const t0 = performance.now();
    try {
      // three 300-row writes build segments (over TAIL_BATCH_ROWS): the compaction is due IDLE_MERGE_MS after them
      const idx = addBatches(new RtIndex(schema, { idleMergeCutoff: 2, ramTail: true }), [300, 300, 300]);
      // then single rows into the tail every IDLE_MERGE_MS / 5 for 4 x IDLE_MERGE_MS: nothing reads segments
      for (let i = 0; i < 20; i++) {
        idx.addBatch([doc(schema, 20_000 + i, { body: 'common w3' }, [i, 's'])]);
        await new Promise((r) => setTimeout(r, IDLE_MERGE_MS / 5));
      }
      const streamEnd = performance.now() - t0;
      expect(marks.filter((m) => m.includes('compaction'))).toEqual([]);
      // the pause: the tail seals (IDLE_MERGE_MS later), then the compaction runs
      await until(() => marks.some((m) => m.includes('compaction start')));
      const at = Number(marks.find((m) => m.includes('compaction start'))!.split(' ')[0]);
      expect(at).toBeGreaterThanOrEqual(streamEnd);
      await idx.whenIdle();
      expect(idx.segments.map((s) => s.live).reduce((a, b) => a + b)).toBe(920);
      expect(idx.segments.length).toBeLessThanOrEqual(2);
      idx.truncate();
    } finally {
      indexTrace.mark = null;
    }
  });

  it('waits while a bulk load holds merges, and for the quiet time after the last write', async () => {
    const { idx, release } = heldIndex([100, 100, 100, 100, 100, 100], { idleMergeCutoff: 2 });
    await new Promise((r) => setTimeout(r, 2 * IDLE_MERGE_MS));
    expect(idx.segments.length).toBe(6); // held: no compaction
    await release();
    expect(idx.segments.length).toBe(6); // released: the tiered pass ran, the compaction waits for quiet
    await until(() => idx.segments.length === 2);
    expect(idx.segments.length).toBe(2);
    expect(idx.count()).toBe(600);
    idx.truncate();
  });

  it('never starts once the table is closing, though a bulk load armed it just before (and whenIdle resolves)', async () => {
    const { idx, release } = heldIndex([100, 100, 100, 100, 100, 100], { idleMergeCutoff: 2 });
    await release(); // armed: the compaction was due IDLE_MERGE_MS later
    idx.stopIdleMerges();
    await idx.whenIdle();
    await new Promise((r) => setTimeout(r, 3 * IDLE_MERGE_MS));
    expect(idx.segments.length).toBe(6);
    idx.truncate();
  });
});

describe('whenIdle', () => {
  it('resolves only once the idle compaction armed after the merges has run; at once when none is due', async () => {
    const idx = addBatches(new RtIndex(schema, { idleMergeCutoff: 2 }), [300, 300, 300]);
    await idx.whenMerged();
    expect(idx.segments.length).toBe(3); // whenMerged alone: the compaction still waits for its quiet time
    await idx.whenIdle();
    expect(idx.segments.map((s) => s.live).sort((a, b) => a - b)).toEqual([300, 600]);
    const t0 = performance.now();
    await idx.whenIdle(); // the budget is spent: nothing armed
    expect(performance.now() - t0).toBeLessThan(IDLE_MERGE_MS);
    idx.truncate();
    const off = addBatches(new RtIndex(schema), [300, 300, 300]);
    await off.whenIdle();
    expect(off.segments.length).toBe(3);
    off.truncate();
  });
});

describe('segments loaded from files', () => {
  it('get the tiered merge pass the writes that made them would have run', async () => {
    // ten segments of 150 rows, each on the policy's level 1: written unmerged (merges held), loaded again
    const { idx: src } = heldIndex(Array(10).fill(150));
    const files = src.serializeSegments();
    const loaded = RtIndex.fromSegments(schema, files);
    expect(loaded.segments.length).toBe(10);
    await loaded.whenMerged();
    expect(loaded.segments.length).toBe(1);
    expect(hits(loaded)).toEqual(hits(src));
    src.truncate();
    loaded.truncate();
  });
});
