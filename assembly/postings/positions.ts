// Compressed hit positions: a postings block's hits bit-packed at one width per block, LSB first,
// each | field | fieldEnd | pos | from the high bits down (the host writes them:
// src/index/segment/positions-codec.ts). Hit i of the block sits at bit i * width, so a row's hits are read
// without touching the rows before it.

/** A long decoded row: valid until the next unpackHits() into it on this instance. */
let scratch: usize = 0;
let scratchCap: u32 = 0; // in hits

/** The scratch vector, holding at least `n` hits. */
export function hitsScratch(n: u32): usize {
  if (n > scratchCap) {
    let cap = scratchCap < 256 ? <u32>256 : scratchCap;
    while (cap < n) cap <<= 1;
    scratch = scratch == 0 ? heap.alloc(<usize>cap << 2) : heap.realloc(scratch, <usize>cap << 2);
    scratchCap = cap;
  }
  return scratch;
}

/**
 * Unpacks hits [first, first + n) of the block packed at `src` in format `fmt` (| fieldBits |
 * posBits << 8 |) into `out` as hitpos (field << 24 | fieldEnd << 23 | pos). Reads 8 bytes at a
 * time: the packed run is followed by 8 bytes of padding.
 */
@inline export function unpackHits(src: usize, first: u32, n: u32, fmt: u32, out: usize): void {
  const posBits = <u64>(fmt >>> 8);
  const width = (fmt & 0xff) + 1 + <u32>posBits;
  const mask: u64 = (<u64>1 << width) - 1;
  const posMask: u64 = (<u64>1 << posBits) - 1;
  let bit = <usize>first * width;
  for (let i: u32 = 0; i < n; i++) {
    const v = (load<u64>(src + (bit >>> 3)) >>> <u64>(bit & 7)) & mask;
    // v >> posBits is | field | fieldEnd |: shifted to bit 23 it is hitpos's upper part
    store<u32>(out + (<usize>i << 2), <u32>(((v >> posBits) << 23) | (v & posMask)));
    bit += width;
  }
}
