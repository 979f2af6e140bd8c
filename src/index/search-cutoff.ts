/**
 * OPTION cutoff=N (N > 0): searchd stops matching once N matches were found (sphinx.cpp MatchExtended and
 * Fullscan count each match a sorter accepted and break at N), then sorts and pages those N alone. Its
 * matches come in row order, segment by segment, so the N kept are the first N in that order, whatever
 * the ORDER BY. Here each segment's matches are read whole (the core has no "stop after N"), the first
 * ones by row kept, and the segments after the N-th match are not evaluated at all.
 */
import type { SearchRequest, SearchResult } from './types.js';
import { finishSearch, type PreparedSearch, type SegmentTop } from './search.js';
import { runPlan } from '../wasm/segment-runner.js';

/** The page of the first `cutoff` matches; `cutoffHit` when matching stopped at them. */
export function runCutoff(p: PreparedSearch, req: SearchRequest, cutoff: number): SearchResult {
  const tops: SegmentTop[] = [];
  let left = cutoff;
  for (const job of p.jobs) {
    if (left === 0) break;
    const seg = job.seg;
    const all = runPlan(seg.core, seg.descPtr, job.plan, seg.rows, true);
    const order = Array.from({ length: all.rowIds.length }, (_, i) => i).sort((a, b) => all.rowIds[a] - all.rowIds[b]);
    const kept = order.slice(0, left);
    left -= kept.length;
    tops.push({ job, rowIds: kept.map((i) => all.rowIds[i]), weights: kept.map((i) => all.weights[i]), total: kept.length });
  }
  const result = finishSearch(p, tops, req);
  return left === 0 ? { ...result, cutoffHit: true } : result;
}
