// Node records: the plan tree unpacked into fixed-size structs (one arena per evaluate call).
//
// | 0 op | 4 doc | 8 nChildren | 12 children (ptr to u32 node ptrs) | 16 cursor | 20 qpos |
// | 24 fieldMask | 28 maxPos | 32 flags | 36 idf f32 | 40 arg0 | 44 hitsEpoch | 48 hitsDoc |
// | 52 hitsStart | 56 hitsLen | 60 cost | 64 arg1 | 68 constrained | 72 count | 76 merged |
// | 80 pfields | 84 pdoc | 88 wblock | 92 wpop | 96 tw1 | 100 tw2 | 104 twall | 108 guide | 112 guideExact |
// | 116 term | 120 repeat | 124 steps |
// pfields: the fields (16-bit set, plan/prune.ts) where a phrase was found on row pdoc.
// wblock..twall: a plain term's field parts of its bound on block wblock - 1 (plan/prune.ts).
// guide: a phrase's cursor over a pair term (two of its words adjacent, plan arg2 = term + 1), 0 = none;
// a term's under a steps AND: the pair of its word and the next query position's (prune.ts pairedPart);
// guideExact = 1 (arg2's top bit): the phrase is just that pair, so the pair's rows are its rows.
// merged = 1: a term whose cursor is a merged list of a wildcard's expansions (postings/merged.ts).
// doc is NOT_STARTED before the first next(), then the current matching row or TERMINATED.

import { TERMINATED } from "../util/codes";
import { CURSOR_BYTES, cursorInit, cursorCost } from "../postings/cursor";
import { MERGED_BYTES, mergedInit, releaseMerged, setMergeLimits } from "../postings/merged";
import { hdr, H_ROWS } from "../segment/layout";
import { OP_TERM, OP_AND, OP_OR, OP_ALL, OP_ZONE, OP_PHRASE, OR_MERGED_LIST, TERM_WORDS, INNER_WORDS, NO_TERM, P_FLAGS, PF_EXHAUSTIVE, pword } from "./format";

/**
 * Any size: the arena's size (arenaBytes) and its bump allocator (take) both round each block with
 * block(), and take() traps rather than write past the arena (120 once overran it with a sum of raw
 * sizes: every query of 100k gcide failed "out of memory in the search core").
 */
export const NODE_BYTES: usize = 128;
export const NOT_STARTED: u32 = 0xffffffff;

export const N_OP: usize = 0;
export const N_DOC: usize = 4;
export const N_NCHILD: usize = 8;
export const N_CHILDREN: usize = 12;
export const N_CURSOR: usize = 16;
export const N_QPOS: usize = 20;
export const N_FMASK: usize = 24;
export const N_MAXPOS: usize = 28;
export const N_FLAGS: usize = 32;
export const N_IDF: usize = 36;
export const N_ARG0: usize = 40;
export const N_HEPOCH: usize = 44;
export const N_HDOC: usize = 48;
export const N_HSTART: usize = 52;
export const N_HLEN: usize = 56;
export const N_COST: usize = 60;
export const N_ARG1: usize = 64;
export const N_CONSTRAINED: usize = 68;
/** Occurrences of the keyword this term stands for (quorum merges repeats into one child). */
export const N_COUNT: usize = 72;
/** 1 when the term's cursor is a merged list (postings/merged.ts), 0 for a plain cursor. */
export const N_MERGED: usize = 76;
/** A phrase's fields on row N_PDOC as phraseMatch() found them (plan/prune.ts). */
export const N_PFIELDS: usize = 80;
export const N_PDOC: usize = 84;
/** The block (plus one; 0 = none) whose field parts a plain term's bound caches (plan/prune.ts). */
export const N_WBLOCK: usize = 88;
/** That block's field count, and the field part for tf 1, tf 2 and tf >= the count. */
export const N_WPOP: usize = 92;
export const N_TW1: usize = 96;
export const N_TW2: usize = 100;
export const N_TWALL: usize = 104;
/**
 * A phrase's guide: a cursor over the segment's pair term of two adjacent words of the phrase (the
 * rows where they stand side by side, segment-pairs.ts on the host), so only those rows are checked.
 * A term's under a steps AND (N_STEPS): a cursor over the pair of its word and the next query position's.
 */
export const N_GUIDE: usize = 108;
/** The guide's pair is the whole phrase (plan arg2's GUIDE_EXACT bit): its rows and hits decide it. */
export const N_GUIDE_EXACT: usize = 112;
export const GUIDE_EXACT: u32 = 0x80000000;
/** A plain term's term number plus one (0: none), to find a keyword's repeats (plan/prune.ts). */
export const N_TERM: usize = 116;
/** Earlier unconstrained siblings under the same AND with this term (plan/prune.ts repeatRanks). */
export const N_REPEAT: usize = 120;
/** An AND's plan arg2: 1 when its children are plain words carrying pair cursors (plan/prune.ts pairedPart). */
export const N_STEPS: usize = 124;

@inline export function nget(n: usize, f: usize): u32 {
  return load<u32>(n + f);
}
@inline export function nset(n: usize, f: usize, v: u32): void {
  store<u32>(n + f, v);
}
@inline export function child(n: usize, i: u32): usize {
  return <usize>load<u32>(<usize>load<u32>(n + N_CHILDREN) + (<usize>i << 2));
}

/** Bytes of arena the subtree at plan word `at` needs (nodes, child arrays, cursors). */
export function arenaBytes(plan: usize, at: u32): usize {
  const op = pword(plan, at);
  // a term's own cursor, and one over its pair with the next word (an AND's pruning bound) when given
  if (op == OP_TERM) return block(NODE_BYTES) + block(CURSOR_BYTES) + (pword(plan, at + 9) != 0 ? block(CURSOR_BYTES) : 0);
  // a merged list: one node, its cursor and a cursor to read each expansion with
  if (isMergedList(plan, at)) return block(NODE_BYTES) + block(MERGED_BYTES) + block(CURSOR_BYTES);
  const n: u32 = op == OP_ALL ? 0 : pword(plan, at + 2);
  let bytes = block(NODE_BYTES) + block(<usize>n << 2);
  if (op == OP_PHRASE && pword(plan, at + 5) != 0) bytes += block(CURSOR_BYTES);
  let c = at + INNER_WORDS;
  for (let i: u32 = 0; i < n; i++) {
    bytes += arenaBytes(plan, c);
    c += pword(plan, c + 1);
  }
  return bytes;
}

/** The arena bytes one block of `bytes` takes: the one rounding rule of arenaBytes and take. */
@inline function block(bytes: usize): usize {
  return (bytes + 15) & ~15;
}

/** Bump allocator over the arena; every block stays 16-aligned and inside the arena. */
let bump: usize = 0;
let bumpEnd: usize = 0;
function take(bytes: usize): usize {
  const p = bump;
  bump += block(bytes);
  // a size rule out of step with arenaBytes: fail this query, never overwrite the heap after it
  if (bump > bumpEnd) unreachable();
  return p;
}

/** An OR of a wildcard's expansions the host asked to merge into one list (OR_MERGED_LIST). */
function isMergedList(plan: usize, at: u32): bool {
  return pword(plan, at) == OP_OR && pword(plan, at + 3) == OR_MERGED_LIST && pword(plan, at + 2) > 0;
}

/**
 * Unpacks the plan tree into node records in `arena` (`bytes` long, arenaBytes(plan, at)); release
 * it with freeTree(arena).
 */
export function buildTree(plan: usize, at: u32, arena: usize, bytes: usize, blob: usize, allFields: u32): usize {
  bump = arena;
  bumpEnd = arena + bytes;
  shareRepeats = (pword(plan, P_FLAGS) & PF_EXHAUSTIVE) == 0;
  return build(plan, at, blob, allFields);
}

/** Repeated keywords of one AND read one cursor (shareRepeatCursors); not in the exhaustive evaluation, the oracle. */
let shareRepeats: bool = false;

/**
 * An AND's children that are the same plain, unlimited term ("see others see") move through the same
 * rows: each repeat takes the first one's cursor instead of decoding the same blocks, tfs and positions
 * again (it keeps its own node: query position, idf 0, hits for the ranker). Safe because an AND asks its
 * children for rows in ascending order only (andNext, leapfrog), so a shared cursor is never behind a row a
 * repeat stands on, and both accept the same rows; a limited term (field, position, start/end) does not share.
 */
function shareRepeatCursors(kids: usize, count: u32): void {
  for (let i: u32 = 1; i < count; i++) {
    const c = <usize>load<u32>(kids + (<usize>i << 2));
    if (!unlimitedTerm(c)) continue;
    for (let j: u32 = 0; j < i; j++) {
      const e = <usize>load<u32>(kids + (<usize>j << 2));
      if (unlimitedTerm(e) && nget(e, N_TERM) == nget(c, N_TERM)) {
        nset(c, N_CURSOR, nget(e, N_CURSOR));
        break;
      }
    }
  }
}

/** A term node over its own postings here (not a merged list), without field or position limits. */
function unlimitedTerm(n: usize): bool {
  return nget(n, N_OP) == OP_TERM && nget(n, N_MERGED) == 0 && nget(n, N_CURSOR) != 0 && nget(n, N_CONSTRAINED) == 0;
}

/** Frees a tree's arena and the merged expansion lists its cursors read, as soon as the call ends. */
export function freeTree(arena: usize): void {
  heap.free(arena);
  releaseMerged();
}

/** A term node's fields from the TERM words at `at`; returns its term number. */
function termFields(n: usize, plan: usize, at: u32, allFields: u32): u32 {
  nset(n, N_QPOS, pword(plan, at + 3));
  const mask = pword(plan, at + 4) & allFields;
  nset(n, N_FMASK, mask);
  nset(n, N_MAXPOS, pword(plan, at + 5));
  nset(n, N_FLAGS, pword(plan, at + 6));
  nset(n, N_IDF, pword(plan, at + 7));
  const count = pword(plan, at + 8);
  nset(n, N_COUNT, count == 0 ? 1 : count);
  const constrained = mask != allFields || pword(plan, at + 5) != 0 || (pword(plan, at + 6) & 3) != 0;
  nset(n, N_CONSTRAINED, constrained ? 1 : 0);
  return mask == 0 ? NO_TERM : pword(plan, at + 2);
}

/** A term with no postings here: never matches. */
function emptyTerm(n: usize): usize {
  nset(n, N_CURSOR, 0);
  nset(n, N_DOC, TERMINATED);
  nset(n, N_COST, 0);
  return n;
}

/**
 * OR_MERGED_LIST: one term node (the first expansion's qpos, mask, flags and idf) whose cursor
 * is the merged list of every expansion. Its count stays 1, as the OR it replaces.
 */
function buildMerged(n: usize, plan: usize, at: u32, blob: usize, allFields: u32): usize {
  nset(n, N_OP, OP_TERM);
  const k = pword(plan, at + 2);
  const first = at + INNER_WORDS;
  termFields(n, plan, first, allFields);
  nset(n, N_COUNT, 1);
  const m = take(MERGED_BYTES);
  const tmp = take(CURSOR_BYTES);
  const terms = heap.alloc(<usize>k << 2);
  let len: u32 = 0;
  let c = first;
  for (let i: u32 = 0; i < k; i++) {
    const t = pword(plan, c + 2);
    if (pword(plan, c) == OP_TERM && t != NO_TERM) {
      store<u32>(terms + (<usize>len << 2), t);
      len++;
    }
    c += pword(plan, c + 1);
  }
  if (nget(n, N_FMASK) == 0 || len == 0) {
    heap.free(terms);
    return emptyTerm(n);
  }
  setMergeLimits(nget(n, N_CONSTRAINED) != 0, nget(n, N_FMASK), nget(n, N_MAXPOS), nget(n, N_FLAGS));
  mergedInit(m, tmp, blob, hdr(blob, H_ROWS), terms, len);
  heap.free(terms);
  nset(n, N_CURSOR, <u32>m);
  nset(n, N_MERGED, 1);
  nset(n, N_COST, cursorCost(m));
  return n;
}

function build(plan: usize, at: u32, blob: usize, allFields: u32): usize {
  const n = take(NODE_BYTES);
  memory.fill(n, 0, NODE_BYTES);
  const op = pword(plan, at);
  nset(n, N_OP, op);
  nset(n, N_DOC, NOT_STARTED);
  nset(n, N_HEPOCH, 0xffffffff);
  nset(n, N_PDOC, TERMINATED);
  if (isMergedList(plan, at)) return buildMerged(n, plan, at, blob, allFields);
  if (op == OP_TERM) {
    const c = take(CURSOR_BYTES);
    const termId = termFields(n, plan, at, allFields);
    if (termId == NO_TERM) return emptyTerm(n);
    nset(n, N_TERM, termId + 1);
    nset(n, N_CURSOR, <u32>c);
    cursorInit(c, blob, termId);
    nset(n, N_COST, cursorCost(c));
    const pair = pword(plan, at + 9);
    if (pair != 0) {
      const g = take(CURSOR_BYTES);
      cursorInit(g, blob, pair - 1);
      nset(n, N_GUIDE, <u32>g);
    }
    return n;
  }
  const count: u32 = op == OP_ALL ? 0 : pword(plan, at + 2);
  nset(n, N_NCHILD, count);
  nset(n, N_COUNT, 1);
  nset(n, N_ARG0, pword(plan, at + 3));
  nset(n, N_ARG1, pword(plan, at + 4));
  const kids = take(<usize>count << 2);
  nset(n, N_CHILDREN, <u32>kids);
  let c = at + INNER_WORDS;
  for (let i: u32 = 0; i < count; i++) {
    store<u32>(kids + (<usize>i << 2), <u32>build(plan, c, blob, allFields));
    c += pword(plan, c + 1);
  }
  if (op == OP_AND && shareRepeats) shareRepeatCursors(kids, count);
  const guide = pword(plan, at + 5);
  if (op == OP_AND) nset(n, N_STEPS, guide != 0 ? 1 : 0);
  if (op == OP_PHRASE && guide != 0) {
    const g = take(CURSOR_BYTES);
    cursorInit(g, blob, (guide & ~GUIDE_EXACT) - 1);
    nset(n, N_GUIDE, <u32>g);
    nset(n, N_GUIDE_EXACT, (guide & GUIDE_EXACT) != 0 ? 1 : 0);
  }
  return n;
}

/** Validates the subtree at `at` fits in `end` words and uses known opcodes; returns its size or 0. */
export function checkTree(plan: usize, at: u32, end: u32, depth: i32): u32 {
  if (depth > 64 || at + 2 > end) return 0;
  const op = pword(plan, at);
  const size = pword(plan, at + 1);
  if (size < 2 || at + size > end) return 0;
  if (op == OP_TERM) return size == TERM_WORDS ? size : 0;
  if (op < OP_AND || op > OP_ZONE || size < INNER_WORDS) return 0;
  if (op == OP_ALL) return size;
  const count = pword(plan, at + 2);
  let c = at + INNER_WORDS;
  for (let i: u32 = 0; i < count; i++) {
    const s = checkTree(plan, c, at + size, depth + 1);
    if (s == 0) return 0;
    c += s;
  }
  return c == at + size ? size : 0;
}
