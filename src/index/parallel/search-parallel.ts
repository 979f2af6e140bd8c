/**
 * A search evaluated on the query worker threads: planned once on this thread (prepareSearch), each segment
 * cut into row ranges (Manticore's pseudo-sharding) so a table of one big segment spreads too, the
 * ranges dealt into one batch per thread, and the ranges' top-Ks merged here (finishSearch) exactly
 * as segments' are. What a worker reads stays fixed until it answers: the segments are pinned
 * (a merge that replaces one frees it afterwards) and each segment's deleted-rows bitmap is
 * snapshotted, so a DELETE committed meanwhile is not half seen.
 */
import type { SearchRequest, SearchResult } from '../types.js';
import type { Core } from '../../wasm/core.js';
import { TASK_TRAPPED, type CorePool, type RangeResult, type RangeTask } from '../../wasm/worker-pool.js';
import { readTopK } from '../../wasm/segment-runner.js';
import { finishSearch, releaseSearch, topK, type PreparedSearch, type SegmentJob, type SegmentTop } from '../search.js';

/** Below this many rows a range is not worth a hand-over to a thread. */
const MIN_RANGE_ROWS = 4096;

interface Range { job: SegmentJob; task: RangeTask }

/** Core allocations of one parallel query: `place` allocates, `freeAll` returns them once the query is done. */
export function corePlacer(core: Core): { place(bytes: number): number; freeAll(): void } {
  const placed: number[] = [];
  return {
    place: (bytes) => {
      const ptr = core.alloc(bytes);
      placed.push(ptr);
      return ptr;
    },
    freeAll: () => { for (const ptr of placed.splice(0)) core.free(ptr); },
  };
}

/** Rows a range should hold so that every thread gets a share of `rows`. */
export function rangeRows(rows: number, threads: number): number {
  return Math.max(MIN_RANGE_ROWS, Math.ceil(rows / threads));
}

/** Rows [from, to) of a segment of `rows` rows, in order, about `per` each. */
export function rowRanges(rows: number, per: number): [number, number][] {
  const parts = Math.max(1, Math.round(rows / per));
  return Array.from({ length: parts }, (_, i) => [Math.floor((rows * i) / parts), Math.floor((rows * (i + 1)) / parts)]);
}

/** A descriptor of `seg` over a snapshot of its deleted-rows bitmap, and its plan, placed for the workers. */
export function placeJob(core: Core, job: SegmentJob, place: (bytes: number) => number): { desc: number; plan: number } {
  const seg = job.seg;
  const bitmapBytes = Math.max(16, (seg.rows + 7) >>> 3);
  const deleted = place(bitmapBytes);
  core.u8.copyWithin(deleted, seg.deletedPtr, seg.deletedPtr + bitmapBytes);
  const desc = place(16);
  core.u32[desc >>> 2] = seg.blobPtr;
  core.u32[(desc >>> 2) + 1] = deleted;
  const plan = place(job.plan.byteLength);
  core.u32.set(job.plan, plan >>> 2);
  return { desc, plan };
}

/** Rows [from, to) of each job, about `rows / threads` each, so that every thread gets a share. */
function cutRanges(jobs: SegmentJob[], threads: number, core: Core, k: number, place: (bytes: number) => number): Range[] {
  const per = rangeRows(jobs.reduce((s, j) => s + j.seg.rows, 0), threads);
  const ranges: Range[] = [];
  for (const job of jobs) {
    const { desc, plan } = placeJob(core, job, place);
    for (const [from, to] of rowRanges(job.seg.rows, per)) {
      // a huge window cut to the range's rows (search.ts topK says why)
      const kr = topK(k, to - from);
      ranges.push({ job, task: { desc, plan, planWords: job.plan.length, k: kr, out: place(Math.max(kr, 1) * 8), from, to } });
    }
  }
  return ranges;
}

/** Deals ranges to `threads` batches, the longest first to the least loaded. */
export function dealBatches<R extends { task: RangeTask }>(ranges: R[], threads: number): R[][] {
  const batches: R[][] = Array.from({ length: threads }, () => []);
  const load = new Array<number>(threads).fill(0);
  const sorted = [...ranges].sort((a, b) => (b.task.to - b.task.from) - (a.task.to - a.task.from));
  for (const r of sorted) {
    const i = load.indexOf(Math.min(...load));
    batches[i].push(r);
    load[i] += r.task.to - r.task.from;
  }
  return batches.filter((b) => b.length);
}

/** The range's top-K read from its output buffer (a trapped task re-run here, on the main instance). */
function readTop(core: Core, r: Range, res: RangeResult): SegmentTop {
  let { n, total } = res;
  if (n === TASK_TRAPPED) {
    const t = r.task;
    n = core.exports.evaluateRange(t.desc, t.plan, t.planWords, t.k, t.out, t.from, t.to);
    total = core.exports.lastTotal() >>> 0;
  }
  return { job: r.job, ...readTopK(core, r.task.out, n, total) };
}

/** The threads' time for a query's tasks, in ms (the worker measures each task). */
export function tasksMs(results: RangeResult[][]): number {
  let us = 0;
  for (const batch of results) for (const r of batch) us += r.us ?? 0;
  return us / 1000;
}

/**
 * Runs a prepared search (prepareSearch) on the pool's threads; frees it. The caller keeps `p`'s
 * segments alive until it is called (it is, in the same event-loop turn as prepareSearch). `learn`
 * gets the threads' time for its tasks (the hand-over policy's cost model).
 */
export async function runPreparedParallel(pool: CorePool, p: PreparedSearch, req: SearchRequest, learn?: (ms: number) => void): Promise<SearchResult> {
  const core = pool.core;
  const { place, freeAll } = corePlacer(core);
  for (const j of p.jobs) j.seg.pin();
  try {
    const threads = Math.min(pool.threads, req.threads ?? pool.threads);
    const ranges = cutRanges(p.jobs, threads, core, p.window, place);
    const batches = dealBatches(ranges, threads);
    // a batch whose thread died comes back as trapped tasks, which readTop re-runs on the main instance
    const trapped = (b: Range[]): RangeResult[] => b.map(() => ({ n: TASK_TRAPPED, total: 0 }));
    const results = await Promise.all(batches.map((b) => pool.run(b.map((r) => r.task)).catch(() => trapped(b))));
    learn?.(tasksMs(results));
    const tops = batches.flatMap((b, i) => b.map((r, j) => readTop(core, r, results[i][j])));
    return finishSearch(p, tops, req);
  } finally {
    freeAll();
    releaseSearch(p);
    for (const j of p.jobs) j.seg.unpin();
  }
}
