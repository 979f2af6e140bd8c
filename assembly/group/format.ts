// The group spec groupRange() reads and the result block it writes. All words u32, little-endian.
//
// Spec header (SPEC_HEADER_WORDS): | 0 magic "QGR1" | 1 numPrograms | 2 flags (GF_*) | 3 reserved |
// Program, one per GROUP BY sharing the matches (a query and its FACETs):
//   | 0 size (words of the whole program) | 1 numKeys | 2 numAggs | 3 numWithin |
//   keys:   numKeys sources (SOURCE_WORDS each)
//   aggs:   numAggs | fn (AGG_*) | source... |
//   within: numWithin | desc | source... | (source class V_WEIGHT: the row's weight); none = weight DESC
// Source (SOURCE_WORDS): | class (V_*) | ptr | ptr2 | reserved |: a per-row column at ptr, indexed by
//   rowId; V_MVA: u32 offsets (rows + 1) at ptr, i64 values at ptr2, each value of a row one group.
//
// Result block (RESULT_HEADER_WORDS, then per program PROGRAM_OUT_WORDS, then the records):
//   | 0 matches (after deletes and filters) | 1 numPrograms | 2 flags (RF_*) | 3 numMatchesOut (GF_MATCHES: the (rowId, weight)
//   pairs follow the last program's records, at word 4 of the header as a byte offset) | 4 matchesOff |
//   program: | numGroups | recordBytes | recordsOff (bytes from the block's start) | reserved |
// Record (recordBytes, 8-aligned): | key value × numKeys (8 bytes each) | count u32 | firstRow u32 |
//   | bestRow u32 | bestWeight i32 | agg value × numAggs (8 bytes each) |
//   Values: i64 for the integer classes (V_U32, V_I64, V_F64_INT, V_MVA), f64 for V_F32 and V_F64.
//   SUM over V_U32 is an f64 (the host sums those in a double), over V_I64/V_F64_INT an i64.

export const SPEC_MAGIC: u32 = 0x31524751; // "QGR1"
export const SPEC_HEADER_WORDS: u32 = 4;
export const PROGRAM_HEADER_WORDS: u32 = 4;
export const SOURCE_WORDS: u32 = 4;
export const MAX_KEYS: u32 = 8;
export const MAX_AGGS: u32 = 64;
export const MAX_WITHIN: u32 = 8;
export const MAX_PROGRAMS: u32 = 64;

/** Spec flag: also return the matches (a program the core cannot fold runs on the host). */
export const GF_MATCHES: u32 = 1;

export const V_WEIGHT: u32 = 0;
export const V_U32: u32 = 1;
export const V_I64: u32 = 2;
export const V_F32: u32 = 3;
export const V_F64: u32 = 4;
/** An f64 column of integral values (an integer expression): read as i64. */
export const V_F64_INT: u32 = 5;
export const V_MVA: u32 = 6;

export const AGG_SUM: u32 = 1;
export const AGG_MIN: u32 = 2;
export const AGG_MAX: u32 = 3;

export const RESULT_HEADER_WORDS: u32 = 5;
export const PROGRAM_OUT_WORDS: u32 = 4;
/** Result flag: an i64 sum overflowed or a value the host would reject was seen: fold this range on the host. */
export const RF_FALLBACK: u32 = 1;

@inline export function isIntClass(cls: u32): bool {
  return cls == V_U32 || cls == V_I64 || cls == V_F64_INT || cls == V_MVA;
}
