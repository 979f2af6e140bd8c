/**
 * Merges segments into one: live rows only, in segment order; the dictionaries are merged in
 * sorted order, postings decoded block by block into flat typed arrays and re-encoded, attribute
 * values copied (with their current, updated values).
 */
import type { AttrValue, IndexSchema } from './types.js';
import type { Segment } from './segment.js';
import type { PostingsTable } from './postings-encoder.js';
import { unpackInto } from './bitpack.js';
import { unpackHits } from './positions-codec.js';
import { buildSegment, type BuiltSegment, type InvertedBatch } from './segment-builder.js';
import { BLOCK_LEN, H, SKIP_WORDS, TERM_INFO_WORDS } from './segment-layout.js';

/** Scratch for one block's row deltas and tf-1, reused by every append. */
const deltas = new Uint32Array(BLOCK_LEN);
const tfm1 = new Uint32Array(BLOCK_LEN);

/** Row maps: old row -> new row, -1 for deleted rows. */
function remapRows(segments: Segment[]): { maps: Int32Array[]; rows: number } {
  let rows = 0;
  const maps = segments.map((seg) => {
    const map = new Int32Array(seg.rows).fill(-1);
    for (let r = 0; r < seg.rows; r++) if (!seg.isDeleted(r)) map[r] = rows++;
    return map;
  });
  return { maps, rows };
}

/** The union of two sorted, distinct lists, sorted and distinct. */
function union(a: string[], b: string[]): string[] {
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] < b[j]) out.push(a[i++]);
    else if (b[j] < a[i]) out.push(b[j++]);
    else { out.push(a[i++]); j++; }
  }
  while (i < a.length) out.push(a[i++]);
  while (j < b.length) out.push(b[j++]);
  return out;
}

/** The union of the sorted dictionaries, merged pairwise (no re-sort). */
function mergedTerms(segments: Segment[]): string[] {
  let lists = segments.map((s) => s.terms);
  while (lists.length > 1) {
    const next: string[][] = [];
    for (let i = 0; i < lists.length; i += 2) next.push(i + 1 < lists.length ? union(lists[i], lists[i + 1]) : lists[i]);
    lists = next;
  }
  return lists[0] ?? [];
}

class FlatPostings {
  rows: Uint32Array;
  tfs: Uint32Array;
  hits: Uint32Array;
  /** One block's hits, unpacked (grown as needed). */
  blockHits = new Uint32Array(1024);
  nRows = 0;
  nHits = 0;
  constructor(maxRows: number, maxHits: number) {
    this.rows = new Uint32Array(maxRows);
    this.tfs = new Uint32Array(maxRows);
    this.hits = new Uint32Array(maxHits);
  }

  /** Appends term `t` of `seg`, rows renumbered by `map`, deleted rows dropped. */
  append(seg: Segment, t: number, map: Int32Array): void {
    const u32 = seg.core.u32;
    const base = seg.blobPtr;
    const hdr = base >>> 2;
    const info = ((base + u32[hdr + H.termTable]) >>> 2) + t * TERM_INFO_WORDS;
    const skip = (base + u32[info + 2]) >>> 2;
    const blocks = u32[info + 3];
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

export function mergeSegments(schema: IndexSchema, segments: Segment[]): BuiltSegment {
  const numFields = schema.fields.length;
  const { maps, rows } = remapRows(segments);
  const fieldLens = new Uint32Array(rows * numFields);
  const docIds = new BigInt64Array(rows);
  const attrs: AttrValue[][] = schema.attrs.map(() => new Array<AttrValue>(rows));
  segments.forEach((seg, s) => {
    for (let r = 0; r < seg.rows; r++) {
      const to = maps[s][r];
      if (to < 0) continue;
      docIds[to] = seg.docId(r);
      seg.copyFieldLengths(r, fieldLens, to * numFields);
      for (let a = 0; a < schema.attrs.length; a++) attrs[a][to] = seg.attr(a, r);
    }
  });
  let maxRows = 0;
  let maxHits = 0;
  for (const seg of segments) {
    for (let t = 0; t < seg.terms.length; t++) {
      maxRows += seg.docFreq(t);
      maxHits += seg.hitCount(t);
    }
  }
  const flat = new FlatPostings(maxRows, maxHits);
  const next = segments.map(() => 0); // each segment's next term in its sorted dictionary
  const all = mergedTerms(segments);
  const terms: string[] = [];
  const rowStart = new Uint32Array(all.length + 1);
  const posStart = new Uint32Array(all.length + 1);
  for (const term of all) {
    const r0 = flat.nRows;
    segments.forEach((seg, s) => {
      if (seg.terms[next[s]] !== term) return;
      flat.append(seg, next[s]++, maps[s]);
    });
    if (flat.nRows === r0) continue; // every row holding it was deleted
    terms.push(term);
    rowStart[terms.length] = flat.nRows;
    posStart[terms.length] = flat.nHits;
  }
  const postings: PostingsTable = {
    terms, rowStart: rowStart.subarray(0, terms.length + 1), rows: flat.rows, tfs: flat.tfs,
    posStart: posStart.subarray(0, terms.length + 1), positions: flat.hits,
  };
  const batch: InvertedBatch = { rows, numFields, postings, fieldLens, docIds, attrs };
  // the parts' blobs hold what the merged one does, less duplicate terms and deleted rows, plus
  // the hits of blocks now packed wider: a small margin makes the buffer fit without growing
  const hint = segments.reduce((n, s) => n + s.blobLen, 0);
  return buildSegment(schema, batch, hint + (hint >>> 4) + 4096);
}
