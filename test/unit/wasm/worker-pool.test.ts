// The query worker pool over a core's shared memory: workers read a segment the main instance placed,
// a task that traps reports TASK_TRAPPED and its worker goes on serving, queued batches all complete.
import { afterAll, describe, expect, it } from 'vitest';
import { Core } from '../../../src/wasm/core.js';
import { CorePool, TASK_TRAPPED, setThreadSpawner, threadSpawner, type CoreThread, type RangeTask, type ThreadSpawner } from '../../../src/wasm/worker-pool.js';
import { RtIndex } from '../../../src/index/rt-index.js';
import { prepareSearch, releaseSearch } from '../../../src/index/search.js';
import type { DocInput, IndexSchema, SearchRequest } from '../../../src/index/types.js';

const core = new Core();
const pool = new CorePool(core, 2);
afterAll(() => pool.close());

const schema: IndexSchema = { fields: ['title'], attrs: [] };
const doc = (id: number, words: string[]): DocInput => ({ docId: BigInt(id), fields: [{ terms: words, positions: words.map((_, i) => i + 1), length: words.length }], attrs: [] });

function fullScanTask(idx: RtIndex, from: number, to: number): RangeTask {
  const req: SearchRequest = { query: null, ranker: 'none', fieldWeights: {}, filters: [], sort: [], offset: 0, limit: 100, maxMatches: 1000 };
  const p = prepareSearch(schema, [...idx.segments], idx.count(), req);
  releaseSearch(p);
  const [job] = p.jobs;
  const plan = core.place(new Uint8Array(job.plan.buffer, job.plan.byteOffset, job.plan.byteLength));
  return { desc: job.seg.descPtr, plan, planWords: job.plan.length, k: 100, out: core.alloc(800), from, to };
}

describe('CorePool', () => {
  it('evaluates row ranges of a segment placed by the main instance, without copying it', async () => {
    const idx = new RtIndex(schema, { core, autoMerge: false });
    idx.addBatch(Array.from({ length: 10 }, (_, i) => doc(i + 1, ['a', 'b'])));
    const [lo, hi] = await Promise.all([pool.run([fullScanTask(idx, 0, 4)]), pool.run([fullScanTask(idx, 4, 10)])]);
    expect(lo).toMatchObject([{ n: 4, total: 4 }]);
    expect(hi).toMatchObject([{ n: 6, total: 6 }]);
    // each task's time on the worker, in microseconds (the hand-over policy learns costs from it)
    for (const r of [...lo, ...hi]) expect(r.us).toBeGreaterThanOrEqual(0);
    expect(pool.taskCounts().reduce((a, b) => a + b, 0)).toBe(2);
  });

  it('is ready once its threads have made their instances, without the caller yielding an event-loop turn', async () => {
    // an embedded loop of awaited inline queries never yields a turn; the pool must still become usable
    const p = new CorePool(core, 1);
    const nap = new Int32Array(new SharedArrayBuffer(4));
    const until = Date.now() + 10_000;
    while (!p.ready && Date.now() < until) Atomics.wait(nap, 0, 0, 5); // blocks this thread: no turn
    const ready = p.ready;
    await p.close();
    expect(ready).toBe(true);
  });

  it('reports a trapping task and keeps serving on a fresh instance in a larger region', async () => {
    const idx = new RtIndex(schema, { core, autoMerge: false });
    idx.addBatch([doc(1, ['a']), doc(2, ['b'])]);
    const ok = fullScanTask(idx, 0, 2);
    // a descriptor past the end of memory: the worker's load traps
    const bad: RangeTask = { ...ok, desc: 0xfffffff0 };
    const results = await Promise.all([pool.run([bad, ok]), pool.run([ok, bad]), pool.run([ok])]);
    expect(results).toMatchObject([
      [{ n: TASK_TRAPPED, total: 0 }, { n: 2, total: 2 }],
      [{ n: 2, total: 2 }, { n: TASK_TRAPPED, total: 0 }],
      [{ n: 2, total: 2 }],
    ]);
    // each worker trapped once: its next job moved it to a region twice as large, where it still answers
    expect(pool.regionSizes()).toEqual([64 << 20, 64 << 20]);
    expect(await Promise.all([pool.run([ok]), pool.run([ok])])).toMatchObject([[{ n: 2, total: 2 }], [{ n: 2, total: 2 }]]);
  });

  it('a thread that cannot start fails its job and leaves the pool without threads, not hanging', async () => {
    const failing: ThreadSpawner = () => {
      const handlers: Record<string, (x: unknown) => void> = {};
      const t: CoreThread = {
        ref: () => { queueMicrotask(() => handlers.error?.(new Error('cannot start'))); },
        unref: () => undefined,
        on: ((event: string, fn: (x: unknown) => void) => { handlers[event] = fn; }) as CoreThread['on'],
        terminate: async () => 0,
      };
      return t;
    };
    const real = threadSpawner();
    setThreadSpawner(failing);
    try {
      const dead = new CorePool(core, 1);
      const idx = new RtIndex(schema, { core, autoMerge: false });
      idx.addBatch([doc(1, ['a'])]);
      await expect(dead.run([fullScanTask(idx, 0, 1)])).rejects.toThrow('cannot start');
      expect(dead.alive).toBe(false);
      await expect(dead.run([fullScanTask(idx, 0, 1)])).rejects.toThrow('no thread');
    } finally {
      setThreadSpawner(real);
    }
  });
});
