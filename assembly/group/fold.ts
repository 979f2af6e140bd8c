// One program's fold: every match (rowId, weight) into its group's record: COUNT(*), SUM/MIN/MAX
// (AVG is a SUM the host divides), the first row and the best row by the within-group order. The
// order of additions is the order of the matches, as the host's own fold (src/engine/group/).

import {
  SOURCE_WORDS, PROGRAM_HEADER_WORDS, MAX_KEYS, MAX_AGGS, MAX_WITHIN, V_WEIGHT, V_U32, V_I64, V_F32, V_F64,
  V_F64_INT, V_MVA, AGG_SUM, AGG_MIN, AGG_MAX, isIntClass,
} from "./format";
import { bitIsSet } from "../segment/layout";
import { keyBuf, keyClass, find, isNew, tableReset, R_COUNT, R_FIRST, R_BEST_ROW, R_BEST_WEIGHT } from "./table";

const kPtr = new StaticArray<usize>(MAX_KEYS);
const kPtr2 = new StaticArray<usize>(MAX_KEYS);
const aFn = new StaticArray<u32>(MAX_AGGS);
const aCls = new StaticArray<u32>(MAX_AGGS);
const aPtr = new StaticArray<usize>(MAX_AGGS);
const wCls = new StaticArray<u32>(MAX_WITHIN);
const wPtr = new StaticArray<usize>(MAX_WITHIN);
const wDesc = new StaticArray<bool>(MAX_WITHIN);
let numKeys: u32 = 0;
let numAggs: u32 = 0;
let numWithin: u32 = 0;
let mvaKey: i32 = -1;
let aggsOff: u32 = 0;
/** Set when a value the host would refuse (a non-integral integer expression) or an i64 overflow was seen. */
let fallback: bool = false;

/** Whether a fold since the last reset saw something only the host folds right (then it folds the range). */
export function foldFallback(): bool {
  return fallback;
}

export function foldFallbackReset(): void {
  fallback = false;
}

@inline function word(spec: usize, i: u32): u32 {
  return load<u32>(spec + (<usize>i << 2));
}

/** Reads the program at word `at` of `spec`; returns its record size in bytes, 0 when malformed. */
export function programLoad(spec: usize, at: u32, specLen: u32): u32 {
  if (at + PROGRAM_HEADER_WORDS > specLen) return 0;
  const size = word(spec, at);
  numKeys = word(spec, at + 1);
  numAggs = word(spec, at + 2);
  numWithin = word(spec, at + 3);
  if (numKeys > MAX_KEYS || numAggs > MAX_AGGS || numWithin > MAX_WITHIN || at + size > specLen) return 0;
  if (size != PROGRAM_HEADER_WORDS + numKeys * SOURCE_WORDS + numAggs * (1 + SOURCE_WORDS) + numWithin * (1 + SOURCE_WORDS)) return 0;
  let w = at + PROGRAM_HEADER_WORDS;
  mvaKey = -1;
  for (let i: u32 = 0; i < numKeys; i++, w += SOURCE_WORDS) {
    const cls = word(spec, w);
    if (cls < V_U32 || cls > V_MVA) return 0;
    if (cls == V_MVA) {
      if (mvaKey >= 0) return 0;
      mvaKey = <i32>i;
    }
    unchecked((keyClass[i] = cls));
    unchecked((kPtr[i] = <usize>word(spec, w + 1)));
    unchecked((kPtr2[i] = <usize>word(spec, w + 2)));
  }
  for (let i: u32 = 0; i < numAggs; i++, w += 1 + SOURCE_WORDS) {
    const fn = word(spec, w);
    const cls = word(spec, w + 1);
    if (fn < AGG_SUM || fn > AGG_MAX || cls < V_U32 || cls >= V_MVA) return 0;
    unchecked((aFn[i] = fn));
    unchecked((aCls[i] = cls));
    unchecked((aPtr[i] = <usize>word(spec, w + 2)));
  }
  for (let i: u32 = 0; i < numWithin; i++, w += 1 + SOURCE_WORDS) {
    const cls = word(spec, w + 1);
    if (cls >= V_MVA) return 0;
    unchecked((wDesc[i] = word(spec, w) != 0));
    unchecked((wCls[i] = cls));
    unchecked((wPtr[i] = <usize>word(spec, w + 2)));
  }
  aggsOff = (numKeys << 3) + 16;
  return aggsOff + (numAggs << 3);
}

/** An integer class's value of `row` (an integer expression's f64 must be integral, as the host requires). */
@inline function readInt(cls: u32, p: usize, row: u32): i64 {
  if (cls == V_U32) return <i64>load<u32>(p + (<usize>row << 2));
  if (cls == V_I64) return load<i64>(p + (<usize>row << 3));
  const f = load<f64>(p + (<usize>row << 3));
  if (!(Math.abs(f) < 9.2e18) || f != Math.trunc(f)) fallback = true;
  return <i64>f;
}

@inline function readFloat(cls: u32, p: usize, row: u32): f64 {
  if (cls == V_F32) return <f64>load<f32>(p + (<usize>row << 2));
  return load<f64>(p + (<usize>row << 3));
}

/** A key's 8-byte value: i64 for integer classes, f64 bits for floats. */
@inline function readKey(cls: u32, p: usize, row: u32): u64 {
  if (cls == V_F32 || cls == V_F64) return reinterpret<u64>(readFloat(cls, p, row));
  return <u64>readInt(cls, p, row);
}

/** -1 when row a (weight wa) comes first in its group by within key i, 1 after, 0 tie. */
function cmpWithin(i: u32, a: u32, wa: i32, b: u32, wb: i32): i32 {
  const cls = unchecked(wCls[i]);
  let c: i32 = 0;
  if (cls == V_WEIGHT) {
    c = wa < wb ? -1 : wa > wb ? 1 : 0;
  } else if (isIntClass(cls)) {
    const p = unchecked(wPtr[i]);
    const x = readInt(cls, p, a), y = readInt(cls, p, b);
    c = x < y ? -1 : x > y ? 1 : 0;
  } else {
    const p = unchecked(wPtr[i]);
    const x = readFloat(cls, p, a), y = readFloat(cls, p, b);
    c = x < y ? -1 : x > y ? 1 : 0;
  }
  return unchecked(wDesc[i]) ? -c : c;
}

/** True when (row, weight) comes before the group's best row by the within keys, then the earlier row. */
function better(row: u32, weight: i32, rec: usize): bool {
  const h = rec + aggsOff - 16;
  const bestRow = load<u32>(h + R_BEST_ROW);
  const bestWeight = load<i32>(h + R_BEST_WEIGHT);
  for (let i: u32 = 0; i < numWithin; i++) {
    const c = cmpWithin(i, row, weight, bestRow, bestWeight);
    if (c != 0) return c < 0;
  }
  return row < bestRow;
}

@inline function addI64(p: usize, v: i64): void {
  const a = load<i64>(p);
  const r = a + v;
  if (((a ^ r) & (v ^ r)) < 0) fallback = true;
  store<i64>(p, r);
}

function addAggs(rec: usize, row: u32, first: bool): void {
  for (let j: u32 = 0; j < numAggs; j++) {
    const p = rec + aggsOff + (<usize>j << 3);
    const fn = unchecked(aFn[j]);
    const cls = unchecked(aCls[j]);
    const src = unchecked(aPtr[j]);
    if (cls == V_U32) {
      // u32 values sum in a double, as the host's fold does; MIN/MAX keep the integer
      const x = load<u32>(src + (<usize>row << 2));
      if (fn == AGG_SUM) store<f64>(p, load<f64>(p) + <f64>x);
      else if (first || (fn == AGG_MIN ? <i64>x < load<i64>(p) : <i64>x > load<i64>(p))) store<i64>(p, <i64>x);
    } else if (cls == V_I64 || cls == V_F64_INT) {
      const v = readInt(cls, src, row);
      if (fn == AGG_SUM) addI64(p, v);
      else if (first || (fn == AGG_MIN ? v < load<i64>(p) : v > load<i64>(p))) store<i64>(p, v);
    } else {
      const v = readFloat(cls, src, row);
      if (fn == AGG_SUM) store<f64>(p, load<f64>(p) + v);
      else if (first || (fn == AGG_MIN ? v < load<f64>(p) : v > load<f64>(p))) store<f64>(p, v);
    }
  }
}

/** Folds row (weight) into the record of the keys in keyBuf. */
@inline function foldKeys(row: u32, weight: i32): void {
  const rec = find();
  const h = rec + aggsOff - 16;
  if (isNew) {
    store<u32>(h + R_FIRST, row);
    store<u32>(h + R_BEST_ROW, row);
    store<i32>(h + R_BEST_WEIGHT, weight);
  } else {
    if (row < load<u32>(h + R_FIRST)) store<u32>(h + R_FIRST, row);
    const bestWeight = load<i32>(h + R_BEST_WEIGHT);
    // the default within-group order (weight DESC, then the earliest row) without a call
    const enters = numWithin == 0 ? weight > bestWeight || (weight == bestWeight && row < load<u32>(h + R_BEST_ROW)) : better(row, weight, rec);
    if (enters) {
      store<u32>(h + R_BEST_ROW, row);
      store<i32>(h + R_BEST_WEIGHT, weight);
    }
  }
  store<u32>(h + R_COUNT, load<u32>(h + R_COUNT) + 1);
  if (numAggs > 0) addAggs(rec, row, isNew);
}

/** Folds one match: its key values into keyBuf, then into each of its groups (an MVA key: one per value). */
@inline function foldRow(row: u32, weight: i32): void {
  for (let k: u32 = 0; k < numKeys; k++) {
    if (<i32>k != mvaKey) unchecked((keyBuf[k] = readKey(unchecked(keyClass[k]), unchecked(kPtr[k]), row)));
  }
  if (mvaKey < 0) {
    foldKeys(row, weight);
    return;
  }
  // an MVA key: each of the row's values is a group (an empty MVA none)
  const offsets = unchecked(kPtr[mvaKey]);
  const values = unchecked(kPtr2[mvaKey]);
  const end = load<u32>(offsets + (<usize>(row + 1) << 2));
  for (let v = load<u32>(offsets + (<usize>row << 2)); v < end; v++) {
    unchecked((keyBuf[mvaKey] = load<u64>(values + (<usize>v << 3))));
    foldKeys(row, weight);
  }
}

/** Folds `n` matches, (rowId u32, weight i32) pairs at `matches`, into a fresh table of `recordBytes` records. */
export function foldMatches(matches: usize, n: u32, recordBytes: u32): void {
  tableReset(numKeys, recordBytes);
  for (let i: u32 = 0; i < n; i++) foldRow(load<u32>(matches + (<usize>i << 3)), load<i32>(matches + (<usize>i << 3), 4));
}

/**
 * Folds every live row of [from, end), weight 1: a full scan without filters, whose matches need no
 * list. Returns the rows folded.
 */
export function foldLiveRows(from: u32, end: u32, deleted: usize, recordBytes: u32): u32 {
  tableReset(numKeys, recordBytes);
  let n: u32 = 0;
  // rows come in order, all of weight 1: under the default within-group order a group's first and
  // best row is the first row it meets, so only a new group sets them (no compares per row)
  const plain = numWithin == 0 && mvaKey < 0;
  for (let row = from; row < end; row++) {
    if (bitIsSet(deleted, row)) continue;
    n++;
    if (plain) foldScanRow(row);
    else foldRow(row, 1);
  }
  return n;
}

/** foldRow of a full scan's row (weight 1, rows ascending) under the default within-group order, one key set per row. */
@inline function foldScanRow(row: u32): void {
  for (let k: u32 = 0; k < numKeys; k++) unchecked((keyBuf[k] = readKey(unchecked(keyClass[k]), unchecked(kPtr[k]), row)));
  const rec = find();
  const h = rec + aggsOff - 16;
  if (isNew) {
    store<u32>(h + R_FIRST, row);
    store<u32>(h + R_BEST_ROW, row);
    store<i32>(h + R_BEST_WEIGHT, 1);
  }
  store<u32>(h + R_COUNT, load<u32>(h + R_COUNT) + 1);
  if (numAggs > 0) addAggs(rec, row, isNew);
}
