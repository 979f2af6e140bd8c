// Block decode kernels: bit-unpacking (LSB-first) and the delta prefix sum over a block of rowIds.

/** Rows per postings block; the last block of a term may be shorter. */
export const BLOCK_LEN: i32 = 128;

/**
 * Unpacks `n` values of `bits` bits each (0..32), packed LSB-first from byte `src`, into u32s at
 * `out`. Reads 8 bytes at a time, so the packed run must be followed by 8 readable bytes (the
 * segment builder pads every run).
 */
export function unpack(src: usize, n: i32, bits: u32, out: usize): void {
  if (bits == 0) {
    memory.fill(out, 0, <usize>n << 2);
    return;
  }
  if (bits == 32) {
    memory.copy(out, src, <usize>n << 2);
    return;
  }
  const mask: u64 = (<u64>1 << bits) - 1;
  let bitPos: usize = 0;
  for (let i = 0; i < n; i++) {
    const v = load<u64>(src + (bitPos >>> 3)) >>> <u64>(bitPos & 7);
    store<u32>(out + (<usize>i << 2), <u32>(v & mask));
    bitPos += bits;
  }
}

/** Value `i` of unpack()'s run (same layout and padding), without unpacking the others. */
export function unpackOne(src: usize, i: u32, bits: u32): u32 {
  if (bits == 0) return 0;
  if (bits == 32) return load<u32>(src + (<usize>i << 2));
  const bitPos = <usize>i * bits;
  return <u32>((load<u64>(src + (bitPos >>> 3)) >>> <u64>(bitPos & 7)) & ((<u64>1 << bits) - 1));
}

/** In-place prefix sum over `n` u32s at `ptr`; `base` is the previous block's last rowId (0 first). */
export function undelta(ptr: usize, n: i32, base: u32): void {
  // four at a time: a lane-shifted add twice gives each lane its sum within the four, then the carry
  const zero = i32x4.splat(0);
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const p = ptr + (<usize>i << 2);
    let x = v128.load(p);
    x = i32x4.add(x, v128.shuffle<i32>(zero, x, 0, 4, 5, 6));
    x = i32x4.add(x, v128.shuffle<i32>(zero, x, 0, 1, 4, 5));
    x = i32x4.add(x, i32x4.splat(base));
    v128.store(p, x);
    base = <u32>i32x4.extract_lane(x, 3);
  }
  for (; i < n; i++) {
    const p = ptr + (<usize>i << 2);
    base += load<u32>(p);
    store<u32>(p, base);
  }
}

/** Exclusive prefix sum of `n` term frequencies at `tfs` into `out`, starting at `start`. */
export function positionStarts(tfs: usize, n: i32, start: u32, out: usize): void {
  for (let i = 0; i < n; i++) {
    store<u32>(out + (<usize>i << 2), start);
    start += load<u32>(tfs + (<usize>i << 2));
  }
}
