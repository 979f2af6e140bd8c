// ZONE:(z) and ZONESPAN:(z), as Manticore's zone checker (src/sphinxsearch.cpp, IsInZone and its
// start/end FSM): a zone's spans on a row pair its opening and closing tag hits; a hit counts when
// some span of a listed zone holds it. Children: the guarded node, then per zone its opening-tag
// and closing-tag terms. arg0 = 1 (ZONESPAN over an AND): one span must hold a hit of every
// operand of the AND.

import { FIELD_END_BIT } from "../util/codes";
import { nget, child, N_DOC, N_HLEN, N_NCHILD, N_ARG0 } from "./node";
import { hitPos, hitsLen, copyHit } from "./hitbuf";

/** Spans kept per zone and row; further ones are ignored. */
const MAX_SPANS: i32 = 4096;
const starts = new StaticArray<u32>(MAX_SPANS);
const ends = new StaticArray<u32>(MAX_SPANS);
let nSpans: i32 = 0;

function commit(b: u32, e: u32): void {
  if (nSpans >= MAX_SPANS) return;
  unchecked((starts[nSpans] = b));
  unchecked((ends[nSpans] = e));
  nSpans++;
}

/** The spans of zone `z` (children 1+2z, 2+2z) on the node's row. */
function zoneSpans(n: usize, z: u32, hitsOf: (n: usize) => u32): void {
  nSpans = 0;
  const sc = child(n, 1 + 2 * z);
  const ec = child(n, 2 + 2 * z);
  const row = nget(n, N_DOC);
  if (nget(sc, N_DOC) != row || nget(ec, N_DOC) != row) return;
  let si = hitsOf(sc);
  const se = si + nget(sc, N_HLEN);
  let ei = hitsOf(ec);
  const ee = ei + nget(ec, N_HLEN);
  if (si >= se || ei >= ee) return;
  let eof: u32 = 0;
  while (eof == 0 && hitPos(ei) < hitPos(si)) {
    ei++;
    if (ei >= ee) eof |= 2;
  }
  if (eof != 0) return;
  let inSpan = true;
  let b = hitPos(si);
  let e = hitPos(ei);
  while (eof != 3) {
    if (inSpan || (eof & 2) != 0) {
      si++;
      if (si >= se) eof |= 1;
    } else {
      ei++;
      if (ei >= ee) eof |= 2;
    }
    // past its last closing tag a zone's end reads as beyond every position
    const endPos: u32 = (eof & 2) != 0 ? 0xffffffff : hitPos(ei);
    if ((eof & 1) == 0 && hitPos(si) < endPos) {
      if (!inSpan) {
        inSpan = true;
        commit(b, e);
        b = hitPos(si);
      }
    } else if ((eof & 2) == 0) {
      inSpan = false;
      e = hitPos(ei);
    }
  }
  if (b < e) commit(b, e);
}

/** The span holding `pos` (without its field-end bit), or -1: the last start at or before it. */
function findSpan(pos: u32): i32 {
  let i = nSpans - 1;
  while (i >= 0 && unchecked(starts[i]) > pos) i--;
  if (i < 0 || pos > unchecked(ends[i])) return -1;
  return i;
}

/** Appends the guarded node's hits that lie in a listed zone; returns where they start. */
export function zoneHits(n: usize, hitsOf: (n: usize) => u32): u32 {
  const g = child(n, 0);
  const gs = hitsOf(g);
  const gl = nget(g, N_HLEN);
  const zones = (nget(n, N_NCHILD) - 1) >>> 1;
  const span = nget(n, N_ARG0) == 1;
  // marker hits first: the output run must end the buffer
  for (let z: u32 = 0; z < zones; z++) {
    for (let c: u32 = 1; c <= 2; c++) {
      const m = child(n, c + 2 * z);
      if (nget(m, N_DOC) == nget(n, N_DOC)) hitsOf(m);
    }
  }
  const keepBytes: usize = gl > 0 ? <usize>gl : 1;
  const keep = heap.alloc(keepBytes);
  memory.fill(keep, 0, keepBytes);
  for (let z: u32 = 0; z < zones; z++) {
    zoneSpans(n, z, hitsOf);
    if (span) markSpanned(g, gs, gl, keep, hitsOf);
    else for (let i: u32 = 0; i < gl; i++) if (findSpan(hitPos(gs + i) & ~FIELD_END_BIT) >= 0) store<u8>(keep + i, 1);
  }
  const out = hitsLen();
  for (let i: u32 = 0; i < gl; i++) if (load<u8>(keep + i) != 0) copyHit(gs + i);
  heap.free(keep);
  return out;
}

/** ZONESPAN: keeps hits of spans that hold a hit of every operand of the guarded AND. */
function markSpanned(g: usize, gs: u32, gl: u32, keep: usize, hitsOf: (n: usize) => u32): void {
  const k = nget(g, N_NCHILD);
  for (let s: i32 = 0; s < nSpans; s++) {
    const b = unchecked(starts[s]);
    const e = unchecked(ends[s]);
    let all = true;
    for (let c: u32 = 0; c < k && all; c++) {
      const op = child(g, c);
      if (nget(op, N_DOC) != nget(g, N_DOC)) { all = false; break; }
      const cs = hitsOf(op);
      let found = false;
      for (let h = cs; h < cs + nget(op, N_HLEN) && !found; h++) {
        const p = hitPos(h) & ~FIELD_END_BIT;
        found = p >= b && p <= e;
      }
      all = found;
    }
    if (!all) continue;
    for (let i: u32 = 0; i < gl; i++) {
      const p = hitPos(gs + i) & ~FIELD_END_BIT;
      if (p >= b && p <= e) store<u8>(keep + i, 1);
    }
  }
}
