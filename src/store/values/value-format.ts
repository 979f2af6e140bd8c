/** The value codec's byte format: tags, limits and small helpers shared by writer and reader. */
import { SearchError } from '../../util/errors.js';

/*
 * Layout: one tag byte, then the payload. Lengths and counts are unsigned LEB128 varints.
 *   NULL | UNDEF | FALSE | TRUE
 *   INT    zigzag varint      a number that is an integer in int32 range (and not -0)
 *   F64    8 bytes LE         any other number
 *   I64    8 bytes LE         a bigint in signed 64-bit range
 *   BIGSTR len, ascii         a wider bigint, as decimal text
 *   STR    len, utf8
 *   I64ARR n, n x 8 bytes LE  a bigint[] whose items all fit 64 bits (mva/mva64 values)
 *   ARR    n, n values
 *   OBJ    n, n x (key: len, utf8; value)
 *   BYTES  len, raw           a Uint8Array
 */
export const Tag = {
  NULL: 0, UNDEF: 1, FALSE: 2, TRUE: 3, INT: 4, F64: 5, I64: 6, BIGSTR: 7, STR: 8, I64ARR: 9, ARR: 10, OBJ: 11, BYTES: 12,
} as const;

const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;
/** First buffer size of an encoder; it doubles as needed. */
export const INITIAL_CAPACITY = 512;
/** Strings up to this many chars are tried as ASCII in JS (must stay below 0x80). */
export const SHORT_STRING = 64;
/** Objects nested deeper than this are refused (a cycle would otherwise recurse forever). */
export const MAX_DEPTH = 64;

export function fitsI64(v: bigint): boolean {
  return v >= I64_MIN && v <= I64_MAX;
}

export function varintSize(n: number): number {
  return n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5;
}

export function corrupt(): SearchError {
  return new SearchError('STORAGE_ERROR', 'store of record damaged: corrupt value encoding');
}
