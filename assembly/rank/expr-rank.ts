// The expression ranker (RANK_EXPR): reads the plan's expression section once per evaluate(),
// then per row computes the factors from the root's hits and runs the bytecode.

import { P_EXPR, P_EXPR_LEN, P_EXPR_FLOAT, pword } from "../plan/format";
import { nget, N_HLEN } from "../plan/node";
import { nodeHits } from "../plan/hits";
import { computeFactors, setFactorQuery, qposIdf, qposAtom, XF_QPOS } from "./factors";
import { evalExpr, setExprQuery, X_PARAMS, X_PARAMS_WORDS } from "./expr";
import { lccsQuery } from "./lccs";
import { atcQuery } from "./atc";
import { windowQuery } from "./window-factors";
import { tfidf, bm25Part } from "./score";

let code: usize = 0;
let codeLen: u32 = 0;
let isFloat = false;

/** Reads the expression section; false when it does not fit in the plan. */
export function exprPrepare(plan: usize, planLen: u32, weights: StaticArray<i32>, numFields: u32, maxQpos: u32, qwords: u32, dupes: bool): bool {
  const at = pword(plan, P_EXPR);
  codeLen = pword(plan, P_EXPR_LEN);
  isFloat = pword(plan, P_EXPR_FLOAT) != 0;
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
  if (codeLen >= X_PARAMS_WORDS && load<u32>(code) == X_PARAMS) {
    uses = load<u32>(code, 8);
    factorParams(load<u32>(code, 4), uses, load<u32>(code, 12), maxQpos, dupes);
    code += X_PARAMS_WORDS << 2;
    codeLen -= X_PARAMS_WORDS;
  }
  setFactorQuery(maxQpos, qwc, uses);
  setExprQuery(weights, maxLcs, <i32>qwc);
  return true;
}

/**
 * Query-level inputs of the optional factors. Manticore counts distinct words for min_gaps and
 * atc as the keyword positions on the duplicate path, and as the largest query position otherwise.
 */
function factorParams(window: u32, uses: u32, kwMask: u32, maxQpos: u32, dupes: bool): void {
  const unique: i32 = dupes ? <i32>popcnt(kwMask) : <i32>maxQpos;
  lccsQuery(kwMask, qposAtom);
  atcQuery(true, unique, <i32>maxQpos);
  windowQuery(window, unique);
}

export function exprRank(node: usize, dupes: bool): i32 {
  const s = nodeHits(node);
  const n = nget(node, N_HLEN);
  computeFactors(s, n, dupes);
  return evalExpr(code, codeLen, isFloat, bm25Part(tfidf(node)));
}
