// The segment blob: one contiguous, relocatable byte range; every offset is relative to its start.
//
// Header (u32 words):
// | 0 magic | 1 version | 2 numRows | 3 numTerms | 4 numFields | 5 numCols | 6 termTableOff |
// | 7 colTableOff | 8 fieldLenOff | 9 positionBytes (all blocks' hits; a statistic) | 10 totalBytes |
// | 11..15 reserved |
// Term table entry (TERM_INFO_WORDS u32): | df | totalHits | skipOff | numBlocks | blockMaxOff |
//   blockMaxOff: the term's block-max words, one u32 per block right after its skip table,
//   | maxTf (16 bits, saturated) | fields (16 bits: fields 0..14 a bit each, bit 15 any from 15 up) |,
//   for top-K pruning (plan/prune.ts); 0 in segments written before them (bounds then come from
//   tfBits and every field).
// Skip entry per block (SKIP_WORDS u32):
// | lastRowId | docOff | tfOff | posOff | count | docBits | tfBits | posFmt |
//   docOff/tfOff: byte offsets of the packed rowId deltas / (tf-1) values; posOff: byte offset of
//   the block's hits, row after row, bit-packed in format posFmt (| fieldBits | posBits << 8 |,
//   postings/positions.ts), right after the tf run. A term's skip table and blocks are one range.
// Column table entry (2 u32): | type (COL_*) | dataOff (0 when the column lives in the host) |
//   column 0 is the document id (i64); attribute i is column i+1.
// Field lengths: numRows * numFields u32, row-major.

export const SEGMENT_MAGIC: u32 = 0x31475351; // "QSG1"
export const SEGMENT_VERSION: u32 = 2;
export const HEADER_WORDS: u32 = 16;

export const H_MAGIC: u32 = 0;
export const H_VERSION: u32 = 1;
export const H_ROWS: u32 = 2;
export const H_TERMS: u32 = 3;
export const H_FIELDS: u32 = 4;
export const H_COLS: u32 = 5;
export const H_TERM_TABLE: u32 = 6;
export const H_COL_TABLE: u32 = 7;
export const H_FIELD_LEN: u32 = 8;
export const H_POS_BYTES: u32 = 9;
export const H_TOTAL: u32 = 10;

export const TERM_INFO_WORDS: u32 = 5;
export const SKIP_WORDS: u32 = 8;

export const COL_NONE: u32 = 0;
export const COL_U32: u32 = 1;
export const COL_I64: u32 = 2;
export const COL_F32: u32 = 3;

/** A segment descriptor the host allocates next to the blob: | blobPtr | deletedPtr (0 = none) |. */
export const DESC_BLOB: u32 = 0;
export const DESC_DELETED: u32 = 4;

@inline export function hdr(blob: usize, word: u32): u32 {
  return load<u32>(blob + (<usize>word << 2));
}

/** Absolute address of column `col`'s data, or 0 when the column is not in the core. */
export function columnPtr(blob: usize, col: u32): usize {
  if (col >= hdr(blob, H_COLS)) return 0;
  const e = blob + hdr(blob, H_COL_TABLE) + (<usize>col << 3);
  const off = load<u32>(e, 4);
  return off == 0 ? 0 : blob + off;
}

export function columnType(blob: usize, col: u32): u32 {
  if (col >= hdr(blob, H_COLS)) return COL_NONE;
  return load<u32>(blob + hdr(blob, H_COL_TABLE) + (<usize>col << 3));
}

/** True when `row` is set in the bitmap at `bits` (0 = no bitmap: never set). */
@inline export function bitIsSet(bits: usize, row: u32): bool {
  return bits != 0 && ((load<u8>(bits + (row >>> 3)) >>> (row & 7)) & 1) != 0;
}
