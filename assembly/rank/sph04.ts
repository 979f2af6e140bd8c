// sph04 and matchany rankers over one row's hits, as Manticore's RankerState_ProximityBM25Exact_T
// and RankerState_MatchAny_fn (src/sphinxsearch.cpp).

import { FIELD_END_BIT, POS_MASK } from "../util/codes";
import { hitPos, hitQpos, hitSpan, hitWeight } from "../plan/hitbuf";
import { MAX_FIELDS, computeLcs, lcsOf } from "./lcs";

const lcs = new StaticArray<u8>(MAX_FIELDS);
const minHitPos = new StaticArray<i32>(MAX_FIELDS);
const exact = new StaticArray<u8>(MAX_FIELDS);
const matchMask = new StaticArray<u32>(MAX_FIELDS);

function reset(): void {
  for (let f: u32 = 0; f < MAX_FIELDS; f++) {
    unchecked((lcs[f] = 0));
    unchecked((minHitPos[f] = 0));
    unchecked((exact[f] = 0));
  }
}

/** sum over fields of (4*lcs + 2*(first hit at position 1) + exact field match) * weight. */
export function sph04Rank(start: u32, n: u32, dupes: bool, maxQpos: i32, weights: StaticArray<i32>, numFields: u32): i32 {
  reset();
  let cur: u8 = 0;
  let expDelta: i32 = -1;
  let lastHitPos: i32 = -1;
  let curPos: u32 = 0;
  let tailPos: u32 = 0;
  let tailMask: u32 = 0;
  let curMask: u32 = 0;
  for (let h = start; h < start + n; h++) {
    const hp = hitPos(h);
    const f = hp >>> 24;
    const pos = <i32>(hp & POS_MASK);
    const pwf = hp & ~FIELD_END_BIT;
    const isEnd = (hp & FIELD_END_BIT) != 0;
    const q = <i32>hitQpos(h);
    const w = hitWeight(h);
    if (!dupes) {
      const delta = <i32>pwf - q;
      if (delta == expDelta) {
        if (<i32>pwf > lastHitPos) cur = <u8>(<u32>cur + w);
        if (isEnd && q == maxQpos && pos == maxQpos) unchecked((exact[f] = 1));
      } else {
        if (<i32>pwf > lastHitPos) cur = <u8>w;
        if (pos == 1 && isEnd && maxQpos == 1) unchecked((exact[f] = 1));
      }
      if (cur > unchecked(lcs[f])) unchecked((lcs[f] = cur));
      expDelta = delta + <i32>hitSpan(h) - 1;
      lastHitPos = <i32>pwf;
    } else {
      if (curPos >>> 24 != f) {
        curPos = 0;
        tailPos = 0;
        curMask = 0;
        cur = 0;
      }
      if (pwf != curPos) {
        if (cur < 2) {
          tailPos = curPos;
          tailMask = curMask;
          cur = 1;
        }
        curMask = 0;
        curPos = pwf;
        if (<u32>unchecked(lcs[f]) < w) unchecked((lcs[f] = <u8>w));
      }
      curMask |= q < 32 ? <u32>1 << q : 0;
      const delta = <i32>(curPos - tailPos);
      if (delta > 0 && delta < 32 && ((curMask >>> delta) & tailMask) != 0) {
        tailMask = q < 32 ? <u32>1 << q : 0;
        tailPos = curPos;
        cur = <u8>(<u32>cur + w);
        curMask = 0;
        if (cur > unchecked(lcs[f])) unchecked((lcs[f] = cur));
      }
      if (delta == expDelta) {
        if (isEnd && q == maxQpos && pos == maxQpos) unchecked((exact[f] = 1));
      } else if (pos == 1 && isEnd && maxQpos == 1) {
        unchecked((exact[f] = 1));
      }
      expDelta = delta + <i32>hitSpan(h) - 1;
    }
    if (cur > unchecked(lcs[f])) unchecked((lcs[f] = cur));
    if (unchecked(minHitPos[f]) == 0) unchecked((minHitPos[f] = pos));
  }
  let rank: i32 = 0;
  for (let f: u32 = 0; f < numFields && f < MAX_FIELDS; f++) {
    const v = 4 * <i32>unchecked(lcs[f]) + (unchecked(minHitPos[f]) == 1 ? 2 : 0) + <i32>unchecked(exact[f]);
    rank += v * unchecked(weights[f]);
  }
  return rank;
}

/** matchany: sum over fields of (distinct qpos matched + (lcs-1) * phraseK) * weight. */
export function matchAnyRank(start: u32, n: u32, qwords: i32, weights: StaticArray<i32>, numFields: u32): i32 {
  computeLcs(start, n, false);
  for (let f: u32 = 0; f < MAX_FIELDS; f++) unchecked((matchMask[f] = 0));
  for (let h = start; h < start + n; h++) {
    const f = hitPos(h) >>> 24;
    const q = hitQpos(h);
    if (q >= 1 && q <= 32) unchecked((matchMask[f] |= <u32>1 << (q - 1)));
  }
  let phraseK: i32 = 0;
  for (let f: u32 = 0; f < numFields && f < MAX_FIELDS; f++) phraseK += unchecked(weights[f]) * qwords;
  let rank: i32 = 0;
  for (let f: u32 = 0; f < numFields && f < MAX_FIELDS; f++) {
    const m = unchecked(matchMask[f]);
    if (m == 0) continue;
    rank += (<i32>popcnt(m) + (<i32>lcsOf(f) - 1) * phraseK) * unchecked(weights[f]);
  }
  return rank;
}
