/** lmdb key layouts: big-endian so that byte order is numeric order within a table generation. */
import { SearchError } from '../util/errors.js';
import { fitsI64 } from './values/value-codec.js';

/*
 * A table's records live under its generation number `gen` (u32, fresh on CREATE and TRUNCATE),
 * so TRUNCATE and DROP switch generations in one small transaction and old ranges are collected later.
 *   gen key : | gen u32 BE |                                  (4 bytes)
 *   doc key : | gen u32 BE | docId u64 BE, sign bit flipped |   (12 bytes: signed ids sort numerically)
 *   op key  : | gen u32 BE | seq u64 BE |                       (12 bytes: a write call's last seq)
 */
export const GEN_KEY_LEN = 4;
export const ROW_KEY_LEN = 12;
/** Largest generation number; the range end of a generation is the next one's key. */
export const MAX_GEN = 0xfffffffe;
const SIGN = 1n << 63n;
const U64_MAX = (1n << 64n) - 1n;

export function genKey(gen: number): Buffer {
  const k = Buffer.allocUnsafe(GEN_KEY_LEN);
  k.writeUInt32BE(gen, 0);
  return k;
}

/** Throws BAD_VALUE unless `docId` is a signed 64-bit integer. */
export function checkDocId(docId: bigint): void {
  if (typeof docId !== 'bigint' || !fitsI64(docId)) {
    throw new SearchError('BAD_VALUE', `document id out of range: ${String(docId)}`);
  }
}

export function docKey(gen: number, docId: bigint): Buffer {
  return writeDocKey(Buffer.allocUnsafe(ROW_KEY_LEN), gen, docId);
}

/** docKey written into `out` (ROW_KEY_LEN bytes), for reads that pass one buffer for every key. */
export function writeDocKey(out: Buffer, gen: number, docId: bigint): Buffer {
  checkDocId(docId);
  out.writeUInt32BE(gen, 0);
  // the id's two's complement with its sign bit flipped: (docId as u64) ^ SIGN without two BigInts per key
  // (keys come from Buffer's shared pool: one view serves the pool's many keys)
  const at = out.byteOffset + 4;
  if (keyView?.buffer !== out.buffer) keyView = new DataView(out.buffer);
  keyView.setBigInt64(at, docId, false);
  out[4] ^= 0x80;
  return out;
}

/** The DataView writeDocKey last wrote through (over the memory of the key it wrote). */
let keyView: DataView | undefined;

export function docIdOf(key: Buffer): bigint {
  return BigInt.asIntN(64, key.readBigUInt64BE(4) ^ SIGN);
}

export function opKey(gen: number, seq: bigint): Buffer {
  if (seq < 0n || seq > U64_MAX) throw new SearchError('BAD_VALUE', `sequence out of range: ${seq}`);
  const k = Buffer.allocUnsafe(ROW_KEY_LEN);
  k.writeUInt32BE(gen, 0);
  k.writeBigUInt64BE(seq, 4);
  return k;
}

export function seqOf(key: Buffer): bigint {
  return key.readBigUInt64BE(4);
}

export function genOf(key: Buffer): number {
  return key.readUInt32BE(0);
}

/** Key range (end exclusive) of every row of one generation. */
export function genRange(gen: number): { start: Buffer; end: Buffer } {
  return { start: genKey(gen), end: genKey(gen + 1) };
}

/** Key range of a generation's ops with seq > `after`. */
export function opsAfter(gen: number, after: bigint): { start: Buffer; end: Buffer } {
  const start = after >= U64_MAX ? genKey(gen + 1) : opKey(gen, after < 0n ? 0n : after + 1n);
  return { start, end: genKey(gen + 1) };
}

/** Key range of a generation's ops with seq <= `upto`. */
export function opsUpTo(gen: number, upto: bigint): { start: Buffer; end: Buffer } {
  const end = upto >= U64_MAX ? genKey(gen + 1) : opKey(gen, upto < 0n ? 0n : upto + 1n);
  return { start: genKey(gen), end };
}

/** A u64 (a sequence number) as 8 big-endian bytes, for the per-generation sequence record. */
export function u64Bytes(v: bigint): Buffer {
  const b = Buffer.allocUnsafe(8);
  b.writeBigUInt64BE(v, 0);
  return b;
}

export function u64Of(b: Buffer): bigint {
  return b.readBigUInt64BE(0);
}
