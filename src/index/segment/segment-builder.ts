/**
 * Builds a segment blob: sorted term dictionary, postings blocks, field lengths, numeric attribute
 * columns (id first). Input is already inverted (invertDocs() for a batch, the merger for merges).
 */
export { invertDocs } from './doc-inverter.js';
import type { AttrValue, IndexSchema } from '../types.js';
import { ByteWriter } from './byte-writer.js';
import { ownStrings } from '../../util/own-strings.js';
import { encodePostings, type PostingsTable } from './postings-encoder.js';
import {
  BLOCK_LEN, COL_F32, COL_I64, COL_NONE, COL_U32, H, HEADER_BYTES, SEGMENT_MAGIC, SEGMENT_VERSION, SKIP_WORDS, TERM_INFO_WORDS,
  coreColumnType,
} from './segment-layout.js';

/** Everything a segment holds, inverted, before encoding. */
export interface InvertedBatch {
  rows: number;
  numFields: number;
  /** Every term's postings, terms sorted. */
  postings: PostingsTable;
  /** rows * numFields, row-major. */
  fieldLens: Uint32Array;
  docIds: BigInt64Array;
  /** One array per schema attribute, one value per row. */
  attrs: AttrValue[][];
}

export interface BuiltSegment {
  blob: Uint8Array;
  /** Sorted dictionary: term number = index. */
  terms: string[];
  /** Values of attributes the core does not hold (string, json, mva), per attribute; null for core ones. */
  hostCols: (AttrValue[] | null)[];
}

function u32Value(v: AttrValue): number {
  if (typeof v === 'bigint') return Number(BigInt.asUintN(32, v));
  if (typeof v === 'number') return v >>> 0;
  return 0;
}

/** Writes the numeric columns (id first, 8-aligned each); returns the column table entries. */
function writeColumns(w: ByteWriter, schema: IndexSchema, b: SegmentRows): number[] {
  const entries: number[] = [];
  w.align(8);
  const idOff = w.reserve(b.rows * 8);
  new BigInt64Array(w.bytes.buffer, idOff, b.rows).set(b.docIds);
  entries.push(COL_I64, idOff);
  schema.attrs.forEach((attr, a) => {
    const type = coreColumnType(attr.type);
    if (type === COL_NONE) { entries.push(COL_NONE, 0); return; }
    w.align(8);
    const width = type === COL_I64 ? 8 : 4;
    const off = w.reserve(b.rows * width);
    const values = b.attrs[a];
    if (type === COL_U32) {
      const col = new Uint32Array(w.bytes.buffer, off, b.rows);
      for (let r = 0; r < b.rows; r++) col[r] = u32Value(values[r]);
    } else if (type === COL_I64) {
      const col = new BigInt64Array(w.bytes.buffer, off, b.rows);
      for (let r = 0; r < b.rows; r++) col[r] = BigInt.asIntN(64, BigInt((values[r] as number | bigint | null) ?? 0));
    } else if (type === COL_F32) {
      const col = new Float32Array(w.bytes.buffer, off, b.rows);
      for (let r = 0; r < b.rows; r++) col[r] = Number(values[r] ?? 0);
    }
    entries.push(type, off);
  });
  return entries;
}

/**
 * About the blob's size, so the writer is made once at its size instead of doubling its way there:
 * columns exactly, postings as if each row took 2 bytes (deltas and tf-1 packed) and each hit 2 (hits
 * pack into 9-14 bits), plus each term's table entry, first skip entry and partly filled words.
 */
function blobBytesGuess(schema: IndexSchema, b: InvertedBatch): number {
  const p = b.postings;
  const postings = p.rowStart[p.terms.length] * 2 + p.terms.length * (TERM_INFO_WORDS + SKIP_WORDS + 7) * 4;
  const columns = b.rows * 8 * (1 + schema.attrs.length) + 16 * (2 + schema.attrs.length);
  return HEADER_BYTES + postings + columns + b.fieldLens.byteLength + p.posStart[p.terms.length] * 2 + 64;
}

export function buildSegment(schema: IndexSchema, b: InvertedBatch): BuiltSegment {
  const table = b.postings;
  // the dictionary outlives the statements its terms were tokenized from: it must not keep them alive
  const terms = table.termsOwned ? table.terms : ownStrings(table.terms);
  return writeSegment(schema, b, terms, blobBytesGuess(schema, b), (w, t, stats, entry) => {
    const { skipOff, blockMaxOff } = encodePostings(w, table, t, stats);
    entry[2] = skipOff;
    entry[4] = blockMaxOff;
    entry[0] = table.rowStart[t + 1] - table.rowStart[t];
    entry[1] = table.posStart[t + 1] - table.posStart[t];
    entry[3] = Math.ceil(entry[0] / BLOCK_LEN);
  });
}

/**
 * Writes term t's postings at the writer's end (adding the hits' bytes to `stats.posBytes`) and
 * sets its term-table entry: document frequency, hit count, skip table offset, block count, block-max
 * words' offset (0: none, the core bounds each block by its tf width).
 */
export type TermPostingsWriter = (w: ByteWriter, t: number, stats: { posBytes: number }, entry: Uint32Array) => void;

/** A segment's rows without their postings: what writeSegment takes beside a TermPostingsWriter. */
export type SegmentRows = Omit<InvertedBatch, 'postings'>;

/** Writes the blob: header, term table, each term's postings by `writeTerm`, columns, field lengths. */
export function writeSegment(schema: IndexSchema, b: SegmentRows, terms: string[], sizeGuess: number, writeTerm: TermPostingsWriter): BuiltSegment {
  const w = new ByteWriter(sizeGuess);
  w.reserve(HEADER_BYTES);
  const termTable = w.reserve(terms.length * TERM_INFO_WORDS * 4);
  const stats = { posBytes: 0 };
  const entry = new Uint32Array(TERM_INFO_WORDS);
  for (let t = 0; t < terms.length; t++) {
    writeTerm(w, t, stats, entry);
    const u32 = w.words32; // after the term's writes, which may have grown the buffer
    const e = (termTable >>> 2) + t * TERM_INFO_WORDS;
    for (let k = 0; k < TERM_INFO_WORDS; k++) u32[e + k] = entry[k];
  }
  // columns are written before the table that points at them; the table goes after
  const colEntries = writeColumns(w, schema, b);
  w.align(8);
  const colTable = w.reserve(colEntries.length * 4);
  colEntries.forEach((v, i) => w.setU32(colTable + i * 4, v));
  w.align(4);
  const fieldLen = w.length;
  w.words(b.fieldLens);
  const hdr = [SEGMENT_MAGIC, SEGMENT_VERSION, b.rows, terms.length, b.numFields, 1 + schema.attrs.length,
    termTable, colTable, fieldLen, stats.posBytes, 0];
  hdr.forEach((v, i) => w.setU32(i * 4, v));
  w.align(16);
  w.setU32(H.total * 4, w.length);
  const hostCols = schema.attrs.map((attr, a) => (coreColumnType(attr.type) === COL_NONE ? b.attrs[a].slice() : null));
  return { blob: w.finish(), terms, hostCols };
}
