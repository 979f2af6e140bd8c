// The query's weight floor: a weight k rows of the query are known to reach, so a later segment or
// range prunes from its first row (plan/evaluate.ts) instead of scoring until its own top-K fills.
//
// The cell (plan word P_FLOOR) is | floor i32 | query serial u32 |, placed by the host per query and
// shared by every instance evaluating it (the main thread's and the workers'). Each instance also keeps
// the k best weights it kept for the query so far (by serial): their k-th is a floor over rows of several
// segments, higher than any one segment's own k-th (a table of twenty 100k-row segments: each one's k-th
// is what 100k rows reach, the union's what 2M do).
//
// Threads share the cell without atomics (the core is built without them): a raise one thread makes may
// be overwritten by another's lower one, which is still a weight k rows reach, so the floor stays a true
// bound and only prunes less. An aligned 32-bit word is never torn.

import { topkEntries, topkCount } from "./topk";

/** Beyond this k the union is not kept (each call's own k-th still raises the floor). */
const UNION_MAX_K: u32 = 1024;

let serial: u32 = 0;
let unionK: u32 = 0;
let unionSize: u32 = 0;
let unionPtr: usize = 0;
let unionCap: u32 = 0;

@inline function at(i: u32): i32 {
  return load<i32>(unionPtr + (<usize>i << 2));
}
@inline function set(i: u32, w: i32): void {
  store<i32>(unionPtr + (<usize>i << 2), w);
}

/** The floor a call of k rows for the query of `cell` starts from: the cell's or this instance's union's. */
export function floorBegin(cell: usize, k: u32): i32 {
  const s = load<u32>(cell, 4);
  if (s != serial || k != unionK) {
    serial = s;
    unionK = k <= UNION_MAX_K ? k : 0;
    unionSize = 0;
    if (unionK > unionCap) {
      if (unionPtr != 0) heap.free(unionPtr);
      unionPtr = heap.alloc(<usize>unionK << 2);
      unionCap = unionK;
    }
  }
  const f = load<i32>(cell);
  const u = unionFloor();
  return u > f ? u : f;
}

/** Adds the call's kept weights (the top-K heap's entries) to the union and raises the cell to its k-th. */
export function floorEnd(cell: usize, ownWorst: i32): void {
  const n = topkCount();
  const entries = topkEntries();
  if (unionK != 0) {
    for (let i: u32 = 0; i < n; i++) unionPush(load<i32>(entries + (<usize>i << 3), 4));
  }
  let w = unionFloor();
  if (ownWorst > w) w = ownWorst;
  if (w > load<i32>(cell)) store<i32>(cell, w);
}

/** The union's k-th best weight once it holds k, else i32 min. */
function unionFloor(): i32 {
  return unionK != 0 && unionSize == unionK ? at(0) : i32.MIN_VALUE;
}

/** Keeps the unionK best weights in a min-heap (the smallest at 0). */
function unionPush(w: i32): void {
  if (unionSize < unionK) {
    let i = unionSize++;
    while (i > 0) {
      const p = (i - 1) >>> 1;
      if (at(p) <= w) break;
      set(i, at(p));
      i = p;
    }
    set(i, w);
    return;
  }
  if (w <= at(0)) return;
  let i: u32 = 0;
  for (;;) {
    const l = i * 2 + 1;
    if (l >= unionSize) break;
    const r = l + 1;
    const c = r < unionSize && at(r) < at(l) ? r : l;
    if (at(c) >= w) break;
    set(i, at(c));
    i = c;
  }
  set(i, w);
}
