// ORDER BY RAND() (searchd's @random sort, OPTION rand_seed): a row's key is its id (both words) mixed with
// the seed, a float in [0, 1) as Manticore's RAND() returns. The id and not the row position is hashed, so
// the same seed orders the same rows alike whatever segments hold them; every value is exact in f64.

import { columnPtr } from "../segment/layout";

/** murmur3's 32-bit finaliser: every input bit reaches every output bit. */
@inline function fmix(h: u32): u32 {
  h ^= h >>> 16;
  h *= 0x85ebca6b;
  h ^= h >>> 13;
  h *= 0xc2b2ae35;
  h ^= h >>> 16;
  return h;
}

/** The key of the id stored at `idPtr` (an i64, low word first). */
@inline export function randOfId(idPtr: usize, seed: u32): f64 {
  const lo = load<u32>(idPtr);
  const hi = load<u32>(idPtr, 4);
  const h = fmix(fmix(lo ^ seed) ^ ((hi ^ 0x9e3779b9) * 0x27d4eb2f) ^ seed);
  return <f64>h / 4294967296.0;
}

/** A whole column of keys (exprColumn's formula is RAND() alone): no interpreter round per row. */
export function randColumn(blob: usize, seed: u32, rows: u32, out: usize): void {
  const ids = columnPtr(blob, 0);
  for (let r: u32 = 0; r < rows; r++) store<f64>(out + (<usize>r << 3), randOfId(ids + (<usize>r << 3), seed));
}
