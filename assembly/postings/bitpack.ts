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

/**
 * A block's term frequencies in one pass: unpacks `n` values of tf - 1 (unpack()'s layout and padding)
 * into tf at `tfs` and each row's first hit (the exclusive prefix sum, from 0) at `starts`. One pass
 * instead of unpack(), a +1 pass and a prefix-sum pass: a block whose rows' hits are read is decoded
 * whole (postings/cursor.ts ensureTfs), for one or two of its rows when an AND's bound reads them.
 */
export function unpackTfs(src: usize, n: i32, bits: u32, tfs: usize, starts: usize): void {
  const mask: u64 = bits >= 32 ? 0xffffffff : (<u64>1 << bits) - 1;
  let bitPos: usize = 0;
  let start: u32 = 0;
  for (let i = 0; i < n; i++) {
    const tf = <u32>((load<u64>(src + (bitPos >>> 3)) >>> <u64>(bitPos & 7)) & mask) + 1;
    store<u32>(tfs + (<usize>i << 2), tf);
    store<u32>(starts + (<usize>i << 2), start);
    start += tf;
    bitPos += bits;
  }
}

/**
 * unpack() then undelta() in one pass: `n` row-id deltas of `bits` bits at `src` into row ids at `out`,
 * the first relative to `base` (postings/cursor.ts loadBlock: every block an AND's cursors land in).
 */
export function unpackRows(src: usize, n: i32, bits: u32, base: u32, out: usize): void {
  const mask: u64 = bits >= 32 ? 0xffffffff : (<u64>1 << bits) - 1;
  let bitPos: usize = 0;
  for (let i = 0; i < n; i++) {
    base += <u32>((load<u64>(src + (bitPos >>> 3)) >>> <u64>(bitPos & 7)) & mask);
    store<u32>(out + (<usize>i << 2), base);
    bitPos += bits;
  }
}

/** The sum of the first `n` tfs of a block's run of tf - 1 values (unpack()'s layout and padding). */
export function tfsBefore(src: usize, n: u32, bits: u32): u32 {
  const mask: u64 = bits >= 32 ? 0xffffffff : (<u64>1 << bits) - 1;
  let bitPos: usize = 0;
  let sum: u32 = n;
  for (let i: u32 = 0; i < n; i++) {
    sum += <u32>((load<u64>(src + (bitPos >>> 3)) >>> <u64>(bitPos & 7)) & mask);
    bitPos += bits;
  }
  return sum;
}
