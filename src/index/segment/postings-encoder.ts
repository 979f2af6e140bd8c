/**
 * Encodes postings into blocks of 128: bit-packed rowId deltas, tf-1 and the block's hit
 * positions (positions-codec.ts), one skip entry and one block-max word per block.
 */
import { ByteWriter } from './byte-writer.js';
import { packInto, packedWords } from './bitpack.js';
import { hitFormatOf, hitWidth, packHits, packedHitsWords } from './positions-codec.js';
import { BLOCK_LEN, FIELD_SHIFT, POS_MASK, SKIP_WORDS } from './segment-layout.js';

/**
 * Postings of many terms in flat arrays (no per-term objects): term t holds rows and tfs
 * [rowStart[t], rowStart[t+1]) and hits positions[posStart[t], posStart[t+1]), rows ascending,
 * each row's hits ascending. `terms` is sorted and distinct.
 */
export interface PostingsTable {
  terms: string[];
  /**
   * The terms share no storage with statement texts (they come from segments, or from a packed
   * numbering's own strings): the builder keeps them as they are instead of copying them out.
   */
  termsOwned?: boolean;
  rowStart: Uint32Array;
  rows: Uint32Array;
  tfs: Uint32Array;
  posStart: Uint32Array;
  positions: Uint32Array;
}

/** Scratch for one block, reused across terms. */
const deltas = new Uint32Array(BLOCK_LEN);
const tfm1 = new Uint32Array(BLOCK_LEN);

/** Where encodePostings put a term's skip table and its block-max words (byte offsets). */
export interface EncodedTerm { skipOff: number; blockMaxOff: number }

/**
 * One block's bound for top-K pruning (assembly/plan/prune.ts): | maxTf (16 bits, saturated) |
 * fields (16 bits) |, the fields being the union of its rows' hit fields 0..14, bit 15 standing for
 * any field from 15 up.
 */
export function blockMaxWord(maxTf: number, fields: number): number {
  return (Math.min(maxTf, 0xffff) | (fields << 16)) >>> 0;
}

/** The block-max field bit of hitpos `h`'s field. */
export function blockFieldBit(h: number): number {
  const f = h >>> FIELD_SHIFT;
  return f < 15 ? 1 << f : 0x8000;
}

/**
 * Writes term t's skip entries, its block-max words, then its blocks at the writer's end:
 * | rowId deltas | tf-1 | hits |, the hits of the block's rows one row after another;
 * `stats.posBytes` adds the hits' bytes. The block count is ceil(rows / BLOCK_LEN).
 */
export function encodePostings(w: ByteWriter, table: PostingsTable, t: number, stats: { posBytes: number }): EncodedTerm {
  const first = table.rowStart[t];
  const n = table.rowStart[t + 1] - first;
  if (n === 1) return encodeOneRow(w, table, t, stats);
  const blocks = Math.ceil(n / BLOCK_LEN);
  w.align(4);
  const skipOff = w.reserve(blocks * SKIP_WORDS * 4);
  const blockMaxOff = w.reserve(blocks * 4);
  let prev = 0;
  let posStart = table.posStart[t];
  const { rows, tfs } = table;
  for (let b = 0; b < blocks; b++) {
    const start = first + b * BLOCK_LEN;
    const count = Math.min(BLOCK_LEN, n - b * BLOCK_LEN);
    // one pass: deltas, tf-1, their widths and the block's hit range
    let dMax = 0;
    let tMax = 0;
    let maxTf = 0;
    let posEnd = posStart;
    for (let i = 0; i < count; i++) {
      const row = rows[start + i];
      const tf = tfs[start + i];
      const d = row - prev;
      deltas[i] = d;
      dMax |= d;
      prev = row;
      tfm1[i] = tf - 1;
      tMax |= tf - 1;
      if (tf > maxTf) maxTf = tf;
      posEnd += tf;
    }
    const docBits = dMax === 0 ? 0 : 32 - Math.clz32(dMax);
    const tfBits = tMax === 0 ? 0 : 32 - Math.clz32(tMax);
    const docOff = w.reserve(packedWords(count, docBits) * 4);
    packInto(w.words32, docOff >>> 2, deltas, 0, count, docBits);
    const tfOff = w.reserve(packedWords(count, tfBits) * 4);
    packInto(w.words32, tfOff >>> 2, tfm1, 0, count, tfBits);
    const posOff = writeBlockHits(w, table.positions, posStart, posEnd, maxTf, blockMaxOff + b * 4, stats);
    writeSkipEntry(w.words32, (skipOff >>> 2) + b * SKIP_WORDS, prev, docOff, tfOff, posOff, count, docBits, tfBits, lastHitFormat);
    posStart = posEnd;
  }
  return { skipOff, blockMaxOff };
}

/**
 * encodePostings of a term in one row (most of a batch's terms: each rare word's): its one block laid
 * out at once (align, skip entry, block-max word, delta, tf-1, hits: encodePostings' layout), room made
 * once, the words written straight into the writer's buffer in place of the general path's reserve,
 * format and packing calls (session 27: buildSegment over gcide's six 25k-row batches 134 -> 128 ms CPU).
 */
function encodeOneRow(w: ByteWriter, table: PostingsTable, t: number, stats: { posBytes: number }): EncodedTerm {
  const row = table.rows[table.rowStart[t]];
  const tf = table.tfs[table.rowStart[t]];
  const posStart = table.posStart[t];
  const positions = table.positions;
  let fields = 0;
  let fieldOr = 0;
  let posOr = 0;
  for (let h = posStart; h < posStart + tf; h++) {
    const hit = positions[h];
    fields |= blockFieldBit(hit);
    fieldOr |= hit >>> FIELD_SHIFT;
    posOr |= hit & POS_MASK;
  }
  const posFmt = hitFormatOf(fieldOr, posOr);
  const docBits = row === 0 ? 0 : 32 - Math.clz32(row);
  const tfBits = tf === 1 ? 0 : 32 - Math.clz32(tf - 1);
  const docWords = packedWords(1, docBits);
  const tfWords = packedWords(1, tfBits);
  const skip = (w.length + 3) >>> 2; // align(4)
  const end = (skip + SKIP_WORDS + 1 + docWords + tfWords + packedHitsWords(0, tf, posFmt)) * 4;
  w.ensure(end - w.length);
  w.length = end;
  const u32 = w.words32;
  const blockMax = skip + SKIP_WORDS;
  const doc = blockMax + 1;
  const tfw = doc + docWords;
  const pos = tfw + tfWords;
  u32[blockMax] = blockMaxWord(tf, fields);
  if (docBits !== 0) u32[doc] = row;
  if (tfBits !== 0) u32[tfw] = tf - 1;
  packHits(positions, posStart, posStart + tf, posFmt, u32, pos);
  stats.posBytes += Math.ceil((tf * hitWidth(posFmt)) / 8);
  writeSkipEntry(u32, skip, row, doc * 4, tfw * 4, pos * 4, 1, docBits, tfBits, posFmt);
  return { skipOff: skip * 4, blockMaxOff: blockMax * 4 };
}

/** The hit format writeBlockHits last used (a second return value, without an object a block). */
let lastHitFormat = 0;

/**
 * A block's hits [posStart, posEnd) packed at the writer's end (their offset returned, their format
 * in lastHitFormat, their bytes added to stats.posBytes) and its block-max word written at byte
 * `blockMaxAt`. One pass finds the block-max field bits and the format's two widths.
 */
function writeBlockHits(w: ByteWriter, positions: Uint32Array, posStart: number, posEnd: number, maxTf: number,
  blockMaxAt: number, stats: { posBytes: number }): number {
  let fields = 0;
  let fieldOr = 0;
  let posOr = 0;
  for (let h = posStart; h < posEnd; h++) {
    const hit = positions[h];
    fields |= blockFieldBit(hit);
    fieldOr |= hit >>> FIELD_SHIFT;
    posOr |= hit & POS_MASK;
  }
  w.words32[blockMaxAt >>> 2] = blockMaxWord(maxTf, fields);
  const posFmt = hitFormatOf(fieldOr, posOr);
  const posOff = w.reserve(packedHitsWords(posStart, posEnd, posFmt) * 4);
  packHits(positions, posStart, posEnd, posFmt, w.words32, posOff >>> 2);
  stats.posBytes += Math.ceil(((posEnd - posStart) * hitWidth(posFmt)) / 8);
  lastHitFormat = posFmt;
  return posOff;
}

/**
 * A block's skip entry at word `e`: its last row, the byte offsets of its row deltas, tf-1 run and
 * hits, its row count, the deltas' and tfs' bit widths and the hits' format.
 */
export function writeSkipEntry(
  u32: Uint32Array, e: number, lastRow: number, docOff: number, tfOff: number, posOff: number,
  count: number, docBits: number, tfBits: number, posFmt: number,
): void {
  u32[e] = lastRow;
  u32[e + 1] = docOff;
  u32[e + 2] = tfOff;
  u32[e + 3] = posOff;
  u32[e + 4] = count;
  u32[e + 5] = docBits;
  u32[e + 6] = tfBits;
  u32[e + 7] = posFmt;
}
