// The hit buffer: per-row hits of plan nodes, 4 words each (hitpos, qpos, spanlen, weight).
// Node caches hold indices and the epoch they were made in; a rollback bumps the epoch, so every
// cache made before it is recomputed on demand.

import { scratchReset } from "../memory/scratch";

export const HIT_WORDS: u32 = 4;

let ptr: usize = 0;
let len: u32 = 0; // in hits
let cap: u32 = 0; // in hits
export let epoch: u32 = 1;

function grow(need: u32): void {
  let c = cap < 1024 ? <u32>1024 : cap;
  while (c < need) c <<= 1;
  const bytes = <usize>c * HIT_WORDS << 2;
  ptr = ptr == 0 ? heap.alloc(bytes) : heap.realloc(ptr, bytes);
  cap = c;
}

@inline export function hitsLen(): u32 {
  return len;
}

/** Forgets every hit (start of a row) and invalidates all caches. */
export function hitsReset(): void {
  scratchReset();
  len = 0;
  epoch++;
}

/** Drops hits from `mark` on (a rejected candidate row) and invalidates all caches. */
export function hitsRollback(mark: u32): void {
  len = mark;
  epoch++;
}

export function pushHit(hitpos: u32, qpos: u32, span: u32, weight: u32): void {
  if (len >= cap) grow(len + 1);
  const p = ptr + (<usize>len * HIT_WORDS << 2);
  store<u32>(p, hitpos);
  store<u32>(p, qpos, 4);
  store<u32>(p, span, 8);
  store<u32>(p, weight, 12);
  len++;
}

/** Moves hits [from, from+count) to `to` (<= from) and truncates the buffer after them. */
export function hitsMove(to: u32, from: u32, count: u32): void {
  memory.copy(ptr + (<usize>to * HIT_WORDS << 2), ptr + (<usize>from * HIT_WORDS << 2), <usize>count * HIT_WORDS << 2);
  len = to + count;
}

/** Copies hit `i` to the end of the buffer. */
export function copyHit(i: u32): void {
  if (len >= cap) grow(len + 1);
  memory.copy(ptr + (<usize>len * HIT_WORDS << 2), ptr + (<usize>i * HIT_WORDS << 2), <usize>HIT_WORDS << 2);
  len++;
}

@inline export function hitPos(i: u32): u32 {
  return load<u32>(ptr + (<usize>i * HIT_WORDS << 2));
}
@inline export function hitQpos(i: u32): u32 {
  return load<u32>(ptr + (<usize>i * HIT_WORDS << 2), 4);
}
@inline export function hitSpan(i: u32): u32 {
  return load<u32>(ptr + (<usize>i * HIT_WORDS << 2), 8);
}
@inline export function hitWeight(i: u32): u32 {
  return load<u32>(ptr + (<usize>i * HIT_WORDS << 2), 12);
}

/** a before b: hitpos ascending, then qpos ascending (or descending, for the phrase FSMs). */
@inline export function hitBefore(a: u32, b: u32, qposDesc: bool): bool {
  const pa = hitPos(a);
  const pb = hitPos(b);
  if (pa != pb) return pa < pb;
  return qposDesc ? hitQpos(a) >= hitQpos(b) : hitQpos(a) <= hitQpos(b);
}

/** Appends the merge of two sorted runs; returns the start of the merged run. */
export function mergeRuns(aStart: u32, aLen: u32, bStart: u32, bLen: u32, qposDesc: bool): u32 {
  const out = len;
  let i = aStart;
  let j = bStart;
  const aEnd = aStart + aLen;
  const bEnd = bStart + bLen;
  while (i < aEnd && j < bEnd) {
    if (hitBefore(i, j, qposDesc)) copyHit(i++);
    else copyHit(j++);
  }
  while (i < aEnd) copyHit(i++);
  while (j < bEnd) copyHit(j++);
  return out;
}
