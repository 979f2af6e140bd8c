// `a NOTNEAR/N b`, as Manticore's ExtNotNear_c (src/searchnode.cpp): the left operand's hits
// that have no hit of the right operand within N words in the same field; a row matches when
// at least one left hit survives (or the right operand is not on the row at all).

import { FIELD_END_BIT } from "../util/codes";
import { nget, child, N_DOC, N_ARG0, N_HLEN } from "./node";
import { hitPos, hitSpan, hitsLen, copyHit } from "./hitbuf";

@inline function posWithField(h: u32): u32 {
  return hitPos(h) & ~FIELD_END_BIT;
}

/** Appends the surviving left hits of the node's row; returns where they start. */
export function notNearHits(n: usize, hitsOf: (n: usize) => u32): u32 {
  const left = child(n, 0);
  const right = child(n, 1);
  const ls = hitsOf(left);
  const ll = nget(left, N_HLEN);
  const rightHere = nget(right, N_DOC) == nget(n, N_DOC);
  // the right operand's hits go to the buffer first: the output run must end the buffer
  const rs = rightHere ? hitsOf(right) : 0;
  const re = rightHere ? rs + nget(right, N_HLEN) : 0;
  const out = hitsLen();
  if (!rightHere) {
    for (let i = ls; i < ls + ll; i++) copyHit(i);
    return out;
  }
  const dist = nget(n, N_ARG0);
  let r = rs;
  for (let m = ls; m < ls + ll; m++) {
    const mf = hitPos(m) >>> 24;
    const mp = posWithField(m);
    // skip right hits of earlier fields or ending (plus N) before this hit
    while (r < re) {
      const rf = hitPos(r) >>> 24;
      if (rf < mf) { r++; continue; }
      if (rf > mf) break;
      if (posWithField(r) + hitSpan(r) - 1 + dist < mp) { r++; continue; }
      break;
    }
    let near = false;
    for (let s = r; s < re; s++) {
      const sf = hitPos(s) >>> 24;
      if (sf > mf) break;
      if (sf < mf) continue;
      near = mp + hitSpan(m) - 1 + dist >= posWithField(s);
      break;
    }
    if (!near) copyHit(m);
  }
  return out;
}
