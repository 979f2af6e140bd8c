/**
 * A numeric expression (the core's formula bytecode over attributes) evaluated by the core for every
 * row of a segment (assembly/rank/expr-column.ts): the values ORDER BY, WHERE and grouping read, without
 * materialising any row on the host.
 */
import type { Segment } from './segment/segment.js';

/** The values, copied out of core memory (one f64 per row; int32 and float32 results are exact). */
export function exprColumnValues(seg: Segment, code: number[]): Float64Array {
  const ptr = placeExprColumn(seg, code);
  try {
    return new Float64Array(seg.core.buffer.slice(ptr, ptr + seg.rows * 8));
  } finally {
    seg.core.free(ptr);
  }
}

/** The values left in core memory at the returned address (the caller frees it). */
export function placeExprColumn(seg: Segment, code: number[]): number {
  const words = new Uint32Array(code.map((w) => w >>> 0));
  const codePtr = seg.core.place(new Uint8Array(words.buffer));
  try {
    const out = seg.core.alloc(Math.max(seg.rows, 2) * 8);
    seg.core.exports.exprColumn(seg.blobPtr, codePtr, words.length, seg.rows, out);
    return out;
  } finally {
    seg.core.free(codePtr);
  }
}
