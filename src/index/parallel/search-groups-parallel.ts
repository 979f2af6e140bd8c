/**
 * Grouping on the query worker threads: planned once here (prepareSearch), each segment's spec
 * placed once, a segment cut into row ranges when its groupings allow (SegmentFold.splittable) and
 * the ranges dealt to the threads, each running groupRange. The blocks come back as copies and are
 * added in segment order, ranges in row order, as the single-thread pass adds them; a range whose
 * thread trapped or died runs again here, on the main instance.
 */
import type { SearchRequest, SearchResult } from '../types.js';
import type { Core } from '../../wasm/core.js';
import { TASK_TRAPPED, type CorePool, type RangeResult, type RangeTask } from '../../wasm/worker-pool.js';
import { GF_MATCHES } from '../../wasm/group-format.js';
import { readGroupBlock, runGroupRangeAt, type GroupBlock } from '../../wasm/group-runner.js';
import { finishSearch, releaseSearch, type PreparedSearch, type SegmentJob, type SegmentTop } from '../search.js';
import { corePlacer, dealBatches, placeJob, rangeRows, rowRanges, tasksMs } from './search-parallel.js';
import { scaleBlock, withMatches, type SegmentFold, type SegmentGrouping } from '../search-groups.js';

interface Range { job: SegmentJob; fold: SegmentFold; task: RangeTask }

/** The range's block: the worker's copy, or (trapped, or fallen back without its matches) run here. */
function readRange(core: Core, r: Range, res: RangeResult, place: (bytes: number) => number): GroupBlock {
  const t = r.task;
  const block = res.n !== TASK_TRAPPED && res.block ? readGroupBlock(res.block)
    : runGroupRangeAt(core, t.desc, t.plan, t.planWords, t.spec!, t.specWords!, t.from, t.to);
  if (!block.fallback || r.fold.spec[2]! & GF_MATCHES) return block;
  const spec = withMatches(r.fold.spec);
  const ptr = place(spec.byteLength);
  core.u32.set(spec, ptr >>> 2);
  return runGroupRangeAt(core, t.desc, t.plan, t.planWords, ptr, spec.length, t.from, t.to);
}

/** Runs a prepared search as grouping on the pool's threads; frees it. `learn`: as runPreparedParallel's. */
export async function groupPreparedParallel(
  pool: CorePool, p: PreparedSearch, req: SearchRequest, g: SegmentGrouping, learn?: (ms: number) => void,
): Promise<SearchResult> {
  const core = pool.core;
  const { place, freeAll } = corePlacer(core);
  const folds: SegmentFold[] = [];
  for (const j of p.jobs) j.seg.pin();
  try {
    const threads = Math.min(pool.threads, req.threads ?? pool.threads);
    const scale = p.ranked ? req.indexWeight ?? 1 : 1;
    const per = rangeRows(p.jobs.reduce((s, j) => s + j.seg.rows, 0), threads);
    const ranges: Range[] = [];
    for (const job of p.jobs) {
      const fold = g.segment(job.seg, job.order, scale);
      folds.push(fold);
      const { desc, plan } = placeJob(core, job, place);
      const spec = place(fold.spec.byteLength);
      core.u32.set(fold.spec, spec >>> 2);
      const cuts = fold.splittable ? rowRanges(job.seg.rows, per) : [[0, job.seg.rows] as [number, number]];
      for (const [from, to] of cuts) {
        ranges.push({ job, fold, task: { desc, plan, planWords: job.plan.length, k: 0, out: 0, from, to, spec, specWords: fold.spec.length } });
      }
    }
    const batches = dealBatches(ranges, threads);
    // a batch whose thread died comes back as trapped tasks, which readRange runs here
    const trapped = (b: Range[]): RangeResult[] => b.map(() => ({ n: TASK_TRAPPED, total: 0 }));
    const results = await Promise.all(batches.map((b) => pool.run(b.map((r) => r.task)).catch(() => trapped(b))));
    learn?.(tasksMs(results));
    const byRange = new Map<Range, RangeResult>();
    batches.forEach((b, i) => b.forEach((r, j) => byRange.set(r, results[i]![j]!)));
    const tops: SegmentTop[] = [];
    for (const r of ranges) {
      const block = readRange(core, r, byRange.get(r)!, place);
      scaleBlock(block, scale);
      r.fold.add(block);
      tops.push({ job: r.job, rowIds: [], weights: [], total: block.total });
    }
    return finishSearch(p, tops, req);
  } finally {
    freeAll();
    for (const f of folds) f.release();
    releaseSearch(p);
    for (const j of p.jobs) j.seg.unpin();
  }
}
