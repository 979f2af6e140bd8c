// max_window_hits(n) and min_gaps, as Manticore's RankerState_Expr_fn::Update / UpdateMinGaps
// (src/sphinxsearch.cpp): the most hits within n positions, and the fewest words between the
// query words in the smallest window holding the most distinct of them.

import { XF_FIELDS, XF_QPOS } from "./factor-query";
import { POS_MASK } from "../util/codes";
import { U32List } from "../memory/heap";

export const maxWindowHits = new StaticArray<i32>(XF_FIELDS);
export const minGaps = new StaticArray<i32>(XF_FIELDS);

let windowSize: u32 = 1;
/** Hitpos values (field, end flag and position, as Manticore compares them) within the window. */
const window = new U32List();

/** Distinct words min_gaps looks for (Manticore's m_iHaveMinWindow); below 2 it stays 0. */
let gapWords: i32 = 0;
let windowWords: i32 = 0;
/** The candidate window: hitpos and (canonical) query position per hit, left-minimal. */
const mwPos = new U32List();
const mwQpos = new U32List();
const mwCounts = new StaticArray<i32>(XF_QPOS);

export function windowQuery(size: u32, uniqueWords: i32): void {
  windowSize = size;
  gapWords = uniqueWords;
}

export function windowReset(): void {
  for (let f: u32 = 0; f < XF_FIELDS; f++) {
    unchecked((maxWindowHits[f] = 0));
    unchecked((minGaps[f] = 0));
  }
  for (let q: u32 = 0; q < XF_QPOS; q++) unchecked((mwCounts[q] = 0));
  window.length = 0;
  mwPos.length = 0;
  mwQpos.length = 0;
  windowWords = 0;
}

/** max_window_hits: hits with hitpos in (hp - n, hp], the window kept across fields as Manticore's. */
export function windowUpdate(f: u32, hp: u32): void {
  if (windowSize <= 1) {
    unchecked((maxWindowHits[f] = 1));
    return;
  }
  let drop = 0;
  while (drop < window.length && unchecked(window[drop]) + windowSize <= hp) drop++;
  if (drop > 0) {
    for (let j = 0; j < window.length - drop; j++) unchecked((window[j] = window[j + drop]));
    window.length -= drop;
  }
  window.push(hp);
  if (window.length > unchecked(maxWindowHits[f])) unchecked((maxWindowHits[f] = window.length));
}

@inline function posOf(hp: u32): i32 {
  return <i32>(hp & POS_MASK);
}

function updateGap(f: u32, words: i32, gap: i32): void {
  if (windowWords < words || (windowWords == words && unchecked(minGaps[f]) > gap)) {
    unchecked((minGaps[f] = gap));
    windowWords = words;
  }
}

function setWindow(i: i32, hp: u32, q: u32): void {
  if (i == mwPos.length) {
    mwPos.push(hp);
    mwQpos.push(q);
  } else {
    unchecked((mwPos[i] = hp));
    unchecked((mwQpos[i] = q));
  }
}

/** Two distinct words: the gap between consecutive hits of different words. */
function gaps2(f: u32, hp: u32, q: u32): void {
  if (mwPos.length > 0 && unchecked(mwPos[0]) >>> 24 != f) {
    windowWords = 0;
    mwPos.length = 0;
    mwQpos.length = 0;
  }
  if (mwPos.length == 0) {
    setWindow(0, hp, q);
    return;
  }
  if (q == unchecked(mwQpos[0])) {
    unchecked((mwPos[0] = hp));
    return;
  }
  updateGap(f, 2, posOf(hp) - posOf(unchecked(mwPos[0])) - 1);
  setWindow(0, hp, q);
}

/** Three distinct words: windows {A}, {A,B}, {A,B,C} kept by hand. */
function gaps3(f: u32, hp: u32, q: u32, rawQ: u32): void {
  if (mwPos.length > 0 && unchecked(mwPos[mwPos.length - 1]) >>> 24 != f) {
    windowWords = 0;
    mwPos.length = 0;
    mwQpos.length = 0;
  }
  const n = mwPos.length;
  if (n == 0) {
    setWindow(0, hp, q);
  } else if (n == 1) {
    // Manticore copies the whole hit here, so the raw (not canonical) query position is kept
    if (unchecked(mwQpos[0]) == q) setWindow(0, hp, rawQ);
    else {
      updateGap(f, 2, posOf(hp) - posOf(unchecked(mwPos[0])) - 1);
      setWindow(1, hp, q);
    }
  } else if (unchecked(mwQpos[0]) == q) {
    updateGap(f, 2, posOf(hp) - posOf(unchecked(mwPos[1])) - 1);
    setWindow(0, unchecked(mwPos[1]), unchecked(mwQpos[1]));
    setWindow(1, hp, q);
  } else if (unchecked(mwQpos[1]) == q) {
    setWindow(1, hp, q);
  } else {
    updateGap(f, 3, posOf(hp) - posOf(unchecked(mwPos[0])) - 2);
    setWindow(0, unchecked(mwPos[1]), unchecked(mwQpos[1]));
    setWindow(1, hp, q);
  }
}

/** More words: Manticore's generic left-minimal window. */
function gapsN(f: u32, hp: u32, q: u32): void {
  if (mwPos.length > 0 && unchecked(mwPos[mwPos.length - 1]) >>> 24 != f) {
    mwPos.length = 0;
    mwQpos.length = 0;
    for (let i: u32 = 0; i < XF_QPOS; i++) unchecked((mwCounts[i] = 0));
    windowWords = 0;
  }
  if (mwPos.length > 0 && unchecked(mwQpos[mwPos.length - 1]) == q) {
    unchecked((mwPos[mwPos.length - 1] = hp));
    return;
  }
  setWindow(mwPos.length, hp, q);
  const c = ++mwCounts[q];
  if (c == 1) {
    unchecked((minGaps[f] = posOf(hp) - posOf(unchecked(mwPos[0])) - windowWords));
    windowWords++;
    return;
  }
  if (q != unchecked(mwQpos[0])) return;
  let shrink = 0;
  while (unchecked(mwCounts[mwQpos[shrink]]) != 1) {
    mwCounts[mwQpos[shrink]]--;
    shrink++;
  }
  const keep = mwPos.length - shrink;
  for (let j = 0; j < keep; j++) {
    unchecked((mwPos[j] = mwPos[j + shrink]));
    unchecked((mwQpos[j] = mwQpos[j + shrink]));
  }
  mwPos.length = keep;
  mwQpos.length = keep;
  const g = posOf(hp) - posOf(unchecked(mwPos[0])) - windowWords + 1;
  if (g < unchecked(minGaps[f])) unchecked((minGaps[f] = g));
}

/** min_gaps: one hit whose keyword was counted (Manticore's bUniq); `q` canonical, `rawQ` the hit's. */
export function gapsUpdate(f: u32, hp: u32, q: u32, rawQ: u32): void {
  if (gapWords <= 1 || q >= XF_QPOS) return;
  if (gapWords == 2) gaps2(f, hp, q);
  else if (gapWords == 3) gaps3(f, hp, q, rawQ);
  else gapsN(f, hp, q);
}
