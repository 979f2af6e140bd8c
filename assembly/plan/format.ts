// The plan bytecode: what the host writes, what evaluate() reads. All words are u32, little-endian.
//
// Header (PLAN_HEADER_WORDS):
// | 0 magic "QPL1" | 1 ranker (RANK_*) | 2 flags (PF_*) | 3 numWeights | 4 weightsOff |
// | 5 rootOff (0 = full scan) | 6 filtersOff | 7 numFilters | 8 sortOff | 9 numSortKeys |
// | 10 allowPtr (host row-allow bitmap in linear memory, 0 = none) | 11 maxQpos (largest keyword
// | qpos) | 12 numKeywords (distinct query words) | 13 exprOff (0 = none) | 14 exprLen |
// | 15 exprFloat (1 = the expression is float-typed: its value is truncated) |
// | 16 floorPtr (0 = none): | floor i32 | query serial u32 | in linear memory, shared by the query's
// |    segments and ranges: a weight k of its rows reach, which a pruned evaluation starts from and
// |    raises when it ends (rank/floor.ts) |
// Expression section (RANK_EXPR), at exprOff: | queryWordCount | nq | idf[nq] (f32 bits, by qpos) |
//   atom[nq] (per qpos: its keyword's first qpos) |
//   then exprLen words of bytecode (rank/expr.ts).
// Offsets are word indices into the plan. weights: numWeights i32 user field weights.
//
// Nodes, pre-order; every node starts | op | size (words of the whole subtree) |:
//   TERM  (TERM_WORDS):  | OP_TERM | 10 | termId (NO_TERM = absent here) | qpos | fieldMask |
//                        | maxPos (0 = none) | flags (TF_*) | idf (f32 bits) | count | pair |
//                        count: occurrences of the keyword merged into this child (quorum), 0 = 1
//                        pair: under an AND with arg2 = 1, the pair term number + 1 of this word and
//                        the next query position's word (0 = none), for the pruning bound
//   inner (INNER_WORDS): | op | size | nChildren | arg0 | arg1 | arg2 | children...
//     OP_AND, OP_OR: any children; AND's arg2 = 1: its children are plain words, some with a pair; OR's arg0 marks a wildcard's expansions (TERM children with the
//     same qpos, mask and idf): OR_MERGED_TF ranks them as one keyword, OR_MERGED_LIST also reads
//     their postings into one merged list evaluated as a single term (postings/merged.ts).
//     OP_ANDNOT: child 0 must match, child 1 must not.
//     OP_PHRASE: children give hits whose qpos carry the offsets (`"a * b"`: qpos 1 and 3).
//       arg2 = a pair term's number + 1 (0 = none): its rows, where two adjacent words of the phrase
//       stand side by side, are the only rows checked; top bit: the pair is the whole phrase.
//     OP_PROXIMITY: arg0 = max distance N of `"..."~N`.
//     OP_QUORUM: arg0 = threshold, arg1 = 1 when a child's count > 1 (repeated keywords).
//     OP_ORDER: `a << b << c`, children in order.  OP_MAYBE: child 0 must match, child 1 adds.
//     OP_ALL: every row (for `-a -b` with not_terms_only_allowed), no children.
//     OP_NEAR: arg0 = N of `a NEAR/N b`; children are its operands, in query order.
//     OP_NOTNEAR: arg0 = N of `a NOTNEAR/N b`; child 0 must match, its hits within N words of a
//     child 1 hit (same field) are dropped, the row needs one left. Reserved for later operators:
//     OP_ZONE: child 0 guarded, then per zone its opening- and closing-tag terms; arg0 = 1 for
//     ZONESPAN over an AND (one span must hold every operand).  OP_SENTENCE, OP_PARAGRAPH: `a SENTENCE b`, children a, b and the
//     boundary term (no idf, its hits only separate); binary, chained left-associatively.
//
// Filters (FILTER_HEADER_WORDS + 2 per value): | column | op (FOP_*) | negate | nValues | 0 | 0 |
//   then values as 64-bit pairs (lo, hi): i64 for integer columns, f64 bits for float columns.
//   BETWEEN takes 2 values (inclusive), IN any number, the others 1.
// Sort keys (SORT_KEY_WORDS each, at most MAX_SORT_KEYS): | kind (SK_*) | column or ptr | desc |
//   Ties after all keys: rowId ascending.

export const PLAN_MAGIC: u32 = 0x314c5051; // "QPL1"
export const PLAN_HEADER_WORDS: u32 = 17;
export const P_MAGIC: u32 = 0;
export const P_RANKER: u32 = 1;
export const P_FLAGS: u32 = 2;
export const P_NWEIGHTS: u32 = 3;
export const P_WEIGHTS: u32 = 4;
export const P_ROOT: u32 = 5;
export const P_FILTERS: u32 = 6;
export const P_NFILTERS: u32 = 7;
export const P_SORT: u32 = 8;
export const P_NSORT: u32 = 9;
export const P_ALLOW: u32 = 10;
export const P_MAXQPOS: u32 = 11;
export const P_NQWORDS: u32 = 12;
export const P_EXPR: u32 = 13;
export const P_EXPR_LEN: u32 = 14;
export const P_EXPR_FLOAT: u32 = 15;
export const P_FLOOR: u32 = 16;

/** Query repeats a keyword: the proximity rankers take Manticore's HANDLE_DUPES path. */
export const PF_DUPES: u32 = 1;
/** Query is one keyword: proximity rankers take the weight-sum fast path. */
export const PF_SINGLE_WORD: u32 = 2;
/** Evaluate every row in full: no weight-bound pruning, phrases by their FSM (plan/prune.ts); for tests. */
export const PF_EXHAUSTIVE: u32 = 4;
/**
 * The segment's document ids are not ascending by row: a row of equal weight pushed later may still
 * win its tie (lower id), so pruning keeps rows whose bound equals the K-th weight (rank/topk.ts).
 */
export const PF_IDS_UNSORTED: u32 = 8;

export const RANK_PROXIMITY_BM25: u32 = 0;
export const RANK_BM25: u32 = 1;
export const RANK_NONE: u32 = 2;
export const RANK_WORDCOUNT: u32 = 3;
export const RANK_PROXIMITY: u32 = 4;
export const RANK_MATCHANY: u32 = 5;
export const RANK_FIELDMASK: u32 = 6;
export const RANK_SPH04: u32 = 7;
/** ranker=expr('...'): the plan's expression section gives the formula. */
export const RANK_EXPR: u32 = 8;

export const OP_TERM: u32 = 1;
export const OP_AND: u32 = 2;
export const OP_OR: u32 = 3;
export const OP_ANDNOT: u32 = 4;
export const OP_PHRASE: u32 = 5;
export const OP_PROXIMITY: u32 = 6;
export const OP_QUORUM: u32 = 7;
export const OP_ALL: u32 = 8;
export const OP_ORDER: u32 = 9;
export const OP_NEAR: u32 = 10;
export const OP_NOTNEAR: u32 = 11;
export const OP_MAYBE: u32 = 12;
export const OP_SENTENCE: u32 = 13;
export const OP_PARAGRAPH: u32 = 14;
export const OP_ZONE: u32 = 15;

/** OR arg0: the children are one wildcard's expansions, one tf and one idf (kept as an OR). */
export const OR_MERGED_TF: u32 = 1;
/** OR arg0: as OR_MERGED_TF, built as one term over the expansions' merged postings. */
export const OR_MERGED_LIST: u32 = 2;

export const TERM_WORDS: u32 = 10;
export const INNER_WORDS: u32 = 6;
export const NO_TERM: u32 = 0xffffffff;

export const TF_FIELD_START: u32 = 1;
export const TF_FIELD_END: u32 = 2;

export const FILTER_HEADER_WORDS: u32 = 6;
export const FOP_EQ: u32 = 0;
export const FOP_NE: u32 = 1;
export const FOP_LT: u32 = 2;
export const FOP_LE: u32 = 3;
export const FOP_GT: u32 = 4;
export const FOP_GE: u32 = 5;
export const FOP_BETWEEN: u32 = 6;
export const FOP_IN: u32 = 7;

export const SORT_KEY_WORDS: u32 = 3;
export const MAX_SORT_KEYS: u32 = 6;
export const SK_WEIGHT: u32 = 0;
export const SK_COLUMN: u32 = 1;
/** A host-provided per-row u32 rank array (strings, json, expressions), at the given pointer. */
export const SK_RANK_U32: u32 = 2;
/** A per-row f64 value array (an ORDER BY expression computed by rank/expr-column.ts), at the given pointer. */
export const SK_F64: u32 = 3;

@inline export function pword(plan: usize, i: u32): u32 {
  return load<u32>(plan + (<usize>i << 2));
}
