// Document matching: next(node, target) puts a node on its first fully matching row >= target.
// AND leapfrogs from its cheapest child (children are ordered by cost at setup), OR takes the
// minimum, AND-NOT rejects rows its right side matches, phrase/proximity verify positions.

import { TERMINATED } from "../util/codes";
import { cursorSeek, cursorAdvance, cursorCost, cursorPositions, cursorTf } from "../postings/cursor";
import { mergedSeek } from "../postings/merged";
import { OP_TERM, OP_AND, OP_OR, OP_ANDNOT, OP_PHRASE, OP_PROXIMITY, OP_QUORUM, OP_ALL, OP_ORDER, OP_MAYBE, OP_NEAR, OP_NOTNEAR, OP_SENTENCE, OP_PARAGRAPH, OP_ZONE } from "./format";
import { nget, nset, child, N_OP, N_DOC, N_NCHILD, N_CURSOR, N_CONSTRAINED, N_HLEN, N_ARG0, N_ARG1, N_COST, N_CHILDREN, N_COUNT, N_MERGED, N_GUIDE, N_GUIDE_EXACT, N_CONSTRAINED, N_PDOC, N_PFIELDS, NOT_STARTED } from "./node";
import { termRowAccepted, verifyHits, nodeHits } from "./hits";
import { hitsLen, hitsRollback } from "./hitbuf";
import { simplePhrase } from "./prune";
import { hitFields16 } from "./block-bounds";
import { phraseMatch } from "./phrase-match";

/** Phrases of plain terms decided by phraseMatch() (no repeated keyword, not exhaustive). */
let phraseFast: bool = false;
/** phraseMatch() looks for every field the phrase occurs in (the pruning bound uses them). */
let phraseFields: bool = false;
export function setPhraseMode(fast: bool, allFields: bool): void {
  phraseFast = fast;
  phraseFields = allFields;
}

/** Rows in the segment being evaluated (for OP_ALL). */
export let segmentRows: u32 = 0;
export function setSegmentRows(n: u32): void {
  segmentRows = n;
}

export function next(n: usize, target: u32): u32 {
  const cur = nget(n, N_DOC);
  if (cur != NOT_STARTED && cur >= target) return cur;
  const op = nget(n, N_OP);
  let d: u32 = TERMINATED;
  if (op == OP_TERM) d = termNext(n, target);
  else if (op == OP_AND) d = andNext(n, target);
  else if (op == OP_OR) d = orNext(n, target);
  else if (op == OP_ANDNOT) d = andNotNext(n, target);
  else if (op == OP_PHRASE || op == OP_PROXIMITY || op == OP_ORDER || op == OP_NEAR) d = fsmNext(n, target);
  else if (op == OP_MAYBE) d = maybeNext(n, target);
  else if (op == OP_NOTNEAR) d = notNearNext(n, target);
  else if (op == OP_SENTENCE || op == OP_PARAGRAPH) d = unitNext(n, target);
  else if (op == OP_ZONE) d = zoneNext(n, target);
  else if (op == OP_QUORUM) d = quorumNext(n, target);
  else if (op == OP_ALL) d = target < segmentRows ? target : TERMINATED;
  nset(n, N_DOC, d);
  return d;
}

function termNext(n: usize, target: u32): u32 {
  const c = <usize>nget(n, N_CURSOR);
  if (c == 0) return TERMINATED;
  // a merged list holds only rows within the term's limits already
  if (nget(n, N_MERGED) != 0) return mergedSeek(c, target);
  let d = cursorSeek(c, target);
  if (nget(n, N_CONSTRAINED) == 0) return d;
  while (d != TERMINATED && !termRowAccepted(n)) d = cursorAdvance(c);
  return d;
}

function andNext(n: usize, target: u32): u32 {
  const k = nget(n, N_NCHILD);
  let d = target;
  while (true) {
    d = next(child(n, 0), d);
    if (d == TERMINATED) return d;
    let agreed = true;
    for (let i: u32 = 1; i < k; i++) {
      const di = next(child(n, i), d);
      if (di != d) {
        d = di;
        agreed = false;
        break;
      }
    }
    if (agreed) return d;
    if (d == TERMINATED) return d;
  }
}

function orNext(n: usize, target: u32): u32 {
  const k = nget(n, N_NCHILD);
  let best = TERMINATED;
  for (let i: u32 = 0; i < k; i++) {
    const d = next(child(n, i), target);
    if (d < best) best = d;
  }
  return best;
}

function andNotNext(n: usize, target: u32): u32 {
  const left = child(n, 0);
  const right = child(n, 1);
  let d = target;
  while (true) {
    d = next(left, d);
    if (d == TERMINATED) return d;
    if (next(right, d) != d) return d;
    d++;
  }
}

/**
 * Phrase/proximity: AND of the children, then the FSM must emit at least one hit. A phrase of plain
 * terms is decided by phraseMatch() instead (positions only of rows where every term is, first
 * occurrence ends the look); its hits are made by the FSM only if the row is ranked.
 */
function fsmNext(n: usize, target: u32): u32 {
  let d = target;
  const fast = phraseFast && simplePhrase(n);
  const guide = <usize>nget(n, N_GUIDE);
  const exact = fast && exactGuide(n);
  while (true) {
    if (guide != 0) {
      // only rows where the guide's two words stand side by side can hold the phrase
      const g = cursorSeek(guide, d);
      if (g == TERMINATED) return g;
      d = andNext(n, g);
      if (d == TERMINATED) return d;
      if (d != g) continue;
    } else {
      d = andNext(n, d);
      if (d == TERMINATED) return d;
    }
    if (fast) {
      if (exact) return guideFields(n, guide, d);
      const r = phraseMatch(n, d, phraseFields);
      if (r > 0) return d;
      if (r == 0) {
        d++;
        continue;
      }
    }
    nset(n, N_DOC, d);
    const mark = hitsLen();
    const start = verifyHits(n);
    if (hitsLen() > start) {
      nset(n, N_HLEN, 0); // cache is set by nodeHits on demand
      hitsRollback(mark);
      return d;
    }
    hitsRollback(mark);
    d++;
  }
}

/**
 * A phrase of just its guide's two words, neither limited: a row of the guide holds it (decided
 * without the words' positions when phraseMatch() would decide it: setPhraseMode's fast mode).
 */
export function exactGuide(n: usize): bool {
  return phraseFast && nget(n, N_OP) == OP_PHRASE && nget(n, N_GUIDE) != 0 && nget(n, N_GUIDE_EXACT) != 0
    && nget(n, N_NCHILD) == 2 && simplePhrase(n)
    && nget(child(n, 0), N_CONSTRAINED) == 0 && nget(child(n, 1), N_CONSTRAINED) == 0;
}

/**
 * An exact guide's row d: the phrase's fields there are its pair's (one hit per occurrence), recorded
 * as phraseMatch() records what it found when the pruning bound asks for every field; returns d.
 */
function guideFields(n: usize, guide: usize, d: u32): u32 {
  if (!phraseFields) {
    nset(n, N_PDOC, TERMINATED);
    return d;
  }
  const found = hitFields16(cursorPositions(guide), cursorTf(guide));
  nset(n, N_PDOC, d);
  nset(n, N_PFIELDS, found);
  return d;
}

/**
 * True when node `n` keeps at least one hit on row `d` after its own checks (NOTNEAR, SENTENCE /
 * PARAGRAPH, ZONE); the hit buffer is left as it was.
 */
function verifiedAt(n: usize, d: u32): bool {
  nset(n, N_DOC, d);
  const mark = hitsLen();
  const start = verifyHits(n);
  const ok = hitsLen() > start;
  nset(n, N_HLEN, 0);
  hitsRollback(mark);
  return ok;
}

/** NOTNEAR: left rows without the right operand, or with a left hit far enough from every right hit. */
function notNearNext(n: usize, target: u32): u32 {
  let d = target;
  while (true) {
    d = next(child(n, 0), d);
    if (d == TERMINATED) return d;
    if (next(child(n, 1), d) != d) return d;
    if (verifiedAt(n, d)) return d;
    d++;
  }
}

/** SENTENCE / PARAGRAPH: both operands on the row (child 2, the boundary term, only filters). */
function unitNext(n: usize, target: u32): u32 {
  let d = target;
  while (true) {
    d = next(child(n, 0), d);
    if (d == TERMINATED) return d;
    const d2 = next(child(n, 1), d);
    if (d2 != d) {
      d = d2;
      if (d == TERMINATED) return d;
      continue;
    }
    next(child(n, 2), d);
    if (verifiedAt(n, d)) return d;
    d++;
  }
}

/** ZONE: the guarded child's rows with at least one hit inside a listed zone's span. */
function zoneNext(n: usize, target: u32): u32 {
  const k = nget(n, N_NCHILD);
  let d = target;
  while (true) {
    d = next(child(n, 0), d);
    if (d == TERMINATED) return d;
    for (let i: u32 = 1; i < k; i++) next(child(n, i), d);
    if (verifiedAt(n, d)) return d;
    d++;
  }
}

/** MAYBE: the left child decides the row; the right one is positioned to add weight. */
function maybeNext(n: usize, target: u32): u32 {
  const d = next(child(n, 0), target);
  if (d != TERMINATED) next(child(n, 1), d);
  return d;
}

/**
 * Quorum, as ExtQuorum_c: children are distinct keywords with counts (repeats); a row needs the
 * counts of its children to reach arg0, and with repeats (arg1) as many hits, each child giving
 * at most its count.
 */
function quorumNext(n: usize, target: u32): u32 {
  const k = nget(n, N_NCHILD);
  const need = nget(n, N_ARG0);
  let d = target;
  while (true) {
    let best = TERMINATED;
    for (let i: u32 = 0; i < k; i++) {
      const di = next(child(n, i), d);
      if (di < best) best = di;
    }
    if (best == TERMINATED) return best;
    let have: u32 = 0;
    for (let i: u32 = 0; i < k; i++) {
      const c = child(n, i);
      if (nget(c, N_DOC) == best) have += nget(c, N_COUNT);
    }
    if (have >= need) {
      if (nget(n, N_ARG1) == 0) return best;
      const mark = hitsLen();
      const ok = quorumHits(n, best, need);
      hitsRollback(mark);
      if (ok) return best;
    }
    d = best + 1;
  }
}

/** With repeated keywords: hits on the row, at most `count` per child, must reach the threshold. */
function quorumHits(n: usize, row: u32, need: u32): bool {
  const k = nget(n, N_NCHILD);
  let got: u32 = 0;
  for (let i: u32 = 0; i < k && got < need; i++) {
    const c = child(n, i);
    if (nget(c, N_DOC) != row) continue;
    nodeHits(c);
    const h = nget(c, N_HLEN);
    const cnt = nget(c, N_COUNT);
    got += h < cnt ? h : cnt;
  }
  return got >= need;
}

/**
 * Stable sort of `k` child pointers at `kids` by their cost: insertion sort for a few, else a
 * bottom-up merge sort (a query of thousands of words made insertion sort quadratic).
 */
function sortKidsByCost(kids: usize, k: u32): void {
  if (k <= 16) {
    for (let i: u32 = 1; i < k; i++) {
      const p = load<u32>(kids + (<usize>i << 2));
      const pc = nget(<usize>p, N_COST);
      let j = <i32>i - 1;
      while (j >= 0 && nget(<usize>load<u32>(kids + (<usize>j << 2)), N_COST) > pc) {
        store<u32>(kids + (<usize>(j + 1) << 2), load<u32>(kids + (<usize>j << 2)));
        j--;
      }
      store<u32>(kids + (<usize>(j + 1) << 2), p);
    }
    return;
  }
  let src = kids;
  let dst = heap.alloc(<usize>k << 2);
  const tmp = dst;
  for (let w: u32 = 1; w < k; w <<= 1) {
    for (let lo: u32 = 0; lo < k; lo += w << 1) {
      const mid = min(lo + w, k);
      const hi = min(lo + (w << 1), k);
      let i = lo;
      let j = mid;
      let o = lo;
      while (i < mid && j < hi) {
        const a = load<u32>(src + (<usize>i << 2));
        const b = load<u32>(src + (<usize>j << 2));
        // ties keep the left run first: stable, as the insertion sort was
        if (nget(<usize>b, N_COST) < nget(<usize>a, N_COST)) { store<u32>(dst + (<usize>o << 2), b); j++; } else { store<u32>(dst + (<usize>o << 2), a); i++; }
        o++;
      }
      while (i < mid) { store<u32>(dst + (<usize>o << 2), load<u32>(src + (<usize>i << 2))); i++; o++; }
      while (j < hi) { store<u32>(dst + (<usize>o << 2), load<u32>(src + (<usize>j << 2))); j++; o++; }
    }
    const t = src; src = dst; dst = t;
  }
  if (src != kids) memory.copy(kids, src, <usize>k << 2);
  heap.free(tmp);
}

/** Orders AND children by cost (document frequency) so the cheapest drives; recursive. */
export function sortByCost(n: usize): u32 {
  const op = nget(n, N_OP);
  if (op == OP_TERM) return nget(n, N_COST);
  const k = nget(n, N_NCHILD);
  const kids = <usize>nget(n, N_CHILDREN);
  let total: u32 = 0;
  let minCost: u32 = 0xffffffff;
  for (let i: u32 = 0; i < k; i++) {
    const c = sortByCost(child(n, i));
    total += c;
    if (c < minCost) minCost = c;
  }
  if (op == OP_AND) sortKidsByCost(kids, k);
  let cost = op == OP_AND || op == OP_PHRASE || op == OP_PROXIMITY || op == OP_NEAR ? minCost : total;
  const guide = <usize>nget(n, N_GUIDE);
  if (op == OP_PHRASE && guide != 0 && cursorCost(guide) < cost) cost = cursorCost(guide);
  if (op == OP_SENTENCE || op == OP_PARAGRAPH) {
    const c0 = nget(child(n, 0), N_COST);
    const c1 = nget(child(n, 1), N_COST);
    cost = c0 < c1 ? c0 : c1;
  }
  if (op == OP_ANDNOT || op == OP_NOTNEAR || op == OP_ZONE) cost = nget(child(n, 0), N_COST);
  if (op == OP_ALL) cost = segmentRows;
  nset(n, N_COST, cost);
  return cost;
}

export { nodeHits };
