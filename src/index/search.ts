/**
 * Runs a SearchRequest over an RT index's segments: plan per segment, one evaluate() call each,
 * then merge the per-segment top-Ks and cut offset/limit (window capped by max_matches).
 */
import type { IndexSchema, SearchRequest, SearchResult } from './types.js';
import type { Segment } from './segment.js';
import { encodePlan } from '../wasm/plan-encoder.js';
import { runPlan } from '../wasm/segment-runner.js';
import type { PlanSpec } from '../wasm/plan-format.js';
import { analyzeQuery } from './query-analyzer.js';
import { planQuery, segmentPlan, type PlannedQuery } from './planner.js';
import { planExprSection } from './rank-expr-plan.js';
import { placeAllowBitmap, splitFilters } from './attr-filters.js';
import { compareValues, resolveSort, segmentSort, type ResolvedKey } from './sort-plan.js';

interface Candidate { seg: Segment; order: number; row: number; weight: number }

function fieldWeights(schema: IndexSchema, req: SearchRequest): number[] {
  const lower = new Map(Object.entries(req.fieldWeights).map(([k, v]) => [k.toLowerCase(), v]));
  return schema.fields.map((f) => Math.trunc(lower.get(f.toLowerCase()) ?? 1));
}

function keyValue(c: Candidate, k: ResolvedKey): number | bigint | ReturnType<Segment['attr']> {
  if (k.kind === 'weight') return c.weight;
  return k.column === 0 ? c.seg.docId(c.row) : c.seg.attr(k.column - 1, c.row);
}

/** The merge order: the sort keys, then (ranked) newer segments first or (full scan) older first, then row. */
function comparator(keys: ResolvedKey[], ranked: boolean): (a: Candidate, b: Candidate) => number {
  return (a, b) => {
    for (const k of keys) {
      const c = compareValues(keyValue(a, k) as never, keyValue(b, k) as never);
      if (c) return k.desc ? -c : c;
    }
    if (a.order !== b.order) return ranked ? b.order - a.order : a.order - b.order;
    return a.row - b.row;
  };
}

/**
 * Receives every match of one segment (grouping needs all of them, not a top-K): row ids in the
 * segment and their weights, in no particular order.
 */
export type SegmentMatches = (seg: Segment, rowIds: Uint32Array, weights: Int32Array) => void;

/**
 * Searches every segment. With `visit`, each segment's matches all go to it (one core call per
 * segment, K = the segment's rows) and `hits` stays empty; without, the merged top-K page.
 */
export function searchSegments(
  schema: IndexSchema, segments: Segment[], totalDocs: number, req: SearchRequest, visit?: SegmentMatches,
): SearchResult {
  const query = req.query && req.query.kind !== 'empty' ? req.query : null;
  const ranked = query !== null;
  let planned: PlannedQuery | null = null;
  if (query) planned = planQuery(analyzeQuery(query, schema.fields), segments, totalDocs, req.ranker, req.idf, req.expansion);
  const expr = planned && req.ranker === 'expr' ? planExprSection(req.rankExpr ?? '', planned, { schema, segments, totalDocs }) : undefined;
  const filters = splitFilters(schema, req.filters);
  const keys = resolveSort(schema, req.sort.length || !ranked ? req.sort : [{ attr: 'weight()', desc: true }]);
  const window = Math.max(0, Math.min(req.offset + req.limit, req.maxMatches));
  const weights = fieldWeights(schema, req);
  const candidates: Candidate[] = [];
  let totalFound = 0;
  let timedOut = false;
  let searched = 0;
  const deadline = req.maxQueryMs ? performance.now() + req.maxQueryMs : Infinity;
  segments.forEach((seg, order) => {
    if (seg.live === 0 || timedOut) return;
    // Manticore checks max_query_time while matching and keeps what it found so far; a segment is our step
    if (searched > 0 && performance.now() > deadline) { timedOut = true; return; }
    searched++;
    const owned: number[] = [];
    try {
      const allowPtr = placeAllowBitmap(schema, seg, filters.host);
      if (allowPtr) owned.push(allowPtr);
      const spec: PlanSpec = {
        ranker: planned?.ranker ?? 0, flags: planned?.flags ?? 0, weights,
        root: planned ? segmentPlan(planned, seg) : null,
        filters: filters.core, sort: segmentSort(keys, seg, owned), allowPtr,
        maxQpos: planned?.analyzed.maxQpos ?? 0, numKeywords: planned?.analyzed.keywords.length ?? 0, expr,
      };
      const top = runPlan(seg.core, seg.descPtr, encodePlan(spec), visit ? seg.rows : window, visit !== undefined);
      totalFound += top.total;
      const scale = ranked ? req.indexWeight ?? 1 : 1;
      if (visit) {
        if (scale !== 1) for (let i = 0; i < top.weights.length; i++) top.weights[i] *= scale;
        visit(seg, top.rowIds, top.weights);
        return;
      }
      for (let i = 0; i < top.rowIds.length; i++) candidates.push({ seg, order, row: top.rowIds[i], weight: top.weights[i] * scale });
    } finally {
      for (const p of owned) seg.core.free(p);
    }
  });
  candidates.sort(comparator(keys, ranked));
  const page = candidates.slice(req.offset, window);
  return {
    hits: page.map((c) => ({ docId: c.seg.docId(c.row), weight: c.weight })),
    totalFound,
    keywords: planned?.stats ?? [],
    ...(timedOut ? { timedOut } : {}),
  };
}
