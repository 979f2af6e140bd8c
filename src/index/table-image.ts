/**
 * A table exported for a page (`quarry export`): one read-only image holding the table's segments
 * merged into one segment file (segment-codec.ts: the blob the core reads directly, no re-indexing),
 * the stored documents in row order, and what the page needs to parse, rank and highlight as the
 * server does (schema, text settings, the files those settings name).
 * Layout: | magic "QIMG" | version | manifestLen | segmentLen | docsLen | manifest JSON | segment file | docs JSON |.
 */
import type { Column, TableSettings } from '../schema/types.js';
import { SearchError } from '../util/errors.js';
import type { IndexSchema } from './types.js';

export const IMAGE_MAGIC = 0x474d4951; // "QIMG"
export const IMAGE_VERSION = 1;
const HEADER_BYTES = 20;

/** What a page knows of the table besides postings and documents. */
export interface ImageManifest {
  table: string;
  /** Every column but the id, as DESCRIBE lists them. */
  columns: Column[];
  index: IndexSchema;
  settings: TableSettings;
  /** Text of the files the settings name (stopwords, wordforms, exceptions), by path as written there. */
  files: Record<string, string>;
  /** Documents in the image (rows of the segment). */
  rows: number;
}

/**
 * A stored document as the page returns it: stored text fields and attributes; 64-bit integers
 * beyond 2^53 as decimal strings, the others as numbers.
 */
export type PageDoc = Record<string, unknown>;

export interface TableImage {
  manifest: ImageManifest;
  /** A segment file (segment-codec.ts serializeSegment). */
  segment: Uint8Array;
  /** One per row of the segment, in row order. */
  docs: PageDoc[];
}

/** A bigint as JSON can carry it exactly: a number up to 2^53, a decimal string beyond. */
export function exactNumber(v: bigint): number | string {
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
}

/** A stored value for JSON (bigints via exactNumber, multi-values element-wise). */
export function pageValue(v: unknown): unknown {
  if (typeof v === 'bigint') return exactNumber(v);
  if (Array.isArray(v)) return v.map(pageValue);
  return v;
}

export function encodeImage(image: TableImage): Uint8Array {
  const enc = new TextEncoder();
  const manifest = enc.encode(JSON.stringify(image.manifest));
  const docs = enc.encode(JSON.stringify(image.docs));
  const out = new Uint8Array(HEADER_BYTES + manifest.length + image.segment.length + docs.length);
  const dv = new DataView(out.buffer);
  [IMAGE_MAGIC, IMAGE_VERSION, manifest.length, image.segment.length, docs.length].forEach((v, i) => dv.setUint32(i * 4, v, true));
  out.set(manifest, HEADER_BYTES);
  out.set(image.segment, HEADER_BYTES + manifest.length);
  out.set(docs, HEADER_BYTES + manifest.length + image.segment.length);
  return out;
}

export function decodeImage(bytes: Uint8Array): TableImage {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < HEADER_BYTES || dv.getUint32(0, true) !== IMAGE_MAGIC) throw new SearchError('INTERNAL', 'not a quarry table image');
  const version = dv.getUint32(4, true);
  if (version !== IMAGE_VERSION) throw new SearchError('INTERNAL', `unsupported table image version ${version}`);
  const [mLen, sLen, dLen] = [dv.getUint32(8, true), dv.getUint32(12, true), dv.getUint32(16, true)];
  if (HEADER_BYTES + mLen + sLen + dLen > bytes.length) throw new SearchError('INTERNAL', 'truncated quarry table image');
  const dec = new TextDecoder();
  const at = HEADER_BYTES + mLen;
  return {
    manifest: JSON.parse(dec.decode(bytes.subarray(HEADER_BYTES, at))) as ImageManifest,
    segment: bytes.subarray(at, at + sLen),
    docs: JSON.parse(dec.decode(bytes.subarray(at + sLen, at + sLen + dLen))) as PageDoc[],
  };
}
