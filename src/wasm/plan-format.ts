/** The plan bytecode as the host writes it; mirrors assembly/plan/format.ts word for word. */

export const PLAN_MAGIC = 0x314c5051;
export const PLAN_HEADER_WORDS = 17;

export const RANKER_IDS = {
  proximity_bm25: 0, bm25: 1, none: 2, wordcount: 3, proximity: 4, matchany: 5, fieldmask: 6, sph04: 7, expr: 8,
} as const;

export const PF_DUPES = 1;
export const PF_SINGLE_WORD = 2;
/** Every row evaluated in full: no weight-bound pruning, phrases by their FSM (assembly/plan/prune.ts). */
export const PF_EXHAUSTIVE = 4;
/** The segment's ids are not ascending by row (assembly/plan/format.ts). */
export const PF_IDS_UNSORTED = 8;

export const OPS = {
  term: 1, and: 2, or: 3, andnot: 4, phrase: 5, proximity: 6, quorum: 7, all: 8,
  order: 9, near: 10, notnear: 11, maybe: 12, sentence: 13, paragraph: 14, zone: 15,
} as const;
export type InnerOp = Exclude<keyof typeof OPS, 'term'>;

/** OR arg0: the children are one wildcard's expansions, ranked as one keyword (an OR of terms). */
export const OR_MERGED_TF = 1;
/** OR arg0: as OR_MERGED_TF, evaluated as one term over the expansions' merged postings. */
export const OR_MERGED_LIST = 2;

export const TERM_WORDS = 10;
export const INNER_WORDS = 6;
export const NO_TERM = 0xffffffff;
export const TF_FIELD_START = 1;
export const TF_FIELD_END = 2;

export const FILTER_OPS = { '=': 0, '!=': 1, '<': 2, '<=': 3, '>': 4, '>=': 5, between: 6, in: 7 } as const;
export type FilterOp = keyof typeof FILTER_OPS;
export const FILTER_HEADER_WORDS = 6;

export const SK_WEIGHT = 0;
export const SK_COLUMN = 1;
export const SK_RANK_U32 = 2;
export const SK_F64 = 3;
export const MAX_SORT_KEYS = 6;

export interface TermPlan {
  op: 'term';
  /** Term number in the segment's dictionary, or NO_TERM when the segment lacks it. */
  termId: number;
  qpos: number;
  fieldMask: number;
  /** `@f[N]`: 0 = no limit. */
  maxPos: number;
  /** TF_FIELD_START | TF_FIELD_END. */
  flags: number;
  /** Already divided by the number of query words, times the keyword boost. */
  idf: number;
  /** Occurrences of the keyword merged into this term (quorum children); default 1. */
  count?: number;
  /** Under an AND: the pair term (+ 1) of its word and the next query position's word, 0 = none (planner.ts andSteps). */
  pair?: number;
}

export interface InnerPlan {
  op: InnerOp;
  children: PlanNode[];
  arg0?: number;
  arg1?: number;
  arg2?: number;
}

export type PlanNode = TermPlan | InnerPlan;

export interface PlanFilter {
  /** Core column: 0 = id, attribute i = i + 1. */
  column: number;
  op: FilterOp;
  negate: boolean;
  values: (number | bigint)[];
  /** Values are compared as float64 (float columns) rather than int64. */
  float: boolean;
}

export interface PlanSortKey {
  kind: typeof SK_WEIGHT | typeof SK_COLUMN | typeof SK_RANK_U32 | typeof SK_F64;
  /** Column number (SK_COLUMN) or the address of a per-row u32 rank array (SK_RANK_U32). */
  ref: number;
  desc: boolean;
}

/** ranker=expr('...'): the compiled formula and the per-query values its factors need. */
export interface PlanExpr {
  code: number[];
  /** The formula is float-typed: the core truncates its value. */
  float: boolean;
  /** Distinct non-excluded query words (query_word_count, exact_order). */
  queryWordCount: number;
  /** idf by query position (index 0 unused). */
  qposIdf: number[];
  /** Per query position: the first position of its keyword (repeated keywords share one). */
  qposAtom: number[];
}

export interface PlanSpec {
  ranker: number;
  flags: number;
  weights: number[];
  /** null = full scan (every live row, weight 1). */
  root: PlanNode | null;
  /** The root already encoded (encodePlanTree), used instead of `root`. */
  rootWords?: Uint32Array;
  filters: PlanFilter[];
  /** Empty = weight desc for ranked plans, rowId order for full scans. */
  sort: PlanSortKey[];
  /** Address of a row-allow bitmap in core memory, 0 = none. */
  allowPtr: number;
  /** Largest keyword qpos (sph04's exact-hit test). */
  maxQpos: number;
  /** Distinct query keywords (matchany). */
  numKeywords?: number;
  /** The expression ranker's section (ranker = RANKER_IDS.expr). */
  expr?: PlanExpr;
  /**
   * Address of the query's weight floor in core memory (an i32, i32 min to start; 0 = none): each
   * segment or range's pruned evaluation starts from it and raises it to its K-th kept weight, so later
   * segments skip what earlier ones already beat (assembly/plan/evaluate.ts, word 16 of the header).
   */
  floorPtr?: number;
}
