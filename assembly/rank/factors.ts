// Ranking factors of one matched row for the expression ranker, from its hit stream, as
// Manticore's RankerState_Expr_fn::Update / FinalizeDocFactors (src/sphinxsearch.cpp) fill them.

import { FIELD_END_BIT, POS_MASK } from "../util/codes";
import { hitPos, hitQpos, hitSpan, hitWeight } from "../plan/hitbuf";
import { lccsReset, lccsUpdate } from "./lccs";
import { atcReset, atcUpdate, atcFinish } from "./atc";
import { windowReset, windowUpdate, gapsUpdate } from "./window-factors";
import { qposTf, fieldTf, bm25Reset } from "./bm25-factors";

import { XF_FIELDS, XF_QPOS, qposIdf, qposAtom } from "./factor-query";
export { XF_FIELDS, XF_QPOS, qposIdf, qposAtom };

export const lcs = new StaticArray<u8>(XF_FIELDS);
export const hitCount = new StaticArray<u32>(XF_FIELDS);
export const wordMask = new StaticArray<u32>(XF_FIELDS);
export const tfIdf = new StaticArray<f32>(XF_FIELDS);
export const minIdf = new StaticArray<f32>(XF_FIELDS);
export const maxIdf = new StaticArray<f32>(XF_FIELDS);
export const sumIdf = new StaticArray<f32>(XF_FIELDS);
export const minHitPos = new StaticArray<i32>(XF_FIELDS);
export const minBestSpanPos = new StaticArray<i32>(XF_FIELDS);
export let matchedFields: u32 = 0;
export let exactHit: u32 = 0;
export let exactOrder: u32 = 0;
export let docWordMask: u32 = 0;

/** Duplicate-keyword path: the last hitpos counted per keyword (index 0: any keyword). */
const termsHit = new StaticArray<u32>(XF_QPOS);
let maxQpos: i32 = 0;
let queryWords: i32 = 0;

/** Which optional factor groups the formula reads (the others are not computed). */
export const USES_LCCS: u32 = 1;
export const USES_ATC: u32 = 2;
export const USES_WINDOW: u32 = 4;
export const USES_GAPS: u32 = 8;
export const USES_FIELD_TF: u32 = 16;
let uses: u32 = 0;

export function setFactorQuery(maxQ: u32, words: u32, usesMask: u32): void {
  maxQpos = <i32>maxQ;
  queryWords = <i32>words;
  uses = usesMask;
}

function reset(): void {
  for (let f: u32 = 0; f < XF_FIELDS; f++) {
    unchecked((lcs[f] = 0));
    unchecked((hitCount[f] = 0));
    unchecked((wordMask[f] = 0));
    unchecked((tfIdf[f] = 0));
    unchecked((minIdf[f] = f32.MAX_VALUE));
    unchecked((maxIdf[f] = -f32.MAX_VALUE));
    unchecked((sumIdf[f] = 0));
    unchecked((minHitPos[f] = 0));
    unchecked((minBestSpanPos[f] = 0));
  }
  bm25Reset((uses & USES_FIELD_TF) != 0);
  matchedFields = 0;
  exactHit = 0;
  exactOrder = 0;
  docWordMask = 0;
}

/** Manticore's UpdateFreq: per-field counters of one (query word, field) hit. */
function updateFreq(q: u32, f: u32): void {
  if (q >= XF_QPOS) return;
  const idf = unchecked(qposIdf[q]);
  const bit: u32 = 1 << q;
  if ((unchecked(wordMask[f]) & bit) == 0) unchecked((sumIdf[f] += idf));
  if (idf < unchecked(minIdf[f])) unchecked((minIdf[f] = idf));
  if (idf > unchecked(maxIdf[f])) unchecked((maxIdf[f] = idf));
  unchecked((hitCount[f] += 1));
  unchecked((wordMask[f] |= bit));
  docWordMask |= bit;
  unchecked((tfIdf[f] += idf));
  unchecked((qposTf[q] += 1));
  if (uses & USES_FIELD_TF) unchecked((fieldTf[f * XF_QPOS + q] += 1));
}

// LCS state of the row being scanned (both paths), as RankerState_Expr_fn's members
let cur: u8 = 0;
let expDelta: i32 = -1;
let lastHit: i32 = -1;
let curPos: u32 = 0;
let tailPos: u32 = 0;
let tailMask: u32 = 0;
let curMask: u32 = 0;
let spanStart: i32 = 0;

/** The unique-keywords LCS step; also sets exact_hit. */
function lcsUnique(h: u32, f: u32, pos: i32, pwf: i32, q: u32, isEnd: bool): void {
  const delta = pwf - <i32>q;
  if (delta == expDelta) {
    if (pwf > lastHit) cur = <u8>(<u32>cur + hitWeight(h));
    if (isEnd && <i32>q == maxQpos && pos == maxQpos) exactHit |= <u32>1 << f;
  } else {
    if (pwf > lastHit) cur = <u8>hitWeight(h);
    if (pos == 1 && isEnd && maxQpos == 1) exactHit |= <u32>1 << f;
  }
  if (cur > unchecked(lcs[f])) {
    unchecked((lcs[f] = cur));
    // the first hit of a field starts the span; later ones end a span of `cur` words
    unchecked((minBestSpanPos[f] = minBestSpanPos[f] == 0 ? pos : pos - <i32>cur + 1));
  }
  expDelta = delta + <i32>hitSpan(h) - 1;
  lastHit = pwf;
}

/** The repeated-keywords (HANDLE_DUPES) LCS step: query-position masks per hitpos. */
function lcsDupes(h: u32, f: u32, pos: i32, pwf: u32, q: u32, isEnd: bool): void {
  const weight = hitWeight(h);
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
    if (<u32>unchecked(lcs[f]) < weight) {
      unchecked((lcs[f] = <u8>weight));
      unchecked((minBestSpanPos[f] = pos));
      spanStart = pos;
    }
  }
  curMask |= q < 32 ? <u32>1 << q : 0;
  const delta = <i32>(curPos - tailPos);
  if (delta != 0 && delta < 32 && ((curMask >>> <u32>delta) & tailMask) != 0) {
    tailMask = q < 32 ? <u32>1 << q : 0;
    tailPos = curPos;
    cur = <u8>(<u32>cur + weight);
    curMask = 0;
    if (cur > unchecked(lcs[f])) {
      unchecked((lcs[f] = cur));
      unchecked((minBestSpanPos[f] = spanStart));
    }
  }
  if (delta == expDelta) {
    if (isEnd && <i32>q == maxQpos && pos == maxQpos) exactHit |= <u32>1 << f;
  } else if (pos == 1 && isEnd && maxQpos == 1) exactHit |= <u32>1 << f;
  expDelta = delta + <i32>hitSpan(h) - 1;
}

/**
 * Counts a hit's words once per hitpos and keyword (the duplicate path maps positions to keywords);
 * true when its first word was counted (Manticore's bUniq).
 */
function countWords(h: u32, f: u32, q: u32, dupes: bool): bool {
  let first = true;
  const hp = hitPos(h);
  const n: u32 = hitWeight(h) == 0 ? 1 : hitWeight(h);
  for (let k: u32 = 0; k < n; k++) {
    let qq = q + k;
    if (qq >= XF_QPOS) return first;
    if (dupes) {
      qq = unchecked(qposAtom[qq]);
      if (qq >= XF_QPOS) continue;
      const seen = unchecked(termsHit[qq]) == hp || (k == 0 && unchecked(termsHit[0]) == hp);
      unchecked((termsHit[qq] = hp));
      if (k == 0) unchecked((termsHit[0] = hp));
      if (seen) {
        if (k == 0) first = false;
        continue;
      }
    }
    updateFreq(qq, f);
  }
  return first;
}

/** Fills every factor from hits [start, start+n) of a row. */
/** Clears the row state of every factor the formula reads. */
function resetRow(): void {
  reset();
  cur = 0;
  expDelta = -1;
  lastHit = -1;
  curPos = 0;
  tailPos = 0;
  tailMask = 0;
  curMask = 0;
  spanStart = 0;
  for (let q: u32 = 0; q < XF_QPOS; q++) unchecked((termsHit[q] = 0xffffffff));
  if (uses & USES_LCCS) lccsReset();
  if (uses & USES_ATC) atcReset();
  if (uses & (USES_WINDOW | USES_GAPS)) windowReset();
}

export function computeFactors(start: u32, n: u32, dupes: bool): void {
  resetRow();
  let lastField: i32 = -1;
  let lastQpos: i32 = 0;
  let orderWords: i32 = 0;
  for (let h = start; h < start + n; h++) {
    const hp = hitPos(h);
    const f = hp >>> 24;
    if (f >= XF_FIELDS) continue;
    const pos = <i32>(hp & POS_MASK);
    const q = hitQpos(h);
    const isEnd = (hp & FIELD_END_BIT) != 0;
    if (dupes) lcsDupes(h, f, pos, hp & ~FIELD_END_BIT, q, isEnd);
    else lcsUnique(h, f, pos, <i32>(hp & ~FIELD_END_BIT), q, isEnd);
    matchedFields |= <u32>1 << f;
    if (uses & USES_LCCS) lccsUpdate(f, pos, q, hitSpan(h), dupes);
    if (uses & USES_ATC) atcUpdate(f, pos, q);
    const uniq = countWords(h, f, q, dupes);
    if (uses & USES_WINDOW) windowUpdate(f, hp);
    if (uniq && (uses & USES_GAPS) != 0) gapsUpdate(f, hp, dupes && q < XF_QPOS ? unchecked(qposAtom[q]) : q, q);
    if (unchecked(minHitPos[f]) == 0) unchecked((minHitPos[f] = pos));
    if (<i32>f != lastField) {
      lastQpos = 0;
      orderWords = 0;
      lastField = <i32>f;
    }
    if (<i32>q == lastQpos + 1) {
      if (++orderWords == queryWords) exactOrder |= <u32>1 << f;
      lastQpos++;
    }
  }
  for (let f: u32 = 0; f < XF_FIELDS; f++) {
    unchecked((wordMask[f] = <u32>popcnt(wordMask[f])));
    if (unchecked(minIdf[f]) > unchecked(maxIdf[f])) {
      unchecked((minIdf[f] = 0));
      unchecked((maxIdf[f] = 0));
    }
  }
  docWordMask = <u32>popcnt(docWordMask);
  if (uses & USES_ATC) atcFinish();
}
