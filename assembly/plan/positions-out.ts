// positionsOut(): the query's matched occurrences in one row, for highlighting. The plan runs as in
// evaluate() but on a single row, and the root's hits (Manticore's CSphHitMarker::Mark: GetHits of
// the root on the snippet's one-document index) are written out. No hits when the row does not
// satisfy the whole query.
//
// Output, PO_WORDS per hit: | hitpos (field << 24 | pos, field-end bit cleared) | span (words) |

import { TERMINATED, E_BAD_PLAN, E_BAD_SEGMENT, FIELD_END_BIT } from "../util/codes";
import { hdr, H_MAGIC, H_VERSION, H_ROWS, H_FIELDS, SEGMENT_MAGIC, SEGMENT_VERSION, DESC_BLOB } from "../segment/layout";
import { PLAN_MAGIC, PLAN_HEADER_WORDS, P_MAGIC, P_ROOT, P_FLAGS, PF_DUPES, PF_EXHAUSTIVE, OP_TERM, OP_NEAR, pword } from "./format";
import { arenaBytes, buildTree, checkTree, freeTree, nget, child, N_HLEN, N_OP, N_NCHILD, N_DOC } from "./node";
import { next, setSegmentRows, sortByCost, nodeHits, setPhraseMode } from "./match";
import { hitsReset, hitPos, hitQpos, hitSpan } from "./hitbuf";

/** Words per output hit. */
export const PO_WORDS: u32 = 2;

/**
 * Runs `plan` on row `row` of segment descriptor `seg`; writes up to `cap` hits to `out` and
 * returns how many the root has (more than `cap`: call again with a bigger buffer), or an E_* code.
 */
export function positionsOut(seg: usize, plan: usize, planLen: u32, row: u32, out: usize, cap: u32): i32 {
  const blob = <usize>load<u32>(seg + DESC_BLOB);
  if (hdr(blob, H_MAGIC) != SEGMENT_MAGIC || hdr(blob, H_VERSION) != SEGMENT_VERSION) return E_BAD_SEGMENT;
  if (planLen < PLAN_HEADER_WORDS || pword(plan, P_MAGIC) != PLAN_MAGIC) return E_BAD_PLAN;
  const root = pword(plan, P_ROOT);
  const rows = hdr(blob, H_ROWS);
  if (root == 0 || row >= rows) return 0;
  if (checkTree(plan, root, planLen, 0) == 0) return E_BAD_PLAN;
  const numFields = hdr(blob, H_FIELDS);
  const allFields: u32 = numFields >= 32 ? 0xffffffff : (<u32>1 << numFields) - 1;
  const arenaSize = arenaBytes(plan, root);
  const arena = heap.alloc(arenaSize);
  const node = buildTree(plan, root, arena, arenaSize, blob, allFields);
  setSegmentRows(rows);
  sortByCost(node);
  hitsReset();
  let count: u32 = 0;
  setPhraseMode((pword(plan, P_FLAGS) & (PF_DUPES | PF_EXHAUSTIVE)) == 0, false);
  const d = next(node, row);
  if (d == row && d != TERMINATED) {
    hitsReset();
    nearCount = 0;
    collectNear(node, row);
    const start = nodeHits(node);
    count = nget(node, N_HLEN);
    const n = count < cap ? count : cap;
    for (let i: u32 = 0; i < n; i++) {
      const o = out + (<usize>i * PO_WORDS << 2);
      store<u32>(o, hitPos(start + i) & ~FIELD_END_BIT);
      store<u32>(o, matchLen(start + i), 4);
    }
    if (nearBuf != 0) heap.free(nearBuf);
    nearBuf = 0;
    nearCap = 0;
  }
  hitsReset();
  freeTree(arena);
  return <i32>count;
}

// NEAR hits carry the operand count as their span (what the rankers read); a mark needs the words
// the chain covers (Manticore's m_uMatchlen: first hit to the end of the hit completing it). The
// NEAR nodes' hits with their match lengths, | hitpos | qpos | spanlen | matchlen |, are looked up
// by the root's hits that came from them.
const NEAR_WORDS: u32 = 4;
let nearBuf: usize = 0;
let nearCount: u32 = 0;
let nearCap: u32 = 0;

function pushNear(pos: u32, qpos: u32, span: u32, len: u32): void {
  if (nearCount == nearCap) {
    const cap: u32 = nearCap == 0 ? 64 : nearCap << 1;
    const bytes = <usize>cap * NEAR_WORDS << 2;
    nearBuf = nearBuf == 0 ? heap.alloc(bytes) : heap.realloc(nearBuf, bytes);
    nearCap = cap;
  }
  const o = nearBuf + (<usize>nearCount * NEAR_WORDS << 2);
  store<u32>(o, pos);
  store<u32>(o, qpos, 4);
  store<u32>(o, span, 8);
  store<u32>(o, len, 12);
  nearCount++;
}

/**
 * Match lengths of every NEAR node's hits on `row`, children first. The hit completing a chain:
 * with two operands the next operand hit after the chain's start (FSMmultinear_c restarts the chain
 * at any hit of the starting operand, and after a match keeps the starting operand's node, so
 * `a NEAR b b` also chains b..b); with more, the first place every operand has a hit from the start.
 */
function collectNear(n: usize, row: u32): void {
  if (nget(n, N_OP) == OP_TERM || nget(n, N_DOC) != row) return;
  const k = nget(n, N_NCHILD);
  for (let i: u32 = 0; i < k; i++) collectNear(child(n, i), row);
  if (nget(n, N_OP) != OP_NEAR) return;
  const s = nodeHits(n);
  const len = nget(n, N_HLEN);
  for (let h = s; h < s + len; h++) {
    const p = hitPos(h) & ~FIELD_END_BIT;
    let end: u32 = k == 2 ? 0xffffffff : 0;
    let endLen: u32 = 1;
    let ok = k == 2;
    for (let i: u32 = 0; i < k; i++) {
      const c = child(n, i);
      const j = firstAtOrAfter(c, k == 2 ? p + 1 : p);
      if (j == NO_HIT) {
        if (k != 2) { ok = false; break; }
        continue;
      }
      const q = hitPos(j) & ~FIELD_END_BIT;
      if (k == 2 ? q < end : q > end) { end = q; endLen = hitSpan(j); }
      if (k != 2) ok = true;
    }
    if (end == 0xffffffff) ok = false;
    pushNear(hitPos(h), hitQpos(h), hitSpan(h), ok ? end - p + endLen : hitSpan(h));
  }
}

const NO_HIT: u32 = 0xffffffff;

/** The child's first hit at or after hitpos `p` in p's field, or NO_HIT. */
function firstAtOrAfter(c: usize, p: u32): u32 {
  const cs = nodeHits(c);
  const cl = nget(c, N_HLEN);
  for (let j = cs; j < cs + cl; j++) {
    const q = hitPos(j) & ~FIELD_END_BIT;
    if (q < p) continue;
    return (q >>> 24) == (p >>> 24) ? j : NO_HIT;
  }
  return NO_HIT;
}

/** The words hit `i` covers: a NEAR hit's match length, else its span. */
function matchLen(i: u32): u32 {
  const pos = hitPos(i);
  const q = hitQpos(i);
  const span = hitSpan(i);
  for (let j: u32 = 0; j < nearCount; j++) {
    const o = nearBuf + (<usize>j * NEAR_WORDS << 2);
    if (load<u32>(o) == pos && load<u32>(o, 4) == q && load<u32>(o, 8) == span) return load<u32>(o, 12);
  }
  return span;
}
