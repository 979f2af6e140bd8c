// The core's host allocator (assembly/memory/heap.ts alloc): a large request takes a free block of its
// own TLSF size class when that block holds it, instead of growing the memory past it. A merge frees
// its parts and places the merged segment, nearly as large; TLSF's good fit left that hole and grew,
// and a wasm memory's pages stay resident, so each large merge kept its parts' pages beside its result.
// Checked against the old alloc: the 145-150 MiB requests below went to fresh memory at the top.
import { describe, expect, it } from 'vitest';
import { Core } from '../../../src/wasm/core.js';

const MiB = 1024 * 1024;

/** A core whose heap has a hole of ten freed, adjacent 15 MiB blocks, with a block in use after it. */
function coreWithHole() {
  const c = new Core();
  c.alloc(MiB);
  const parts = Array.from({ length: 10 }, () => c.alloc(15 * MiB));
  const after = c.alloc(64);
  for (const p of parts) c.free(p);
  return { c, hole: parts[0], after };
}

describe('core alloc', () => {
  it('places a request nearly as large as a free hole in the hole, without growing the memory', () => {
    for (const size of [140 * MiB, 145 * MiB, 150 * MiB - 64]) {
      const { c, hole } = coreWithHole();
      const pages = c.buffer.byteLength;
      const p = c.alloc(size);
      expect(p).toBe(hole);
      expect(c.buffer.byteLength).toBe(pages);
      // the whole block is usable: its last byte is ours, and the block after it is still whole
      c.u8[p + size - 1] = 9;
      expect(c.alloc(64)).not.toBe(p);
      c.free(p);
      expect(c.alloc(size)).toBe(hole); // freed, it is one hole again
    }
  });

  it('grows the memory for a request larger than every hole, and the hole stays free', () => {
    const { c, hole, after } = coreWithHole();
    const pages = c.buffer.byteLength;
    const p = c.alloc(151 * MiB);
    expect(p).toBeGreaterThan(after);
    expect(c.buffer.byteLength).toBeGreaterThan(pages);
    expect(c.alloc(120 * MiB)).toBe(hole); // the blocks tried and set aside were given back
  });

  it('accounts the heap block by block: the hole as free, then as used once placed', () => {
    const { c } = coreWithHole();
    const before = c.heapStats();
    expect(before.largestFree).toBeGreaterThanOrEqual(150 * MiB); // below the block in use: a hole
    expect(before.largestFree).toBeLessThan(151 * MiB);
    expect(before.topFree).toBeGreaterThan(0); // what the memory grew by past that block
    expect(before.used + before.free).toBeLessThanOrEqual(before.memory);
    expect(before.used + before.free).toBeGreaterThan(before.memory - 2 * MiB); // root and headers only
    const p = c.alloc(145 * MiB);
    const after = c.heapStats();
    expect(after.used - before.used).toBeGreaterThanOrEqual(145 * MiB);
    expect(after.largestFree).toBeLessThan(before.largestFree);
    c.free(p);
    expect(c.heapStats()).toEqual(before);
  });

  it('keeps blocks apart: large and small allocations never overlap', () => {
    const c = new Core();
    const live: [number, number][] = [];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let i = 0; i < 300; i++) {
      if (live.length && next() < 0.45) {
        const [p] = live.splice(Math.floor(next() * live.length), 1)[0];
        c.free(p);
        continue;
      }
      const size = next() < 0.3 ? Math.floor(MiB + next() * 6 * MiB) : Math.floor(16 + next() * 4096);
      const p = c.alloc(size);
      expect(p % 16).toBe(0);
      for (const [q, n] of live) expect(p + size <= q || q + n <= p).toBe(true);
      live.push([p, size]);
    }
  });
});
