// The expression ranker's interpreter: a small stack bytecode (compiled by the host from
// `ranker=expr('...')`) evaluated once per matched row over the factors of rank/factors.ts.
// Integer-typed nodes run in i32 (Manticore's IntEval), float ones in f32 (its Eval).

import {
  lcs, hitCount, wordMask, tfIdf, minIdf, maxIdf, sumIdf, minHitPos, minBestSpanPos,
  matchedFields, exactHit, exactOrder, docWordMask, XF_FIELDS,
} from "./factors";
import { bm25a, bm25f } from "./bm25-factors";
import { COL_U32, COL_I64, COL_F32, columnPtr, columnType } from "../segment/layout";
import { lccs, wlccs } from "./lccs";
import { atc } from "./atc";
import { maxWindowHits, minGaps } from "./window-factors";
import { randOfId } from "./rand-id";

// opcodes (one word, then inline arguments)
export const X_CONST_I: u32 = 1; // value
export const X_CONST_F: u32 = 2; // f32 bits
export const X_FACTOR: u32 = 3; // factor id (an int or float value, as typed by the host)
export const X_ADD_I: u32 = 10;
export const X_SUB_I: u32 = 11;
export const X_MUL_I: u32 = 12;
export const X_MOD_I: u32 = 13;
export const X_ADD_F: u32 = 14;
export const X_SUB_F: u32 = 15;
export const X_MUL_F: u32 = 16;
export const X_DIV_F: u32 = 17;
export const X_NEG_I: u32 = 18;
export const X_NEG_F: u32 = 19;
export const X_I2F: u32 = 20;
export const X_F2I: u32 = 21;
export const X_CMP_I: u32 = 22; // cmp kind
export const X_CMP_F: u32 = 23; // cmp kind
export const X_AND: u32 = 24;
export const X_OR: u32 = 25;
export const X_NOT: u32 = 26;
export const X_MIN_I: u32 = 27;
export const X_MAX_I: u32 = 28;
export const X_MIN_F: u32 = 29;
export const X_MAX_F: u32 = 30;
export const X_ABS_I: u32 = 31;
export const X_ABS_F: u32 = 32;
export const X_IF: u32 = 33; // cond, then, else (already of one type)
export const X_MATH_F: u32 = 34; // function kind: 0 ln, 1 log2, 2 log10, 3 sqrt, 4 exp
export const X_POW_F: u32 = 35;
export const X_SUM_I: u32 = 40; // body length, body
export const X_SUM_F: u32 = 41;
export const X_TOP_I: u32 = 42;
export const X_TOP_F: u32 = 43;
export const X_BM25A: u32 = 44; // k1 bits, b bits, avgdl bits (0: the table's)
/** Header, first in the code when present (see expr-rank.ts for its words). */
export const X_PARAMS: u32 = 45;
export const X_ATTR: u32 = 46; // column, as float (0/1): a numeric attribute of the row
export const X_BM25F: u32 = 47; // k1 bits, b bits, max weight, n, n field weights
export const X_CONST_L: u32 = 48; // low, high words of an i64 outside the i32 range
export const X_RAND_ID: u32 = 49; // seed: RAND() of the row, its id hashed with the seed (randId)

// factor ids: field level below 20, document level from 20
export const XF_LCS: u32 = 0;
export const XF_USER_WEIGHT: u32 = 1;
export const XF_HIT_COUNT: u32 = 2;
export const XF_WORD_COUNT: u32 = 3;
export const XF_TF_IDF: u32 = 4;
export const XF_MIN_IDF: u32 = 5;
export const XF_MAX_IDF: u32 = 6;
export const XF_SUM_IDF: u32 = 7;
export const XF_MIN_HIT_POS: u32 = 8;
export const XF_MIN_BEST_SPAN_POS: u32 = 9;
export const XF_EXACT_HIT: u32 = 10;
export const XF_EXACT_ORDER: u32 = 11;
export const XF_MAX_WINDOW_HITS: u32 = 12;
export const XF_MIN_GAPS: u32 = 13;
export const XF_LCCS: u32 = 14;
export const XF_WLCCS: u32 = 15;
export const XF_ATC: u32 = 16;
export const XF_BM25: u32 = 20;
export const XF_MAX_LCS: u32 = 21;
export const XF_FIELD_MASK: u32 = 22;
export const XF_QUERY_WORD_COUNT: u32 = 23;
export const XF_DOC_WORD_COUNT: u32 = 24;

/** C's FLT_MIN (smallest normal float): Manticore starts a float top() from it. */
const FLT_MIN: f32 = 1.17549435e-38;
const STACK: i32 = 64;
const stack = new StaticArray<f64>(STACK);
let sp: i32 = 0;
/**
 * The field a field factor reads (Manticore's m_iCurrentField): set by sum()/top(), which leave it
 * one past the last matched field, and kept from row to row, so a factor allowed outside an
 * aggregate (exact_order, min_gaps, atc) reads what Manticore's does. Past the tracked fields: 0.
 */
let field: u32 = 0;
let docBm25: i32 = 0;
let maxLcs: i32 = 0;
let queryWordCount: i32 = 0;
let weightsPtr: StaticArray<i32> | null = null;
let blob: usize = 0;
let row: u32 = 0;

/** The segment and row the attributes of the next evaluation come from. */
export function setExprRow(segBlob: usize, rowId: u32): void {
  blob = segBlob;
  row = rowId;
}

/**
 * A numeric attribute as Manticore's Expr_GetInt_c / Expr_GetFloat_c read it: IntEval casts the
 * 64-bit value to int, Eval to float (so a uint above 2^31 is negative only in integer context).
 */
function attr(col: u32, asFloat: bool): f64 {
  const p = columnPtr(blob, col);
  if (p == 0) return 0;
  const t = columnType(blob, col);
  if (t == COL_F32) {
    const v = load<f32>(p + (<usize>row << 2));
    return asFloat ? <f64>v : <f64>toInt(v);
  }
  if (t == COL_I64) {
    // a bigint stays 64-bit (comparisons see its value; a bigint formula is rejected by the host)
    const v = load<i64>(p + (<usize>row << 3));
    return asFloat ? <f64><f32>v : <f64>v;
  }
  const v: i64 = t == COL_U32 ? <i64>load<u32>(p + (<usize>row << 2)) : 0;
  return asFloat ? <f64><f32>v : <f64><i32>v;
}

/**
 * RAND() of the current row inside a formula (X_RAND_ID; see rand-id.ts): a float (f32) as Manticore's Expr_Rand_c
 * and the host's RAND() (Math.fround), since MIN/MAX/IF/comparisons take their operands as they stand. RAND() alone,
 * the ORDER BY RAND() key, is exprColumn's f64 column (randColumn), a finer order of the same values.
 */
function randId(seed: u32): f64 {
  return <f64><f32>randOfId(columnPtr(blob, 0) + (<usize>row << 3), seed);
}

/** Per-query values the factors need besides the hits. */
export function setExprQuery(weights: StaticArray<i32>, maxLcsValue: i32, qwc: i32): void {
  weightsPtr = weights;
  field = 0;
  maxLcs = maxLcsValue;
  queryWordCount = qwc;
}

@inline function push(v: f64): void {
  unchecked((stack[sp++] = v));
}
@inline function pop(): f64 {
  return unchecked(stack[--sp]);
}
@inline function popI(): i32 {
  return <i32>unchecked(stack[--sp]);
}
@inline function popF(): f32 {
  return <f32>unchecked(stack[--sp]);
}

/** C's (int) of a float as x86 gives it: NaN and out-of-range values become INT_MIN. */
export function toInt(v: f32): i32 {
  if (isNaN(v) || v >= <f32>2147483648.0 || v < <f32>-2147483648.0) return i32.MIN_VALUE;
  return <i32>v;
}

function factor(id: u32): f64 {
  const f = field;
  if (id < XF_BM25 && id != XF_USER_WEIGHT && f >= XF_FIELDS) return 0;
  if (id == XF_LCS) return <f64>unchecked(lcs[f]);
  if (id == XF_USER_WEIGHT) return <f64>unchecked(weightsPtr![f]);
  if (id == XF_HIT_COUNT) return <f64>unchecked(hitCount[f]);
  if (id == XF_WORD_COUNT) return <f64>unchecked(wordMask[f]);
  if (id == XF_TF_IDF) return <f64>unchecked(tfIdf[f]);
  if (id == XF_MIN_IDF) return <f64>unchecked(minIdf[f]);
  if (id == XF_MAX_IDF) return <f64>unchecked(maxIdf[f]);
  if (id == XF_SUM_IDF) return <f64>unchecked(sumIdf[f]);
  if (id == XF_MIN_HIT_POS) return <f64>unchecked(minHitPos[f]);
  if (id == XF_MIN_BEST_SPAN_POS) return <f64>unchecked(minBestSpanPos[f]);
  if (id == XF_EXACT_HIT) return <f64>((exactHit >>> f) & 1);
  if (id == XF_EXACT_ORDER) return <f64>((exactOrder >>> f) & 1);
  if (id == XF_MAX_WINDOW_HITS) return <f64>unchecked(maxWindowHits[f]);
  if (id == XF_MIN_GAPS) return <f64>unchecked(minGaps[f]);
  if (id == XF_LCCS) return <f64>unchecked(lccs[f]);
  if (id == XF_WLCCS) return <f64>unchecked(wlccs[f]);
  if (id == XF_ATC) return <f64>unchecked(atc[f]);
  if (id == XF_BM25) return <f64>docBm25;
  if (id == XF_MAX_LCS) return <f64>maxLcs;
  if (id == XF_FIELD_MASK) return <f64>matchedFields;
  if (id == XF_QUERY_WORD_COUNT) return <f64>queryWordCount;
  return <f64>docWordMask;
}

function compare(kind: u32, a: f64, b: f64): i32 {
  if (kind == 0) return a < b ? 1 : 0;
  if (kind == 1) return a > b ? 1 : 0;
  if (kind == 2) return a <= b ? 1 : 0;
  if (kind == 3) return a >= b ? 1 : 0;
  if (kind == 4) return a == b ? 1 : 0;
  return a != b ? 1 : 0;
}

function mathF(kind: u32, v: f32): f32 {
  // Manticore's Expr_Ln/Log2/Log10/Sqrt answer 0 for a non-positive argument (not NaN)
  if (kind <= 3 && !(v > 0)) return 0;
  if (kind == 0) return <f32>Math.log(v);
  if (kind == 1) return <f32>Math.log2(v);
  if (kind == 2) return <f32>Math.log10(v);
  if (kind == 3) return <f32>Math.sqrt(v);
  return <f32>Math.exp(v);
}

/** sum()/top() over the row's matched fields: the body runs once per field with `field` set. */
function fieldLoop(code: usize, at: u32, len: u32, op: u32): f64 {
  let acc: f64 = op == X_TOP_I ? <f64>i32.MIN_VALUE : op == X_TOP_F ? <f64>FLT_MIN : 0;
  for (let f: u32 = 0; f < XF_FIELDS; f++) {
    if (((matchedFields >>> f) & 1) == 0) continue;
    field = f;
    run(code, at, at + len);
    const v = pop();
    if (op == X_SUM_I) acc = <f64>(<i32>acc + <i32>v);
    else if (op == X_SUM_F) acc = <f64>(<f32>acc + <f32>v);
    else acc = v > acc ? v : acc;
  }
  // Manticore's loop stops one past the last matched field (at 0 when none matched)
  field = matchedFields == 0 ? 0 : 32 - <u32>clz(matchedFields);
  return acc;
}

function binary(op: u32): void {
  if (op <= X_MOD_I) {
    const b = popI();
    const a = popI();
    if (op == X_ADD_I) push(<f64>(a + b));
    else if (op == X_SUB_I) push(<f64>(a - b));
    else if (op == X_MUL_I) push(<f64>(a * b));
    else push(<f64>(b == 0 ? 0 : a % b));
    return;
  }
  const b = popF();
  const a = popF();
  if (op == X_ADD_F) push(<f64>(a + b));
  else if (op == X_SUB_F) push(<f64>(a - b));
  else if (op == X_MUL_F) push(<f64>(a * b));
  else push(<f64>(b == 0 ? 0 : a / b)); // x/0 is 0, as the TS evaluator and Manticore's expressions give
}

@inline function word(code: usize, pc: u32): u32 {
  return load<u32>(code + (<usize>pc << 2));
}

/** The operands with several inline words (64-bit constants, attributes, bm25a/bm25f); returns the next pc. */
function operand(op: u32, code: usize, pc: u32): u32 {
  if (op == X_CONST_L) {
    push(<f64>(<i64>word(code, pc) | (<i64>word(code, pc + 1) << 32)));
    return pc + 2;
  }
  if (op == X_ATTR) {
    push(attr(word(code, pc), word(code, pc + 1) != 0));
    return pc + 2;
  }
  const k1 = reinterpret<f32>(word(code, pc));
  const b = reinterpret<f32>(word(code, pc + 1));
  if (op == X_BM25A) {
    push(<f64>bm25a(k1, b, reinterpret<f32>(word(code, pc + 2))));
    return pc + 3;
  }
  if (op != X_BM25F) unreachable();
  const n = word(code, pc + 3);
  push(<f64>bm25f(k1, b, code + (<usize>(pc + 4) << 2), n, <i32>word(code, pc + 2)));
  return pc + 4 + n;
}

function run(code: usize, pc: u32, end: u32): void {
  while (pc < end) {
    const op = load<u32>(code + (<usize>pc << 2));
    const arg = pc + 1 < end ? load<u32>(code + (<usize>(pc + 1) << 2)) : 0;
    pc++;
    if (op == X_CONST_I) { push(<f64><i32>arg); pc++; }
    else if (op == X_CONST_F) { push(<f64>reinterpret<f32>(arg)); pc++; }
    else if (op == X_FACTOR) { push(factor(arg)); pc++; }
    else if (op == X_RAND_ID) { push(randId(arg)); pc++; }
    else if (op >= X_ADD_I && op <= X_DIV_F) binary(op);
    else if (op == X_NEG_I) push(<f64>(-popI()));
    else if (op == X_NEG_F) push(<f64>(-popF()));
    else if (op == X_I2F) push(<f64><f32>popI());
    else if (op == X_F2I) push(<f64>toInt(popF()));
    else if (op == X_CMP_I || op == X_CMP_F) {
      const b = pop();
      const a = pop();
      push(<f64>compare(arg, a, b));
      pc++;
    } else if (op == X_AND || op == X_OR) {
      const b = pop();
      const a = pop();
      push(op == X_AND ? <f64>(a != 0 && b != 0 ? 1 : 0) : <f64>(a != 0 || b != 0 ? 1 : 0));
    } else if (op == X_NOT) push(pop() == 0 ? 1 : 0);
    else if (op >= X_MIN_I && op <= X_MAX_F) {
      const b = pop();
      const a = pop();
      push(op == X_MIN_I || op == X_MIN_F ? (a < b ? a : b) : (a > b ? a : b));
    } else if (op == X_ABS_I || op == X_ABS_F) push(Math.abs(pop()));
    else if (op == X_IF) {
      const e = pop();
      const t = pop();
      push(pop() != 0 ? t : e);
    } else if (op == X_MATH_F) { push(<f64>mathF(arg, popF())); pc++; }
    else if (op == X_POW_F) {
      const b = popF();
      push(<f64><f32>Math.pow(<f64>popF(), <f64>b));
    } else if (op >= X_SUM_I && op <= X_TOP_F) {
      push(fieldLoop(code, pc + 1, arg, op));
      pc += 1 + arg;
    } else pc = operand(op, code, pc);
  }
}

/** Evaluates an attribute-only formula for the current row, untruncated (int32 and float32 are exact in f64). */
export function evalExprValue(code: usize, len: u32): f64 {
  sp = 0;
  docBm25 = 0;
  run(code, 0, len);
  return sp == 1 ? pop() : 0;
}

/** Evaluates `len` words of bytecode at `code` for the current row; float results are truncated. */
export function evalExpr(code: usize, len: u32, isFloat: bool, bm25: i32): i32 {
  sp = 0;
  docBm25 = bm25;
  run(code, 0, len);
  if (sp != 1) return 0;
  return isFloat ? toInt(popF()) : popI();
}
