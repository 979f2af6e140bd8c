/**
 * The words of a ranking expression: the core's opcodes and factor ids, the factors' types, and
 * the constants the compiler (rank-expr-compile.ts) shares with the core (assembly/rank/expr.ts).
 */
import type { ColumnType } from '../../schema/types.js';

/** Opcodes, word for word as assembly/rank/expr.ts. */
export const X = {
  CONST_I: 1, CONST_F: 2, FACTOR: 3, ADD_I: 10, SUB_I: 11, MUL_I: 12, MOD_I: 13, ADD_F: 14, SUB_F: 15,
  MUL_F: 16, DIV_F: 17, NEG_I: 18, NEG_F: 19, I2F: 20, F2I: 21, CMP_I: 22, CMP_F: 23, AND: 24, OR: 25,
  NOT: 26, MIN_I: 27, MAX_I: 28, MIN_F: 29, MAX_F: 30, ABS_I: 31, ABS_F: 32, IF: 33, MATH_F: 34,
  POW_F: 35, SUM_I: 40, SUM_F: 41, TOP_I: 42, TOP_F: 43, BM25A: 44, PARAMS: 45, ATTR: 46, BM25F: 47, CONST_L: 48,
  RAND_ID: 49,
} as const;

/** Optional factor groups the core computes only when the formula reads them (assembly/rank/factors.ts USES_*). */
export const USES = { LCCS: 1, ATC: 2, WINDOW: 4, GAPS: 8, FIELD_TF: 16 } as const;

/** What a formula may name besides the factors: the table's fields (bm25f) and attributes. */
export interface RankExprSchema {
  fields: string[];
  attrs: { name: string; type: ColumnType }[];
  /**
   * ORDER BY formulas only (sort-code.ts): `rand(seed)`, the seed a constant the host resolved (the statement's
   * for RAND()), is the core's RAND_ID. A ranking expression has no RAND() in Manticore, so it stays unknown there.
   */
  rand?: boolean;
}

/** Attribute types the core reads in a formula (the others are Manticore's type error). */
export const NUMERIC: ReadonlySet<ColumnType> = new Set<ColumnType>(['uint', 'bigint', 'bool', 'timestamp', 'float']);
export const TYPE_ERROR = 'ranking expression must evaluate to integer or float';

/** Factor ids and types; field-level ones must sit inside sum() / top(). */
export const FACTORS: Record<string, { id: number; float: boolean; field: boolean; uses?: number }> = {
  lcs: { id: 0, float: false, field: true },
  user_weight: { id: 1, float: false, field: true },
  hit_count: { id: 2, float: false, field: true },
  word_count: { id: 3, float: false, field: true },
  tf_idf: { id: 4, float: true, field: true },
  min_idf: { id: 5, float: true, field: true },
  max_idf: { id: 6, float: true, field: true },
  sum_idf: { id: 7, float: true, field: true },
  min_hit_pos: { id: 8, float: false, field: true },
  min_best_span_pos: { id: 9, float: false, field: true },
  exact_hit: { id: 10, float: false, field: true },
  lccs: { id: 14, float: false, field: true, uses: USES.LCCS },
  wlccs: { id: 15, float: true, field: true, uses: USES.LCCS },
  // Manticore's CheckEnter lets min_gaps and atc stand outside an aggregate (they read the current field)
  min_gaps: { id: 13, float: false, field: false, uses: USES.GAPS },
  atc: { id: 16, float: true, field: false, uses: USES.ATC },
  // Manticore does not require exact_order inside an aggregate (CheckEnter omits it)
  exact_order: { id: 11, float: false, field: false },
  bm25: { id: 20, float: false, field: false },
  max_lcs: { id: 21, float: false, field: false },
  field_mask: { id: 22, float: false, field: false },
  query_word_count: { id: 23, float: false, field: false },
  doc_word_count: { id: 24, float: false, field: false },
};

export const CMP: Record<string, number> = { '<': 0, '>': 1, '<=': 2, '>=': 3, '=': 4, '!=': 5 };
export const MATH: Record<string, number> = { ln: 0, log2: 1, log10: 2, sqrt: 3, exp: 4 };
/** max_window_hits() factor id (assembly/rank/expr.ts XF_MAX_WINDOW_HITS). */
export const XF_MAX_WINDOW_HITS = 12;
/** The core's evaluation stack (assembly/rank/expr.ts STACK). */
export const MAX_STACK = 64;
/** Manticore's bm25a()/bm25f() parameter clamps: k1 >= 0.001, 0 <= b <= 1. */
export const MIN_K1 = 0.001;

const f32 = new Float32Array(1);
const bits = new Uint32Array(f32.buffer);
export function fbits(v: number): number {
  f32[0] = v;
  return bits[0];
}

/** Integer constants within int32 stay int; larger ones are bigints, as in Manticore's lexer. */
export function fitsInt(v: number): boolean {
  return Math.trunc(v) >= -2147483648 && Math.trunc(v) <= 2147483647;
}
