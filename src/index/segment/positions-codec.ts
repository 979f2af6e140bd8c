/**
 * Compressed hit positions (segment format 2), the host twin of assembly/postings/positions.ts.
 * A postings block's hits (hitpos = field << 24 | fieldEnd << 23 | pos, row after row) are
 * bit-packed at one width per block, LSB first (bitpack.ts): each hit as
 * | field (fieldBits) | fieldEnd (1) | pos (posBits) |, from the high bits down, with fieldBits and
 * posBits the widths of the block's largest field number and position. Hit k of a row whose first
 * hit is the block's hit s sits at bit (s + k) * width: a row is read without reading the rows
 * before it. Typical hits take 9-14 bits instead of 32 (positions stay absolute: deltas gained
 * under 2% more here and would need the row's earlier hits).
 */
import { packedWords, unpackInto } from './bitpack.js';
import { FIELD_SHIFT, POS_MASK } from './segment-layout.js';

/** A block's hit format: | fieldBits (bits 0-7) | posBits (bits 8-15) |, as the skip entry holds it. */
export function hitFormat(hits: ArrayLike<number>, from: number, to: number): number {
  let fields = 0;
  let pos = 0;
  for (let i = from; i < to; i++) {
    fields |= hits[i] >>> FIELD_SHIFT;
    pos |= hits[i] & POS_MASK;
  }
  return hitFormatOf(fields, pos);
}

/** The hit format of hits whose field numbers OR to `fields` and positions to `pos` (a caller's own pass over them). */
export function hitFormatOf(fields: number, pos: number): number {
  return (fields === 0 ? 0 : 32 - Math.clz32(fields)) | ((pos === 0 ? 0 : 32 - Math.clz32(pos)) << 8);
}

/** Bits one hit takes in format `fmt`. */
export function hitWidth(fmt: number): number {
  return (fmt & 0xff) + 1 + (fmt >>> 8);
}

/** Words hits[from, to) take packed in format `fmt`, padding included (bitpack.ts). */
export function packedHitsWords(from: number, to: number, fmt: number): number {
  return packedWords(to - from, hitWidth(fmt));
}

/**
 * Packs hits[from, to) in format `fmt` into `words` (zeroed) from word index `at`: each hit made its
 * | field | end | pos | value and packed at once, bitpack.ts packInto's accumulator without a scratch
 * array of the values between (session 24: that copy and its second pass were a third of the build
 * thread's postings encoding over gcide's import).
 */
export function packHits(hits: ArrayLike<number>, from: number, to: number, fmt: number, words: Uint32Array, at: number): void {
  const posBits = fmt >>> 8;
  const bits = hitWidth(fmt);
  let w = at;
  let acc = 0;
  let fill = 0; // bits held in acc, < 32
  for (let i = from; i < to; i++) {
    const hit = hits[i];
    // hitpos has fieldEnd at bit 23 and the field above: (hitpos >>> 23) is | field | end |
    const v = ((hit >>> 23) << posBits) | (hit & POS_MASK);
    acc |= v << fill;
    fill += bits;
    if (fill >= 32) {
      words[w++] = acc;
      fill -= 32;
      acc = fill === 0 ? 0 : v >>> (bits - fill);
    }
  }
  if (fill > 0) words[w] = acc;
}

/** Scratch for one block's unpacked values, grown as needed. */
let values = new Uint32Array(1024);

function scratch(n: number): Uint32Array {
  if (values.length < n) values = new Uint32Array(Math.max(n, values.length * 2));
  return values;
}

/** Reads `n` packed hits of format `fmt` at word index `at` of `words` into out[o...]. */
export function unpackHits(words: Uint32Array, at: number, n: number, fmt: number, out: Uint32Array, o: number): void {
  const posBits = fmt >>> 8;
  const v = scratch(n);
  unpackInto(v, words, at, n, hitWidth(fmt));
  const posMask = (1 << posBits) - 1;
  for (let i = 0; i < n; i++) out[o + i] = (((v[i] >>> posBits) << 23) | (v[i] & posMask)) >>> 0;
}
