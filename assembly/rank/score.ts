// Per-row ranking inputs of a node: the BM25 sum (Manticore's m_fTFIDF, float32) and the mask of
// matched fields (m_uDocFields), mirroring how ExtTerm/ExtAnd/ExtOr/ExtAndNot/ExtNWay fill them.

import { cursorTf, cursorPositions } from "../postings/cursor";
import { OP_TERM, OP_OR, OP_ANDNOT, OP_PHRASE, OP_PROXIMITY, OP_ORDER, OP_NEAR, OP_NOTNEAR, OP_SENTENCE, OP_PARAGRAPH, OP_ZONE } from "../plan/format";
import { nget, child, N_OP, N_DOC, N_NCHILD, N_CURSOR, N_IDF, N_FMASK, N_HLEN, N_ARG0 } from "../plan/node";
import { nodeHits } from "../plan/hits";
import { hitPos } from "../plan/hitbuf";

/** Manticore's SPH_BM25_K1. */
const BM25_K1: f32 = 1.2;

/** tf/(tf+k1)*idf summed over the node's matched terms; tf counts hits in all fields. */
export function tfidf(n: usize): f32 {
  const op = nget(n, N_OP);
  if (op == OP_TERM) {
    const tf = <f32>cursorTf(<usize>nget(n, N_CURSOR));
    return tf / (tf + BM25_K1) * reinterpret<f32>(nget(n, N_IDF));
  }
  // AND-NOT, NOTNEAR and ZONE give their left (guarded) side; ORDER its first child's document (ExtOrder_c copies it)
  if (op == OP_ANDNOT || op == OP_ORDER || op == OP_NOTNEAR || op == OP_ZONE) return tfidf(child(n, 0));
  const doc = nget(n, N_DOC);
  const k = nget(n, N_NCHILD);
  if (op == OP_OR && nget(n, N_ARG0) == 1) return mergedTfidf(n, doc, k);
  let sum: f32 = 0;
  for (let i: u32 = 0; i < k; i++) {
    const c = child(n, i);
    if (nget(c, N_DOC) == doc) sum += tfidf(c);
  }
  return sum;
}

/** A wildcard keyword: one tf over all its expansions on the row, one idf (ExtPayload). */
function mergedTfidf(n: usize, doc: u32, k: u32): f32 {
  let tf: u32 = 0;
  let idf: f32 = 0;
  for (let i: u32 = 0; i < k; i++) {
    const c = child(n, i);
    idf = reinterpret<f32>(nget(c, N_IDF));
    if (nget(c, N_DOC) == doc) tf += cursorTf(<usize>nget(c, N_CURSOR));
  }
  const t = <f32>tf;
  return t / (t + BM25_K1) * idf;
}

/** Fields the row matched in: a term's fields within its mask; unions above; a phrase's first hit. */
export function docFields(n: usize): u32 {
  const op = nget(n, N_OP);
  if (op == OP_TERM) {
    const c = <usize>nget(n, N_CURSOR);
    const p = cursorPositions(c);
    const tf = cursorTf(c);
    let mask: u32 = 0;
    for (let i: u32 = 0; i < tf; i++) {
      const f = load<u32>(p + (<usize>i << 2)) >>> 24;
      if (f < 32) mask |= <u32>1 << f;
    }
    return mask & nget(n, N_FMASK);
  }
  if (op == OP_ANDNOT || op == OP_ORDER || op == OP_NOTNEAR || op == OP_ZONE) return docFields(child(n, 0));
  if (op == OP_PHRASE || op == OP_PROXIMITY || op == OP_NEAR) {
    const s = nodeHits(n);
    if (nget(n, N_HLEN) == 0) return 0;
    const f = hitPos(s) >>> 24;
    return f < 32 ? <u32>1 << f : 0;
  }
  const doc = nget(n, N_DOC);
  // a unit's third child is its boundary term: not part of the match
  const k: u32 = op == OP_SENTENCE || op == OP_PARAGRAPH ? 2 : nget(n, N_NCHILD);
  let mask: u32 = 0;
  for (let i: u32 = 0; i < k; i++) {
    const c = child(n, i);
    if (nget(c, N_DOC) == doc) mask |= docFields(c);
  }
  return mask;
}

/** Manticore's BM25 part: (int)((sum + 0.5) * 1000), in float32, truncated. */
@inline export function bm25Part(sum: f32): i32 {
  return <i32>((sum + <f32>0.5) * <f32>1000);
}

