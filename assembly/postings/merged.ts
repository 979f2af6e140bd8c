// A merged posting list: the postings of a wildcard's expansions as one virtual term (Manticore's
// ExtPayload: expanded keywords read once into one doc list with hits sorted by hitpos).
//
// The list lives in one heap block: | rows[n] | offs[n + 1] | pos[total] | (offs index into pos).
// A merged cursor is a PostingsCursor-shaped struct (CURSOR_BYTES) followed by MERGED_EXTRA bytes:
// cursorTf() and cursorPositions() read it unchanged because its tfs are always ready and its
// current row always sits at block index 0 (it fills postings/cursor.ts's exported field offsets).
// | cursor: 16 idx = 0 | 24 rowId | 28 tfReady = 1 | 32 df | 36 posArea | 576 tfs[0] | 1088 posStart[0] |
// | extra: 0 block ptr | 4 n | 8 i (current index) | 12 reserved |

import { TERMINATED, FIELD_END_BIT, POS_MASK } from "../util/codes";
import {
  CURSOR_BYTES, C_IDX, C_ROW, C_TF_READY, C_DF, C_POS_AREA, C_TFS, C_POS_START,
  cursorInit, cursorAdvance, cursorTf, cursorPositions,
} from "./cursor";

/** Bytes of a merged cursor (a cursor-shaped head plus the merged list's own fields). */
export const MERGED_BYTES: usize = CURSOR_BYTES + 16;

const M_BLOCK: usize = CURSOR_BYTES;
const M_N: usize = CURSOR_BYTES + 4;
const M_I: usize = CURSOR_BYTES + 8;

/** Blocks of merged lists made since the last release (freed together). */
let live: usize = 0;
let liveLen: i32 = 0;
let liveCap: i32 = 0;

function remember(block: usize): void {
  if (liveLen == liveCap) {
    liveCap = liveCap == 0 ? 16 : liveCap << 1;
    live = live == 0 ? heap.alloc(<usize>liveCap << 2) : heap.realloc(live, <usize>liveCap << 2);
  }
  store<u32>(live + (<usize>liveLen << 2), <u32>block);
  liveLen++;
}

/** Frees every merged list made so far (their cursors must not be read afterwards). */
export function releaseMerged(): void {
  for (let i = 0; i < liveLen; i++) heap.free(<usize>load<u32>(live + (<usize>i << 2)));
  liveLen = 0;
}

@inline function termAt(terms: usize, i: u32): u32 {
  return load<u32>(terms + (<usize>i << 2));
}

/** Term flag: only hits at position 1 count (`^word`). */
export const HIT_FIELD_START: u32 = 1;
/** Term flag: only hits marked as their field's last count (`word$`). */
export const HIT_FIELD_END: u32 = 2;

/** True when hitpos `p` is in a field of `mask` (fields past 31 only for all), within `maxPos`, and meets `flags`. */
@inline export function hitAccepted(p: u32, mask: u32, maxPos: u32, flags: u32): bool {
  const f = p >>> 24;
  if (f >= 32 ? mask != 0xffffffff : ((mask >>> f) & 1) == 0) return false;
  const pos = p & POS_MASK;
  if (maxPos != 0 && pos > maxPos) return false;
  if ((flags & HIT_FIELD_START) != 0 && pos != 1) return false;
  if ((flags & HIT_FIELD_END) != 0 && (p & FIELD_END_BIT) == 0) return false;
  return true;
}

/** The limits of the term a merged list stands for; `on` = 0 when every hit is accepted. */
export class HitLimits {
  on: bool = false;
  mask: u32 = 0xffffffff;
  maxPos: u32 = 0;
  flags: u32 = 0;
}
const limits = new HitLimits();

/** Sets the limits the next mergedInit() applies (as the OR of terms it replaces filters rows). */
export function setMergeLimits(on: bool, mask: u32, maxPos: u32, flags: u32): void {
  limits.on = on;
  limits.mask = mask;
  limits.maxPos = maxPos;
  limits.flags = flags;
}

/** The reading cursor's row has a hit within the limits (else that term's row stays out). */
function rowAccepted(c: usize): bool {
  if (!limits.on) return true;
  const p = cursorPositions(c);
  const tf = cursorTf(c);
  for (let i: u32 = 0; i < tf; i++) {
    if (hitAccepted(load<u32>(p + (<usize>i << 2)), limits.mask, limits.maxPos, limits.flags)) return true;
  }
  return false;
}

/**
 * Builds the merged list of `count` terms (term numbers at `terms`, u32 each) of a segment with
 * `rows` rows into cursor `m`, using `tmp` (CURSOR_BYTES) to read each term, and puts `m` on its
 * first row. Counting sort by row: tf per row, prefix sums, then each term's hits copied to their
 * row's slot; a row fed by several terms has its hits sorted by hitpos. With limits set
 * (setMergeLimits), a term's row joins only when one of its hits is within them: the list then
 * holds what the OR of the terms, each filtered so, gives (rows, summed tf, hits, fields).
 */
export function mergedInit(m: usize, tmp: usize, blob: usize, rows: u32, terms: usize, count: u32): u32 {
  const cnt = heap.alloc(<usize>(rows > 0 ? rows : <u32>1) << 2);
  memory.fill(cnt, 0, <usize>rows << 2);
  let n: u32 = 0;
  let total: u32 = 0;
  for (let t: u32 = 0; t < count; t++) {
    for (let r = cursorInit(tmp, blob, termAt(terms, t)); r != TERMINATED; r = cursorAdvance(tmp)) {
      if (!rowAccepted(tmp)) continue;
      const p = cnt + (<usize>r << 2);
      const tf = cursorTf(tmp);
      if (load<u32>(p) == 0) n++;
      store<u32>(p, load<u32>(p) + tf);
      total += tf;
    }
  }
  const block = heap.alloc((<usize>n * 2 + 1 + <usize>total) << 2);
  remember(block);
  const rowsAt = block;
  const offs = block + (<usize>n << 2);
  const pos = offs + (<usize>(n + 1) << 2);
  let j: u32 = 0;
  let acc: u32 = 0;
  for (let r: u32 = 0; r < rows && j < n; r++) {
    const p = cnt + (<usize>r << 2);
    const c = load<u32>(p);
    if (c == 0) continue;
    store<u32>(rowsAt + (<usize>j << 2), r);
    store<u32>(offs + (<usize>j << 2), acc);
    store<u32>(p, acc); // from here on: where the row's next hits go
    acc += c;
    j++;
  }
  store<u32>(offs + (<usize>n << 2), acc);
  for (let t: u32 = 0; t < count; t++) {
    for (let r = cursorInit(tmp, blob, termAt(terms, t)); r != TERMINATED; r = cursorAdvance(tmp)) {
      if (!rowAccepted(tmp)) continue;
      const p = cnt + (<usize>r << 2);
      const at = load<u32>(p);
      const tf = cursorTf(tmp);
      memory.copy(pos + (<usize>at << 2), cursorPositions(tmp), <usize>tf << 2);
      store<u32>(p, at + tf);
    }
  }
  heap.free(cnt);
  if (count > 1) for (let i: u32 = 0; i < n; i++) sortRun(pos, load<u32>(offs + (<usize>i << 2)), load<u32>(offs + (<usize>(i + 1) << 2)));
  store<u32>(m + M_BLOCK, <u32>block);
  store<u32>(m + M_N, n);
  store<u32>(m + C_IDX, 0);
  store<u32>(m + C_TF_READY, 1);
  store<u32>(m + C_DF, n);
  store<u32>(m + C_POS_AREA, <u32>pos);
  return place(m, 0);
}

/** Sorts pos[from, to) ascending (insertion sort: runs are short and mostly sorted already). */
function sortRun(pos: usize, from: u32, to: u32): void {
  for (let i = from + 1; i < to; i++) {
    const v = load<u32>(pos + (<usize>i << 2));
    let j = i;
    while (j > from && load<u32>(pos + (<usize>(j - 1) << 2)) > v) {
      store<u32>(pos + (<usize>j << 2), load<u32>(pos + (<usize>(j - 1) << 2)));
      j--;
    }
    store<u32>(pos + (<usize>j << 2), v);
  }
}

/** Puts the cursor on list index `i` (TERMINATED past the end); returns the row. */
function place(m: usize, i: u32): u32 {
  const n = load<u32>(m + M_N);
  store<u32>(m + M_I, i);
  if (i >= n) {
    store<u32>(m + C_ROW, TERMINATED);
    return TERMINATED;
  }
  const block = <usize>load<u32>(m + M_BLOCK);
  const offs = block + (<usize>n << 2);
  const start = load<u32>(offs + (<usize>i << 2));
  store<u32>(m + C_TFS, load<u32>(offs + (<usize>(i + 1) << 2)) - start);
  store<u32>(m + C_POS_START, start);
  const row = load<u32>(block + (<usize>i << 2));
  store<u32>(m + C_ROW, row);
  return row;
}

export function mergedAdvance(m: usize): u32 {
  if (load<u32>(m + C_ROW) == TERMINATED) return TERMINATED;
  return place(m, load<u32>(m + M_I) + 1);
}

/** First row >= target, never backwards: gallops from the current index, then binary search. */
export function mergedSeek(m: usize, target: u32): u32 {
  const row = load<u32>(m + C_ROW);
  if (row >= target) return row;
  const rowsAt = <usize>load<u32>(m + M_BLOCK);
  const n = load<u32>(m + M_N);
  let lo = load<u32>(m + M_I) + 1;
  let step: u32 = 1;
  let hi = lo;
  while (hi < n && load<u32>(rowsAt + (<usize>hi << 2)) < target) {
    lo = hi + 1;
    hi += step;
    step <<= 1;
  }
  if (hi > n) hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (load<u32>(rowsAt + (<usize>mid << 2)) < target) lo = mid + 1;
    else hi = mid;
  }
  return place(m, lo);
}
