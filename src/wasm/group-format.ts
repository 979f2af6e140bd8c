/**
 * The group spec and result block of the core's groupRange() (assembly/group/format.ts, which draws
 * the layouts): the constants the host writes and reads, and the spec encoder.
 */

export const GROUP_SPEC_MAGIC = 0x31524751; // "QGR1"
/** Spec flag: the block also carries the matches (some grouping of the query folds on the host). */
export const GF_MATCHES = 1;
/** Result flag: the core saw what only the host folds right (an i64 overflow): fold this block's matches on the host. */
export const RF_FALLBACK = 1;
export const RESULT_HEADER_WORDS = 5;
export const PROGRAM_OUT_WORDS = 4;
/** The most programs one spec may hold (assembly/group/format.ts MAX_PROGRAMS): more answer E_BAD_PLAN. */
export const MAX_PROGRAMS = 64;
/** Fixed part of a record before its aggregate values: | count | firstRow | bestRow | bestWeight |. */
export const RECORD_FIXED_BYTES = 16;

/** Value classes of a source column. */
export const V = { weight: 0, u32: 1, i64: 2, f32: 3, f64: 4, f64Int: 5, mva: 6 } as const;
export type ValueClass = (typeof V)[keyof typeof V];

export const AGG = { sum: 1, min: 2, max: 3 } as const;

/** A per-row column in core memory: `ptr` (and for an MVA, `ptr2` = its values; `ptr` = row offsets). */
export interface Source { cls: ValueClass; ptr: number; ptr2?: number }

/** One grouping as the core folds it. */
export interface Program {
  keys: Source[];
  aggs: { fn: number; src: Source }[];
  /** The within-group order; empty = weight DESC. */
  within: { desc: boolean; src: Source }[];
}

const source = (s: Source): number[] => [s.cls, s.ptr, s.ptr2 ?? 0, 0];

/** The spec words for `programs`; `matches`: the block also returns the matches. */
export function encodeGroupSpec(programs: Program[], matches: boolean): Uint32Array {
  const words: number[] = [GROUP_SPEC_MAGIC, programs.length, matches ? GF_MATCHES : 0, 0];
  for (const p of programs) {
    const body = [
      ...p.keys.flatMap(source),
      ...p.aggs.flatMap((a) => [a.fn, ...source(a.src)]),
      ...p.within.flatMap((w) => [w.desc ? 1 : 0, ...source(w.src)]),
    ];
    words.push(4 + body.length, p.keys.length, p.aggs.length, p.within.length, ...body);
  }
  return Uint32Array.from(words, (w) => w >>> 0);
}
