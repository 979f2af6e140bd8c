/**
 * Checksums of the store's records: every document and op-log record carries a CRC-32 of its bytes
 * in its last four bytes, checked on every read. lmdb keeps its B-tree consistent but not the bytes
 * of a value (a bad sector, a stray write): a damaged record is refused with a STORAGE_ERROR instead
 * of being decoded into wrong data.
 */
import { crc32 } from 'node:zlib';
import { SearchError } from '../util/errors.js';

export const CHECK_BYTES = 4;

/** `bytes` followed by their CRC-32 (little-endian). */
export function seal(bytes: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(bytes.length + CHECK_BYTES);
  out.set(bytes, 0);
  out.writeUInt32LE(crc32(bytes), bytes.length);
  return out;
}

/** The record's bytes without their checksum; throws naming `what` when they do not match it. */
export function unseal(record: Buffer, what: () => string): Buffer {
  const end = record.length - CHECK_BYTES;
  if (end < 0 || crc32(record.subarray(0, end)) !== record.readUInt32LE(end)) {
    throw new SearchError('STORAGE_ERROR', `store of record damaged: ${what()} fails its checksum`);
  }
  return record.subarray(0, end);
}
