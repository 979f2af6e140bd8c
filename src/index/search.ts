/**
 * Runs a SearchRequest over an RT index's segments: plan per segment, one evaluate() call each,
 * then merge the per-segment top-Ks and cut offset/limit (window capped by max_matches). The
 * planning and the merge are shared with the worker-thread path (search-parallel.ts).
 */
import type { IndexSchema, SearchRequest, SearchResult } from './types.js';
import type { Segment } from './segment/segment.js';
import { encodePlan } from '../wasm/plan-encoder.js';
import { PF_IDS_UNSORTED } from '../wasm/plan-format.js';
import { runPlan, runPlanRange } from '../wasm/segment-runner.js';
import type { PlanSpec } from '../wasm/plan-format.js';
import { queryPlan, type QueryPlan } from './plan-cache.js';
import { planExprSection } from './rank-expr/rank-expr-plan.js';
import { placeAllowBitmap, splitFilters } from './attr-filters.js';
import { runCutoff } from './search-cutoff.js';
import { compareValues, resolveSort, segmentSort, type ExprValues, type ResolvedKey } from './sort-plan.js';

/** A row of a segment's top-K in the merge; `id` read once (ties compare it, the page returns it). */
interface Candidate { seg: Segment; order: number; row: number; id: bigint; weight: number; exprs?: ExprValues }

/** One segment's share of a query: its encoded plan and the core memory the plan points at. */
export interface SegmentJob {
  seg: Segment;
  /** Position in the segment list (the merge's last tie-break, after the document id). */
  order: number;
  plan: Uint32Array;
  /** Core allocations the plan refers to (allow bitmap, sort ranks), freed by releaseSearch. */
  owned: number[];
  /** ORDER BY expression values per sort key, by row (computed in the core when planned). */
  exprs?: ExprValues;
}

/** A segment's top-K, rows of that segment. */
export interface SegmentTop { job: SegmentJob; rowIds: ArrayLike<number>; weights: ArrayLike<number>; total: number }

export interface PreparedSearch {
  jobs: SegmentJob[];
  /** offset + limit, capped by max_matches: how many rows each segment (or range) keeps. */
  window: number;
  keys: ResolvedKey[];
  ranked: boolean;
  keywords: SearchResult['keywords'];
  /** performance.now() past which no further segment is searched (max_query_time), or Infinity. */
  deadline: number;
}

function fieldWeights(schema: IndexSchema, req: SearchRequest): number[] {
  let any = false;
  for (const _ in req.fieldWeights) { any = true; break; }
  if (!any) return schema.fields.map(() => 1);
  const lower = new Map(Object.entries(req.fieldWeights).map(([k, v]) => [k.toLowerCase(), v]));
  return schema.fields.map((f) => Math.trunc(lower.get(f.toLowerCase()) ?? 1));
}

function keyValue(c: Candidate, k: ResolvedKey, i: number): number | bigint | ReturnType<Segment['attr']> {
  if (k.kind === 'weight') return c.weight;
  if (k.kind === 'expr' || k.kind === 'host') return c.exprs!.get(i)!(c.row);
  return k.column === 0 ? c.id : c.seg.attr(k.column - 1, c.row);
}

/**
 * The merge order: the sort keys, then the document id ascending (Manticore's sorters break ties on
 * the docid, IsDocidLess), as the core's top-K does in each segment and range: the page is then the
 * same whatever the segments, their ranges and threads (a merge or a thread count used to reorder
 * rows of equal weight: newer segments came first). Live ids are unique; order and row only as a guard.
 */
function comparator(keys: ResolvedKey[]): (a: Candidate, b: Candidate) => number {
  const tie = (a: Candidate, b: Candidate): number => {
    if (a.id !== b.id) return a.id < b.id ? -1 : 1;
    return a.order - b.order || a.row - b.row;
  };
  // the usual ranked page (ORDER BY weight() DESC, or no ORDER BY): numbers compared without keyValue
  if (keys.length === 1 && keys[0].kind === 'weight' && keys[0].desc) return (a, b) => b.weight - a.weight || tie(a, b);
  return (a, b) => {
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      const c = compareValues(keyValue(a, k, i) as never, keyValue(b, k, i) as never, k.coll.compare);
      if (c) return k.desc ? -c : c;
    }
    return tie(a, b);
  };
}

/**
 * Receives every match of one segment (grouping needs all of them, not a top-K): row ids in the
 * segment and their weights, in no particular order.
 */
export type SegmentMatches = (seg: Segment, rowIds: Uint32Array, weights: Int32Array) => void;

/** Plans the query once and encodes one plan per live segment (placing what the plans point at). */
export function prepareSearch(schema: IndexSchema, segments: Segment[], totalDocs: number, req: SearchRequest): PreparedSearch {
  const query = req.query && req.query.kind !== 'empty' ? req.query : null;
  const ranked = query !== null;
  const plan: QueryPlan | null = query ? queryPlan(query, schema.fields, segments, totalDocs, req) : null;
  const planned = plan?.planned ?? null;
  const expr = planned && req.ranker === 'expr' ? planExprSection(req.rankExpr ?? '', planned, { schema, segments, totalDocs }) : undefined;
  const filters = splitFilters(schema, req.filters);
  const keys = resolveSort(schema, req.sort.length || !ranked ? req.sort : [{ attr: 'weight()', desc: true }], req.collation);
  const window = Math.max(0, Math.min(req.offset + req.limit, req.maxMatches));
  const weights = fieldWeights(schema, req);
  const deadline = req.maxQueryMs ? performance.now() + req.maxQueryMs : Infinity;
  const prepared: PreparedSearch = { jobs: [], window, keys, ranked, keywords: planned?.stats ?? [], deadline };
  let floorPtr = 0;
  try {
    segments.forEach((seg, order) => {
      if (seg.live === 0) return;
      const owned: number[] = [];
      const exprs: ExprValues | undefined = keys.some((k) => k.kind === 'expr' || k.kind === 'host') ? new Map() : undefined;
      prepared.jobs.push({ seg, order, plan: new Uint32Array(0), owned, exprs });
      if (!floorPtr && ranked && window > 0) floorPtr = placeFloor(seg, owned);
      const allowPtr = placeAllowBitmap(schema, seg, filters.host, req.collation);
      if (allowPtr) owned.push(allowPtr);
      const spec: PlanSpec = {
        ranker: planned?.ranker ?? 0, flags: (planned?.flags ?? 0) | (seg.idsAscending ? 0 : PF_IDS_UNSORTED), weights,
        root: null, rootWords: plan?.treeWords(seg),
        filters: filters.core, sort: segmentSort(keys, seg, owned, exprs), allowPtr,
        maxQpos: planned?.analyzed.maxQpos ?? 0, numKeywords: planned?.analyzed.keywords.length ?? 0, expr, floorPtr,
      };
      prepared.jobs[prepared.jobs.length - 1].plan = encodePlan(spec);
    });
  } catch (e) {
    releaseSearch(prepared);
    throw e;
  }
  return prepared;
}

/**
 * The query's weight floor (PlanSpec.floorPtr): | floor i32 | serial u32 | in the core its segments share,
 * the floor starting at i32 min: every segment and range of the query (on this thread or the workers)
 * reads it before pruning and raises it to the K-th weight kept so far (assembly/rank/floor.ts). Weights of one query compare across segments (the
 * idf is the table's), so a row below k rows of another segment can never make the page.
 */
function placeFloor(seg: Segment, owned: number[]): number {
  const ptr = seg.core.alloc(8);
  owned.push(ptr);
  const u32 = seg.core.u32;
  u32[ptr >>> 2] = 0x80000000;
  // the query's serial: a core instance keeps the best weights it kept for one query (assembly/rank/floor.ts)
  querySerial = querySerial >= 0xffffffff ? 1 : querySerial + 1;
  u32[(ptr >>> 2) + 1] = querySerial;
  return ptr;
}

/** The last query serial a floor cell was given (never 0: an instance's union starts with none). */
let querySerial = 0;

/** Frees the core memory the plans pointed at. */
export function releaseSearch(p: PreparedSearch): void {
  for (const j of p.jobs) for (const ptr of j.owned.splice(0)) j.seg.core.free(ptr);
}

/**
 * For a page ordered by weight alone: the window-th best weight of all the tops' rows, below which no
 * row can make the page (the rows at it or above fill it and come first); -Infinity otherwise. The
 * merge then makes candidates of the few rows that can (a 20-row page over 4 segments: about 20 of 80).
 */
function weightThreshold(p: PreparedSearch, tops: SegmentTop[], scale: number): number {
  const k = p.keys;
  if (k.length !== 1 || k[0].kind !== 'weight' || !k[0].desc || p.window === 0) return -Infinity;
  let n = 0;
  for (const t of tops) n += t.weights.length;
  if (n <= p.window) return -Infinity;
  const all = new Float64Array(n);
  let j = 0;
  for (const t of tops) for (let i = 0; i < t.weights.length; i++) all[j++] = t.weights[i] * scale;
  all.sort();
  return all[n - p.window];
}

/**
 * Merges the segments' top-Ks (any number per segment: ranges of one merge too) into the page;
 * `timedOut` when max_query_time stopped the search before some segments.
 */
export function finishSearch(p: PreparedSearch, tops: SegmentTop[], req: SearchRequest, timedOut = false): SearchResult {
  const candidates: Candidate[] = [];
  let totalFound = 0;
  const scale = p.ranked ? req.indexWeight ?? 1 : 1;
  const threshold = weightThreshold(p, tops, scale);
  for (const { job, rowIds, weights, total } of tops) {
    totalFound += total;
    for (let i = 0; i < rowIds.length; i++) {
      const weight = weights[i] * scale;
      if (weight >= threshold) candidates.push({ seg: job.seg, order: job.order, row: rowIds[i], id: job.seg.docId(rowIds[i]), weight, exprs: job.exprs });
    }
  }
  candidates.sort(comparator(p.keys));
  const page = candidates.slice(req.offset, p.window);
  return {
    hits: page.map((c) => ({ docId: c.id, weight: c.weight })),
    totalFound,
    keywords: p.keywords,
    ...(timedOut ? { timedOut } : {}),
  };
}

/**
 * What evaluating the prepared query costs, roughly: the postings its keywords decode (documents
 * plus positions, as SHOW META counts them) or, for a full scan, the rows it visits.
 */
export function searchCost(p: PreparedSearch): number {
  if (!p.ranked) return p.jobs.reduce((s, j) => s + j.seg.rows, 0);
  return p.keywords.reduce((s, k) => s + k.docs + k.hits, 0);
}

/**
 * The top-K a segment (or a range of `rows` rows) is asked for: the window, but a huge window is cut to
 * the rows there (LIMIT 2000000000 OPTION max_matches=2000000000 made the core allocate K result pairs
 * up front, 16 GB of a 4 GB memory, and fail an assertion). Windows up to K_FLOOR are left whole: cutting
 * every K to the rows changed results of ram-tail.test.ts's property (a segment a write, a phrase and
 * an AND over deleted and replaced rows: fewer ids than the RAM tail's), not understood yet.
 */
const K_FLOOR = 1 << 16;
export function topK(window: number, rows: number): number {
  return Math.min(window, Math.max(rows, K_FLOOR));
}

/** Rows per step of a segment searched under max_query_time: the deadline is checked between steps. */
export const DEADLINE_STEP_ROWS = 16_384;

/**
 * Evaluates a prepared search on this thread, one evaluate() call per segment, and frees it. Manticore
 * checks max_query_time while matching and keeps what it found so far; a segment, or a range of
 * DEADLINE_STEP_ROWS rows of a bigger one, is our step. With
 * `visit`, each segment's matches all go to it (K = the segment's rows) and `hits` stays empty.
 */
export function runPrepared(p: PreparedSearch, req: SearchRequest, visit?: SegmentMatches): SearchResult {
  try {
    if (req.cutoff && !visit) return runCutoff(p, req, req.cutoff);
    const tops: SegmentTop[] = [];
    const scale = p.ranked ? req.indexWeight ?? 1 : 1;
    for (const job of p.jobs) {
      if (tops.length > 0 && performance.now() > p.deadline) return finishSearch(p, tops, req, true);
      const seg = job.seg;
      if (!visit && p.deadline !== Infinity && seg.rows > DEADLINE_STEP_ROWS) {
        // one big segment (after OPTIMIZE, say) would otherwise run to its end past the deadline
        for (let from = 0; from < seg.rows; from += DEADLINE_STEP_ROWS) {
          if (tops.length > 0 && performance.now() > p.deadline) return finishSearch(p, tops, req, true);
          const to = Math.min(seg.rows, from + DEADLINE_STEP_ROWS);
          tops.push({ job, ...runPlanRange(seg.core, seg.descPtr, job.plan, topK(p.window, to - from), from, to) });
        }
        continue;
      }
      const top = runPlan(seg.core, seg.descPtr, job.plan, visit ? seg.rows : topK(p.window, seg.rows), visit !== undefined);
      if (visit) {
        if (scale !== 1) for (let i = 0; i < top.weights.length; i++) top.weights[i] *= scale;
        visit(seg, top.rowIds, top.weights);
        tops.push({ job, rowIds: [], weights: [], total: top.total });
      } else {
        tops.push({ job, ...top });
      }
    }
    return finishSearch(p, tops, req);
  } finally {
    releaseSearch(p);
  }
}

/**
 * Searches every segment on this thread. With `visit`, each segment's matches all go to it and
 * `hits` stays empty; without, the merged top-K page.
 */
export function searchSegments(
  schema: IndexSchema, segments: Segment[], totalDocs: number, req: SearchRequest, visit?: SegmentMatches,
): SearchResult {
  return runPrepared(prepareSearch(schema, segments, totalDocs, req), req, visit);
}
