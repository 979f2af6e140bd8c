// lccs and wlccs: the longest common contiguous subsequence of query and field, in words and as
// a sum of idf, as Manticore's RankerState_Expr_fn::Update (src/sphinxsearch.cpp). The chain
// compares in-field positions only, so it may continue across a field change, as Manticore's.

import { XF_FIELDS, XF_QPOS, qposIdf } from "./factor-query";

/** Manticore's WORD_MAX filler: the last query position has no next one. */
const NO_NEXT: u32 = 0xffff;

export const lccs = new StaticArray<u8>(XF_FIELDS);
export const wlccs = new StaticArray<f32>(XF_FIELDS);
/** Per query position: the next keyword position of the query (gaps from stopwords skipped). */
const nextQpos = new StaticArray<u32>(XF_QPOS);
/** Query positions shared by a repeated keyword (Manticore's m_tHasMultiQpos). */
let multiQpos: u32 = 0;

let expQpos: u32 = 0;
let expPos: i32 = 0;
let len: u8 = 0;
let weight: f32 = 0;

/**
 * Per query: `kwMask` has a bit per distinct keyword's query position (its first one);
 * `atoms[q]` is the first position of q's keyword.
 */
export function lccsQuery(kwMask: u32, atoms: StaticArray<u32>): void {
  let prev: i32 = -1;
  multiQpos = 0;
  for (let q: u32 = 0; q < XF_QPOS; q++) {
    unchecked((nextQpos[q] = NO_NEXT));
    if (((kwMask >>> q) & 1) != 0) {
      if (prev >= 0) unchecked((nextQpos[prev] = q));
      prev = <i32>q;
    }
    const a = unchecked(atoms[q]);
    if (a != q && a < XF_QPOS) multiQpos |= (<u32>1 << q) | (<u32>1 << a);
  }
}

export function lccsReset(): void {
  for (let f: u32 = 0; f < XF_FIELDS; f++) {
    unchecked((lccs[f] = 0));
    unchecked((wlccs[f] = 0));
  }
  expQpos = 0;
  expPos = 0;
  len = 0;
  weight = 0;
}

/** One hit at in-field position `pos` of query position `q` spanning `span` words. */
export function lccsUpdate(f: u32, pos: i32, q: u32, span: u32, dupes: bool): void {
  const idf: f32 = q < XF_QPOS ? unchecked(qposIdf[q]) : 0;
  let keepUp = false;
  if (expQpos == q && expPos == pos) {
    len = <u8>(<u32>len + 1);
    weight += idf;
  } else if (dupes && expPos != 0 && pos <= expPos && q < 32 && ((multiQpos >>> q) & 1) != 0) {
    keepUp = true;
  } else {
    len = 1;
    weight = idf;
  }
  if (!keepUp) {
    const next = q < XF_QPOS ? unchecked(nextQpos[q]) : NO_NEXT;
    expQpos = next;
    expPos = pos + <i32>span + <i32>next - <i32>q - 1;
  }
  if (unchecked(lccs[f]) <= len) {
    unchecked((lccs[f] = len));
    unchecked((wlccs[f] = weight));
  }
}
