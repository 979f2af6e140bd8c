/**
 * One or more terms' postings decoded from segments into flat arrays (rows renumbered, deleted rows
 * dropped), ready for encodePostings: the general merge collects every term this way, the
 * block-copying merge (segment-concat.ts) the rare terms it encodes afresh.
 */
import { BLOCK_LEN, H, SKIP_WORDS, TERM_INFO_WORDS } from './segment-layout.js';
import { unpackInto } from './bitpack.js';
import { unpackHits } from './positions-codec.js';
import type { MergePart } from './segment-merger.js';

/** Scratch for one block's row deltas and tf-1, reused by every append. */
const deltas = new Uint32Array(BLOCK_LEN);
const tfm1 = new Uint32Array(BLOCK_LEN);

export class FlatPostings {
  /** One block's hits, unpacked (grown as needed). */
  blockHits = new Uint32Array(1024);
  nRows = 0;
  nHits = 0;
  rows = new Uint32Array(0);
  tfs = new Uint32Array(0);
  hits = new Uint32Array(0);

  /** Empties it for up to `maxRows` rows and `maxHits` hits (the arrays grown when short). */
  reset(maxRows: number, maxHits: number): void {
    if (this.rows.length < maxRows) { this.rows = new Uint32Array(maxRows); this.tfs = new Uint32Array(maxRows); }
    if (this.hits.length < maxHits) this.hits = new Uint32Array(maxHits);
    this.nRows = 0;
    this.nHits = 0;
  }

  /** Room for `rows` more rows and `hits` more hits, keeping what it holds (a merge's built pairs: pair-fill.ts). */
  reserve(rows: number, hits: number): void {
    if (this.nRows + rows > this.rows.length) {
      const n = Math.max(this.nRows + rows, this.rows.length * 2);
      const grown = (a: Uint32Array) => { const b = new Uint32Array(n); b.set(a.subarray(0, this.nRows)); return b; };
      this.rows = grown(this.rows);
      this.tfs = grown(this.tfs);
    }
    if (this.nHits + hits > this.hits.length) {
      const b = new Uint32Array(Math.max(this.nHits + hits, this.hits.length * 2));
      b.set(this.hits.subarray(0, this.nHits));
      this.hits = b;
    }
  }

  /**
   * Appends term `t` of `seg`, rows renumbered by `map`, deleted rows dropped. `u32` is seg.words(),
   * taken once per merge (nothing allocates core memory while a merge reads its parts).
   */
  append(seg: MergePart, u32: Uint32Array, t: number, map: Int32Array): void {
    const base = seg.blobPtr;
    const hdr = base >>> 2;
    const info = ((base + u32[hdr + H.termTable]) >>> 2) + t * TERM_INFO_WORDS;
    const skip = (base + u32[info + 2]) >>> 2;
    const blocks = u32[info + 3];
    // room for all of it: a merge's built pairs (pair-fill.ts) add rows reset() did not count
    this.reserve(u32[info], u32[info + 1]);
    let prev = 0;
    for (let b = 0; b < blocks; b++) {
      const e = skip + b * SKIP_WORDS;
      const count = u32[e + 4];
      unpackInto(deltas, u32, (base + u32[e + 1]) >>> 2, count, u32[e + 5]);
      unpackInto(tfm1, u32, (base + u32[e + 2]) >>> 2, count, u32[e + 6]);
      let blockHits = 0;
      for (let i = 0; i < count; i++) blockHits += tfm1[i] + 1;
      if (blockHits > this.blockHits.length) this.blockHits = new Uint32Array(blockHits * 2);
      const hits = this.blockHits;
      unpackHits(u32, (base + u32[e + 3]) >>> 2, blockHits, u32[e + 7], hits, 0);
      let pos = 0;
      for (let i = 0; i < count; i++) {
        prev += deltas[i];
        const tf = tfm1[i] + 1;
        const to = map[prev];
        if (to >= 0) {
          this.rows[this.nRows] = to;
          this.tfs[this.nRows++] = tf;
          // a loop, not set(subarray(..)): most rows have a tf of 1 or 2
          let h = this.nHits;
          for (let k = 0; k < tf; k++) this.hits[h++] = hits[pos + k];
          this.nHits = h;
        }
        pos += tf;
      }
    }
  }
}
