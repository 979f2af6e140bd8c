// Top-K pruning by weight bounds: block-max WAND's idea (Ding & Suel, SIGIR 2011) applied without
// giving up exact totals. Every matching row is still counted (total_found, SHOW META), but a row
// whose weight bound cannot beat the K-th kept weight is not scored (no positions decoded, no LCS),
// and a whole postings block of a single-term query whose block-max bound cannot is counted from
// its row ids alone.
//
// Which queries qualify (pruneSetup): ranker bm25 or proximity_bm25, the default order (weight
// desc, then rowId asc; rows arrive ascending, so a row enters a full heap only with a weight above
// the K-th), and a tree of plain terms under AND, OR and phrases of plain terms (no phrase when a
// keyword repeats).
// Every other ranker, sort, operator or wildcard list runs exhaustively, as before.
//
// The bound, for those rankers: weight = bm25Part(Σ tf/(tf+1.2)*idf) + 1000 * F, where F is
// weightSum(docFields) (bm25, one keyword) or Σ_f lcs_f * w_f (proximity_bm25). The BM25 sum is
// computed exactly (tf is in the block's decoded tfs; the same f32 operations in the same order as
// rank/score.ts). F <= max(1, Σ_units len(unit) * (the largest sum of tf positive weights among
// fields(unit))): without repeated keywords a field's LCS run takes each term (length 1) or phrase
// (length k) at most once, and a unit with tf hits on the row is in at most tf fields. With repeated
// keywords (rank/lcs.ts lcsDupes) a run grows only by a hit of a higher qpos in the same field, so it
// still takes each term child at most once; the repeats' idf is 0 (query-analyzer.ts), as in tfidf(). A term's
// fields are its block's field union (the block-max word, postings-encoder.ts); a phrase's are the
// fields where phraseMatch() found it on the row, when it looked.

import {
  cursorTf, cursorBlockMax, cursorSeek, cursorBlock,
} from "../postings/cursor";
import { OP_TERM, OP_AND, OP_OR, OP_PHRASE, RANK_BM25, RANK_PROXIMITY_BM25, PF_DUPES, PF_EXHAUSTIVE } from "./format";
import {
  nget, nset, child, N_OP, N_DOC, N_NCHILD, N_CURSOR, N_QPOS, N_FMASK, N_IDF, N_ARG0, N_MERGED, N_PFIELDS, N_PDOC, N_CONSTRAINED,
  N_WBLOCK, N_WPOP, N_TW1, N_TW2, N_TWALL, N_TERM, N_REPEAT, N_GUIDE, N_STEPS,
} from "./node";
import { fieldWeight } from "../rank/rankers";
import { bm25Part } from "../rank/score";
import { stepFields, STEP_UNREAD } from "./step-fields";

const BM25_K1: f32 = 1.2;
const SCALE: i32 = 1000;


/** The 16-bit field set of a term's 32-bit mask: fields 0..14 a bit each, bit 15 any from 15 up. */
@inline export function fields16(mask: u32): u32 {
  return (mask & 0x7fff) | ((mask >>> 15) != 0 ? <u32>0x8000 : 0);
}

/** A plain term: one cursor over one term's own blocks (not a wildcard's merged list). */
@inline export function plainTerm(n: usize): bool {
  return nget(n, N_OP) == OP_TERM && nget(n, N_MERGED) == 0;
}

/** A phrase of two or more plain terms with ascending query positions: phraseMatch() decides it. */
export function simplePhrase(n: usize): bool {
  const k = nget(n, N_NCHILD);
  if (nget(n, N_OP) != OP_PHRASE || k < 2) return false;
  let q: u32 = 0;
  for (let i: u32 = 0; i < k; i++) {
    const c = child(n, i);
    if (!plainTerm(c) || nget(c, N_QPOS) < q) return false;
    q = nget(c, N_QPOS);
  }
  return true;
}

function boundable(n: usize, dupes: bool): bool {
  const op = nget(n, N_OP);
  if (op == OP_TERM) return plainTerm(n);
  // with repeated keywords phrases are decided by the FSM, which leaves N_PFIELDS unset
  if (op == OP_PHRASE) return !dupes && simplePhrase(n);
  if (op == OP_OR && nget(n, N_ARG0) == 1) return false; // a wildcard's expansions share one tf
  if (op != OP_AND && op != OP_OR) return false;
  const k = nget(n, N_NCHILD);
  for (let i: u32 = 0; i < k; i++) if (!boundable(child(n, i), dupes)) return false;
  return true;
}

/** max(w_f, 0) of fields 0..14, then the sum over fields 15.. of the segment (the 16-bit set's bit 15). */
const posWeights = new StaticArray<i32>(16);

/**
 * True when rows of this query may be skipped by their bound (see the file header); reads the
 * field weights (rank/rankers.ts setWeights() ran before) for a segment of `numFields` fields.
 */
export function pruneSetup(root: usize, ranker: u32, flags: u32, numFields: u32): bool {
  if ((flags & PF_EXHAUSTIVE) != 0) return false;
  if (ranker != RANK_BM25 && ranker != RANK_PROXIMITY_BM25) return false;
  if (!boundable(root, (flags & PF_DUPES) != 0)) return false;
  if ((flags & PF_DUPES) != 0) repeatRanks(root);
  let rest: i32 = 0;
  for (let f: u32 = 0; f < numFields; f++) {
    const w = max(fieldWeight(f), 0);
    if (f < 15) unchecked((posWeights[f] = w));
    else rest += w;
  }
  for (let f = numFields; f < 15; f++) unchecked((posWeights[f] = 0));
  unchecked((posWeights[15] = rest));
  return true;
}

/**
 * Sets N_REPEAT of each unconstrained plain term under an AND: how many earlier such siblings have
 * its term. A keyword at r query positions with tf_f hits in field f puts at most min(r, tf_f) of
 * them in f's LCS run (lcsDupes: a run's hits stand at distinct positions), so its r occurrences
 * together add at most G(r) = max Σ_f w_f min(r, tf_f) over the ways tf hits spread over its fields
 * (repeatWeights: the heaviest field takes r of them, the next r, ...). Its j-th occurrence (rank
 * j - 1) adds G(j) - G(j - 1) (repeatPart), so the occurrences' parts sum to G(r); G(1) is the first's
 * termFieldPart(n, tf). (Each occurrence's own topWeights(fields, tf - rank), the bound before, let a
 * word with tf 2 in two fields count both fields and a field holding it twice: 2 + 1 where G(2) = 2.)
 */
function repeatRanks(n: usize): void {
  const k = nget(n, N_NCHILD);
  const and = nget(n, N_OP) == OP_AND;
  for (let i: u32 = 0; i < k; i++) {
    const c = child(n, i);
    if (nget(c, N_OP) != OP_TERM) {
      repeatRanks(c);
      continue;
    }
    if (!and || nget(c, N_TERM) == 0 || nget(c, N_CONSTRAINED) != 0) continue;
    let rank: u32 = 0;
    for (let j: u32 = 0; j < i; j++) {
      const e = child(n, j);
      if (nget(e, N_OP) == OP_TERM && nget(e, N_TERM) == nget(c, N_TERM) && nget(e, N_CONSTRAINED) == 0) rank++;
    }
    nset(c, N_REPEAT, rank);
  }
}

/**
 * A plain term's field part for tf hits on its row: termFieldPart() for its first occurrence under
 * an AND, G(rank + 1) - G(rank) for a repeat (repeatRanks; G is repeatWeights of its fields): 0 when
 * tf <= rank (no field can hold more of it than tf), and for tf rank + 1 and rank + 2 once per block in
 * the node's field-part cache (a repeat's termFieldPart() is never asked for, so the slots are free).
 */
@inline export function repeatPart(n: usize, tf: u32): i32 {
  const rank = nget(n, N_REPEAT);
  return rank == 0 ? termFieldPart(n, tf) : repeatMore(n, tf, rank);
}

/** repeatPart() of a repeat (rank >= 1). */
function repeatMore(n: usize, tf: u32, rank: u32): i32 {
  if (tf <= rank) return 0;
  const b = cursorBlock(<usize>nget(n, N_CURSOR)) + 1;
  if (nget(n, N_WBLOCK) != b) {
    const set = termFields(n);
    nset(n, N_WBLOCK, b);
    nset(n, N_TW1, <u32>(repeatWeights(set, rank + 1, rank + 1) - repeatWeights(set, rank + 1, rank)));
    nset(n, N_TW2, <u32>(repeatWeights(set, rank + 2, rank + 1) - repeatWeights(set, rank + 2, rank)));
  }
  if (tf == rank + 1) return <i32>nget(n, N_TW1);
  if (tf == rank + 2) return <i32>nget(n, N_TW2);
  const set = termFields(n);
  return repeatWeights(set, tf, rank + 1) - repeatWeights(set, tf, rank);
}

/**
 * max Σ_f w_f min(r, tf_f) over the fields of a 16-bit set, Σ tf_f = tf (w_f >= 0: posWeights): the
 * heaviest field takes min(r, tf) hits, the next min(r, what is left), ... (each hit is worth its
 * field's weight, a field's hits past r nothing). Bit 15 counts as one field weighing all fields from
 * 15 up: never less than the truth. r = 1 is topWeights(set, tf).
 */
export function repeatWeights(set: u32, tf: u32, r: u32): i32 {
  let s: i32 = 0;
  let left = tf;
  for (let m = set & 0xffff; m != 0 && left > 0; ) {
    let best: i32 = -1;
    let bit: u32 = 0;
    for (let b = m; b != 0; b &= b - 1) {
      const w = unchecked(posWeights[ctz(b)]);
      if (w > best) { best = w; bit = b & (~b + 1); }
    }
    const take = left < r ? left : r;
    s += best * <i32>take;
    left -= take;
    m &= ~bit;
  }
  return s;
}

/** Σ of the bound's field part (F in the file header) over the units added so far. */
let fieldSum: i32 = 0;

/** A term's BM25 contribution for tf, as rank/score.ts computes it. */
@inline export function termBm25(tf: u32, idf: f32): f32 {
  const t = <f32>tf;
  return t / (t + BM25_K1) * idf;
}

/**
 * The largest sum of `j` positive weights of the fields in a 16-bit set (a row's term is in at most
 * tf fields). Bit 15 counts as one field weighing all fields from 15 up: never less than the truth.
 */
export function topWeights(set: u32, j: u32): i32 {
  let s: i32 = 0;
  let taken: u32 = 0;
  for (let m = set & 0xffff; m != 0 && taken < j; taken++) {
    let best: i32 = -1;
    let bit: u32 = 0;
    for (let r = m; r != 0; r &= r - 1) {
      const w = unchecked(posWeights[ctz(r)]);
      if (w > best) { best = w; bit = r & (~r + 1); }
    }
    s += best;
    m &= ~bit;
  }
  return s;
}

/** A plain term's fields on its current block, within its own field limits. */
@inline function termFields(n: usize): u32 {
  return (cursorBlockMax(<usize>nget(n, N_CURSOR)) >>> 16) & fields16(nget(n, N_FMASK));
}

/**
 * topWeights(termFields(n), tf) of a plain term: the answers for tf 1, 2 and at least the block's
 * field count are computed once per block (a dense term under AND is bounded on most rows of it).
 */
@inline export function termFieldPart(n: usize, tf: u32): i32 {
  // the block's answers already cached: read inline (an AND counting its rows asks on every row)
  if (nget(n, N_WBLOCK) == cursorBlock(<usize>nget(n, N_CURSOR)) + 1) {
    if (tf >= nget(n, N_WPOP)) return <i32>nget(n, N_TWALL);
    if (tf == 1) return <i32>nget(n, N_TW1);
    if (tf == 2) return <i32>nget(n, N_TW2);
  }
  return termFieldPartOf(n, tf);
}

/** termFieldPart() past its cached answers: fills the block's cache first. */
function termFieldPartOf(n: usize, tf: u32): i32 {
  const b = cursorBlock(<usize>nget(n, N_CURSOR)) + 1;
  if (nget(n, N_WBLOCK) != b) {
    const set = termFields(n);
    nset(n, N_WBLOCK, b);
    nset(n, N_WPOP, <u32>popcnt(set));
    nset(n, N_TW1, <u32>topWeights(set, 1));
    nset(n, N_TW2, <u32>topWeights(set, 2));
    nset(n, N_TWALL, <u32>topWeights(set, 16));
  }
  if (tf >= nget(n, N_WPOP)) return <i32>nget(n, N_TWALL);
  if (tf == 1) return <i32>nget(n, N_TW1);
  if (tf == 2) return <i32>nget(n, N_TW2);
  return topWeights(termFields(n), tf);
}

/**
 * Node n's BM25 sum at row d, computed as rank/score.ts tfidf() does (same f32 operations in the
 * same order, so bm25Part of it is the ranker's exact value); adds its field part to fieldSum.
 */
function nodeBound(n: usize, d: u32): f32 {
  const op = nget(n, N_OP);
  if (op == OP_TERM) {
    const tf = cursorTf(<usize>nget(n, N_CURSOR));
    fieldSum += repeatPart(n, tf);
    return termBm25(tf, reinterpret<f32>(nget(n, N_IDF)));
  }
  const k = nget(n, N_NCHILD);
  let sum: f32 = 0;
  if (op == OP_PHRASE) {
    let inter: u32 = 0xffff;
    let minTf: u32 = 0xffffffff;
    for (let i: u32 = 0; i < k; i++) {
      const c = child(n, i);
      const tf = cursorTf(<usize>nget(c, N_CURSOR));
      sum += termBm25(tf, reinterpret<f32>(nget(c, N_IDF)));
      inter &= termFields(c);
      if (tf < minTf) minTf = tf;
    }
    // the fields the phrase was found in on this row, when phraseMatch() looked at all of them
    if (nget(n, N_PDOC) == d) inter &= nget(n, N_PFIELDS);
    fieldSum += <i32>k * topWeights(inter, minTf);
    return sum;
  }
  const before = fieldSum;
  for (let i: u32 = 0; i < k; i++) {
    const c = child(n, i);
    if (nget(c, N_DOC) == d) sum += nodeBound(c, d);
  }
  if (op == OP_AND && nget(n, N_STEPS) != 0) fieldSum = before + pairedPart(n, d, fieldSum - before);
  return sum;
}

/** Whether the last pairedPart() bounded a step with no pair (one its `exact` may tighten). */
export let unpaired = false;

/**
 * The field part of row d of a steps AND (node.ts N_STEPS: plain words, some carrying a cursor over
 * the pair of their word and the next query position's, planner.ts andSteps): at most `part` (its
 * words' own parts). A field's LCS run (rank/lcs.ts, both variants) is a chain of hits of ascending
 * qpos whose position gaps equal their qpos gaps, so run length m in field f takes m - 1 distinct
 * steps (qi -> qj, qi < qj) each occurring in f: the word of qi at some p, the word of qj at
 * p + qj - qi. So F <= Σ_f w_f (1 + the step kinds occurring in f) <= topWeights(the words' fields,
 * Σ tf) plus, per step kind: a pair's fields on its row (its block's field set, at most its tf of
 * them; none off its rows: a segment's pair term is complete), else the fields both words are in (a
 * word repeated: fields with two of its hits), or with `exact` the fields where their hits stand
 * qj - qi apart (step-fields.ts: the row's hits decoded). The words' hits outside the AND chain through
 * them as through any unit (the file header's sum). The pair cursors only move forward (d ascends).
 */
export function pairedPart(n: usize, d: u32, part: i32, exact: bool = false): i32 {
  unpaired = false;
  const k = nget(n, N_NCHILD);
  let tfAll: u32 = 0;
  let union: u32 = 0;
  for (let i: u32 = 0; i < k; i++) {
    const c = child(n, i);
    if (!plainTerm(c) || nget(c, N_CURSOR) == 0) return part;
    tfAll += cursorTf(<usize>nget(c, N_CURSOR));
    union |= termFields(c);
  }
  let alt = topWeights(union, tfAll);
  let i: u32 = 0;
  for (; i < k && alt < part; i++) {
    const a = child(n, i);
    const qa = nget(a, N_QPOS);
    const g = <usize>nget(a, N_GUIDE);
    for (let j: u32 = 0; j < k; j++) {
      const b = child(n, j);
      const qb = nget(b, N_QPOS);
      if (qb <= qa) continue;
      if (qb == qa + 1 && g != 0) {
        if (cursorSeek(g, d) == d) alt += topWeights((cursorBlockMax(g) >>> 16) & 0xffff, cursorTf(g));
        continue;
      }
      unpaired = true;
      const ca = <usize>nget(a, N_CURSOR);
      const cb = <usize>nget(b, N_CURSOR);
      const both = termFields(a) & termFields(b);
      const seen = exact ? stepFields(ca, cb, qb - qa) : STEP_UNREAD;
      if (seen != STEP_UNREAD) {
        alt += topWeights(seen & both, 16);
        continue;
      }
      const ta = cursorTf(ca);
      const tb = cursorTf(cb);
      alt += nget(a, N_TERM) == nget(b, N_TERM) ? topWeights(both, ta >>> 1) : topWeights(both, min(ta, tb));
    }
  }
  if (i < k) unpaired = true; // stopped before its last steps: an exact pass may still find less
  return alt < part ? alt : part;
}

/** An upper bound of scoreRow() for row d, the node tree standing on d. */
export function rowBound(root: usize, d: u32): i32 {
  fieldSum = 0;
  const sum = nodeBound(root, d);
  return weightBound(sum, fieldSum);
}

/** bm25Part + 1000 * max(1, fields), clamped to i32 (field weights can be large). */
export function weightBound(sum: f32, fields: i32): i32 {
  const b = <i64>bm25Part(sum) + <i64>SCALE * <i64>(fields > 1 ? fields : 1);
  return b > <i64>i32.MAX_VALUE ? i32.MAX_VALUE : <i32>b;
}
