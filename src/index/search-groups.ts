/**
 * Grouping's pass over a query's matches: planned once (prepareSearch), then one core call per
 * segment (groupRange) that matches the plan and folds the matches by every grouping the core can
 * fold there (the programs of the segment's spec), returning their partial groups, and the matches
 * themselves only when some grouping folds on the host. The caller merges the blocks in segment order.
 */
import type { SearchRequest, SearchResult } from './types.js';
import type { Segment } from './segment/segment.js';
import { GF_MATCHES } from '../wasm/group-format.js';
import { runGroupRange, type GroupBlock } from '../wasm/group-runner.js';
import { finishSearch, releaseSearch, type PreparedSearch, type SegmentTop } from './search.js';

/** One segment's share of the grouping: its spec (assembly/group/format.ts) and where its blocks go. */
export interface SegmentFold {
  spec: Uint32Array;
  /**
   * Whether the segment may be folded in row ranges on several threads, the ranges' partials merged:
   * the answer must not depend on it (a double SUM over floats adds in row order, so it may not).
   */
  splittable: boolean;
  /** Frees the core memory the spec points at (after the segment's last core call). */
  release(): void;
  /** Each block of the segment (one, or one per range of rows, in row order); segments in order. */
  add(block: GroupBlock): void;
}

export interface SegmentGrouping {
  /**
   * The fold of one segment; `order` is its position among the segments. `scale` multiplies the
   * weights the host sees (index weights); the core picks best rows by unscaled weight, so with
   * scale != 1 every grouping folds on the host.
   */
  segment(seg: Segment, order: number, scale: number): SegmentFold;
}

/** The spec with the matches asked for (a block that fell back to the host fold needs them). */
export function withMatches(spec: Uint32Array): Uint32Array {
  const copy = spec.slice();
  copy[2] = (copy[2]! | GF_MATCHES) >>> 0;
  return copy;
}

/** Multiplies a block's match weights by the index weight, as the plain search does (in int32). */
export function scaleBlock(block: GroupBlock, scale: number): void {
  if (scale === 1 || !block.matches) return;
  const w = block.matches.weights;
  for (let i = 0; i < w.length; i++) w[i] *= scale;
}

/** Runs a prepared search as grouping on this thread, one groupRange() per segment; frees it. */
export function groupPrepared(p: PreparedSearch, req: SearchRequest, g: SegmentGrouping): SearchResult {
  try {
    const tops: SegmentTop[] = [];
    const scale = p.ranked ? req.indexWeight ?? 1 : 1;
    for (const job of p.jobs) {
      if (tops.length > 0 && performance.now() > p.deadline) return finishSearch(p, tops, req, true);
      const seg = job.seg;
      const fold = g.segment(seg, job.order, scale);
      let block: GroupBlock;
      try {
        block = runGroupRange(seg.core, seg.descPtr, job.plan, fold.spec);
        if (block.fallback && !(fold.spec[2]! & GF_MATCHES)) block = runGroupRange(seg.core, seg.descPtr, job.plan, withMatches(fold.spec));
      } finally {
        fold.release();
      }
      scaleBlock(block, scale);
      fold.add(block);
      tops.push({ job, rowIds: [], weights: [], total: block.total });
    }
    return finishSearch(p, tops, req);
  } finally {
    releaseSearch(p);
  }
}
