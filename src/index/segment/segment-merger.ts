/**
 * Merges segments into one: live rows only, in segment order; the dictionaries are merged in
 * sorted order, postings decoded block by block into flat typed arrays and re-encoded, attribute
 * values copied (with their current, updated values). Parts without deleted rows (a bulk load's)
 * have their postings blocks copied instead (segment-concat.ts).
 */
import type { AttrValue, IndexSchema } from '../types.js';
import type { PostingsTable } from './postings-encoder.js';
import { buildSegment, type BuiltSegment, type InvertedBatch, type SegmentRows } from './segment-builder.js';
import { concatSegments } from './segment-concat.js';
import { FlatPostings } from './flat-postings.js';
import { mergePairs, PairFiller } from './pair-fill.js';
import { BLOCK_LEN, H, SKIP_WORDS, TERM_INFO_WORDS } from './segment-layout.js';

/**
 * What a merge reads of a part: a placed Segment on the thread that owns the core, or a SegmentView
 * of one in the merge thread (segment-view.ts), over the same shared memory.
 */
export interface MergePart {
  readonly rows: number;
  readonly terms: readonly string[];
  readonly blobPtr: number;
  /** Word view of the memory holding the blob (index = byte address / 4). */
  words(): Uint32Array;
  isDeleted(row: number): boolean;
  docId(row: number): bigint;
  copyFieldLengths(row: number, out: Uint32Array, at: number): void;
  attr(a: number, row: number): AttrValue;
  docFreq(t: number): number;
  hitCount(t: number): number;
}

/** Row maps: old row -> new row, -1 for deleted rows. */
function remapRows(segments: MergePart[]): { maps: Int32Array[]; rows: number } {
  let rows = 0;
  const maps = segments.map((seg) => {
    const map = new Int32Array(seg.rows).fill(-1);
    for (let r = 0; r < seg.rows; r++) if (!seg.isDeleted(r)) map[r] = rows++;
    return map;
  });
  return { maps, rows };
}

/**
 * The union of two sorted, distinct lists, sorted and distinct, and where each element of `a` and of
 * `b` went in it.
 */
function union(a: readonly string[], b: readonly string[]): { out: string[]; aTo: Int32Array; bTo: Int32Array } {
  const out: string[] = [];
  const aTo = new Int32Array(a.length);
  const bTo = new Int32Array(b.length);
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i];
    const y = b[j];
    // equal first: a term most parts hold is read once, not by two < (each a scan of both strings)
    if (x === y) { aTo[i++] = bTo[j++] = out.length; out.push(x); }
    else if (x < y) { aTo[i++] = out.length; out.push(x); }
    else { bTo[j++] = out.length; out.push(y); }
  }
  while (i < a.length) { aTo[i++] = out.length; out.push(a[i - 1]); }
  while (j < b.length) { bTo[j++] = out.length; out.push(b[j - 1]); }
  return { out, aTo, bTo };
}

/**
 * The union of the sorted dictionaries, merged pairwise (no re-sort), and for each segment where each
 * of its terms went in it: the merge then finds a term's segments by comparing numbers, not strings.
 */
function mergedTerms(segments: MergePart[]): { all: readonly string[]; to: Int32Array[] } {
  const identity = (n: number) => {
    const m = new Int32Array(n);
    for (let i = 0; i < n; i++) m[i] = i;
    return m;
  };
  /** Each of `m`'s term numbers carried through `to` (typed-array loops: no callback per term). */
  const through = (m: Int32Array<ArrayBuffer>, to: Int32Array) => {
    for (let i = 0; i < m.length; i++) m[i] = to[m[i]];
    return m;
  };
  // each list, and the segments it holds with their term numbers in it
  let lists = segments.map((s, i) => ({ terms: s.terms, members: [i], maps: [identity(s.terms.length)] }));
  while (lists.length > 1) {
    const next: typeof lists = [];
    for (let i = 0; i < lists.length; i += 2) {
      const a = lists[i];
      const b = lists[i + 1];
      if (!b) { next.push(a); continue; }
      const u = union(a.terms, b.terms);
      next.push({
        terms: u.out,
        members: [...a.members, ...b.members],
        maps: [...a.maps.map((m) => through(m, u.aTo)), ...b.maps.map((m) => through(m, u.bTo))],
      });
    }
    lists = next;
  }
  const to: Int32Array[] = [];
  lists[0]?.members.forEach((s, k) => { to[s] = lists[0].maps[k]; });
  return { all: lists[0]?.terms ?? [], to };
}

/** The merged segment's rows: ids, field lengths and attribute values of the parts' live rows, in order. */
function mergedRows(schema: IndexSchema, segments: MergePart[], maps: Int32Array[], rows: number): SegmentRows {
  const numFields = schema.fields.length;
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
  return { rows, numFields, fieldLens, docIds, attrs };
}

export function mergeSegments(schema: IndexSchema, segments: MergePart[]): BuiltSegment {
  return mergeWithRowMaps(schema, segments).built;
}

/**
 * mergeSegments, and each part's old row -> merged row map (-1: a row not carried over): the merge
 * thread sends the maps back with its result, so the swap on the protocol thread does not rebuild them
 * (merge-job.ts rowsFromForward).
 */
export function mergeWithRowMaps(schema: IndexSchema, segments: MergePart[]): { built: BuiltSegment; maps: Int32Array[] } {
  const { maps, rows } = remapRows(segments);
  return { built: mergeMapped(schema, segments, maps, rows), maps };
}

function mergeMapped(schema: IndexSchema, segments: MergePart[], maps: Int32Array[], rows: number): BuiltSegment {
  const merged = mergedRows(schema, segments, maps, rows);
  const union = mergedTerms(segments);
  // a pair term some part lacks is built there from its words' positions, or dropped (pair-fill.ts);
  // a dropped pair's map entries are -1
  const { all, to, lacking } = mergePairs(union.all, union.to, segments, rows);
  // no deleted rows: every part's blocks carry over as they are (segment-concat.ts)
  if (rows === segments.reduce((n, seg) => n + seg.rows, 0)) return concatSegments(schema, segments, merged, all as string[], to, maps, lacking);
  let maxRows = 0;
  let maxHits = 0;
  for (const seg of segments) {
    for (let t = 0; t < seg.terms.length; t++) {
      maxRows += seg.docFreq(t);
      maxHits += seg.hitCount(t);
    }
  }
  const flat = new FlatPostings();
  flat.reset(maxRows, maxHits);
  const words = segments.map((seg) => seg.words());
  const next = new Int32Array(segments.length); // each segment's next term in its sorted dictionary
  const filler = new PairFiller(segments, all, lacking, maps);
  const terms: string[] = [];
  const rowStart = new Uint32Array(all.length + 1);
  const posStart = new Uint32Array(all.length + 1);
  for (let m = 0; m < all.length; m++) {
    const r0 = flat.nRows;
    const missing = lacking.get(m);
    for (let s = 0; s < segments.length; s++) {
      while (to[s][next[s]] === -1) next[s]++;
      if (to[s][next[s]] === m) flat.append(segments[s], words[s], next[s]++, maps[s]);
      else if (missing?.includes(s)) filler.append(flat, s, m);
    }
    if (flat.nRows === r0) continue; // every row holding it was deleted
    terms.push(all[m]);
    rowStart[terms.length] = flat.nRows;
    posStart[terms.length] = flat.nHits;
  }
  const postings: PostingsTable = {
    terms, rowStart: rowStart.subarray(0, terms.length + 1), rows: flat.rows, tfs: flat.tfs,
    posStart: posStart.subarray(0, terms.length + 1), positions: flat.hits, termsOwned: true, // the parts' own
  };
  const batch: InvertedBatch = { ...merged, postings };
  return buildSegment(schema, batch);
}
