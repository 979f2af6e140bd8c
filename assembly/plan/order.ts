// Strict order `a << b << c`, as Manticore's ExtOrder_c::GetMatchingHits: walks the children's
// hits in hitpos order with a "longest" and a "most recent" subsequence tracker per field, and
// emits the hits of every complete in-order subsequence.

import { POS_MASK, FIELD_END_BIT } from "../util/codes";
import { nget, child, N_NCHILD, N_HLEN } from "./node";
import { hitPos, hitSpan, hitsLen, copyHit } from "./hitbuf";

/** Appends the matched hits of an ORDER node's row; returns their start (count = hitsLen()-start). */
export function orderHits(n: usize, childHits: (c: usize) => u32): u32 {
  const k = nget(n, N_NCHILD);
  const mem = heap.alloc(<usize>k * 20);
  const starts = mem;
  const ends = mem + (<usize>k << 2);
  const idx = mem + (<usize>k << 3);
  const longest = mem + (<usize>k * 12);
  const recent = mem + (<usize>k << 4);
  for (let i: u32 = 0; i < k; i++) {
    const c = child(n, i);
    const s = childHits(c);
    store<u32>(starts + (<usize>i << 2), s);
    store<u32>(ends + (<usize>i << 2), s + nget(c, N_HLEN));
    store<u32>(idx + (<usize>i << 2), s);
  }
  const out = hitsLen();
  let nLongest: u32 = 0;
  let nRecent: u32 = 0;
  let posLongest: i32 = 0;
  let posRecent: i32 = 0;
  let field: i32 = -1;
  while (true) {
    // next hit in hitpos order; ties go to the lowest child
    let best: i32 = -1;
    let bestPos: u32 = 0xffffffff;
    for (let i: u32 = 0; i < k; i++) {
      const h = load<u32>(idx + (<usize>i << 2));
      if (h >= load<u32>(ends + (<usize>i << 2))) continue;
      const p = hitPos(h) & ~FIELD_END_BIT;
      if (p < bestPos) {
        bestPos = p;
        best = <i32>i;
      }
    }
    if (best < 0) break;
    const c = <u32>best;
    const h = load<u32>(idx + (<usize>c << 2));
    const hf = <i32>(hitPos(h) >>> 24);
    const hp = <i32>(hitPos(h) & POS_MASK);
    const end = hp + <i32>hitSpan(h);
    if (hf != field) {
      nLongest = 0;
      nRecent = 0;
      if (c == 0) {
        store<u32>(longest, h);
        nLongest = 1;
        posLongest = end;
        field = hf;
      }
    } else if (c == nLongest && hp >= posLongest) {
      store<u32>(longest + (<usize>nLongest << 2), h);
      nLongest++;
      posLongest = end;
      if (nLongest == k) {
        for (let i: u32 = 0; i < k; i++) copyHit(load<u32>(longest + (<usize>i << 2)));
        nLongest = 0;
        nRecent = 0;
        posRecent = posLongest;
      }
    } else if (c == 0) {
      store<u32>(recent, h);
      nRecent = 1;
      posRecent = end;
      if (nLongest == 0) {
        store<u32>(longest, h);
        nLongest = 1;
        posLongest = end;
      }
    } else if (c == nRecent && hp >= posRecent) {
      store<u32>(recent + (<usize>nRecent << 2), h);
      nRecent++;
      posRecent = end;
      if (nRecent == nLongest) {
        memory.copy(longest, recent, <usize>nRecent << 2);
        nLongest = nRecent;
        nRecent = 0;
        posLongest = posRecent;
      }
    }
    store<u32>(idx + (<usize>c << 2), h + 1);
  }
  heap.free(mem);
  return out;
}
