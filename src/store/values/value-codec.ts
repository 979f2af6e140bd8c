/** Exact binary codec for stored values: bigint stays bigint, number stays number, 64-bit included. */
import { corrupt } from './value-format.js';
import { ValueReader } from './value-reader.js';
import { ValueWriter } from './value-writer.js';

export { fitsI64 } from './value-format.js';
export { ValueReader } from './value-reader.js';
export { ValueWriter } from './value-writer.js';

/** One value to bytes. */
export function encodeValue(v: unknown): Buffer {
  // One writer reused across calls; a re-entrant call (from a getter) gets its own.
  const w = sharedWriter ?? new ValueWriter();
  sharedWriter = undefined;
  try {
    w.reset().value(v);
    return w.finish();
  } finally {
    sharedWriter = w;
  }
}
let sharedWriter: ValueWriter | undefined = new ValueWriter();

/** Bytes written by encodeValue back to the value. */
export function decodeValue(buf: Buffer): unknown {
  const r = new ValueReader(buf);
  const v = r.value();
  if (r.pos !== buf.length) throw corrupt();
  return v;
}
