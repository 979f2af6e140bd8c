/** Encodes one term's postings into blocks of 128: bit-packed rowId deltas and tf-1, skip entries. */
import { ByteWriter } from './byte-writer.js';
import { bitWidth, packInto, packedWords } from './bitpack.js';
import { BLOCK_LEN, SKIP_WORDS } from './segment-layout.js';

/** One term's postings while a segment is built: ascending rows, tf per row, hitpos per hit. */
export interface TermPostings {
  rows: ArrayLike<number>;
  tfs: ArrayLike<number>;
  positions: ArrayLike<number>;
}

/** Scratch for one block, reused across terms. */
const deltas = new Uint32Array(BLOCK_LEN);
const tfm1 = new Uint32Array(BLOCK_LEN);

/**
 * Writes the skip entries then the packed blocks of one term at the writer's end.
 * `posBase` is the index of the term's first hit in the segment's positions area.
 * Returns the byte offset of the skip table and the number of blocks.
 */
export function encodePostings(w: ByteWriter, p: TermPostings, posBase: number): { skipOff: number; blocks: number } {
  const n = p.rows.length;
  const blocks = Math.ceil(n / BLOCK_LEN);
  w.align(4);
  const skipOff = w.reserve(blocks * SKIP_WORDS * 4);
  let prev = 0;
  let posStart = posBase;
  for (let b = 0; b < blocks; b++) {
    const start = b * BLOCK_LEN;
    const count = Math.min(BLOCK_LEN, n - start);
    for (let i = 0; i < count; i++) {
      deltas[i] = p.rows[start + i] - prev;
      prev = p.rows[start + i];
      tfm1[i] = p.tfs[start + i] - 1;
    }
    const docBits = bitWidth(deltas, 0, count);
    const tfBits = bitWidth(tfm1, 0, count);
    const docOff = w.reserve(packedWords(count, docBits) * 4);
    packInto(w.words32, docOff >>> 2, deltas, 0, count, docBits);
    const tfOff = w.reserve(packedWords(count, tfBits) * 4);
    packInto(w.words32, tfOff >>> 2, tfm1, 0, count, tfBits);
    const e = skipOff + b * SKIP_WORDS * 4;
    w.setU32(e, prev);
    w.setU32(e + 4, docOff);
    w.setU32(e + 8, tfOff);
    w.setU32(e + 12, posStart);
    w.setU32(e + 16, count);
    w.setU32(e + 20, docBits);
    w.setU32(e + 24, tfBits);
    for (let i = 0; i < count; i++) posStart += p.tfs[start + i];
  }
  return { skipOff, blocks };
}
