// PostingsCursor: walks one term's postings in a segment blob, block by block, with skip data.
//
// A cursor is a struct in linear memory (CURSOR_BYTES, 16-aligned):
// | 0 blob | 4 skipPtr | 8 numBlocks | 12 blockIdx | 16 idx | 20 len | 24 rowId | 28 tfReady |
// | 32 df | 36 posArea | 40 posFmt | 44 posPtr | 48 hitsRow | 52 blockMax | 56 spanReads | 60 reserved | 64 docs[128] |
// | 576 tfs[128] | 1088 posStart[128] | 1600 hits[INLINE_HITS] |
// posStart: each row's first hit, counted from the block's first. posArea = 0: the hits are
// packed in the blob (postings/positions.ts) at posPtr in format posFmt; a merged list
// (merged.ts) sets posArea to its decoded u32 hits instead. hits: row hitsRow - 1's hits,
// unpacked (0 = none), so reading a row's hits again (filter, ranker, fields) costs nothing.
// blockMax: the term's block-max words in the blob (0 = a segment written without them).
// Contract: rowId is the current row or TERMINATED; advance()/seek(t) return it; seek lands on
// the first row >= t and never moves backwards.

import { TERMINATED } from "../util/codes";
import { unpackOne, unpackTfs, unpackRows, tfsBefore } from "./bitpack";
import { hitsScratch, unpackHits } from "./positions";
import { hdr, H_TERMS, H_TERM_TABLE, TERM_INFO_WORDS, SKIP_WORDS } from "../segment/layout";

/** Hits a cursor keeps decoded in itself; a row with more is decoded into the scratch at each read. */
export const INLINE_HITS: u32 = 64;
export const CURSOR_BYTES: usize = 1600 + (<usize>INLINE_HITS << 2);
// field offsets; the ones exported are the fields a merged list's cursor (merged.ts) fills
const C_BLOB: usize = 0;
const C_SKIP: usize = 4;
const C_NBLOCKS: usize = 8;
const C_BLOCK: usize = 12;
export const C_IDX: usize = 16;
const C_LEN: usize = 20;
export const C_ROW: usize = 24;
export const C_TF_READY: usize = 28;
export const C_DF: usize = 32;
export const C_POS_AREA: usize = 36;
const C_POS_FMT: usize = 40;
const C_POS_PTR: usize = 44;
const C_HITS_ROW: usize = 48;
const C_BLOCK_MAX: usize = 52;
const C_SPAN_READS: usize = 56;
const C_HITS: usize = 1600;
const C_DOCS: usize = 64;
export const C_TFS: usize = 576;
export const C_POS_START: usize = 1088;

@inline function skipEntry(c: usize, block: u32): usize {
  return <usize>load<u32>(c + C_SKIP) + (<usize>block * SKIP_WORDS << 2);
}

/** Sets the cursor on the first row of term `termId`; an out-of-range term is empty. */
export function cursorInit(c: usize, blob: usize, termId: u32): u32 {
  store<u32>(c + C_BLOB, <u32>blob);
  store<u32>(c + C_POS_AREA, 0);
  store<u32>(c + C_BLOCK_MAX, 0);
  if (termId >= hdr(blob, H_TERMS)) {
    store<u32>(c + C_NBLOCKS, 0);
    store<u32>(c + C_DF, 0);
    store<u32>(c + C_ROW, TERMINATED);
    return TERMINATED;
  }
  const info = blob + hdr(blob, H_TERM_TABLE) + (<usize>termId * TERM_INFO_WORDS << 2);
  store<u32>(c + C_DF, load<u32>(info));
  store<u32>(c + C_SKIP, <u32>(blob + load<u32>(info, 8)));
  store<u32>(c + C_NBLOCKS, load<u32>(info, 12));
  const bmax = load<u32>(info, 16);
  store<u32>(c + C_BLOCK_MAX, bmax == 0 ? 0 : <u32>(blob + bmax));
  return loadBlock(c, 0);
}

/** Decodes block `b`'s rowIds and puts the cursor on its first row (TERMINATED past the end). */
export function loadBlock(c: usize, b: u32): u32 {
  store<u32>(c + C_BLOCK, b);
  if (b >= load<u32>(c + C_NBLOCKS)) {
    store<u32>(c + C_ROW, TERMINATED);
    return TERMINATED;
  }
  const blob = <usize>load<u32>(c + C_BLOB);
  const e = skipEntry(c, b);
  const n = <i32>load<u32>(e, 16);
  unpackRows(blob + load<u32>(e, 4), n, load<u32>(e, 20), b == 0 ? 0 : load<u32>(skipEntry(c, b - 1)), c + C_DOCS);
  store<u32>(c + C_LEN, <u32>n);
  store<u32>(c + C_IDX, 0);
  store<u32>(c + C_TF_READY, 0);
  store<u32>(c + C_POS_FMT, load<u32>(e, 28));
  store<u32>(c + C_POS_PTR, <u32>(blob + load<u32>(e, 12)));
  store<u32>(c + C_HITS_ROW, 0);
  store<u32>(c + C_SPAN_READS, 0);
  const row = load<u32>(c + C_DOCS);
  store<u32>(c + C_ROW, row);
  return row;
}

@inline export function cursorRow(c: usize): u32 {
  return load<u32>(c + C_ROW);
}

/** Document frequency of the term in this segment: the AND driver's cost. */
@inline export function cursorCost(c: usize): u32 {
  return load<u32>(c + C_DF);
}

export function cursorAdvance(c: usize): u32 {
  const row = load<u32>(c + C_ROW);
  if (row == TERMINATED) return row;
  const idx = load<u32>(c + C_IDX) + 1;
  if (idx < load<u32>(c + C_LEN)) {
    store<u32>(c + C_IDX, idx);
    const r = load<u32>(c + C_DOCS + (<usize>idx << 2));
    store<u32>(c + C_ROW, r);
    return r;
  }
  return loadBlock(c, load<u32>(c + C_BLOCK) + 1);
}

/** Moves to the first row >= target: skips whole blocks by their last rowId, then scans. */
export function cursorSeek(c: usize, target: u32): u32 {
  let row = load<u32>(c + C_ROW);
  if (row >= target) return row;
  let b = load<u32>(c + C_BLOCK);
  const nb = load<u32>(c + C_NBLOCKS);
  if (load<u32>(skipEntry(c, b)) < target) {
    // gallop over the skip entries, then binary search the bracket
    let lo = b + 1;
    let step: u32 = 1;
    let hi = lo;
    while (hi < nb && load<u32>(skipEntry(c, hi)) < target) {
      lo = hi + 1;
      hi += step;
      step <<= 1;
    }
    if (hi > nb) hi = nb;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (load<u32>(skipEntry(c, mid)) < target) lo = mid + 1;
      else hi = mid;
    }
    if (loadBlock(c, lo) == TERMINATED) return TERMINATED;
  }
  // the answer is inside the current block
  let idx = load<u32>(c + C_IDX);
  const len = load<u32>(c + C_LEN);
  const docs = c + C_DOCS;
  // four rows a compare while all four are below the target (a dense list under a sparse driver)
  const t4 = i32x4.splat(target);
  while (idx + 4 <= len) {
    const below = i32x4.bitmask(i32x4.lt_u(v128.load(docs + (<usize>idx << 2)), t4));
    if (below != 0xf) {
      idx += <u32>popcnt(below);
      break;
    }
    idx += 4;
  }
  while (idx < len && load<u32>(docs + (<usize>idx << 2)) < target) idx++;
  store<u32>(c + C_IDX, idx);
  row = load<u32>(docs + (<usize>idx << 2));
  store<u32>(c + C_ROW, row);
  return row;
}

/**
 * cursorSeek() for a target at most a few rows ahead (an AND of dense terms counting its rows,
 * plan/bounded-runs.ts andRows): the next rows of the decoded block are compared one by one, and only a
 * target past them takes cursorSeek()'s skip-entry test, gallop and four-wide scan.
 */
@inline export function cursorSeekNear(c: usize, target: u32): u32 {
  const row = load<u32>(c + C_ROW);
  if (row >= target) return row;
  const len = load<u32>(c + C_LEN);
  let idx = load<u32>(c + C_IDX) + 1;
  const stop = min(idx + NEAR_ROWS, len);
  const docs = c + C_DOCS;
  for (; idx < stop; idx++) {
    const r = load<u32>(docs + (<usize>idx << 2));
    if (r >= target) {
      store<u32>(c + C_IDX, idx);
      store<u32>(c + C_ROW, r);
      return r;
    }
  }
  return cursorSeek(c, target);
}

/** Rows cursorSeekNear() compares before it leaves the target to cursorSeek(). */
const NEAR_ROWS: u32 = 4;

export function ensureTfs(c: usize): void {
  if (load<u32>(c + C_TF_READY) != 0) return;
  const blob = <usize>load<u32>(c + C_BLOB);
  const e = skipEntry(c, load<u32>(c + C_BLOCK));
  const n = <i32>load<u32>(c + C_LEN);
  unpackTfs(blob + load<u32>(e, 8), n, load<u32>(e, 24), c + C_TFS, c + C_POS_START);
  store<u32>(c + C_TF_READY, 1);
}

/**
 * Hits of the term in the current row, over all fields. Before the block's tfs are decoded (a row's
 * hits are read), only the row's own tf is unpacked: a dense term under AND has a few candidate rows
 * per block, whose bounds (plan/prune.ts) need their tf and nothing else of the block.
 */
@inline export function cursorTf(c: usize): u32 {
  const idx = load<u32>(c + C_IDX);
  if (load<u32>(c + C_TF_READY) != 0) return load<u32>(c + C_TFS + (<usize>idx << 2));
  return cursorTfPacked(c, idx);
}

/** cursorTf() of a block whose tfs are not decoded: the row's own, unpacked alone. */
function cursorTfPacked(c: usize, idx: u32): u32 {
  const e = skipEntry(c, load<u32>(c + C_BLOCK));
  return unpackOne(<usize>load<u32>(c + C_BLOB) + load<u32>(e, 8), idx, load<u32>(e, 24)) + 1;
}

/**
 * Address of the current row's first hitpos; cursorTf() of them follow, ascending. A row is
 * unpacked once, into the cursor; one of more than INLINE_HITS hits into a scratch vector that the
 * next such read (on any cursor) overwrites: read them before reading another cursor's.
 */
export function cursorPositions(c: usize): usize {
  const idx = load<u32>(c + C_IDX);
  const area = <usize>load<u32>(c + C_POS_AREA);
  if (area != 0) {
    ensureTfs(c);
    return area + (<usize>load<u32>(c + C_POS_START + (<usize>idx << 2)) << 2);
  }
  if (load<u32>(c + C_HITS_ROW) == idx + 1) return c + C_HITS;
  let tf: u32;
  let first: u32;
  const reads = load<u32>(c + C_SPAN_READS);
  if (load<u32>(c + C_TF_READY) == 0 && reads < SPAN_READS) {
    // the row's hit span from the tfs before it, summed without storing the block's
    store<u32>(c + C_SPAN_READS, reads + 1);
    const e = skipEntry(c, load<u32>(c + C_BLOCK));
    const src = <usize>load<u32>(c + C_BLOB) + load<u32>(e, 8);
    const bits = load<u32>(e, 24);
    first = tfsBefore(src, idx, bits);
    tf = unpackOne(src, idx, bits) + 1;
  } else {
    ensureTfs(c);
    tf = load<u32>(c + C_TFS + (<usize>idx << 2));
    first = load<u32>(c + C_POS_START + (<usize>idx << 2));
  }
  const src = <usize>load<u32>(c + C_POS_PTR);
  const fmt = load<u32>(c + C_POS_FMT);
  if (tf > INLINE_HITS) {
    const out = hitsScratch(tf);
    unpackHits(src, first, tf, fmt, out);
    return out;
  }
  unpackHits(src, first, tf, fmt, c + C_HITS);
  store<u32>(c + C_HITS_ROW, idx + 1);
  return c + C_HITS;
}

/**
 * Rows of a block whose hits cursorPositions() finds from a sum of the tfs before them before it
 * decodes the block's tfs whole: an AND's bound reads the hits of one or two rows of most blocks of
 * a dense word (10M "obs sides see": a block's 128 tfs and hit starts decoded for a row, ~40% of the
 * query's CPU), scoring reads every row's of the few blocks its rows stand in.
 */
const SPAN_READS: u32 = 2;

/**
 * The current block's bound for top-K pruning, | maxTf (16 bits) | fields (16 bits) | (the layout
 * in src/index/segment/postings-encoder.ts: fields 0..14 a bit each, bit 15 any field from 15 up).
 * A segment written without block-max words gives 2^tfBits (tf - 1 is packed in tfBits bits) and
 * every field. Only for a plain cursor on a row (not a merged list, not TERMINATED).
 */
export function cursorBlockMax(c: usize): u32 {
  return blockMaxAt(c, load<u32>(c + C_BLOCK));
}

/**
 * Counts the rows of the current block from the cursor's row on that are below `end` and not set
 * in `deleted` (its decoded row ids; nothing else of them is decoded). Does not move the cursor.
 */
export function cursorCountRest(c: usize, deleted: usize, end: u32): u32 {
  const len = load<u32>(c + C_LEN);
  const docs = c + C_DOCS;
  let n: u32 = 0;
  for (let i = load<u32>(c + C_IDX); i < len; i++) {
    const r = load<u32>(docs + (<usize>i << 2));
    if (r >= end) break;
    if (deleted == 0 || ((load<u8>(deleted + (r >>> 3)) >>> (r & 7)) & 1) == 0) n++;
  }
  return n;
}

/** The current block's index (cursorNumBlocks() past the last). */
@inline export function cursorBlock(c: usize): u32 {
  return load<u32>(c + C_BLOCK);
}

@inline export function cursorNumBlocks(c: usize): u32 {
  return load<u32>(c + C_NBLOCKS);
}

/** Block b's last row id and its row count, from its skip entry (nothing decoded). */
@inline export function blockLastRow(c: usize, b: u32): u32 {
  return load<u32>(skipEntry(c, b));
}
@inline export function blockRows(c: usize, b: u32): u32 {
  return load<u32>(skipEntry(c, b), 16);
}

/** Block b's block-max word (cursorBlockMax() of a block the cursor is not on). */
export function blockMaxAt(c: usize, b: u32): u32 {
  const words = <usize>load<u32>(c + C_BLOCK_MAX);
  if (words != 0) return load<u32>(words + (<usize>b << 2));
  const tfBits = load<u32>(skipEntry(c, b), 24);
  return (tfBits >= 16 ? <u32>0xffff : <u32>1 << tfBits) | 0xffff0000;
}

/** Size of a cursor struct, for hosts that drive cursors directly (tests, benches). */
export function cursorBytes(): u32 {
  return <u32>CURSOR_BYTES;
}
