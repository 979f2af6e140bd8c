import { budgetCharge } from "../memory/budget";
// Top-K selection: a bounded heap of (rowId, weight) with the worst entry on top, ordered by up
// to MAX_SORT_KEYS keys (weight, numeric columns read in place, host rank arrays), then document id
// ascending (Manticore's tie rule, IsDocidLess in its sorters: the order of ties then does not depend
// on which segment or thread range holds a row), then rowId.

import { COL_U32, COL_I64, COL_F32, columnPtr, columnType } from "../segment/layout";
import { SK_WEIGHT, SK_COLUMN, SK_RANK_U32, SK_F64, MAX_SORT_KEYS } from "../plan/format";

const keyKind = new StaticArray<u32>(MAX_SORT_KEYS);
const keyPtr = new StaticArray<usize>(MAX_SORT_KEYS);
const keyType = new StaticArray<u32>(MAX_SORT_KEYS);
const keyDesc = new StaticArray<bool>(MAX_SORT_KEYS);
let numKeys: u32 = 0;

let heapPtr: usize = 0;
let heapCap: u32 = 0;
let size: u32 = 0;
let limit: u32 = 0;
/** Collect mode: every pushed entry is kept in push order, no heap (grouping needs all matches, unordered). */
let collect: bool = false;
/**
 * A weight known to be reached by k rows elsewhere (earlier segments or ranges of the same query):
 * a row must weigh more than floorCut (= that weight - 1) to be of use, heap full or not.
 */
let floorOn: bool = false;
let floorCut: i32 = 0;
/** The call's document id column (i64 by row), the last tie-break; 0: rowId alone (ids ascending by row). */
let idPtr: usize = 0;
/** The ids are not ascending by row: a later row can win a tie, so equal weights are not pruned. */
let idsUnsorted: bool = false;

/** Default order: weight descending. */
export function sortDefault(): void {
  numKeys = 1;
  unchecked((keyKind[0] = SK_WEIGHT));
  unchecked((keyDesc[0] = true));
}

export function sortClear(): void {
  numKeys = 0;
}

/** Adds a key; returns false when there are too many. `ref` is a column number or a pointer. */
export function sortAdd(kind: u32, ref: u32, desc: bool, blob: usize): bool {
  if (numKeys >= MAX_SORT_KEYS) return false;
  unchecked((keyKind[numKeys] = kind));
  unchecked((keyDesc[numKeys] = desc));
  if (kind == SK_COLUMN) {
    unchecked((keyPtr[numKeys] = columnPtr(blob, ref)));
    unchecked((keyType[numKeys] = columnType(blob, ref)));
    if (unchecked(keyPtr[numKeys]) == 0) return false;
  } else if (kind == SK_RANK_U32 || kind == SK_F64) {
    unchecked((keyPtr[numKeys] = <usize>ref));
  }
  numKeys++;
  return true;
}

/** -1 when row a sorts before row b on key i, 1 after, 0 tie. */
function cmpKey(i: u32, ra: u32, wa: i32, rb: u32, wb: i32): i32 {
  const kind = unchecked(keyKind[i]);
  let c: i32 = 0;
  if (kind == SK_WEIGHT) {
    c = wa < wb ? -1 : wa > wb ? 1 : 0;
  } else if (kind == SK_RANK_U32) {
    const p = unchecked(keyPtr[i]);
    const a = load<u32>(p + (<usize>ra << 2));
    const b = load<u32>(p + (<usize>rb << 2));
    c = a < b ? -1 : a > b ? 1 : 0;
  } else if (kind == SK_F64) {
    const p = unchecked(keyPtr[i]);
    const a = load<f64>(p + (<usize>ra << 3));
    const b = load<f64>(p + (<usize>rb << 3));
    c = a < b ? -1 : a > b ? 1 : 0;
  } else {
    const p = unchecked(keyPtr[i]);
    const t = unchecked(keyType[i]);
    if (t == COL_U32) {
      const a = load<u32>(p + (<usize>ra << 2));
      const b = load<u32>(p + (<usize>rb << 2));
      c = a < b ? -1 : a > b ? 1 : 0;
    } else if (t == COL_I64) {
      const a = load<i64>(p + (<usize>ra << 3));
      const b = load<i64>(p + (<usize>rb << 3));
      c = a < b ? -1 : a > b ? 1 : 0;
    } else if (t == COL_F32) {
      const a = load<f32>(p + (<usize>ra << 2));
      const b = load<f32>(p + (<usize>rb << 2));
      c = a < b ? -1 : a > b ? 1 : 0;
    }
  }
  return unchecked(keyDesc[i]) ? -c : c;
}

/** True when (ra, wa) comes before (rb, wb) in the result order. */
export function before(ra: u32, wa: i32, rb: u32, wb: i32): bool {
  for (let i: u32 = 0; i < numKeys; i++) {
    const c = cmpKey(i, ra, wa, rb, wb);
    if (c != 0) return c < 0;
  }
  if (idPtr != 0) {
    const a = load<i64>(idPtr + (<usize>ra << 3));
    const b = load<i64>(idPtr + (<usize>rb << 3));
    if (a != b) return a < b;
  }
  return ra < rb;
}

@inline function rowAt(i: u32): u32 {
  return load<u32>(heapPtr + (<usize>i << 3));
}
@inline function weightAt(i: u32): i32 {
  return load<i32>(heapPtr + (<usize>i << 3), 4);
}
@inline function put(i: u32, row: u32, weight: i32): void {
  store<u32>(heapPtr + (<usize>i << 3), row);
  store<i32>(heapPtr + (<usize>i << 3), weight, 4);
}

export function topkReset(k: u32, all: bool = false): void {
  collect = all;
  // the call needs k entries whether or not an earlier call left a buffer that big
  budgetCharge(<usize>k << 3);
  if (k > heapCap) {
    if (heapPtr != 0) heap.free(heapPtr);
    heapPtr = heap.alloc(<usize>k << 3);
    heapCap = k;
  }
  size = 0;
  limit = k;
  floorOn = false;
  idPtr = 0;
  idsUnsorted = false;
}

/**
 * Sets the call's id column (after topkReset): ties then go to the lower id. `unsorted` when the
 * segment's ids are not ascending by row (plan flag PF_IDS_UNSORTED); where they ascend the row
 * order is the id order, and ties compare rows without reading ids (ranker=none over 200k rows: every
 * push a tie, 2-3% of its CPU).
 */
export function topkSetIds(ids: usize, unsorted: bool): void {
  idPtr = unsorted ? ids : 0;
  idsUnsorted = unsorted;
}

/**
 * Sets the query's weight floor for this call (after topkReset): k rows of other segments or ranges
 * weigh `weight` or more. A row of equal weight may still win its tie (a lower id than theirs), so
 * only rows below it are of no use: topkWorstWeight() gives weight - 1 until the heap's own worst
 * entry is higher.
 */
export function topkSetFloor(weight: i32): void {
  if (weight == i32.MIN_VALUE) return;
  floorOn = true;
  floorCut = weight - 1;
}

/** The weight of the worst kept entry when the heap holds k in the ranked default order, else i32 min. */
export function topkFullWorst(): i32 {
  return rankedDefault() && size == limit ? weightAt(0) : i32.MIN_VALUE;
}

function siftDown(i: u32): void {
  const row = rowAt(i);
  const weight = weightAt(i);
  while (true) {
    const l = i * 2 + 1;
    if (l >= size) break;
    let worst = l;
    const r = l + 1;
    if (r < size && before(rowAt(l), weightAt(l), rowAt(r), weightAt(r))) worst = r;
    if (!before(row, weight, rowAt(worst), weightAt(worst))) break;
    put(i, rowAt(worst), weightAt(worst));
    i = worst;
  }
  put(i, row, weight);
}

export function topkPush(row: u32, weight: i32): void {
  if (limit == 0) return;
  if (collect) {
    if (size < limit) put(size++, row, weight);
    return;
  }
  if (size < limit) {
    let i = size++;
    while (i > 0) {
      const p = (i - 1) >>> 1;
      if (!before(rowAt(p), weightAt(p), row, weight)) break;
      put(i, rowAt(p), weightAt(p));
      i = p;
    }
    put(i, row, weight);
    return;
  }
  if (!before(row, weight, rowAt(0), weightAt(0))) return;
  put(0, row, weight);
  siftDown(0);
}

/** The kept entries in place, (rowId u32, weight i32) pairs: in push order in collect mode. */
export function topkEntries(): usize {
  return heapPtr;
}

export function topkCount(): u32 {
  return size;
}

/** Writes the kept entries best-first to `out` as (rowId u32, weight i32); returns the count. */
export function topkDrain(out: usize): u32 {
  const n = size;
  if (collect) {
    memory.copy(out, heapPtr, <usize>n << 3);
    size = 0;
    return n;
  }
  while (size > 0) {
    const last = size - 1;
    store<u32>(out + (<usize>last << 3), rowAt(0));
    store<i32>(out + (<usize>last << 3), weightAt(0), 4);
    size--;
    if (size > 0) {
      put(0, rowAt(size), weightAt(size));
      siftDown(0);
    }
  }
  return n;
}

@inline function rankedDefault(): bool {
  return !collect && limit > 0 && numKeys == 1 && unchecked(keyKind[0]) == SK_WEIGHT && unchecked(keyDesc[0]);
}

/**
 * True when the order is the ranked default (weight descending, then id, then rowId) and the heap
 * holds k entries or a floor is set: a row (pushed in ascending row order) then enters, or can make
 * the query's top-K, only with a weight above topkWorstWeight(), which is what lets the evaluator skip
 * rows whose weight bound is not above it.
 */
export function topkPrunable(): bool {
  return rankedDefault() && (size == limit || floorOn);
}

/** The weight a row must beat to be of use (the heap's top, or the floor's cut); valid when topkPrunable(). */
export function topkWorstWeight(): i32 {
  if (size < limit) return floorCut;
  // ids ascending by row: a row pushed later loses a tie with the heap's worst, so a bound equal to
  // it is of no use; else it may win (lower id) and only a bound below it is
  const w = idsUnsorted && weightAt(0) != i32.MIN_VALUE ? weightAt(0) - 1 : weightAt(0);
  return floorOn && floorCut > w ? floorCut : w;
}
