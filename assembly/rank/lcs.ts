// Per-field LCS over one row's hit stream, as Manticore's RankerState_Proximity_fn
// (src/sphinxsearch.cpp): one byte per field, wrapping at 256; two variants, the second for
// queries that repeat a keyword (HANDLE_DUPES).

import { FIELD_END_BIT } from "../util/codes";
import { hitPos, hitQpos, hitSpan, hitWeight } from "../plan/hitbuf";

/** Manticore's SPH_MAX_FIELDS. */
export const MAX_FIELDS: u32 = 256;
const lcs = new StaticArray<u8>(MAX_FIELDS);
/** One past the highest field the last row wrote: the only entries to clear for the next row (a
 * row's hits touch one or two fields; clearing all 256 was a tenth of a multi-word query's CPU). */
let dirty: u32 = 0;

/** Computes lcs[] for hits [start, start+n); read with lcsOf(field). */
export function computeLcs(start: u32, n: u32, dupes: bool): void {
  for (let f: u32 = 0; f < dirty; f++) unchecked((lcs[f] = 0));
  let hi: u32 = 0;
  for (let h = start; h < start + n; h++) hi = max(hi, (hitPos(h) >>> 24) + 1);
  dirty = hi;
  if (dupes) lcsDupes(start, n);
  else lcsUnique(start, n);
}

@inline export function lcsOf(field: u32): u32 {
  return <u32>unchecked(lcs[field]);
}

function lcsUnique(start: u32, n: u32): void {
  let cur: u8 = 0;
  let expDelta: i32 = -1;
  let last: i32 = -1;
  for (let h = start; h < start + n; h++) {
    const pos = <i32>(hitPos(h) & ~FIELD_END_BIT);
    const delta = pos - <i32>hitQpos(h);
    if (pos > last) cur = <u8>((delta == expDelta ? <u32>cur : 0) + hitWeight(h));
    const f = hitPos(h) >>> 24;
    if (cur > unchecked(lcs[f])) unchecked((lcs[f] = cur));
    last = pos;
    expDelta = delta + <i32>hitSpan(h) - 1;
  }
}

function lcsDupes(start: u32, n: u32): void {
  let cur: u8 = 0;
  let tailPos: u32 = 0;
  let tailMask: u32 = 0;
  let curMask: u32 = 0;
  let curPos: u32 = 0;
  for (let h = start; h < start + n; h++) {
    const pos = hitPos(h) & ~FIELD_END_BIT;
    const f = hitPos(h) >>> 24;
    const q = hitQpos(h);
    const weight = hitWeight(h);
    if (curPos >>> 24 != f) curMask = 0;
    if (pos != curPos) {
      if (cur < 2) {
        tailPos = curPos;
        tailMask = curMask;
        cur = 1;
      }
      curMask = 0;
      curPos = pos;
      if (<u32>unchecked(lcs[f]) < weight) unchecked((lcs[f] = <u8>weight));
    }
    curMask |= q < 32 ? <u32>1 << q : 0;
    const delta = <i32>(curPos - tailPos);
    if (delta > 0 && delta < 32 && ((curMask >>> delta) & tailMask) != 0) {
      tailMask = q < 32 ? <u32>1 << q : 0;
      tailPos = curPos;
      cur = <u8>(<u32>cur + weight);
      curMask = 0;
      if (cur > unchecked(lcs[f])) unchecked((lcs[f] = cur));
    }
  }
}
