// Runs of rows counted without scoring them under top-K pruning (plan/prune.ts has the bounds): an
// OR or an AND of plain unlimited terms, standing on a row whose bound cannot enter the top-K, counts
// it and the rows after it while theirs cannot either, in one loop over the terms' cursors, without
// the generic matcher's per-row dispatch (next(), filters, the bound's tree walk). An OR is bounded
// from its terms' block-max words alone (no tf decoded); an AND, whose rows are few among its terms'
// (a mid-frequency word ANDed with a common one), from each row's tfs, as rowBound() bounds it.

import { TERMINATED } from "../util/codes";
import { cursorSeek, cursorSeekNear, cursorTf, cursorRow, cursorAdvance, cursorBlock, cursorBlockMax, cursorPositions, ensureTfs } from "../postings/cursor";
import { OP_AND, OP_OR } from "./format";
import { nget, nset, child, N_OP, N_DOC, N_NCHILD, N_CURSOR, N_IDF, N_CONSTRAINED, N_ARG0, N_GUIDE, N_STEPS, NOT_STARTED } from "./node";
import { pairedPart, unpaired, plainTerm, repeatPart, termBm25, weightBound } from "./prune";
import { guideBound, guideSum, hitFields16, skipBlocks, wordBm25, wordFields } from "./block-bounds";

/**
 * An OR of plain unlimited terms (orRows()): true when its children are all such terms, so its
 * rows can be bounded and counted from their row ids and block-max words alone.
 */
export function plainOr(n: usize): bool {
  return nget(n, N_OP) == OP_OR && nget(n, N_ARG0) != 1 && plainKids(n, OR_CACHE_KIDS);
}

/** True when node n has 1..most children, all plain unlimited terms with postings here. */
function plainKids(n: usize, most: u32): bool {
  const k = nget(n, N_NCHILD);
  for (let i: u32 = 0; i < k; i++) {
    const c = child(n, i);
    if (!plainTerm(c) || nget(c, N_CURSOR) == 0 || nget(c, N_CONSTRAINED) != 0) return false;
  }
  return k > 0 && k <= most;
}

/** Per child of a plainOr() node (at most OR_CACHE_KIDS): the block its parts are of, its BM25 share, its field part. */
const OR_CACHE_KIDS: u32 = 64;
const orBlock = new StaticArray<u32>(OR_CACHE_KIDS);
const orBm25 = new StaticArray<f32>(OR_CACHE_KIDS);
const orFields = new StaticArray<i32>(OR_CACHE_KIDS);

/**
 * A plainOr() node: counts its rows from the one it stands on while the bound of each (its terms'
 * block-max words, plus one for the order of the f32 sums) cannot beat `worst`, from their row ids
 * alone (no tf, no positions), those set in `deleted` left out, up to `end`. The node then stands
 * on the first row it did not count. Returns the count.
 */
export function orRows(n: usize, deleted: usize, end: u32, worst: i32): u32 {
  const k = nget(n, N_NCHILD);
  for (let i: u32 = 0; i < k; i++) unchecked((orBlock[i] = 0xffffffff));
  let count: u32 = 0;
  let r: u32 = nget(n, N_DOC);
  while (r < end) {
    let sum: f32 = 0;
    let fields: i32 = 0;
    for (let i: u32 = 0; i < k; i++) {
      const t = child(n, i);
      const c = <usize>nget(t, N_CURSOR);
      if (cursorRow(c) != r) continue;
      const b = cursorBlock(c);
      if (unchecked(orBlock[i]) != b) {
        const word = cursorBlockMax(c);
        unchecked((orBlock[i] = b));
        unchecked((orBm25[i] = wordBm25(t, word)));
        unchecked((orFields[i] = wordFields(t, word)));
      }
      sum += unchecked(orBm25[i]);
      fields += unchecked(orFields[i]);
    }
    if (<i64>weightBound(sum, fields) + 1 > <i64>worst) break;
    if (!rowDeleted(deleted, r)) count++;
    let next: u32 = TERMINATED;
    for (let i: u32 = 0; i < k; i++) {
      const c = <usize>nget(child(n, i), N_CURSOR);
      const row = cursorRow(c) == r ? cursorAdvance(c) : cursorRow(c);
      if (row < next) next = row;
    }
    r = next;
  }
  standOn(n, r);
  return count;
}

/** Whether row r is set in the `deleted` bitmap (0 = none). */
@inline export function rowDeleted(deleted: usize, r: u32): bool {
  return deleted != 0 && ((load<u8>(deleted + (r >>> 3)) >>> (r & 7)) & 1) != 0;
}

/** Puts a node of plain-term children that moved their cursors themselves on row r, each child on its cursor's row. */
export function standOn(n: usize, r: u32): void {
  const k = nget(n, N_NCHILD);
  for (let i: u32 = 0; i < k; i++) {
    const t = child(n, i);
    nset(t, N_DOC, cursorRow(<usize>nget(t, N_CURSOR)));
  }
  nset(n, N_DOC, r);
}

/** Children an AND may have for andRows() (its bound is a sum over them, as rowBound's). */
const AND_ROWS_KIDS: u32 = 64;

/** An AND whose children are all plain unlimited terms with postings here: andRows() can count it. */
export function plainAnd(n: usize): bool {
  return nget(n, N_OP) == OP_AND && plainKids(n, AND_ROWS_KIDS);
}

/**
 * Per child of the plainAnd() node andRows() counts: its cursor, 0 for a repeat reading its sibling's
 * cursor (node.ts shareRepeatCursors; equal costs sort them side by side), and its BM25 share for tf 1 ..
 * AND_TFS (termBm25(), the same f32 operations: a table read instead of a division a child a row).
 */
const andCursor = new StaticArray<usize>(AND_ROWS_KIDS);
const AND_TFS: u32 = 8;
const andShare = new StaticArray<f32>(AND_ROWS_KIDS * AND_TFS);

/** Fills andCursor and andShare for the k children of n. */
function andSetup(n: usize, k: u32): void {
  let last: usize = 0;
  for (let i: u32 = 0; i < k; i++) {
    const t = child(n, i);
    const c = <usize>nget(t, N_CURSOR);
    unchecked((andCursor[i] = c == last ? 0 : c));
    last = c;
    const idf = reinterpret<f32>(nget(t, N_IDF));
    for (let tf: u32 = 1; tf <= AND_TFS; tf++) unchecked((andShare[i * AND_TFS + tf - 1] = termBm25(tf, idf)));
  }
}

/**
 * The first row >= target every child's cursor is on (leapfrog from child 0, the cheapest; andSetup()
 * ran): most targets of a dense AND are a row or two ahead of each cursor (cursorSeekNear).
 */
function leapfrog(k: u32, target: u32): u32 {
  let d = target;
  while (true) {
    d = cursorSeekNear(unchecked(andCursor[0]), d);
    if (d == TERMINATED) return d;
    let agreed = true;
    for (let i: u32 = 1; i < k; i++) {
      const c = unchecked(andCursor[i]);
      if (c == 0) continue;
      const di = cursorSeekNear(c, d);
      if (di != d) {
        d = di;
        agreed = false;
        break;
      }
    }
    if (agreed || d == TERMINATED) return d;
  }
}

/**
 * Rows of a steps AND (prune.ts pairedPart) whose bound from the steps' pairs and tfs was tried, and
 * those it cut, in this evaluate() call (andRowsBegin()): where it seldom cuts (the steps with no pair
 * decide: "obs sides see", its first and third word seldom two apart, ~98% of the rows it tried went
 * on to the hits), rows go straight to the bound from the hits, which is never above it (a step's
 * fields where the hits show it are among those both words are in, at most min(tf) of them): the
 * same rows are cut.
 */
let pairedTried: u32 = 0;
let pairedCut: u32 = 0;
let pairedSkip = false;
/** Tries before pairedSkip is judged, and the share of cuts (one in this many) that keeps the stage. */
const PAIRED_TRIAL: u32 = 256;
const PAIRED_MIN_RATE: u32 = 8;

/** Starts andRows()'s judgement of its stages afresh: evaluate.ts, once per call. */
export function andRowsBegin(): void {
  pairedTried = 0;
  pairedCut = 0;
  pairedSkip = false;
}

/** Whether the steps' bound of row r (its tf-only part `fields` could not cut it) cuts it. */
function stepsCut(n: usize, r: u32, sum: f32, fields: i32, worst: i32): bool {
  if (!pairedSkip) {
    const cut = weightBound(sum, pairedPart(n, r, fields)) <= worst;
    if (cut) pairedCut++;
    if (++pairedTried == PAIRED_TRIAL) pairedSkip = pairedCut * PAIRED_MIN_RATE < pairedTried;
    if (cut) return true;
    if (!unpaired) return false;
  }
  return weightBound(sum, pairedPart(n, r, fields, true)) <= worst;
}

/**
 * A plainAnd() node standing on a row: counts its rows from that one while the bound of each
 * (rowBound()'s, the same f32 sums in the same order) cannot beat `worst`, those set in `deleted`
 * left out, up to `end`. The node then stands on the first row it did not count. Returns the count.
 */
export function andRows(n: usize, deleted: usize, end: u32, worst: i32): u32 {
  const k = nget(n, N_NCHILD);
  let count: u32 = 0;
  let r: u32 = nget(n, N_DOC);
  andSetup(n, k);
  while (r < end) {
    let sum: f32 = 0;
    let fields: i32 = 0;
    let tf: u32 = 0;
    for (let i: u32 = 0; i < k; i++) {
      // a repeat reading its sibling's cursor (andSetup) has its tf
      const c = unchecked(andCursor[i]);
      if (c != 0) tf = cursorTf(c);
      const t = child(n, i);
      sum += tf <= AND_TFS ? unchecked(andShare[i * AND_TFS + tf - 1]) : termBm25(tf, reinterpret<f32>(nget(t, N_IDF)));
      fields += repeatPart(t, tf);
    }
    // the steps' bound from tf first; from the row's hits (step-fields.ts) only for a row it cannot skip
    if (weightBound(sum, fields) > worst && (nget(n, N_STEPS) == 0 || !stepsCut(n, r, sum, fields, worst))) break;
    if (!rowDeleted(deleted, r)) count++;
    r = leapfrog(k, r + 1);
  }
  standOn(n, r);
  return count;
}

/**
 * An exactGuide() phrase standing alone, on a row of its guide (the pair term of its two words, whose
 * rows are the phrase's rows): counts that row and the guide's rows after it while their bound from
 * the pair alone (block-bounds.ts guideBound) cannot beat `worst`, those set in `deleted` left out, up to
 * `end`, without moving the words' cursors or reading their positions; blocks whose block-max word
 * bounds them so are counted from their skip entries (skipBlocks). Returns the count; a node that
 * moved is left unstarted, for next() to put it on its guide's row (guideRow()).
 */
export function guideRows(n: usize, deleted: usize, end: u32, worst: i32): u32 {
  const g = <usize>nget(n, N_GUIDE);
  const from = cursorRow(g);
  const sum1 = guideSum(n, 1);
  const sum2 = guideSum(n, 2);
  let r = from;
  let count: u32 = 0;
  let blk: u32 = 0xffffffff;
  let set: u32 = 0;
  let pop: u32 = 0;
  while (r < end) {
    const b = cursorBlock(g);
    if (b != blk) {
      blk = b;
      const word = cursorBlockMax(g);
      set = (word >>> 16) & 0xffff;
      pop = <u32>popcnt(set);
      if (guideBound(n, sum1, set, min(word & 0xffff, pop)) <= worst) {
        count += skipBlocks(n, deleted, end, worst);
        r = cursorRow(g);
        blk = 0xffffffff;
        continue;
      }
      ensureTfs(g);
    }
    const tf = cursorTf(g);
    const sum = tf == 1 ? sum1 : tf == 2 ? sum2 : guideSum(n, tf);
    // from the block's fields, then from the fields the pair's hits name (twice in one field is one)
    if (guideBound(n, sum, set, min(tf, pop)) > worst) {
      const found = hitFields16(cursorPositions(g), tf);
      if (guideBound(n, sum, found, <u32>popcnt(found)) > worst) break;
    }
    if (!rowDeleted(deleted, r)) count++;
    r = cursorAdvance(g);
  }
  if (r != from) nset(n, N_DOC, NOT_STARTED);
  return count;
}

/** The row an exactGuide() phrase's guide cursor is on. */
export function guideRow(n: usize): u32 {
  return cursorRow(<usize>nget(n, N_GUIDE));
}
