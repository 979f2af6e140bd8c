// Attribute filters over numeric columns living in the segment blob (see plan/format.ts).

import { COL_U32, COL_I64, COL_F32, columnPtr, columnType } from "../segment/layout";
import { FILTER_HEADER_WORDS, FOP_EQ, FOP_NE, FOP_LT, FOP_LE, FOP_GT, FOP_GE, FOP_BETWEEN, FOP_IN, pword } from "./format";

/** Filters prepared for one segment: per filter | colPtr | colType | planWord |. */
const MAX_FILTERS: u32 = 64;
const fPtr = new StaticArray<usize>(MAX_FILTERS);
const fType = new StaticArray<u32>(MAX_FILTERS);
const fAt = new StaticArray<u32>(MAX_FILTERS);
let count: u32 = 0;
let planBase: usize = 0;

/** Reads `n` filters at plan word `at`; false when one names a column the core does not hold. */
export function filtersPrepare(plan: usize, at: u32, n: u32, blob: usize, planLen: u32): bool {
  if (n > MAX_FILTERS) return false;
  planBase = plan;
  count = n;
  for (let i: u32 = 0; i < n; i++) {
    if (at + FILTER_HEADER_WORDS > planLen) return false;
    const col = pword(plan, at);
    const p = columnPtr(blob, col);
    if (p == 0) return false;
    unchecked((fPtr[i] = p));
    unchecked((fType[i] = columnType(blob, col)));
    unchecked((fAt[i] = at));
    at += FILTER_HEADER_WORDS + 2 * pword(plan, at + 3);
    if (at > planLen) return false;
  }
  return true;
}

@inline function valueI64(at: u32, i: u32): i64 {
  return load<i64>(planBase + (<usize>(at + FILTER_HEADER_WORDS + 2 * i) << 2));
}
@inline function valueF64(at: u32, i: u32): f64 {
  return load<f64>(planBase + (<usize>(at + FILTER_HEADER_WORDS + 2 * i) << 2));
}

function testInt(op: u32, at: u32, n: u32, v: i64): bool {
  if (op == FOP_EQ) return v == valueI64(at, 0);
  if (op == FOP_NE) return v != valueI64(at, 0);
  if (op == FOP_LT) return v < valueI64(at, 0);
  if (op == FOP_LE) return v <= valueI64(at, 0);
  if (op == FOP_GT) return v > valueI64(at, 0);
  if (op == FOP_GE) return v >= valueI64(at, 0);
  if (op == FOP_BETWEEN) return v >= valueI64(at, 0) && v <= valueI64(at, 1);
  if (op == FOP_IN) {
    for (let i: u32 = 0; i < n; i++) if (v == valueI64(at, i)) return true;
  }
  return false;
}

function testFloat(op: u32, at: u32, n: u32, v: f64): bool {
  if (op == FOP_EQ) return v == valueF64(at, 0);
  if (op == FOP_NE) return v != valueF64(at, 0);
  if (op == FOP_LT) return v < valueF64(at, 0);
  if (op == FOP_LE) return v <= valueF64(at, 0);
  if (op == FOP_GT) return v > valueF64(at, 0);
  if (op == FOP_GE) return v >= valueF64(at, 0);
  if (op == FOP_BETWEEN) return v >= valueF64(at, 0) && v <= valueF64(at, 1);
  if (op == FOP_IN) {
    for (let i: u32 = 0; i < n; i++) if (v == valueF64(at, i)) return true;
  }
  return false;
}

/** True when `row` passes every prepared filter. */
export function filtersPass(row: u32): bool {
  for (let i: u32 = 0; i < count; i++) {
    const at = unchecked(fAt[i]);
    const op = pword(planBase, at + 1);
    const negate = pword(planBase, at + 2) != 0;
    const n = pword(planBase, at + 3);
    const p = unchecked(fPtr[i]);
    const t = unchecked(fType[i]);
    let ok: bool;
    if (t == COL_U32) ok = testInt(op, at, n, <i64>load<u32>(p + (<usize>row << 2)));
    else if (t == COL_I64) ok = testInt(op, at, n, load<i64>(p + (<usize>row << 3)));
    else if (t == COL_F32) ok = testFloat(op, at, n, <f64>load<f32>(p + (<usize>row << 2)));
    else ok = false;
    if (ok == negate) return false;
  }
  return true;
}
