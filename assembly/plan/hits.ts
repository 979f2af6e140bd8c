// Hits of a plan node at its current row: what Manticore's GetHits() hands to the ranker.
// Terms give their positions in the queried fields; AND/OR merge children by (hitpos, qpos);
// AND-NOT gives its left side; phrase and proximity give the matches their FSMs emit.

import { TERMINATED } from "../util/codes";
import { cursorPositions, cursorTf } from "../postings/cursor";
import { hitAccepted } from "../postings/merged";
import { OP_TERM, OP_AND, OP_OR, OP_ANDNOT, OP_PHRASE, OP_PROXIMITY, OP_QUORUM, OP_ORDER, OP_MAYBE, OP_NEAR, OP_NOTNEAR, OP_SENTENCE, OP_PARAGRAPH, OP_ZONE } from "./format";
import { orderHits } from "./order";
import { nearHits } from "./near";
import { notNearHits } from "./notnear";
import { unitHits } from "./unit";
import { zoneHits } from "./zone";
import {
  nget, nset, child, N_OP, N_DOC, N_NCHILD, N_CURSOR, N_QPOS, N_FMASK, N_MAXPOS, N_FLAGS, N_ARG0,
  N_HEPOCH, N_HDOC, N_HSTART, N_HLEN,
} from "./node";
import { epoch, hitsLen, hitsMove, pushHit, mergeRuns } from "./hitbuf";
import { scratchAlloc, scratchFree } from "../memory/scratch";
import { phraseFsm, proximityFsm } from "./fsm";

/** True when hitpos `p` satisfies a term's field mask, `@f[N]` limit and `^`/`$` flags. */
@inline export function termAccepts(n: usize, p: u32): bool {
  // masks cover fields 0..31; fields past them are searched only by unlimited terms
  return hitAccepted(p, nget(n, N_FMASK), nget(n, N_MAXPOS), nget(n, N_FLAGS));
}

/** True when the term's current row has at least one acceptable hit. */
export function termRowAccepted(n: usize): bool {
  const c = <usize>nget(n, N_CURSOR);
  const p = cursorPositions(c);
  const tf = cursorTf(c);
  for (let i: u32 = 0; i < tf; i++) {
    if (termAccepts(n, load<u32>(p + (<usize>i << 2)))) return true;
  }
  return false;
}

/** The query position a node's hits carry: a term's own, or its first child's (OR of expansions). */
export function nodeQpos(n: usize): u32 {
  while (nget(n, N_OP) != OP_TERM) {
    if (nget(n, N_NCHILD) == 0) return 0;
    n = child(n, 0);
  }
  return nget(n, N_QPOS);
}

/** Start of the node's hits at its current row; their count is nget(n, N_HLEN). */
export function nodeHits(n: usize): u32 {
  const doc = nget(n, N_DOC);
  if (nget(n, N_HEPOCH) == epoch && nget(n, N_HDOC) == doc) return nget(n, N_HSTART);
  let start = hitsLen();
  let count: u32 = 0;
  const op = nget(n, N_OP);
  if (doc != TERMINATED) {
    if (op == OP_TERM) {
      count = termHits(n);
    } else if (op == OP_AND || op == OP_OR) {
      start = mergeChildren(n, false);
      count = hitsLen() - start;
    } else if (op == OP_ANDNOT) {
      const l = child(n, 0);
      const s = nodeHits(l);
      nset(n, N_HEPOCH, epoch);
      nset(n, N_HDOC, doc);
      nset(n, N_HSTART, s);
      nset(n, N_HLEN, nget(l, N_HLEN));
      return s;
    } else if (op == OP_PHRASE || op == OP_PROXIMITY || op == OP_ORDER || op == OP_NEAR || op == OP_NOTNEAR || op == OP_SENTENCE || op == OP_PARAGRAPH || op == OP_ZONE) {
      start = verifyHits(n);
      count = hitsLen() - start;
    } else if (op == OP_QUORUM || op == OP_MAYBE) {
      start = mergeChildren(n, false);
      count = hitsLen() - start;
    }
  }
  nset(n, N_HEPOCH, epoch);
  nset(n, N_HDOC, doc);
  nset(n, N_HSTART, start);
  nset(n, N_HLEN, count);
  return start;
}

function termHits(n: usize): u32 {
  const c = <usize>nget(n, N_CURSOR);
  const p = cursorPositions(c);
  const tf = cursorTf(c);
  const q = nget(n, N_QPOS);
  let count: u32 = 0;
  for (let i: u32 = 0; i < tf; i++) {
    const h = load<u32>(p + (<usize>i << 2));
    if (termAccepts(n, h)) {
      pushHit(h, q, 1, 1);
      count++;
    }
  }
  return count;
}

/**
 * Merges the hits of the children on the node's row; returns the start of the merged run (at the
 * buffer's end). Runs are merged pairwise in rounds (a balanced, stable merge: the same order as
 * folding them left to right), so k children cost O(hits * log k) and the scratch runs are given
 * back: folding one by one copied the growing run k times, quadratic in k.
 */
function mergeChildren(n: usize, qposDesc: bool): u32 {
  const doc = nget(n, N_DOC);
  const k = nget(n, N_NCHILD);
  const runs = scratchAlloc(<usize>(k > 0 ? k : <u32>1) << 3);
  let m: u32 = 0;
  for (let i: u32 = 0; i < k; i++) {
    const c = child(n, i);
    if (nget(c, N_DOC) != doc) continue; // OR: only children on this row
    const s = nodeHits(c);
    store<u32>(runs + (<usize>m << 3), s);
    store<u32>(runs + (<usize>m << 3), nget(c, N_HLEN), 4);
    m++;
  }
  if (m == 0) { scratchFree(runs); return hitsLen(); }
  // hand back a run that ends at the buffer's end, so count = hitsLen() - start holds
  const scratch = hitsLen();
  if (m == 1) {
    const s = load<u32>(runs);
    const l = load<u32>(runs, 4);
    scratchFree(runs);
    return s + l == scratch ? s : mergeRuns(s, l, 0, 0, qposDesc);
  }
  while (m > 1) {
    let w: u32 = 0;
    for (let i: u32 = 0; i < m; i += 2) {
      const a = runs + (<usize>i << 3);
      let s = load<u32>(a);
      let l = load<u32>(a, 4);
      if (i + 1 < m) {
        s = mergeRuns(s, l, load<u32>(a, 8), load<u32>(a, 12), qposDesc);
        l = hitsLen() - s;
      }
      store<u32>(runs + (<usize>w << 3), s);
      store<u32>(runs + (<usize>w << 3), l, 4);
      w++;
    }
    m = w;
  }
  const s = load<u32>(runs);
  const l = load<u32>(runs, 4);
  scratchFree(runs);
  return compactRun(scratch, s, l);
}

/** Moves run [s, s+l) down to `to` (dropping the scratch runs between) and makes it the buffer's end. */
function compactRun(to: u32, s: u32, l: u32): u32 {
  if (s == to) return s;
  hitsMove(to, s, l);
  return to;
}

/** Hits of a node whose match depends on positions (phrase, proximity, order); none = no match. */
export function verifyHits(n: usize): u32 {
  if (nget(n, N_OP) == OP_ORDER) return orderHits(n, nodeHits);
  if (nget(n, N_OP) == OP_NEAR) return nearHits(n, nodeHits);
  if (nget(n, N_OP) == OP_NOTNEAR) return notNearHits(n, nodeHits);
  if (nget(n, N_OP) == OP_SENTENCE || nget(n, N_OP) == OP_PARAGRAPH) return unitHits(n, nodeHits);
  if (nget(n, N_OP) == OP_ZONE) return zoneHits(n, nodeHits);
  return fsmHits(n);
}

/** Runs the node's FSM over its children's merged hits (hitpos asc, qpos desc). */
function fsmHits(n: usize): u32 {
  const k = nget(n, N_NCHILD);
  const merged = mergeChildren(n, true);
  const mergedLen = hitsLen() - merged;
  const atoms = scratchAlloc(<usize>k << 2);
  for (let i: u32 = 0; i < k; i++) store<u32>(atoms + (<usize>i << 2), nodeQpos(child(n, i)));
  const out = hitsLen();
  if (nget(n, N_OP) == OP_PHRASE) phraseFsm(merged, mergedLen, atoms, k);
  else proximityFsm(merged, mergedLen, atoms, k, <i32>nget(n, N_ARG0));
  scratchFree(atoms);
  return out;
}
