/**
 * The merge of parts that have no deleted rows (a bulk load's segments): the merged segment's rows
 * are the parts' rows one part after another, so each term's postings blocks are copied as they are,
 * rows shifted by the part's first row, instead of decoded and encoded again. Only the first block of
 * each part's run of a term is re-packed (its first row delta is counted from the block before it in
 * the merged term, not from 0); tf and hit runs are copied word for word. Blocks keep their own
 * sizes (the skip entry holds each block's row count, which the core and host readers use), so a
 * term that several parts hold has a short block where each part's run ended. A term whose copy would
 * hold over a quarter more blocks than ceil(df / 128) (a rare term: a short block per part) is decoded
 * and encoded afresh instead, so the copies cost at most that share of a term's skips and block words.
 */
import type { IndexSchema } from '../types.js';
import { packInto, packedWords, unpackInto } from './bitpack.js';
import type { ByteWriter } from './byte-writer.js';
import { hitWidth } from './positions-codec.js';
import { FlatPostings } from './flat-postings.js';
import { PairFiller } from './pair-fill.js';
import { blockMaxWord, encodePostings, writeSkipEntry, type EncodedTerm, type PostingsTable } from './postings-encoder.js';
import type { MergePart } from './segment-merger.js';
import { writeSegment, type BuiltSegment, type SegmentRows } from './segment-builder.js';
import { BLOCK_LEN, H, SKIP_WORDS, TERM_INFO_WORDS } from './segment-layout.js';

/** Scratch for one block's row deltas and tf-1. */
const deltas = new Uint32Array(BLOCK_LEN);
const tfm1 = new Uint32Array(BLOCK_LEN);

/** Copies `n` words of `src` from word index `from` to the writer's end; returns their byte offset. */
function copyWords(w: ByteWriter, src: Uint32Array, from: number, n: number): number {
  const at = w.reserve(n * 4);
  const dst = w.words32;
  const to = at >>> 2;
  if (n <= 16) for (let i = 0; i < n; i++) dst[to + i] = src[from + i];
  else dst.set(src.subarray(from, from + n), to);
  return at;
}

/** One part as the copy reads it: its memory, blob address, term table (word index), first merged row. */
interface PartPostings {
  u32: Uint32Array;
  base: number;
  termTable: number;
  rowBase: number;
}

/**
 * Writes the blocks of term `t` of `p` after the merged term's earlier blocks (the last of which ends
 * at row `prevLast`), skip entries from word index `e` of the writer and block-max words from word
 * index `m`; returns the last row written.
 */
function copyTermBlocks(w: ByteWriter, p: PartPostings, t: number, e: number, m: number, prevLast: number, stats: { posBytes: number }): number {
  const { u32, base, rowBase } = p;
  const info = p.termTable + t * TERM_INFO_WORDS;
  const skip = (base + u32[info + 2]) >>> 2;
  const blocks = u32[info + 3];
  // a block keeps its rows' tfs and hits, so its bound word is copied; a part written before the
  // words existed (offset 0) gets the bound the core would take from its tf width
  const maxWords = u32[info + 4] === 0 ? -1 : (base + u32[info + 4]) >>> 2;
  let last = prevLast;
  for (let b = 0; b < blocks; b++, e += SKIP_WORDS) {
    const s = skip + b * SKIP_WORDS;
    const count = u32[s + 4];
    const tfBits = u32[s + 6];
    w.words32[m + b] = maxWords >= 0 ? u32[maxWords + b] : blockMaxWord(tfBits >= 16 ? 0xffff : 1 << tfBits, 0xffff);
    const fmt = u32[s + 7];
    let docBits = u32[s + 5];
    const docAt = (base + u32[s + 1]) >>> 2;
    let docOff: number;
    if (b > 0) {
      docOff = copyWords(w, u32, docAt, packedWords(count, docBits));
    } else {
      // the part's first row was a delta from 0 (bits [0, docBits) of the run's first word); now it
      // is one from the merged term's previous block: patched in place when it fits the width
      const mask = docBits === 32 ? 0xffffffff : (1 << docBits) - 1;
      const first = (u32[docAt] & mask) + rowBase - prevLast;
      if (docBits > 0 && first <= mask) {
        docOff = copyWords(w, u32, docAt, packedWords(count, docBits));
        const out = w.words32;
        out[docOff >>> 2] = (out[docOff >>> 2] & ~mask) | first;
      } else {
        unpackInto(deltas, u32, docAt, count, docBits);
        deltas[0] = first;
        let max = 0;
        for (let i = 0; i < count; i++) max |= deltas[i];
        docBits = max === 0 ? 0 : 32 - Math.clz32(max);
        docOff = w.reserve(packedWords(count, docBits) * 4);
        packInto(w.words32, docOff >>> 2, deltas, 0, count, docBits);
      }
    }
    const tfAt = (base + u32[s + 2]) >>> 2;
    const tfOff = copyWords(w, u32, tfAt, packedWords(count, tfBits));
    // the block's hit count: the term's in the part when it has one block, else the block's tfs summed
    let hits = count;
    if (blocks === 1) hits = u32[info + 1];
    else {
      unpackInto(tfm1, u32, tfAt, count, tfBits);
      for (let i = 0; i < count; i++) hits += tfm1[i];
    }
    const width = hitWidth(fmt);
    const posOff = copyWords(w, u32, (base + u32[s + 3]) >>> 2, packedWords(hits, width));
    stats.posBytes += Math.ceil((hits * width) / 8);
    last = u32[s] + rowBase;
    writeSkipEntry(w.words32, e, last, docOff, tfOff, posOff, count, docBits, tfBits, fmt);
  }
  return last;
}

/**
 * The parts holding each merged term, in part order, with the term's number in each: merged term m's
 * are part[k] and term[k] for k in [start[m], start[m + 1]). One pass over the parts' maps, where
 * asking every part about every merged term took parts x terms steps (a fifth of a merge's own time).
 * `to[s]` maps part s's terms into the merged dictionary (-1: a pair the merge drops).
 */
function holdersOf(to: Int32Array[], terms: number): { start: Int32Array; part: Int32Array; term: Int32Array } {
  const start = new Int32Array(terms + 1);
  for (const map of to) for (let t = 0; t < map.length; t++) if (map[t] >= 0) start[map[t] + 1]++;
  for (let m = 0; m < terms; m++) start[m + 1] += start[m];
  const part = new Int32Array(start[terms]);
  const term = new Int32Array(start[terms]);
  const fill = start.slice(0, terms);
  to.forEach((map, s) => {
    for (let t = 0; t < map.length; t++) {
      const m = map[t];
      if (m < 0) continue;
      const k = fill[m]++;
      part[k] = s;
      term[k] = t;
    }
  });
  return { start, part, term };
}

/** A copied term may have this share more blocks than a fresh encoding (ceil(df / BLOCK_LEN)), else it is re-encoded. */
const SHORT_BLOCK_SLACK = 0.25;

/** Encodes the postings `flat` holds afresh, in full blocks at the writer's end. */
function encodeFlat(w: ByteWriter, flat: FlatPostings, stats: { posBytes: number }): EncodedTerm {
  const table: PostingsTable = {
    terms: [], rowStart: Uint32Array.of(0, flat.nRows), rows: flat.rows, tfs: flat.tfs, posStart: Uint32Array.of(0, flat.nHits), positions: flat.hits,
  };
  return encodePostings(w, table, 0, stats);
}

/**
 * Builds the merged segment of `segments` (none with a deleted row) whose rows are `rows`, over the
 * merged dictionary `terms` (`to[s]` maps part s's term numbers into it, mergedTerms(); `maps[s]` its rows).
 */
export function concatSegments(schema: IndexSchema, segments: MergePart[], rows: SegmentRows, terms: string[], to: Int32Array[], maps: Int32Array[],
  lacking: Map<number, number[]>): BuiltSegment {
  const flat = new FlatPostings();
  const filler = new PairFiller(segments, terms, lacking, maps);
  let rowBase = 0;
  let sizeGuess = 0;
  const parts: PartPostings[] = segments.map((seg) => {
    const u32 = seg.words();
    const hdr = seg.blobPtr >>> 2;
    const p = { u32, base: seg.blobPtr, termTable: (seg.blobPtr + u32[hdr + H.termTable]) >>> 2, rowBase };
    rowBase += seg.rows;
    sizeGuess += u32[hdr + H.total];
    return p;
  });
  const { start, part, term } = holdersOf(to, terms.length);
  return writeSegment(schema, rows, terms, sizeGuess + 64, (w, m, stats, entry) => {
    let blocks = 0;
    let df = 0;
    let hits = 0;
    const from = start[m];
    const end = start[m + 1];
    for (let k = from; k < end; k++) {
      const { u32, termTable } = parts[part[k]];
      const info = termTable + term[k] * TERM_INFO_WORDS;
      df += u32[info];
      hits += u32[info + 1];
      blocks += u32[info + 3];
    }
    // parts' runs ending in short blocks (a rare term: one short block per part) would make the copy
    // outgrow a fresh encoding's blocks, and with them the segment and its skips: re-encode such a
    // term; so too a pair term some parts lack, built there from its words' positions (pair-fill.ts)
    const missing = lacking.get(m);
    const ideal = Math.ceil(df / BLOCK_LEN);
    if (missing || (end - from > 1 && blocks > ideal + Math.max(1, Math.floor(ideal * SHORT_BLOCK_SLACK)))) {
      flat.reset(df, hits);
      // in part order: the holders' postings and the lacking parts' built pairs
      for (let s = 0, k = from; s < parts.length; s++) {
        if (k < end && part[k] === s) { flat.append(segments[s], parts[s].u32, term[k], maps[s]); k++; }
        else if (missing?.includes(s)) filler.append(flat, s, m);
      }
      const at = encodeFlat(w, flat, stats);
      entry[0] = flat.nRows;
      entry[1] = flat.nHits;
      entry[2] = at.skipOff;
      entry[3] = Math.ceil(flat.nRows / BLOCK_LEN);
      entry[4] = at.blockMaxOff;
      return;
    }
    w.align(4);
    const skipOff = w.reserve(blocks * SKIP_WORDS * 4);
    const blockMaxOff = w.reserve(blocks * 4);
    let e = skipOff >>> 2;
    let bm = blockMaxOff >>> 2;
    let last = 0;
    for (let k = from; k < end; k++) {
      const s = part[k];
      const t = term[k];
      last = copyTermBlocks(w, parts[s], t, e, bm, last, stats);
      const n = parts[s].u32[parts[s].termTable + t * TERM_INFO_WORDS + 3];
      e += n * SKIP_WORDS;
      bm += n;
    }
    entry[0] = df;
    entry[1] = hits;
    entry[2] = skipOff;
    entry[3] = blocks;
    entry[4] = blockMaxOff;
  });
}
