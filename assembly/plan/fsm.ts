// Phrase and proximity matchers over one row's merged hits, as Manticore's FSMphrase_c and
// FSMproximity_c (src/searchnode.cpp): same states, same emitted hits, so ranking sees the same
// (hitpos, qpos, spanlen, weight) stream.

import { FIELD_END_BIT } from "../util/codes";
import { hitPos, hitQpos, pushHit } from "./hitbuf";

const INT_MIN_PLUS: i32 = -0x7fffffff; // Manticore's -INT_MAX
const EMPTY: u32 = 0xffffffff;

let scratch: usize = 0;
let scratchBytes: usize = 0;

/** A reusable scratch region of at least `words` u32s (contents undefined). */
function scratchWords(words: usize): usize {
  const bytes = words << 2;
  if (bytes > scratchBytes) {
    if (scratch != 0) heap.free(scratch);
    scratchBytes = bytes < 4096 ? 4096 : bytes;
    scratch = heap.alloc(scratchBytes);
  }
  return scratch;
}

@inline function w(p: usize, i: u32): u32 {
  return load<u32>(p + (<usize>i << 2));
}
@inline function setw(p: usize, i: u32, v: u32): void {
  store<u32>(p + (<usize>i << 2), v);
}

/**
 * Phrase: runs over hits [start, start+n) sorted by hitpos asc, qpos desc; `atoms` holds the k
 * children's qpos (ascending, with gaps for `*`). Emits one hit per occurrence; returns the count.
 */
export function phraseFsm(start: u32, n: u32, atoms: usize, k: u32): u32 {
  const first = w(atoms, 0);
  const span = w(atoms, k - 1) - first;
  const deltas = scratchWords(<usize>span + 1 + (<usize>n << 1) + 2);
  const states = deltas + ((<usize>span + 1) << 2); // pairs: tag, expected hitpos
  for (let i: u32 = 0; i <= span; i++) setw(deltas, i, <u32>INT_MIN_PLUS);
  for (let i: u32 = 1; i < k; i++) setw(deltas, w(atoms, i - 1) - first, w(atoms, i) - w(atoms, i - 1));
  let nStates: u32 = 0;
  let emitted: u32 = 0;
  for (let h = start; h < start + n; h++) {
    const pos = hitPos(h) & ~FIELD_END_BIT;
    const q = hitQpos(h);
    if (q == first) {
      setw(states, nStates * 2, 0);
      setw(states, nStates * 2 + 1, pos + w(deltas, 0));
      nStates++;
    }
    for (let i = <i32>nStates - 1; i >= 0; i--) {
      const tagAt = <u32>i * 2;
      const exp = w(states, tagAt + 1);
      if (exp < pos) {
        nStates--;
        setw(states, tagAt, w(states, nStates * 2));
        setw(states, tagAt + 1, w(states, nStates * 2 + 1));
        continue;
      }
      let tag = w(states, tagAt);
      if (exp == pos && w(atoms, tag + 1) == q) {
        tag++;
        setw(states, tagAt, tag);
        setw(states, tagAt + 1, pos + w(deltas, q - first));
      }
      if (tag == k - 1) {
        pushHit(pos - span, first, span + 1, k);
        emitted++;
        nStates = 0;
        break;
      }
    }
  }
  return emitted;
}

/**
 * Proximity `"..."~dist`: hits sorted by hitpos asc, qpos desc; `atoms` as for phrases; `words`
 * is the number of distinct keywords expected. Emits one hit per window found.
 */
export function proximityFsm(start: u32, n: u32, atoms: usize, k: u32, dist: i32): u32 {
  const minQpos = w(atoms, 0);
  const qlen = w(atoms, k - 1) - minQpos;
  const prox = scratchWords((<usize>qlen + 1) * 2 + 2);
  const deltas = prox + ((<usize>qlen + 1) << 2);
  for (let i: u32 = 0; i <= qlen; i++) setw(prox, i, EMPTY);
  let words: u32 = 0;
  let expPos: u32 = 0;
  let minQi: i32 = -1;
  let emitted: u32 = 0;
  for (let h = start; h < start + n; h++) {
    const qi = hitQpos(h) - minQpos;
    let pos = hitPos(h) & ~FIELD_END_BIT;
    if (w(prox, qi) == EMPTY) words++;
    setw(prox, qi, pos);
    if (pos >= expPos || <i32>qi == minQi) {
      minQi = <i32>qi;
      const minPos = <i32>pos - <i32>qlen - dist;
      for (let i: u32 = 0; i <= qlen; i++) {
        const p = w(prox, i);
        if (p == EMPTY) continue;
        if (<i32>p <= minPos) {
          setw(prox, i, EMPTY);
          words--;
          continue;
        }
        if (p < pos) {
          minQi = <i32>i;
          pos = p;
        }
      }
      expPos = w(prox, <u32>minQi) + qlen + <u32>dist;
    }
    if (words != k) continue;
    // phrase weight: runs of keywords at the query's relative distances
    let uMax: u32 = 0;
    let nd: u32 = 0;
    for (let i: u32 = 0; i <= qlen; i++) {
      const p = w(prox, i);
      if (p == EMPTY) continue;
      setw(deltas, nd++, p - i);
      if (p > uMax) uMax = p;
    }
    sortI32(deltas, nd);
    let cur: u32 = 0;
    let weight: u32 = 0;
    let last: i32 = INT_MIN_PLUS;
    for (let i: u32 = 0; i < nd; i++) {
      const d = <i32>w(deltas, i);
      if (d == last) cur++;
      else {
        weight += cur != 0 ? 1 + cur : 0;
        cur = 0;
      }
      last = d;
    }
    weight += cur != 0 ? 1 + cur : 0;
    if (weight == 0) weight = 1;
    const minP = w(prox, <u32>minQi);
    pushHit(minP, minQpos, uMax - minP + 1, weight);
    emitted++;
    setw(prox, <u32>minQi, EMPTY);
    minQi = -1;
    words--;
    expPos = 0;
  }
  return emitted;
}

/** Insertion sort of n i32s (keyword counts are small). */
function sortI32(p: usize, n: u32): void {
  for (let i: u32 = 1; i < n; i++) {
    const v = <i32>w(p, i);
    let j = <i32>i - 1;
    while (j >= 0 && <i32>w(p, <u32>j) > v) {
      setw(p, <u32>j + 1, w(p, <u32>j));
      j--;
    }
    setw(p, <u32>(j + 1), <u32>v);
  }
}

