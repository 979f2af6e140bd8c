// `a SENTENCE b`, `a PARAGRAPH b`, as Manticore's ExtUnit_T::FilterHits (src/searchnode.cpp):
// child 2 is the boundary term (sentence or paragraph marks). Without a boundary on the row the
// unit is an AND; with one, only hit pairs not separated by a boundary match, and the hits of
// the sentence (paragraph) they share are the node's hits. Hitpos compare raw, as there.

import { nget, child, N_DOC, N_HLEN } from "./node";
import { hitPos, hitQpos, hitsLen, copyHit } from "./hitbuf";

let dots: u32 = 0;
let dotsEnd: u32 = 0;

/** Advances dot index past boundaries at or before `pos`; false when none is left. */
function skipDots(pos: u32): bool {
  while (dots < dotsEnd && hitPos(dots) <= pos) dots++;
  return dots < dotsEnd;
}

@inline function less(a: u32, b: u32): bool {
  return hitPos(a) < hitPos(b) || (hitPos(a) == hitPos(b) && hitQpos(a) < hitQpos(b));
}

/** Appends the unit's hits on its row; returns where they start (none = no match). */
export function unitHits(n: usize, hitsOf: (n: usize) => u32): u32 {
  const a = child(n, 0);
  const b = child(n, 1);
  const dot = child(n, 2);
  let i1 = hitsOf(a);
  const e1 = i1 + nget(a, N_HLEN);
  let i2 = hitsOf(b);
  const e2 = i2 + nget(b, N_HLEN);
  const dotHere = nget(dot, N_DOC) == nget(n, N_DOC);
  dots = dotHere ? hitsOf(dot) : 0;
  dotsEnd = dotHere ? dots + nget(dot, N_HLEN) : 0;
  const out = hitsLen();
  // no boundary on the row: every hit pair shares the sentence (a plain AND)
  let end: u32 = dotHere ? 0 : 0xffffffff;
  while (true) {
    if (end != 0) {
      const v1 = i1 < e1 && hitPos(i1) < end;
      const v2 = i2 < e2 && hitPos(i2) < end;
      if (!v1 && !v2) {
        end = 0;
        if (i1 < e1 && i2 < e2) continue;
        break;
      }
      if (v1 && (!v2 || less(i1, i2))) copyHit(i1++);
      else copyHit(i2++);
      continue;
    }
    if (i1 >= e1 || i2 >= e2) break;
    const p1 = hitPos(i1);
    const p2 = hitPos(i2);
    const lo = p1 < p2 ? p1 : p2;
    const hi = p1 < p2 ? p2 : p1;
    if (!skipDots(lo)) {
      end = 0xffffffff;
      continue;
    }
    const d = hitPos(dots);
    if (d < hi) {
      // "a . b": both sides restart after this boundary
      while (i1 < e1 && hitPos(i1) <= d) i1++;
      if (i1 >= e1) break;
      while (i2 < e2 && hitPos(i2) <= d) i2++;
      if (i2 >= e2) break;
      continue;
    }
    end = skipDots(hi) ? hitPos(dots) : 0xffffffff;
  }
  return out;
}
