// What the main instance's TLSF heap holds, block by block: the host's account of core memory (bench/
// memory.bench.ts prints it) beside the resident pages the OS reports, so memory a merge left free
// inside the wasm memory (resident, as a wasm memory never shrinks) shows apart from live data.

/** TLSF's root record size for wasm32 (rt/tlsf.ts ROOT_SIZE: flMap, 23 SL words, 23 x 16 heads, tail). */
const ROOT_SIZE: usize = 1572;

/**
 * Walks the blocks from the root to the tail and writes, as u32 words at `out`: bytes in used
 * blocks, used blocks, bytes in free blocks, free blocks, the largest free block below the top one,
 * and the top one (the free block before the tail, 0 if none: it holds the pages the memory grew by
 * and no block has used yet, which are not resident; a hole below it is). Main instance only
 * (a worker's confined heap is one used block of it). Assumes memory grew only through TLSF (one run
 * of blocks ending at its tail), as this module does.
 */
export function heapStats(out: usize): void {
  const root = (__heap_base + 15) & ~(<usize>15);
  let b = ((root + ROOT_SIZE + 4 + 15) & ~(<usize>15)) - 4;
  let used: usize = 0, usedN: u32 = 0, free: usize = 0, freeN: u32 = 0, largest: usize = 0, top: usize = 0;
  const end = <usize>memory.size() << 16;
  while (b + 4 <= end) {
    const info = load<u32>(b);
    const size = <usize>(info & ~3);
    if (size == 0) break; // the tail
    if (info & 1) {
      free += size;
      freeN++;
      if (load<u32>(b + 4 + size) & ~3) largest = max(largest, size);
      else top = size; // its right neighbour is the zero-size tail
    } else {
      used += size;
      usedN++;
    }
    b += 4 + size;
  }
  store<u32>(out, <u32>used);
  store<u32>(out + 4, usedN);
  store<u32>(out + 8, <u32>free);
  store<u32>(out + 12, freeN);
  store<u32>(out + 16, <u32>largest);
  store<u32>(out + 20, <u32>top);
}
