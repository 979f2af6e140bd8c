// RtIndex bookkeeping across many merges: ids map to the right rows after merges re-point them.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RtIndex } from '../../../src/index/rt-index.js';
import { CORE_MEMORY_LIMIT } from '../../../src/index/merge-swap.js';
import { TieredMergePolicy } from '../../../src/index/merge-policy.js';
import { Core } from '../../../src/wasm/core.js';
import { Segment } from '../../../src/index/segment/segment.js';
import { doc, req, t } from './helpers.js';
import { applyMergeOp, expectModel, mergeOps, mergeSchema } from './merge-ops.js';

const schema = mergeSchema;

describe('RtIndex across merges', () => {
  it('has, getAttrs, updates and deletes follow each document through every merge', () => {
    fc.assert(fc.property(fc.array(fc.oneof(...mergeOps(60)), { maxLength: 60 }), (ops) => {
      const idx = new RtIndex(schema, { mergePolicy: new TieredMergePolicy(2) }); // merges at every chance
      const model = new Map<number, [number, string]>();
      for (const o of ops) applyMergeOp(idx, model, o);
      expectModel(idx, model, 60);
      idx.truncate();
    }), { numRuns: 150 });
  });
});

/** A core whose next allocation can be made to fail, as an out-of-memory core would. */
class FailingCore extends Core {
  failNext = false;
  /** Allocations still to refuse after failNext's. */
  failMore = 0;
  /** Allocations to let through before refusing one (-1: none refused this way). */
  failAfter = -1;
  /** Blob placements (place(): a segment's blob) still to refuse. */
  failPlaces = 0;
  override place(bytes: Uint8Array): number {
    if (this.failPlaces > 0) {
      this.failPlaces--;
      throw new Error('quarry wasm core: out of memory');
    }
    return super.place(bytes);
  }
  override alloc(size: number): number {
    if (this.failAfter >= 0 && this.failAfter-- === 0) throw new Error('quarry wasm core: out of memory');
    if (this.failNext || this.failMore > 0) {
      if (this.failNext) this.failNext = false; else this.failMore--;
      throw new Error('quarry wasm core: out of memory');
    }
    return super.alloc(size);
  }
}

describe('RtIndex merge placement', () => {
  const ids = (idx: RtIndex) => idx.search(req(t('common'), { limit: 100 })).hits.map((h) => Number(h.docId)).sort((a, b) => a - b);

  it('places the merged segment in the space its parts held (a wasm memory never shrinks)', () => {
    const core = new Core();
    const idx = new RtIndex(schema, { core, autoMerge: false });
    for (let b = 0; b < 8; b++) idx.addBatch(Array.from({ length: 200 }, (_, i) => doc(schema, b * 200 + i + 1, { body: `w${i} common x${b}` }, [i, 's'])));
    const partsEnd = Math.max(...idx.segments.map((s) => s.blobPtr + s.blobLen));
    idx.optimize();
    expect(idx.segments.length).toBe(1);
    expect(idx.segments[0].blobPtr).toBeLessThan(partsEnd);
    expect(ids(idx)).toHaveLength(100);
    expect(idx.count()).toBe(1600);
  });

  it('touches no fresh pages for a merged segment that its parts\' space holds (room reserved at the top)', () => {
    // 4 parts of 4000 rows: no hole holds the merged segment before its parts go, so room is reserved at the
    // top; held through the placement, it left the top block a class below the parts' hole, and TLSF put the
    // segment on fresh pages (touched extent 3.6 -> 7.9 MB, the parts' pages left free)
    const core = new Core();
    const idx = new RtIndex(schema, { core, autoMerge: false });
    for (let b = 0; b < 4; b++) idx.addBatch(Array.from({ length: 4000 }, (_, i) => doc(schema, b * 4000 + i + 1, { body: `w${i} common x${b} u${b * 4000 + i} v${(b * 4000 + i) % 977}` }, [i, 's'])));
    const partsEnd = Math.max(...idx.segments.map((s) => s.blobPtr + s.blobLen));
    const touched = (h = core.heapStats()) => h.memory - h.topFree; // below the top block: resident once used
    const before = touched();
    idx.optimize();
    expect(idx.segments.length).toBe(1);
    expect(idx.segments[0].blobPtr).toBeLessThan(partsEnd);
    expect(touched()).toBeLessThanOrEqual(before);
    expect(idx.count()).toBe(16000);
  });

  it('near the memory cap, puts the parts back, deletes and updates included, when the core cannot place the merged segment', () => {
    const core = new FailingCore();
    const idx = new RtIndex(schema, { core, autoMerge: false });
    for (let b = 0; b < 3; b++) idx.addBatch(Array.from({ length: 10 }, (_, i) => doc(schema, b * 10 + i + 1, { body: `common w${b}` }, [i, `s${b}`])));
    idx.delete([5n, 15n]);
    idx.updateAttrs(25n, new Map([['n', 77]]));
    core.failNext = true;
    const limit = CORE_MEMORY_LIMIT.bytes;
    CORE_MEMORY_LIMIT.bytes = 0; // as if near wasm32's cap, where placing can fail
    try {
      expect(() => idx.optimize()).toThrow(/out of memory/);
    } finally {
      CORE_MEMORY_LIMIT.bytes = limit;
    }
    const check = () => {
      expect(idx.count()).toBe(28);
      expect(idx.has(5n)).toBe(false);
      expect(idx.getAttrs(25n)).toEqual([77, 's2']);
      expect(idx.getAttrs(26n)).toEqual([5, 's2']);
      expect(idx.search(req(t('common'), { limit: 100 })).totalFound).toBe(28);
    };
    check();
    expect(idx.segments.length).toBe(3);
    idx.optimize();
    expect(idx.segments.length).toBe(1);
    check();
  });
});

describe('RtIndex merge placement failing below the cap', () => {
  const batches = (idx: RtIndex) => {
    for (let b = 0; b < 3; b++) idx.addBatch(Array.from({ length: 10 }, (_, i) => doc(schema, b * 10 + i + 1, { body: `common w${b}` }, [i, `s${b}`])));
    idx.delete([5n, 15n]);
    idx.updateAttrs(25n, new Map([['n', 77]]));
  };
  const check = (idx: RtIndex) => {
    expect(idx.count()).toBe(28);
    expect(idx.has(5n)).toBe(false);
    expect(idx.getAttrs(25n)).toEqual([77, 's2']);
    expect(idx.getAttrs(26n)).toEqual([5, 's2']);
    expect(idx.search(req(t('common'), { limit: 100 })).totalFound).toBe(28);
    expect(idx.search(req(t('w1'), { limit: 100 })).totalFound).toBe(9);
  };

  it('keeps every row searchable when the core refuses memory for the merged segment (no part pinned), and a later merge works', () => {
    // before: the parts were freed first, and the refused placement dropped their rows until a restart
    const core = new FailingCore();
    const idx = new RtIndex(schema, { core, autoMerge: false });
    batches(idx);
    const parts = idx.segments.slice();
    core.failNext = true;
    expect(() => idx.optimize()).toThrow(/out of memory/);
    expect(idx.segments.length === parts.length && idx.segments.every((s, i) => s === parts[i])).toBe(true);
    check(idx);
    idx.optimize();
    expect(idx.segments.length).toBe(1);
    check(idx);
  });

  it('places the merged segment in the room reserved for it when the space its parts left is refused', () => {
    const core = new FailingCore();
    const idx = new RtIndex(schema, { core, autoMerge: false });
    batches(idx);
    core.failPlaces = 1; // the placement with the parts freed (the room, reserved before, is not a placement)
    idx.optimize();
    expect(core.failPlaces).toBe(0);
    expect(idx.segments.length).toBe(1);
    check(idx);
  });

  it('places the merged segment in a hole before the parts go, and keeps them when that is refused', () => {
    const core = new FailingCore();
    const hole = core.alloc(1 << 20);
    const idx = new RtIndex(schema, { core, autoMerge: false });
    batches(idx);
    core.free(hole); // a resident hole below the parts, larger than the merged segment
    const parts = idx.segments.slice();
    core.failPlaces = 1;
    expect(() => idx.optimize()).toThrow(/out of memory/);
    expect(core.failPlaces).toBe(0);
    expect(idx.segments.length === parts.length && idx.segments.every((s, i) => s === parts[i])).toBe(true);
    check(idx);
    const memory = core.buffer.byteLength;
    idx.optimize();
    expect(idx.segments.length).toBe(1);
    expect(core.buffer.byteLength).toBe(memory); // a hole took it
    check(idx);
  });
});

describe('RtIndex merge placement failing near the cap, copies included', () => {
  it('lists no freed segment when the parts cannot be put back either, and later merges work', () => {
    const core = new FailingCore();
    const idx = new RtIndex(schema, { core, autoMerge: false });
    for (let b = 0; b < 3; b++) idx.addBatch(Array.from({ length: 10 }, (_, i) => doc(schema, b * 10 + i + 1, { body: `common w${b}` }, [i, `s${b}`])));
    core.failNext = true; // the merged segment
    core.failMore = 1; // and the first part's copy
    const limit = CORE_MEMORY_LIMIT.bytes;
    CORE_MEMORY_LIMIT.bytes = 0;
    try {
      expect(() => idx.optimize()).toThrow(/30 rows unavailable until restart/);
    } finally {
      CORE_MEMORY_LIMIT.bytes = limit;
    }
    expect(idx.segments.length).toBe(0);
    expect(idx.count()).toBe(0);
    expect(idx.search(req(t('common'))).totalFound).toBe(0);
    for (let b = 0; b < 3; b++) idx.addBatch(Array.from({ length: 5 }, (_, i) => doc(schema, 100 + b * 5 + i, { body: `common v${b}` }, [i, 's'])));
    idx.optimize();
    expect(idx.segments.length).toBe(1);
    expect(idx.count()).toBe(15);
    expect(idx.search(req(t('common'), { limit: 100 })).totalFound).toBe(15);
  });
});

describe('Segment placement failing part way', () => {
  it('gives back the blob it placed when the deleted bitmap or descriptor cannot be allocated', () => {
    const core = new FailingCore();
    const idx = new RtIndex(schema, { core, autoMerge: false });
    idx.addBatch(Array.from({ length: 50 }, (_, i) => doc(schema, i + 1, { body: `common w${i}` }, [i, 's'])));
    const seg = idx.segments[0];
    const built = { blob: seg.blobBytes(), terms: seg.terms, hostCols: seg.hostCols };
    for (const after of [1, 2]) {
      const used = core.heapStats().used;
      core.failAfter = after; // the blob placed, then the bitmap (1) or the descriptor (2) refused
      expect(() => new Segment(core, schema, built)).toThrow(/out of memory/);
      core.failAfter = -1;
      expect(core.heapStats().used).toBe(used);
    }
  });
});

describe('RtIndex merge placement failing while a part is pinned', () => {
  it('keeps the parts listed and whole (a checkpoint or query holds one), and a later merge works', () => {
    const core = new FailingCore();
    const idx = new RtIndex(schema, { core, autoMerge: false });
    for (let b = 0; b < 3; b++) idx.addBatch(Array.from({ length: 10 }, (_, i) => doc(schema, b * 10 + i + 1, { body: `common w${b}` }, [i, `s${b}`])));
    const parts = idx.segments.slice();
    parts[1].pin(); // as a checkpoint writing its file does
    core.failNext = true;
    expect(() => idx.optimize()).toThrow(/out of memory/);
    expect(idx.segments.length === parts.length && idx.segments.every((s, i) => s === parts[i])).toBe(true);
    expect(idx.count()).toBe(30);
    expect(idx.search(req(t('common'), { limit: 100 })).totalFound).toBe(30);
    parts[1].unpin();
    idx.optimize();
    expect(idx.segments.length).toBe(1);
    expect(idx.count()).toBe(30);
    expect(idx.search(req(t('common'), { limit: 100 })).totalFound).toBe(30);
  });
});
