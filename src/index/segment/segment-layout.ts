/**
 * The segment blob as the host writes it; mirrors assembly/segment/layout.ts (offsets in bytes,
 * relative to the blob start). One contiguous, relocatable range: placing or saving a segment is
 * one copy.
 */
import type { ColumnType } from '../../schema/types.js';

export const SEGMENT_MAGIC = 0x31475351; // "QSG1"
export const SEGMENT_VERSION = 2;
export const HEADER_BYTES = 64;
export const H = {
  magic: 0, version: 1, rows: 2, terms: 3, fields: 4, cols: 5, termTable: 6, colTable: 7,
  fieldLen: 8, posBytes: 9, total: 10,
} as const;

export const TERM_INFO_WORDS = 5;
export const SKIP_WORDS = 8;
export const BLOCK_LEN = 128;

export const COL_NONE = 0;
export const COL_U32 = 1;
export const COL_I64 = 2;
export const COL_F32 = 3;

/** Hitpos layout (Manticore's HITMAN): field << 24 | fieldEnd << 23 | pos. */
export const FIELD_SHIFT = 24;
export const FIELD_END_BIT = 0x00800000;
export const POS_MASK = 0x007fffff;

/** Where an attribute lives: numeric kinds in the core (updatable in place), the rest in JS. */
export function coreColumnType(t: ColumnType): number {
  switch (t) {
    case 'uint': case 'timestamp': case 'bool': return COL_U32;
    case 'bigint': return COL_I64;
    case 'float': return COL_F32;
    default: return COL_NONE;
  }
}
