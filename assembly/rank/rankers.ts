// Rankers: the row weight from a matched node, as Manticore's ExtRanker_* / RankerState_* do.

import { RANK_NONE, RANK_BM25, RANK_PROXIMITY_BM25, RANK_PROXIMITY, RANK_WORDCOUNT, RANK_FIELDMASK, RANK_SPH04, RANK_MATCHANY, RANK_EXPR, PF_DUPES, PF_SINGLE_WORD, P_FLAGS } from "../plan/format";
import { sph04Rank, matchAnyRank } from "./sph04";
import { nget, N_HLEN } from "../plan/node";
import { nodeHits } from "../plan/hits";
import { hitPos } from "../plan/hitbuf";
import { tfidf, docFields, bm25Part } from "./score";
import { computeLcs, lcsOf, MAX_FIELDS } from "./lcs";
import { exprPrepare, exprRank } from "./expr-rank";

/** Manticore's SPH_BM25_SCALE: LCS and field sums are scaled by it next to the BM25 part. */
const SCALE: i32 = 1000;
const weights = new StaticArray<i32>(MAX_FIELDS);
let maxQpos: i32 = 0;
let qwords: i32 = 0;

/** The query's largest keyword position (sph04 exact hits) and keyword count (matchany). */
export function setQueryShape(maxQ: u32, words: u32): void {
  maxQpos = <i32>maxQ;
  qwords = <i32>words;
}

/** Copies `n` user field weights; missing ones default to 1. */
export function setWeights(p: usize, n: u32): void {
  for (let f: u32 = 0; f < MAX_FIELDS; f++) unchecked((weights[f] = f < n ? load<i32>(p + (<usize>f << 2)) : 1));
}

/** Reads the plan's expression section (RANK_EXPR) for segment `blob`; false when it is malformed. */
export function prepareExpr(plan: usize, planLen: u32, numFields: u32, blob: usize): bool {
  const dupes = (load<u32>(plan + (<usize>P_FLAGS << 2)) & PF_DUPES) != 0;
  return exprPrepare(plan, planLen, weights, numFields, <u32>maxQpos, <u32>qwords, dupes, blob);
}

/** Field f's user weight (1 when not given). */
export function fieldWeight(f: u32): i32 {
  return f < MAX_FIELDS ? unchecked(weights[f]) : 1;
}

/** Sum of user weights over the fields in `mask` (lowest 32); 1 when the mask is empty. */
function weightSum(mask: u32): i32 {
  if (mask == 0) return 1;
  let s: i32 = 0;
  // the set bits only (a row matches in one or two fields; testing all 32 was a fifth of a term query)
  for (let m = mask; m != 0; m &= m - 1) s += unchecked(weights[ctz(m)]);
  return s;
}

function lcsRank(node: usize, dupes: bool, numFields: u32): i32 {
  const s = nodeHits(node);
  computeLcs(s, nget(node, N_HLEN), dupes);
  let r: i32 = 0;
  for (let f: u32 = 0; f < numFields && f < MAX_FIELDS; f++) r += <i32>lcsOf(f) * unchecked(weights[f]);
  return r;
}

export function scoreRow(node: usize, ranker: u32, flags: u32, numFields: u32): i32 {
  if (ranker == RANK_NONE) return 1;
  const single = (flags & PF_SINGLE_WORD) != 0;
  const dupes = (flags & PF_DUPES) != 0;
  if (ranker == RANK_EXPR) return exprRank(node, dupes);
  if (ranker == RANK_BM25 || (ranker == RANK_PROXIMITY_BM25 && single)) {
    return bm25Part(tfidf(node)) + weightSum(docFields(node)) * SCALE;
  }
  if (ranker == RANK_PROXIMITY) {
    return single ? weightSum(docFields(node)) : lcsRank(node, dupes, numFields);
  }
  if (ranker == RANK_WORDCOUNT || ranker == RANK_FIELDMASK) {
    const s = nodeHits(node);
    const n = nget(node, N_HLEN);
    let r: i32 = 0;
    for (let h = s; h < s + n; h++) {
      const f = hitPos(h) >>> 24;
      if (ranker == RANK_WORDCOUNT) r += unchecked(weights[f]);
      else if (f < 32) r |= 1 << f;
    }
    return r;
  }
  if (ranker == RANK_SPH04) {
    const s = nodeHits(node);
    return bm25Part(tfidf(node)) + sph04Rank(s, nget(node, N_HLEN), dupes, maxQpos, weights, numFields) * SCALE;
  }
  if (ranker == RANK_MATCHANY) {
    const s = nodeHits(node);
    return matchAnyRank(s, nget(node, N_HLEN), qwords, weights, numFields);
  }
  // proximity_bm25
  return bm25Part(tfidf(node)) + lcsRank(node, dupes, numFields) * SCALE;
}
