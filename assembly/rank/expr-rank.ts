// The expression ranker (RANK_EXPR): reads the plan's expression section once per evaluate(),
// then per row computes the factors from the root's hits and runs the bytecode.
//
// The code may open with a header (X_PARAMS), in words:
// | X_PARAMS | header words | max_window_hits n | USES_* mask | keyword-position mask |
// | has field lengths | avg doc length (f32) | avg length per field (f32, truncated as Manticore) ... |
// | length column per field ... |

import { P_EXPR, P_EXPR_LEN, P_EXPR_FLOAT, pword } from "../plan/format";
import { nget, N_HLEN, N_DOC } from "../plan/node";
import { nodeHits } from "../plan/hits";
import { computeFactors, setFactorQuery, qposIdf, qposAtom, XF_QPOS } from "./factors";
import { evalExpr, setExprQuery, setExprRow, X_PARAMS } from "./expr";
import { lccsQuery } from "./lccs";
import { atcQuery } from "./atc";
import { windowQuery } from "./window-factors";
import { bm25Query, bm25Row } from "./bm25-factors";
import { tfidf, bm25Part } from "./score";

/** Header words before the per-field average lengths. */
const PARAMS_FIXED: u32 = 7;

let code: usize = 0;
let codeLen: u32 = 0;
let isFloat = false;
let blob: usize = 0;
let fields: u32 = 0;
let lens = false;

/** Reads the expression section; false when it does not fit in the plan. */
export function exprPrepare(plan: usize, planLen: u32, weights: StaticArray<i32>, numFields: u32, maxQpos: u32, qwords: u32, dupes: bool, segBlob: usize): bool {
  const at = pword(plan, P_EXPR);
  codeLen = pword(plan, P_EXPR_LEN);
  isFloat = pword(plan, P_EXPR_FLOAT) != 0;
  blob = segBlob;
  fields = numFields;
  if (at == 0 || at + 2 > planLen) return false;
  const qwc = pword(plan, at);
  const nq = pword(plan, at + 1);
  if (at + 2 + 2 * nq + codeLen > planLen) return false;
  for (let q: u32 = 0; q < XF_QPOS; q++) {
    unchecked((qposIdf[q] = q < nq ? reinterpret<f32>(pword(plan, at + 2 + q)) : 0));
    unchecked((qposAtom[q] = q < nq ? pword(plan, at + 2 + nq + q) : q));
  }
  code = plan + (<usize>(at + 2 + 2 * nq) << 2);
  // Manticore's max_lcs: every field's weight times the query's keyword count
  let maxLcs: i32 = 0;
  for (let f: u32 = 0; f < numFields && f < <u32>weights.length; f++) maxLcs += unchecked(weights[f]) * <i32>qwords;
  let uses: u32 = 0;
  lens = false;
  if (codeLen >= PARAMS_FIXED && load<u32>(code) == X_PARAMS) {
    const words = load<u32>(code, 4);
    if (words < PARAMS_FIXED || words > codeLen) return false;
    uses = load<u32>(code, 12);
    lens = load<u32>(code, 20) != 0 && words >= PARAMS_FIXED + 2 * numFields;
    factorParams(load<u32>(code, 8), load<u32>(code, 16), maxQpos, dupes);
    bm25Query(load<u32>(code, 16), <i32>maxQpos, lens, code + 24, numFields);
    code += <usize>words << 2;
    codeLen -= words;
  } else {
    factorParams(1, 0xfffffffe, maxQpos, dupes);
    bm25Query(0xfffffffe, <i32>maxQpos, false, 0, numFields);
  }
  setFactorQuery(maxQpos, qwc, uses);
  setExprQuery(weights, maxLcs, <i32>qwc);
  return true;
}

/**
 * Query-level inputs of the optional factors. Manticore counts distinct words for min_gaps and
 * atc as the keyword positions on the duplicate path, and as the largest query position otherwise.
 */
function factorParams(window: u32, kwMask: u32, maxQpos: u32, dupes: bool): void {
  const unique: i32 = dupes ? <i32>popcnt(kwMask) : <i32>maxQpos;
  lccsQuery(kwMask, qposAtom);
  atcQuery(true, unique, <i32>maxQpos);
  windowQuery(window, unique);
}

export function exprRank(node: usize, dupes: bool): i32 {
  const s = nodeHits(node);
  const n = nget(node, N_HLEN);
  const row = nget(node, N_DOC);
  computeFactors(s, n, dupes);
  setExprRow(blob, row);
  if (lens) bm25Row(blob, row, fields);
  return evalExpr(code, codeLen, isFloat, bm25Part(tfidf(node)));
}
