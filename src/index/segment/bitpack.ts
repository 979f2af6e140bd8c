/** Host side of the postings block format: bit widths and LSB-first packing (the core unpacks). */

/** Bytes of zeros after every packed run: the core reads 8 bytes at a time. */
export const PACK_PADDING = 8;

/** Bits needed for the largest of values[start, start+n). */
export function bitWidth(values: ArrayLike<number>, start: number, n: number): number {
  let max = 0;
  for (let i = start; i < start + n; i++) max = (max | values[i]) >>> 0;
  return max === 0 ? 0 : 32 - Math.clz32(max);
}

/** Words a packed run of n values at `bits` takes, padding included. */
export function packedWords(n: number, bits: number): number {
  return Math.ceil((n * bits) / 32) + PACK_PADDING / 4;
}

/** Packs values[start, start+n) at `bits` each into u32 words (LSB first), plus padding words. */
export function packBits(values: ArrayLike<number>, start: number, n: number, bits: number): Uint32Array {
  const words = new Uint32Array(packedWords(n, bits));
  packInto(words, 0, values, start, n, bits);
  return words;
}

/**
 * Packs into `words` from index `at` (which must be zeroed); the run takes packedWords(n, bits).
 * Each word is written once, from an accumulator of the bits not yet stored.
 */
export function packInto(words: Uint32Array, at: number, values: ArrayLike<number>, start: number, n: number, bits: number): void {
  if (bits === 0) return;
  let w = at;
  let acc = 0;
  let fill = 0; // bits held in acc, < 32
  for (let i = start; i < start + n; i++) {
    const v = values[i];
    acc |= v << fill;
    fill += bits;
    if (fill >= 32) {
      words[w++] = acc;
      fill -= 32;
      // the bits of v that did not fit (none when v ended on the word's last bit)
      acc = fill === 0 ? 0 : v >>> (bits - fill);
    }
  }
  if (fill > 0) words[w] = acc;
}

/** Reads `n` values of `bits` bits from `words` (LSB first): the host twin of the core's unpack. */
export function unpackBits(words: Uint32Array, n: number, bits: number): Uint32Array {
  const out = new Uint32Array(n);
  unpackInto(out, words, 0, n, bits);
  return out;
}

/**
 * unpackBits into `out[0, n)` from `words` at word index `at`, without allocating (merges unpack
 * every block of every term; a fresh array per block was a large share of their garbage).
 */
export function unpackInto(out: Uint32Array, words: Uint32Array, at: number, n: number, bits: number): void {
  if (bits === 0) { out.fill(0, 0, n); return; }
  const mask = bits === 32 ? 0xffffffff : (1 << bits) - 1;
  // relative bit offsets, as in packInto: segments placed past 512 MiB of core memory read right
  let bitPos = 0;
  for (let i = 0; i < n; i++) {
    const w = at + (bitPos >>> 5);
    const off = bitPos & 31;
    let v = words[w] >>> off;
    if (off + bits > 32) v = (v | (words[w + 1] << (32 - off))) >>> 0;
    out[i] = (v & mask) >>> 0;
    bitPos += bits;
  }
}
