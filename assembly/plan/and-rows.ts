// An AND of plain terms under top-K pruning (plan/prune.ts): runs of its rows whose weight bound
// cannot enter the top-K are counted in one tight loop over the terms' cursors, without the
// generic matcher's per-row dispatch (next(), filters, the bound's tree walk). A mid-frequency word
// ANDed with a common one matches a few percent of the table, nearly all of it below the K-th
// weight: that loop is where such a query spends its time.

import { TERMINATED } from "../util/codes";
import { cursorSeek, cursorRow, cursorTf } from "../postings/cursor";
import { OP_AND } from "./format";
import { nget, nset, child, N_OP, N_DOC, N_NCHILD, N_CURSOR, N_IDF, N_CONSTRAINED } from "./node";
import { plainTerm, termBm25, termFieldPart, weightBound } from "./prune";

/** Children an AND may have for andRows() (its bound is a sum over them, as rowBound's). */
const AND_ROWS_KIDS: u32 = 64;

/** An AND whose children are all plain unlimited terms with postings here: andRows() can count it. */
export function plainAnd(n: usize): bool {
  if (nget(n, N_OP) != OP_AND) return false;
  const k = nget(n, N_NCHILD);
  for (let i: u32 = 0; i < k; i++) {
    const c = child(n, i);
    if (!plainTerm(c) || nget(c, N_CURSOR) == 0 || nget(c, N_CONSTRAINED) != 0) return false;
  }
  return k > 0 && k <= AND_ROWS_KIDS;
}

/** The first row >= target every child's cursor is on (leapfrog from child 0, the cheapest). */
function leapfrog(n: usize, k: u32, target: u32): u32 {
  let d = target;
  while (true) {
    d = cursorSeek(<usize>nget(child(n, 0), N_CURSOR), d);
    if (d == TERMINATED) return d;
    let agreed = true;
    for (let i: u32 = 1; i < k; i++) {
      const di = cursorSeek(<usize>nget(child(n, i), N_CURSOR), d);
      if (di != d) {
        d = di;
        agreed = false;
        break;
      }
    }
    if (agreed || d == TERMINATED) return d;
  }
}

/**
 * A plainAnd() node standing on a row: counts its rows from that one while the bound of each
 * (rowBound()'s, the same f32 sums in the same order) cannot beat `worst`, those set in `deleted`
 * left out, up to `end`. The node then stands on the first row it did not count. Returns the count.
 */
export function andRows(n: usize, deleted: usize, end: u32, worst: i32): u32 {
  const k = nget(n, N_NCHILD);
  let count: u32 = 0;
  let r: u32 = nget(n, N_DOC);
  while (r < end) {
    let sum: f32 = 0;
    let fields: i32 = 0;
    for (let i: u32 = 0; i < k; i++) {
      const t = child(n, i);
      const tf = cursorTf(<usize>nget(t, N_CURSOR));
      sum += termBm25(tf, reinterpret<f32>(nget(t, N_IDF)));
      fields += termFieldPart(t, tf);
    }
    if (weightBound(sum, fields) > worst) break;
    if (deleted == 0 || ((load<u8>(deleted + (r >>> 3)) >>> (r & 7)) & 1) == 0) count++;
    r = leapfrog(n, k, r + 1);
  }
  for (let i: u32 = 0; i < k; i++) {
    const t = child(n, i);
    nset(t, N_DOC, cursorRow(<usize>nget(t, N_CURSOR)));
  }
  nset(n, N_DOC, r);
  return count;
}
