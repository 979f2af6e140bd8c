// DocMap against a Map model: sets, re-points and deletes in any order, across growth.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DocMap, idHalves } from '../../../src/index/doc-map.js';

type Op = { kind: 'set'; id: bigint; seg: number; row: number } | { kind: 'del'; id: bigint };

// few distinct ids, so sets re-point and deletes hit; negatives and the extremes included
const id = fc.oneof(fc.bigInt({ min: -40n, max: 40n }), fc.constantFrom(-(1n << 63n), (1n << 63n) - 1n, 1n << 32n, -(1n << 32n)));
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), id, seg: fc.nat({ max: 1000 }), row: fc.nat() }),
  fc.record({ kind: fc.constant('del' as const), id }),
);

describe('DocMap', () => {
  it('agrees with a Map after any sequence of sets and deletes', () => {
    fc.assert(fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
      const map = new DocMap();
      const model = new Map<bigint, [number, number]>();
      for (const o of ops) {
        const [lo, hi] = idHalves(o.id);
        if (o.kind === 'set') { map.set(lo, hi, o.seg, o.row); model.set(o.id, [o.seg, o.row]); } else expect(map.delete(lo, hi)).toBe(model.delete(o.id));
      }
      expect(map.size).toBe(model.size);
      for (const x of [...model.keys(), 41n, -41n]) {
        const e = map.find(...idHalves(x));
        expect(e >= 0 ? [map.segmentAt(e), map.rowAt(e)] : undefined).toEqual(model.get(x));
      }
    }), { numRuns: 300 });
  });

  it('keeps every entry findable through growth and mass deletes', () => {
    const map = new DocMap();
    const n = 50_000;
    for (let i = 0; i < n; i++) map.set(i * 7919, i >> 3, i & 15, i);
    for (let i = 0; i < n; i += 2) expect(map.delete(i * 7919, i >> 3)).toBe(true);
    expect(map.size).toBe(n / 2);
    for (let i = 0; i < n; i++) {
      const e = map.find(i * 7919, i >> 3);
      expect(e >= 0 ? map.rowAt(e) : -1).toBe(i % 2 ? i : -1);
    }
    map.clear();
    expect(map.size).toBe(0);
    expect(map.find(7919, 0)).toBe(-1);
  });

  it('splits an id into the halves of its little-endian i64', () => {
    const v = new BigInt64Array([-(1n << 63n), -2n, (1n << 32n) + 5n]);
    const halves = new Int32Array(v.buffer);
    [...v].forEach((x, i) => expect(idHalves(x)).toEqual([halves[2 * i], halves[2 * i + 1]]));
  });
});

describe('idHalves', () => {
  // the BigInt split every id once took; the double-arithmetic path for ids within 2^53 must agree
  const reference = (x: bigint): [number, number] => [Number(BigInt.asIntN(32, x)), Number(BigInt.asIntN(32, BigInt.asIntN(64, x) >> 32n))];
  const edges = [0n, 1n, -1n, 1n << 31n, -(1n << 31n), (1n << 32n) - 1n, 1n << 32n, -(1n << 32n), (1n << 53n) - 1n,
    -((1n << 53n) - 1n), 1n << 53n, -(1n << 53n), (1n << 63n) - 1n, -(1n << 63n), (1n << 64n) - 1n, 1n << 63n];

  it('splits any id as the BigInt reference does, a u64 as its int64', () => {
    for (const x of edges) expect(idHalves(x), String(x)).toEqual(reference(x));
    fc.assert(fc.property(fc.bigInt({ min: -(1n << 63n), max: (1n << 64n) - 1n }), (x) => {
      const h = idHalves(x);
      expect(h).toEqual(reference(x));
      return !Object.is(h[0], -0) && !Object.is(h[1], -0);
    }), { numRuns: 2000 });
    fc.assert(fc.property(fc.bigInt({ min: -(1n << 54n), max: 1n << 54n }), (x) => { expect(idHalves(x)).toEqual(reference(x)); }), { numRuns: 2000 });
  });
});
