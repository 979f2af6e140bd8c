// evaluate(): the one call per segment per query. Matches the plan tree, applies deletes, the
// host's row-allow bitmap and attribute filters, scores with the chosen ranker, keeps top-K.

import { TERMINATED, E_BAD_PLAN, E_BAD_SEGMENT } from "../util/codes";
import { hdr, H_MAGIC, H_VERSION, H_ROWS, H_FIELDS, SEGMENT_MAGIC, SEGMENT_VERSION, DESC_BLOB, DESC_DELETED, bitIsSet, columnPtr } from "../segment/layout";
import {
  PLAN_MAGIC, PLAN_HEADER_WORDS, P_MAGIC, P_RANKER, P_FLAGS, P_NWEIGHTS, P_WEIGHTS, P_ROOT, P_FILTERS,
  P_NFILTERS, P_SORT, P_NSORT, P_ALLOW, P_MAXQPOS, P_NQWORDS, P_FLOOR, SORT_KEY_WORDS, PF_DUPES, PF_EXHAUSTIVE, PF_IDS_UNSORTED, pword,
} from "./format";
import { arenaBytes, buildTree, checkTree, freeTree } from "./node";
import { next, setSegmentRows, sortByCost, setPhraseMode, exactGuide } from "./match";
import { pruneSetup, plainTerm, rowBound } from "./prune";
import { blockBound, skipBlocks } from "./block-bounds";
import { plainOr, orRows, plainAnd, andRows, andRowsBegin, guideRows, guideRow } from "./bounded-runs";
import { nget, N_CONSTRAINED, N_CURSOR, N_DOC, NOT_STARTED } from "./node";
import { hitsReset } from "./hitbuf";
import { filtersPrepare, filtersPass } from "./filters";
import { budgetBegin } from "../memory/budget";
import { topkReset, topkPush, topkDrain, sortDefault, sortClear, sortAdd, topkPrunable, topkWorstWeight, topkSetFloor, topkFullWorst, topkSetIds } from "../rank/topk";
import { scoreRow, setWeights, setQueryShape, prepareExpr } from "../rank/rankers";
import { floorBegin, floorEnd } from "../rank/floor";
import { RANK_EXPR } from "./format";

let total: u32 = 0;
let pruned: u32 = 0;

/** Matching rows the last evaluate() counted without scoring them (plan/prune.ts). */
export function lastPruned(): u32 {
  return pruned;
}

/** Matches counted by the last evaluate() (after deletes and filters). */
export function lastTotal(): u32 {
  return total;
}

/** Rows whose bound is tried before the evaluator judges whether bounds pay on this segment. */
const BOUND_TRIAL: u32 = 512;
/** Bounds pay when at least one try in this many prunes its row. */
const BOUND_MIN_RATE: u32 = 8;
/**
 * Rows scored without bounds before a failed trial is made once more, in a call that started with no
 * floor (the query's first segment, or a query thread's first range). The K-th weight a trial compares
 * with rises as the segment goes on, and such a call judged its bounds while its top-K held only its
 * first rows' weights, then scored every row it had (2M, 5 segments, "cases the" on one thread: the first
 * segment pruned 46 of its 8,494 rows, the others 73-75%; made again after 1024 rows, 5,299; 10M, 6
 * segments, each call with no floor: 280 of 168,863 rows pruned, 55.8 ms of CPU -> 145,737, 35.0 ms).
 * Once only, and only there: a trial costs BOUND_TRIAL bounds, and where bounds never pay ("with king
 * see", no row pruned in any segment) retrials in every segment, doubling, cost 3-5% of the AND classes'
 * CPU.
 */
const BOUND_RETRY_ROWS: u32 = 1024;

/** Flag bit of evaluate's `k`: return every match unsorted, up to the rest of `k`. */
export const ALL_MATCHES: u32 = 0x80000000;

/** Runs `plan` over segment descriptor `seg`; writes up to k (rowId, weight) pairs to `out`. */
export function evaluate(seg: usize, plan: usize, planLen: u32, k: u32, out: usize): i32 {
  return evaluateRange(seg, plan, planLen, k, out, 0, TERMINATED);
}

/**
 * evaluate() over rows [from, to) only: a worker thread takes one range of a big segment (Manticore's
 * pseudo-sharding); the ranges' top-Ks and totals merge into the whole segment's.
 */
export function evaluateRange(seg: usize, plan: usize, planLen: u32, k: u32, out: usize, from: u32, to: u32): i32 {
  budgetBegin();
  const e = matchRange(seg, plan, planLen, k, from, to);
  return e < 0 ? e : <i32>topkDrain(out);
}

/**
 * The matching of evaluateRange() without the drain: the kept entries stay in the top-K buffer
 * (with ALL_MATCHES in `k`: every match in row order, at topkEntries(), topkCount() of them).
 * Returns 0 or an E_* code.
 */
export function matchRange(seg: usize, plan: usize, planLen: u32, k: u32, from: u32, to: u32): i32 {
  total = 0;
  pruned = 0;
  const blob = <usize>load<u32>(seg + DESC_BLOB);
  const deleted = <usize>load<u32>(seg + DESC_DELETED);
  if (hdr(blob, H_MAGIC) != SEGMENT_MAGIC || hdr(blob, H_VERSION) != SEGMENT_VERSION) return E_BAD_SEGMENT;
  if (planLen < PLAN_HEADER_WORDS || pword(plan, P_MAGIC) != PLAN_MAGIC) return E_BAD_PLAN;
  const rows = min(hdr(blob, H_ROWS), to);
  const numFields = hdr(blob, H_FIELDS);
  const root = pword(plan, P_ROOT);
  if (!prepare(plan, planLen, blob, root != 0)) return E_BAD_PLAN;
  if (root != 0 && pword(plan, P_RANKER) == RANK_EXPR && !prepareExpr(plan, planLen, numFields, blob)) return E_BAD_PLAN;
  const allow = <usize>pword(plan, P_ALLOW);
  // k with ALL_MATCHES set: every match (at most the rest of k), unsorted (grouping folds them all)
  topkReset(k & ~ALL_MATCHES, (k & ALL_MATCHES) != 0);
  topkSetIds(columnPtr(blob, 0), (pword(plan, P_FLAGS) & PF_IDS_UNSORTED) != 0);
  if (root == 0) {
    for (let row: u32 = from; row < rows; row++) {
      if (bitIsSet(deleted, row) || (allow != 0 && !bitIsSet(allow, row)) || !filtersPass(row)) continue;
      total++;
      topkPush(row, 1);
    }
    return 0;
  }
  if (checkTree(plan, root, planLen, 0) == 0) return E_BAD_PLAN;
  const arenaSize = arenaBytes(plan, root);
  const arena = heap.alloc(arenaSize);
  const allFields: u32 = numFields >= 32 ? 0xffffffff : (<u32>1 << numFields) - 1;
  const node = buildTree(plan, root, arena, arenaSize, blob, allFields);
  setSegmentRows(rows);
  sortByCost(node);
  const ranker = pword(plan, P_RANKER);
  const flags = pword(plan, P_FLAGS);
  // pruning (plan/prune.ts): rows whose weight bound cannot enter the top-K are counted, not scored
  const prune = (k & ALL_MATCHES) == 0 && pruneSetup(node, ranker, flags, numFields);
  // the query's floor (plan word P_FLOOR): what its earlier segments and ranges kept, so a segment after
  // the first prunes from its first row instead of scoring until its own top-K fills (a table of ten
  // 1M-row segments scored the head of each: a frequent word cost ~0.25 ms a segment)
  const floorPtr = prune ? <usize>pword(plan, P_FLOOR) : 0;
  if (floorPtr != 0) topkSetFloor(floorBegin(floorPtr, k));
  setPhraseMode((flags & (PF_DUPES | PF_EXHAUSTIVE)) == 0, prune);
  // one unlimited term, nothing to test per row but deletes: whole blocks are counted by their bound
  const cursor = <usize>nget(node, N_CURSOR);
  const plainRows = prune && allow == 0 && pword(plan, P_NFILTERS) == 0;
  const byBlock = plainRows && plainTerm(node) && cursor != 0 && nget(node, N_CONSTRAINED) == 0;
  // an OR of such terms: runs of rows bounded by their terms' block-max words, counted from row ids
  const orByBlock = plainRows && plainOr(node);
  // an AND of such terms: runs of its rows bounded below the K-th weight counted in one loop
  const andByRow = plainRows && plainAnd(node);
  andRowsBegin();
  // a phrase its pair term decides: runs of the pair's rows bounded from the pair alone
  const guideByRow = plainRows && exactGuide(node);
  let tryBound = prune;
  let tried: u32 = 0;
  let skipped: u32 = 0;
  let judged = false;
  // a call with no floor to start from gets one more trial, BOUND_RETRY_ROWS scored rows after a failed one
  let retry = prune && !topkPrunable();
  let untried: u32 = 0;
  hitsReset();
  let d = from < rows ? next(node, from) : TERMINATED;
  while (d < rows) {
    if (byBlock && topkPrunable() && blockBound(node) <= topkWorstWeight()) {
      const n = skipBlocks(node, deleted, rows, topkWorstWeight());
      total += n;
      pruned += n;
      d = nget(node, N_DOC);
      continue;
    }
    if (orByBlock && topkPrunable()) {
      const n = orRows(node, deleted, rows, topkWorstWeight());
      if (n > 0) {
        total += n;
        pruned += n;
        d = nget(node, N_DOC);
        continue;
      }
    }
    if (guideByRow && topkPrunable()) {
      const n = guideRows(node, deleted, rows, topkWorstWeight());
      if (nget(node, N_DOC) == NOT_STARTED) {
        total += n;
        pruned += n;
        d = next(node, guideRow(node));
        continue;
      }
    }
    if (andByRow && tryBound && topkPrunable()) {
      const n = andRows(node, deleted, rows, topkWorstWeight());
      if (n > 0) {
        total += n;
        pruned += n;
        tried += n;
        skipped += n;
        d = nget(node, N_DOC);
        continue;
      }
    }
    if (!bitIsSet(deleted, d) && (allow == 0 || bitIsSet(allow, d)) && filtersPass(d)) {
      hitsReset();
      total++;
      if (tryBound && topkPrunable()) {
        tried++;
        const cut = rowBound(node, d) <= topkWorstWeight();
        if (cut) skipped++;
        // a bound that seldom prunes (terms close to each other in many rows) costs more than it saves:
        // after BOUND_TRIAL tries with under one in BOUND_MIN_RATE pruned, rows are scored without it
        // (but for one more trial where the call had no floor: BOUND_RETRY_ROWS); a trial that pays keeps them
        if (!judged && tried >= BOUND_TRIAL) {
          if (skipped * BOUND_MIN_RATE < tried) {
            tryBound = false;
            untried = 0;
          } else {
            judged = true;
          }
          tried = 0;
          skipped = 0;
        }
        if (cut) {
          pruned++;
          hitsReset();
          d = next(node, d + 1);
          continue;
        }
      }
      if (retry && !tryBound && ++untried >= BOUND_RETRY_ROWS) {
        tryBound = true;
        retry = false;
      }
      topkPush(d, scoreRow(node, ranker, flags, numFields));
    }
    hitsReset();
    d = next(node, d + 1);
  }
  freeTree(arena);
  if (floorPtr != 0) floorEnd(floorPtr, topkFullWorst());
  return 0;
}

/** Reads weights, filters and sort keys; false when the plan is inconsistent. */
function prepare(plan: usize, planLen: u32, blob: usize, ranked: bool): bool {
  const nw = pword(plan, P_NWEIGHTS);
  if (nw > 0 && pword(plan, P_WEIGHTS) + nw > planLen) return false;
  setWeights(plan + (<usize>pword(plan, P_WEIGHTS) << 2), nw);
  setQueryShape(pword(plan, P_MAXQPOS), pword(plan, P_NQWORDS));
  if (!filtersPrepare(plan, pword(plan, P_FILTERS), pword(plan, P_NFILTERS), blob, planLen)) return false;
  const ns = pword(plan, P_NSORT);
  const at = pword(plan, P_SORT);
  if (ns == 0) {
    if (ranked) sortDefault();
    else sortClear();
    return true;
  }
  if (at + ns * SORT_KEY_WORDS > planLen) return false;
  sortClear();
  for (let i: u32 = 0; i < ns; i++) {
    const w = at + i * SORT_KEY_WORDS;
    if (!sortAdd(pword(plan, w), pword(plan, w + 1), pword(plan, w + 2) != 0, blob)) return false;
  }
  return true;
}
