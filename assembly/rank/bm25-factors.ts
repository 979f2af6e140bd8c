// bm25a(k1, b) and bm25f(k1, b, {field=weight}) of the expression ranker, as Manticore's
// RankerState_Expr_fn::FinalizeDocFactors and Expr_BM25F_T (src/sphinxsearch.cpp). Document and
// field lengths exist only on tables with index_field_lengths=1; without them the length terms
// vanish (bm25a) or every field is skipped (bm25f), as in Manticore.

import { XF_FIELDS, XF_QPOS, qposIdf } from "./factor-query";
import { columnPtr } from "../segment/layout";

/** Per query position: hits counted on the row; per field and position for bm25f. */
export const qposTf = new StaticArray<u32>(XF_QPOS);
export const fieldTf = new StaticArray<u32>(XF_FIELDS * XF_QPOS);

/** The row's field lengths (tokens), and their sum. */
const fieldLen = new StaticArray<i32>(XF_FIELDS);
let docLen: f32 = 0;
/** Table-wide: average document length, and per field the truncated integer average. */
let avgDocLen: f32 = 1;
const avgFieldLen = new StaticArray<f32>(XF_FIELDS);
/** Per field: the core column of its `<field>_len` token count. */
const lenCol = new StaticArray<u32>(XF_FIELDS);
let hasLens = false;
let keywords: u32 = 0;
let tableFields: u32 = XF_FIELDS;
let maxQpos: i32 = 0;

/**
 * Per query: `kwMask` the positions Manticore does not skip (IsTermSkipped); `lens` whether the
 * table has field lengths, with their averages at `avgAt` (f32 bits: document, then each field),
 * followed by each field's length column.
 */
export function bm25Query(kwMask: u32, maxQ: i32, lens: bool, avgAt: usize, numFields: u32): void {
  keywords = kwMask;
  maxQpos = maxQ;
  hasLens = lens;
  tableFields = min(numFields, XF_FIELDS);
  avgDocLen = lens ? load<f32>(avgAt) : 1;
  // without field lengths a row's lengths are 0 (none are read per row)
  docLen = 0;
  for (let f: u32 = 0; f < XF_FIELDS; f++) {
    unchecked((avgFieldLen[f] = lens && f < numFields ? load<f32>(avgAt + 4 + (<usize>f << 2)) : 0));
    unchecked((lenCol[f] = lens && f < numFields ? load<u32>(avgAt + 4 + (<usize>(numFields + f) << 2)) : 0));
    unchecked((fieldLen[f] = 0));
  }
}

export function bm25Reset(perField: bool): void {
  for (let q: u32 = 0; q < XF_QPOS; q++) unchecked((qposTf[q] = 0));
  // hits come from the table's fields only, so their rows of the table are all that is ever set
  if (perField) for (let i: u32 = 0; i < tableFields * XF_QPOS; i++) unchecked((fieldTf[i] = 0));
}

/** Reads row `row`'s field lengths from their token-count columns (only with index_field_lengths). */
export function bm25Row(blob: usize, row: u32, numFields: u32): void {
  docLen = 0;
  if (!hasLens) return;
  for (let f: u32 = 0; f < numFields && f < XF_FIELDS; f++) {
    const p = columnPtr(blob, unchecked(lenCol[f]));
    const len = p == 0 ? 0 : load<i32>(p + (<usize>row << 2));
    unchecked((fieldLen[f] = len));
    docLen += <f32>len;
  }
}

@inline function skipped(q: i32): bool {
  return q >= <i32>XF_QPOS || ((keywords >>> <u32>q) & 1) == 0;
}

/** Σ tf/(tf + k1*(1 - b + b*dl/avgdl))*idf over the query words, + 0.5; `avg` > 0 overrides avgdl. */
export function bm25a(k1: f32, b: f32, avg: f32): f32 {
  const avgdl = avg > 0 ? avg : avgDocLen;
  let s: f32 = 0;
  for (let q: i32 = 1; q <= maxQpos; q++) {
    if (skipped(q)) continue;
    const tf = <f32>unchecked(qposTf[q]);
    s += tf / (tf + k1 * (<f32>1 - b + b * docLen / avgdl)) * unchecked(qposIdf[q]);
  }
  return s + <f32>0.5;
}

/**
 * BM25F: per query word and field, weight/maxWeight * idf * tf * (k1+1) / (tf + k1*(1 - b + b*len/avglen)),
 * fields with a zero average length skipped; + 0.5. `weights` holds `n` i32 field weights.
 */
export function bm25f(k1: f32, b: f32, weights: usize, n: u32, maxWeight: i32): f32 {
  let s: f32 = 0;
  for (let q: i32 = 1; q <= maxQpos; q++) {
    if (skipped(q)) continue;
    const idf = unchecked(qposIdf[q]);
    for (let f: u32 = 0; f < n && f < XF_FIELDS; f++) {
      const tf = <i32>unchecked(fieldTf[f * XF_QPOS + <u32>q]);
      const avg = unchecked(avgFieldLen[f]);
      if (avg <= 0 || tf <= 0) continue;
      const w = <f32>load<i32>(weights + (<usize>f << 2)) / <f32>maxWeight;
      s += w * idf * <f32>tf * (k1 + <f32>1) / (<f32>tf + k1 * (<f32>1 - b + b * <f32>unchecked(fieldLen[f]) / avg));
    }
  }
  return s + <f32>0.5;
}
