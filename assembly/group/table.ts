// The groups of one program while it folds: records in a growable arena, found by their key values
// through an open-addressing hash of record numbers (linear probing, at most half full).
//
// Record (recordBytes): | key × numKeys (8 bytes) | count u32 | firstRow u32 | bestRow u32 |
// | bestWeight i32 | agg × numAggs (8 bytes) |  (group/format.ts)

import { V_F32, V_F64 } from "./format";
import { budgetCharge } from "../memory/budget";

export const R_COUNT: u32 = 0;
export const R_FIRST: u32 = 4;
export const R_BEST_ROW: u32 = 8;
export const R_BEST_WEIGHT: u32 = 12;

const CANONICAL_NAN: u64 = 0x7ff8000000000000;

/** The key classes of the program being folded (floats compare by value: -0 = 0, NaN = NaN, as a JS Map). */
export const keyClass = new StaticArray<u32>(8);
/** The key values of the row being folded (raw 8-byte values). */
export const keyBuf = new StaticArray<u64>(8);

/** Whether the last find() made the record. */
export let isNew: bool = false;

let numKeys: u32 = 0;
let recordBytes: u32 = 0;
let recs: usize = 0;
let recCap: u32 = 0;
let count: u32 = 0;
let slots: usize = 0;
let slotBits: u32 = 0;
/**
 * One integer key: values in [0, DIRECT_MAX) find their record by index (record number + 1, 0 = none)
 * in an array grown to the largest such value seen; other values go through the hash.
 */
const DIRECT_MAX: u64 = 1 << 16;
let direct: bool = false;
let directPtr: usize = 0;
let directCap: u32 = 0;

/** The bits hashed and compared: a float's -0 is 0 and every NaN one NaN. */
@inline function canonical(bits: u64, cls: u32): u64 {
  if (cls != V_F32 && cls != V_F64) return bits;
  const f = reinterpret<f64>(bits);
  if (f == 0) return 0;
  if (f != f) return CANONICAL_NAN;
  return bits;
}

@inline function mix(h: u64): u64 {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccd;
  h ^= h >> 33;
  return h;
}

/** The hash of the numKeys 8-byte key values at `p` (keyBuf's data or a record). */
function hashAt(p: usize): u64 {
  let h: u64 = 0x9e3779b97f4a7c15;
  for (let i: u32 = 0; i < numKeys; i++) h = mix(h ^ canonical(load<u64>(p + (<usize>i << 3)), unchecked(keyClass[i])));
  return h;
}

function sameKeys(rec: usize): bool {
  for (let i: u32 = 0; i < numKeys; i++) {
    const cls = unchecked(keyClass[i]);
    if (canonical(load<u64>(rec + (<usize>i << 3)), cls) != canonical(unchecked(keyBuf[i]), cls)) return false;
  }
  return true;
}

/** Starts an empty table for records of `bytes` with `keys` keys (classes set in keyClass). */
export function tableReset(keys: u32, bytes: u32): void {
  // a fold the budget stopped left its table here: free it now (tableTake hands over and clears)
  if (recs != 0) heap.free(recs);
  if (slots != 0) heap.free(slots);
  if (directPtr != 0) heap.free(directPtr);
  recs = 0;
  slots = 0;
  directPtr = 0;
  budgetCharge(<usize>64 * bytes + (<usize>4 << 7));
  numKeys = keys;
  const cls = unchecked(keyClass[0]);
  direct = keys == 1 && cls != V_F32 && cls != V_F64;
  directPtr = 0;
  directCap = 0;
  recordBytes = bytes;
  count = 0;
  recCap = 64;
  recs = heap.alloc(<usize>recCap * bytes);
  slotBits = 7;
  slots = heap.alloc(<usize>4 << slotBits);
  memory.fill(slots, 0, <usize>4 << slotBits);
}

/** Frees the hash and hands over the records (tableCount() of them; the caller frees them). */
export function tableTake(): usize {
  heap.free(slots);
  if (directPtr != 0) heap.free(directPtr);
  directPtr = 0;
  const r = recs;
  slots = 0;
  recs = 0;
  return r;
}

export function tableCount(): u32 {
  return count;
}

function rehash(): void {
  budgetCharge(<usize>4 << slotBits);
  heap.free(slots);
  slots = 0;
  slotBits++;
  const mask: u32 = (<u32>1 << slotBits) - 1;
  slots = heap.alloc(<usize>4 << slotBits);
  memory.fill(slots, 0, <usize>4 << slotBits);
  for (let r: u32 = 0; r < count; r++) {
    let s = <u32>(hashAt(recs + <usize>r * recordBytes) >> (64 - slotBits));
    while (load<u32>(slots + (<usize>s << 2)) != 0) s = (s + 1) & mask;
    store<u32>(slots + (<usize>s << 2), r + 1);
  }
}

/**
 * The record of the keys in keyBuf, made (keys copied, the rest zeroed) when there is none. The
 * address is valid until the next find(): the arena may move when it grows.
 */
@inline export function find(): usize {
  // the hot path inline: an integer key's existing group by direct index
  if (direct) {
    const v = unchecked(keyBuf[0]);
    if (v < <u64>directCap) {
      const at = load<u32>(directPtr + (<usize>v << 2));
      if (at != 0) {
        isNew = false;
        return recs + <usize>(at - 1) * recordBytes;
      }
    }
  }
  return findSlow();
}

function findSlow(): usize {
  if (direct) {
    const v = unchecked(keyBuf[0]);
    if (v < DIRECT_MAX) return findDirect(<u32>v);
  }
  const mask: u32 = (<u32>1 << slotBits) - 1;
  let s = <u32>(hashAt(changetype<usize>(keyBuf)) >> (64 - slotBits));
  while (true) {
    const at = load<u32>(slots + (<usize>s << 2));
    if (at == 0) break;
    const rec = recs + <usize>(at - 1) * recordBytes;
    if (sameKeys(rec)) {
      isNew = false;
      return rec;
    }
    s = (s + 1) & mask;
  }
  const rec = newRecord();
  store<u32>(slots + (<usize>s << 2), count);
  // the slot array moves, the record does not
  if (count << 1 > (<u32>1 << slotBits)) rehash();
  return rec;
}

/** A new record of the keys in keyBuf, the rest zeroed; count is its number + 1. */
function newRecord(): usize {
  if (count == recCap) {
    budgetCharge(<usize>recCap * recordBytes);
    recCap <<= 1;
    recs = heap.realloc(recs, <usize>recCap * recordBytes);
  }
  const rec = recs + <usize>count * recordBytes;
  memory.fill(rec, 0, recordBytes);
  for (let i: u32 = 0; i < numKeys; i++) store<u64>(rec + (<usize>i << 3), unchecked(keyBuf[i]));
  count++;
  isNew = true;
  return rec;
}

function findDirect(v: u32): usize {
  if (v >= directCap) {
    let cap: u32 = directCap == 0 ? 1024 : directCap;
    while (cap <= v) cap <<= 1;
    budgetCharge(<usize>(cap - directCap) << 2);
    directPtr = directPtr == 0 ? heap.alloc(<usize>cap << 2) : heap.realloc(directPtr, <usize>cap << 2);
    memory.fill(directPtr + (<usize>directCap << 2), 0, <usize>(cap - directCap) << 2);
    directCap = cap;
  }
  const at = load<u32>(directPtr + (<usize>v << 2));
  if (at != 0) {
    isNew = false;
    return recs + <usize>(at - 1) * recordBytes;
  }
  const rec = newRecord();
  store<u32>(directPtr + (<usize>v << 2), count);
  return rec;
}
