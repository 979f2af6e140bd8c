// The core's kernels against their naive twins (test/reference/kernels.ts): block decode,
// delta decoding, sorted intersection, postings cursors.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Core } from '../../../src/wasm/core.js';
import { packBits } from '../../../src/index/segment/bitpack.js';
import { buildSegment } from '../../../src/index/segment/segment-builder.js';
import * as reference from '../../reference/kernels.js';

const core = new Core('debug');
const x = core.exports;

function place(values: ArrayLike<number>): number {
  const p = core.alloc(Math.max(4, values.length * 4 + 16));
  core.u32.set(Array.from(values), p >>> 2);
  return p;
}

const sorted = fc.uniqueArray(fc.nat(5000), { maxLength: 300 }).map((xs) => Uint32Array.from(xs.sort((a, b) => a - b)));

describe('block decode', () => {
  it('unpack equals the reference for every bit width', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 32 }), fc.array(fc.nat(), { maxLength: 128 }), (bits, raw) => {
      const mask = bits === 32 ? 0xffffffff : 2 ** bits - 1;
      const values = raw.map((v) => (v & mask) >>> 0);
      const words = packBits(values, 0, values.length, bits);
      const src = place(words);
      const out = core.alloc(512);
      x.unpack(src, values.length, bits, out);
      const got = Array.from(core.u32.subarray(out >>> 2, (out >>> 2) + values.length));
      // one value alone, as cursorTf() reads a row's tf before the block's tfs are decoded
      const one = values.map((_, i) => x.unpackOne(src, i, bits) >>> 0);
      core.free(src);
      core.free(out);
      expect(got).toEqual(reference.unpack(words, values.length, bits));
      expect(got).toEqual(values);
      expect(one).toEqual(values);
    }));
  });
  it('undelta is a prefix sum from the base', () => {
    fc.assert(fc.property(fc.array(fc.nat(1000), { maxLength: 128 }), fc.nat(100000), (deltas, base) => {
      const p = place(deltas);
      x.undelta(p, deltas.length, base);
      const got = Array.from(core.u32.subarray(p >>> 2, (p >>> 2) + deltas.length));
      core.free(p);
      expect(got).toEqual(reference.undelta(deltas, base));
    }));
  });
});

describe('intersection', () => {
  it('intersectSorted equals the reference', () => {
    fc.assert(fc.property(sorted, sorted, (a, b) => {
      const pa = place(a);
      const pb = place(b);
      const out = core.alloc(Math.max(a.length, b.length, 1) * 4);
      const n = x.intersectSorted(pa, a.length, pb, b.length, out);
      const got = Array.from(core.u32.subarray(out >>> 2, (out >>> 2) + n));
      [pa, pb, out].forEach((p) => core.free(p));
      expect(got).toEqual(reference.intersectSorted(a, b));
    }));
  });
});

describe('postings cursor', () => {
  const TERMINATED = 0x7fffffff;
  const postings = fc.uniqueArray(fc.nat(20000), { minLength: 1, maxLength: 700 }).map((xs) => xs.sort((a, b) => a - b));
  function segmentWith(rows: number[], tfs: number[]): { blob: number; cursor: number } {
    const positions = rows.flatMap((_, i) => Array.from({ length: tfs[i] }, (_, j) => j + 1));
    const last = rows[rows.length - 1] + 1;
    const built = buildSegment({ fields: ['f'], attrs: [] }, {
      rows: last, numFields: 1,
      postings: {
        terms: ['t'], rowStart: Uint32Array.of(0, rows.length), rows: Uint32Array.from(rows), tfs: Uint32Array.from(tfs),
        posStart: Uint32Array.of(0, positions.length), positions: Uint32Array.from(positions),
      },
      fieldLens: new Uint32Array(last), docIds: new BigInt64Array(last), attrs: [],
    });
    return { blob: core.place(built.blob), cursor: core.alloc(x.cursorBytes()) };
  }
  it('advance visits every row with its tf and positions', () => {
    fc.assert(fc.property(postings, fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 700, maxLength: 700 }), (rows, tfAll) => {
      const tfs = rows.map((_, i) => tfAll[i]);
      const { blob, cursor } = segmentWith(rows, tfs);
      const seen: number[] = [];
      for (let r = x.cursorInit(cursor, blob, 0); r !== TERMINATED; r = x.cursorAdvance(cursor)) {
        const i = seen.length;
        seen.push(r);
        expect(x.cursorTf(cursor)).toBe(tfs[i]);
        const p = x.cursorPositions(cursor) >>> 2;
        expect(Array.from(core.u32.subarray(p, p + tfs[i]))).toEqual(Array.from({ length: tfs[i] }, (_, j) => j + 1));
      }
      core.free(blob);
      core.free(cursor);
      expect(seen).toEqual(rows);
    }), { numRuns: 50 });
  });
  it('seek lands on the first row >= target and never moves back', () => {
    fc.assert(fc.property(postings, fc.array(fc.nat(21000), { maxLength: 40 }), (rows, targets) => {
      const { blob, cursor } = segmentWith(rows, rows.map(() => 1));
      x.cursorInit(cursor, blob, 0);
      let floor = 0;
      for (const t of targets) {
        const got = x.cursorSeek(cursor, t);
        floor = Math.max(floor, t);
        const want = rows.find((r) => r >= floor) ?? TERMINATED;
        expect(got).toBe(want);
        if (got !== TERMINATED) floor = got;
      }
      core.free(blob);
      core.free(cursor);
    }), { numRuns: 100 });
  });
  it('an unknown term is empty', () => {
    const { blob, cursor } = segmentWith([1, 2], [1, 1]);
    expect(x.cursorInit(cursor, blob, 5)).toBe(TERMINATED);
    expect(x.cursorSeek(cursor, 0)).toBe(TERMINATED);
  });
});
