// `a NEAR/N b NEAR/N c`, as Manticore's FSMmultinear_c (src/searchnode.cpp): a chain of hits from
// distinct operands, each within N words of the previous one; two operands ("twofer") may
// overlap and chain on. Hits arrive by hitpos asc, qpos desc, tagged with their operand (npos).

import { FIELD_END_BIT } from "../util/codes";
import { nget, child, N_NCHILD, N_HLEN, N_ARG0 } from "./node";
import { hitPos, hitQpos, hitSpan, hitWeight, hitsLen, pushHit } from "./hitbuf";

// ring entries: | pos | qpos | span | weight | npos |
const RING_WORDS: u32 = 5;

@inline function w(p: usize, i: u32): u32 {
  return load<u32>(p + (<usize>i << 2));
}
@inline function setw(p: usize, i: u32, v: u32): void {
  store<u32>(p + (<usize>i << 2), v);
}

/** Index into the sorted npos list (len entries at p), or -1. */
function find(p: usize, len: u32, v: u32): i32 {
  for (let i: u32 = 0; i < len; i++) if (w(p, i) == v) return <i32>i;
  return -1;
}

function insertAt(p: usize, len: u32, at: u32, v: u32): void {
  for (let i = len; i > at; i--) setw(p, i, w(p, i - 1));
  setw(p, at, v);
}

function sortWords(p: usize, len: u32): void {
  for (let i: u32 = 1; i < len; i++) {
    const v = w(p, i);
    let j = <i32>i - 1;
    while (j >= 0 && w(p, <u32>j) > v) {
      setw(p, <u32>j + 1, w(p, <u32>j));
      j--;
    }
    setw(p, <u32>(j + 1), v);
  }
}

/** Appends the NEAR matches of the node's row; returns their start (count = hitsLen()-start). */
export function nearHits(n: usize, childHits: (c: usize) => u32): u32 {
  const k = nget(n, N_NCHILD);
  const near = nget(n, N_ARG0);
  const twofer = k == 2;
  // scratch: run cursors and ends (2k), npos list (k + hits), ring (k entries)
  let total: u32 = 0;
  const runs = heap.alloc(<usize>k << 3);
  for (let i: u32 = 0; i < k; i++) {
    const c = child(n, i);
    const s = childHits(c);
    setw(runs, i * 2, s);
    setw(runs, i * 2 + 1, s + nget(c, N_HLEN));
    total += nget(c, N_HLEN);
  }
  const npos = heap.alloc(((<usize>k + total + 1) << 2));
  const ring = heap.alloc(<usize>k * RING_WORDS << 2);
  let nposLen: u32 = 0;
  let iRing: u32 = 0;
  let lastP: u32 = 0, lastML: u32 = 0, weight: u32 = 0, lastW: u32 = 0, firstHit: u32 = 0;
  let firstQpos: u32 = 0, firstNpos: u32 = 0;
  let prelastP: u32 = 0, prelastML: u32 = 0, prelastW: u32 = 0;
  const out = hitsLen();
  while (true) {
    // next hit: hitpos asc, qpos desc, lower operand first
    let best: i32 = -1;
    for (let i: u32 = 0; i < k; i++) {
      const h = w(runs, i * 2);
      if (h >= w(runs, i * 2 + 1)) continue;
      if (best < 0) { best = <i32>i; continue; }
      const b = w(runs, <u32>best * 2);
      const ph = hitPos(h) & ~FIELD_END_BIT;
      const pb = hitPos(b) & ~FIELD_END_BIT;
      if (ph < pb || (ph == pb && hitQpos(h) > hitQpos(b))) best = <i32>i;
    }
    if (best < 0) break;
    const h = w(runs, <u32>best * 2);
    setw(runs, <u32>best * 2, h + 1);
    const pos = hitPos(h) & ~FIELD_END_BIT;
    const q = hitQpos(h);
    const ml = hitSpan(h);
    const hw = hitWeight(h);
    const np = <u32>best + 1;
    const tail = (iRing + nposLen + k - 1) % k;
    if (lastP == pos) {
      if (twofer && np < firstNpos) {
        firstQpos = q;
        firstNpos = np;
        continue;
      } else if (!twofer && np < w(ring, tail * RING_WORDS + 4)) {
        if (find(npos, nposLen, np) < 0) {
          const at = find(npos, nposLen, w(ring, tail * RING_WORDS + 4));
          if (at >= 0) setw(npos, <u32>at, np);
          sortWords(npos, nposLen);
          setw(ring, tail * RING_WORDS + 4, np);
          setw(ring, tail * RING_WORDS + 1, q);
        }
        continue;
      } else if (prelastP != 0 && lastML < ml) {
        lastML = prelastML;
        firstHit = lastP = prelastP;
        weight = weight - lastW + prelastW;
      } else {
        continue;
      }
    }
    if (lastP == 0 || lastP + lastML + near <= pos) {
      // a new chain
      firstHit = lastP = pos;
      lastML = ml;
      weight = lastW = hw;
      firstQpos = q;
      if (twofer) firstNpos = np;
      else {
        nposLen = 1;
        setw(npos, 0, np);
        addToRing(ring, (iRing + nposLen - 1) % k, pos, q, ml, hw, np);
      }
      continue;
    }
    if (twofer) {
      if (firstHit + lastML > pos && firstHit + lastML < pos + ml && lastML != ml) {
        firstHit = lastP = pos;
        lastML = ml;
        weight = lastW = hw;
        firstQpos = q;
        firstNpos = np;
        continue;
      }
      if (np == firstNpos) {
        if (lastP < pos) {
          prelastML = lastML;
          prelastP = lastP;
          prelastW = hw;
          firstHit = lastP = pos;
          lastML = ml;
          weight = lastW = prelastW;
          firstQpos = q;
          firstNpos = np;
        }
        continue;
      }
    } else {
      const first = w(npos, 0);
      const last = w(npos, nposLen - 1);
      if (np < first) {
        if (q < firstQpos) firstQpos = q;
        insertAt(npos, nposLen++, 0, np);
      } else if (np > last) {
        if (q < firstQpos) firstQpos = q;
        setw(npos, nposLen++, np);
      } else if (np != first && np != last) {
        let iEnd = nposLen;
        let iStart: u32 = 0;
        let skip = false;
        while (iEnd - iStart > 1) {
          const iMid = (iStart + iEnd) >>> 1;
          if (np == w(npos, iMid)) {
            const tl = (iRing + nposLen + k - 1) % k;
            if (np == w(ring, iRing * RING_WORDS + 4)) {
              weight -= w(ring, iRing * RING_WORDS + 3);
              firstHit = w(ring, iRing * RING_WORDS);
              iRing = iRing + 1 == k ? 0 : iRing + 1;
            } else if (np == w(ring, tl * RING_WORDS + 4)) {
              weight -= w(ring, tl * RING_WORDS + 3);
            } else {
              skip = true;
              break;
            }
          }
          if (np < w(npos, iMid)) iEnd = iMid;
          else iStart = iMid;
        }
        if (skip) continue;
        insertAt(npos, nposLen++, iEnd, np);
        if (q < firstQpos) firstQpos = q;
      } else if (np == w(ring, iRing * RING_WORDS + 4)) {
        weight -= w(ring, iRing * RING_WORDS + 3);
        firstHit = w(ring, iRing * RING_WORDS);
        iRing = iRing + 1 == k ? 0 : iRing + 1;
      } else if (np == w(ring, ((iRing + nposLen + k - 1) % k) * RING_WORDS + 4)) {
        weight -= w(ring, ((iRing + nposLen + k - 1) % k) * RING_WORDS + 3);
      } else {
        continue;
      }
    }
    weight += hw;
    lastML = ml;
    if (!twofer) addToRing(ring, (iRing + nposLen + k - 1) % k, pos, q, ml, hw, np);
    if (twofer || nposLen == k) {
      const qmin = firstQpos < q ? firstQpos : q;
      pushHit(firstHit, qmin, twofer ? 2 : nposLen, weight);
      prelastP = 0;
      if (twofer) {
        firstHit = lastP = pos;
        weight = hw;
        firstQpos = q;
      } else {
        lastP = 0;
      }
      continue;
    }
    lastP = pos;
  }
  heap.free(runs);
  heap.free(npos);
  heap.free(ring);
  return out;
}

function addToRing(ring: usize, at: u32, pos: u32, q: u32, span: u32, weight: u32, np: u32): void {
  const b = at * RING_WORDS;
  setw(ring, b, pos);
  setw(ring, b + 1, q);
  setw(ring, b + 2, span);
  setw(ring, b + 3, weight);
  setw(ring, b + 4, np);
}
