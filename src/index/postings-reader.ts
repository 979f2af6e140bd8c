/** Host-side reader of a placed segment's postings (for merges and wildcard statistics). */
import type { Segment } from './segment.js';
import { unpackBits } from './bitpack.js';
import { H, SKIP_WORDS, TERM_INFO_WORDS } from './segment-layout.js';

function words(u32: Uint32Array, byteAddr: number, n: number): Uint32Array {
  return u32.subarray(byteAddr >>> 2, (byteAddr >>> 2) + n);
}

/** Decodes term `t` of `seg`: rows ascending, tf per row, and (when asked) every hitpos. */
export function readPostings(seg: Segment, t: number, withPositions = true): { rows: number[]; tfs: number[]; positions: number[] } {
  const u32 = seg.core.u32;
  const base = seg.blobPtr;
  const hdr = base >>> 2;
  const info = ((base + u32[hdr + H.termTable]) >>> 2) + t * TERM_INFO_WORDS;
  const skip = base + u32[info + 2];
  const blocks = u32[info + 3];
  const posArea = base + u32[hdr + H.positions];
  const out = { rows: [] as number[], tfs: [] as number[], positions: [] as number[] };
  let prev = 0;
  for (let b = 0; b < blocks; b++) {
    const e = (skip >>> 2) + b * SKIP_WORDS;
    const count = u32[e + 4];
    const docBits = u32[e + 5];
    const tfBits = u32[e + 6];
    const deltas = unpackBits(words(u32, base + u32[e + 1], Math.ceil((count * docBits) / 32) + 1), count, docBits);
    const tfs = unpackBits(words(u32, base + u32[e + 2], Math.ceil((count * tfBits) / 32) + 1), count, tfBits);
    let pos = u32[e + 3];
    for (let i = 0; i < count; i++) {
      prev += deltas[i];
      out.rows.push(prev);
      const tf = tfs[i] + 1;
      out.tfs.push(tf);
      if (withPositions) for (let j = 0; j < tf; j++) out.positions.push(u32[(posArea >>> 2) + pos + j]);
      pos += tf;
    }
  }
  return out;
}

/** Number of distinct rows holding any of `terms` in `seg`, and their hits. */
export function unionStats(seg: Segment, terms: number[]): { docs: number; hits: number } {
  if (terms.length === 1) return { docs: seg.docFreq(terms[0]), hits: seg.hitCount(terms[0]) };
  const seen = new Uint8Array(seg.rows);
  let docs = 0;
  let hits = 0;
  for (const t of terms) {
    hits += seg.hitCount(t);
    for (const r of readPostings(seg, t, false).rows) {
      if (!seen[r]) { seen[r] = 1; docs++; }
    }
  }
  return { docs, hits };
}
