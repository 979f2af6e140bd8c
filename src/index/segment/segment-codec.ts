/**
 * Segment files: serializeSegment() / loadSegment(). Layout: | magic "QSGF" | format version |
 * metaLen | blobLen | deletedLen | meta JSON (terms, host columns) | blob | deleted bitmap |.
 * The blob is the core's own segment format, with current attribute values.
 */
import type { AttrValue, IndexSchema } from '../types.js';
import type { Core } from '../../wasm/core.js';
import { Segment } from './segment.js';
import { SearchError } from '../../util/errors.js';

export const SEGMENT_FILE_MAGIC = 0x46475351; // "QSGF"
export const SEGMENT_FILE_VERSION = 2;

type Json = string | number | null | Json[];

function encodeValue(v: AttrValue): Json {
  if (typeof v === 'bigint') return `${v}n`;
  if (Array.isArray(v)) return v.map((x) => `${x}n`);
  return v;
}

function decodeValue(v: Json): AttrValue {
  if (typeof v === 'string' && /^-?\d+n$/.test(v)) return BigInt(v.slice(0, -1));
  if (Array.isArray(v)) return v.map((x) => BigInt(String(x).slice(0, -1)));
  return v as AttrValue;
}

/** Strings are kept as JSON strings; a string that looks like `123n` is escaped with a leading 's'. */
function encodeHost(v: AttrValue): Json {
  if (typeof v === 'string') return `s${v}`;
  return encodeValue(v);
}
function decodeHost(v: Json): AttrValue {
  if (typeof v === 'string' && v.startsWith('s')) return v.slice(1);
  return decodeValue(v);
}

export function serializeSegment(seg: Segment): Uint8Array {
  const { out, blobAt } = fileFrame(seg);
  seg.copyBlobInto(out, blobAt); // straight from core memory: no intermediate copy
  out.set(seg.deletedBitmap(), blobAt + seg.blobLen);
  return out;
}

/**
 * A segment file's bytes with all but the blob and the deleted bitmap written, and where the blob goes;
 * without `whole`, only the bytes before the blob.
 */
function fileFrame(seg: Segment, whole = true): { out: Uint8Array; blobAt: number } {
  const meta = new TextEncoder().encode(JSON.stringify({
    terms: seg.terms,
    hostCols: seg.hostCols.map((c) => (c ? c.map(encodeHost) : null)),
  }));
  const deletedLen = (seg.rows + 7) >>> 3;
  const out = new Uint8Array(20 + meta.length + (whole ? seg.blobLen + deletedLen : 0));
  const dv = new DataView(out.buffer);
  [SEGMENT_FILE_MAGIC, SEGMENT_FILE_VERSION, meta.length, seg.blobLen, deletedLen].forEach((v, i) => dv.setUint32(i * 4, v, true));
  out.set(meta, 20);
  return { out, blobAt: 20 + meta.length };
}

/**
 * Blob bytes serializeSegmentInTurns copies in one event-loop turn (a few ms; tests lower it): at 10M documents the idle
 * compaction's segment is hundreds of MiB, and the checkpoint after it copied it in one go on the
 * protocol thread, a stall of every query behind it (session 14: one query per 10M run took 213-673 ms).
 */
export const SERIALIZE_SLICE = { bytes: 8 << 20 };

/**
 * serializeSegment with the blob copied a slice per event-loop turn. The caller holds the table's
 * write lock (no UPDATE or DELETE changes the segment in between); the segment is pinned, so a merge
 * that swaps it out meanwhile frees its memory only once the copy is done.
 */
export async function serializeSegmentInTurns(seg: Segment): Promise<Uint8Array> {
  const slice = SERIALIZE_SLICE.bytes;
  if (seg.blobLen <= slice) return serializeSegment(seg);
  seg.pin();
  try {
    const { out, blobAt } = fileFrame(seg);
    for (let from = 0; from < seg.blobLen; from += slice) {
      await new Promise<void>((r) => { setImmediate(r); });
      seg.copyBlobInto(out, blobAt, from, Math.min(seg.blobLen, from + slice));
    }
    out.set(seg.deletedBitmap(), blobAt + seg.blobLen);
    return out;
  } finally {
    seg.unpin();
  }
}

/**
 * The segment's file as pieces to write in order (SegmentEntry.bytes): its frame, its blob as a view of the
 * core's memory (not copied), its deleted bitmap; undefined over a core whose memory is not shared, where a
 * memory growth would detach the view (serializeSegmentInTurns copies it there). The caller keeps the
 * segment pinned and unchanged (the table's write lock) until the pieces are written.
 */
export function segmentFilePieces(seg: Segment): Uint8Array[] | undefined {
  const u8 = seg.core.u8;
  if (!(u8.buffer instanceof SharedArrayBuffer)) return undefined;
  const { out } = fileFrame(seg, false);
  return [out, u8.subarray(seg.blobPtr, seg.blobPtr + seg.blobLen), seg.deletedBitmap()];
}

export function loadSegment(bytes: Uint8Array, schema: IndexSchema, core: Core): Segment {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 20 || dv.getUint32(0, true) !== SEGMENT_FILE_MAGIC) throw new SearchError('INTERNAL', 'not a segment file');
  const version = dv.getUint32(4, true);
  if (version !== SEGMENT_FILE_VERSION) throw new SearchError('INTERNAL', `unsupported segment file version ${version}`);
  const metaLen = dv.getUint32(8, true);
  const blobLen = dv.getUint32(12, true);
  const delLen = dv.getUint32(16, true);
  const meta = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + metaLen))) as { terms: string[]; hostCols: (Json[] | null)[] };
  const blob = bytes.slice(20 + metaLen, 20 + metaLen + blobLen);
  const deleted = bytes.slice(20 + metaLen + blobLen, 20 + metaLen + blobLen + delLen);
  const hostCols = meta.hostCols.map((c) => (c ? c.map(decodeHost) : null));
  return new Segment(core, schema, { blob, terms: meta.terms, hostCols }, deleted);
}
