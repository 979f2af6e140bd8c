// The value codec must round-trip every storable value exactly, 64-bit integers and types included.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeValue, encodeValue, ValueWriter } from '../../../../src/store/values/value-codec.js';
import { SearchError } from '../../../../src/util/errors.js';

const leaf = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.double(),
  fc.integer(),
  fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }),
  fc.bigInt({ min: -(1n << 100n), max: 1n << 100n }),
  fc.string({ unit: 'binary' }),
  fc.array(fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n })),
);
const value = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('v')), fc.dictionary(fc.string(), tie('v'), { noNullPrototype: true })),
})).v;

describe('value codec', () => {
  it('round-trips arbitrary values exactly (Object.is on leaves)', () => {
    fc.assert(fc.property(value, (v) => {
      expect(decodeValue(encodeValue(v))).toStrictEqual(v);
    }), { numRuns: 500 });
  });

  it('keeps bigint and number apart, and -0, NaN, Infinity', () => {
    const doc = { a: 5n, b: 5, c: -0, d: NaN, e: -Infinity, f: 2 ** 53 + 2, g: 0.1 };
    const back = decodeValue(encodeValue(doc)) as Record<string, unknown>;
    expect(typeof back.a).toBe('bigint');
    expect(typeof back.b).toBe('number');
    expect(Object.is(back.c, -0)).toBe(true);
    expect(back.d).toBeNaN();
    expect(back).toStrictEqual(doc);
  });

  it('writes a 64-bit integer as the bytes stored records have: little-endian two\'s complement', () => {
    // records on disk were written by Buffer#writeBigInt64LE: the bytes must stay the same
    const bytesOf = (v: bigint) => { const w = new ValueWriter(); w.byte(0xaa); w.i64(v); return w.finish().subarray(1).toString('hex'); };
    const reference = (v: bigint) => { const b = Buffer.alloc(8); b.writeBigInt64LE(v); return b.toString('hex'); };
    for (const v of [0n, 1n, -1n, 0x0102030405060708n, -(1n << 63n), (1n << 63n) - 1n]) expect(bytesOf(v)).toBe(reference(v));
    fc.assert(fc.property(fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }), (v) => { expect(bytesOf(v)).toBe(reference(v)); }));
    expect(() => new ValueWriter().i64(1n << 63n)).toThrow(RangeError);
    expect(() => new ValueWriter().i64(-(1n << 63n) - 1n)).toThrow(RangeError);
  });

  it('round-trips the 64-bit extremes and wider bigints', () => {
    for (const v of [-(1n << 63n), (1n << 63n) - 1n, (1n << 64n) - 1n, -(1n << 64n), 10n ** 30n]) {
      expect(decodeValue(encodeValue(v))).toBe(v);
      expect(decodeValue(encodeValue([v, 1n]))).toStrictEqual([v, 1n]);
    }
  });

  it('writes i64 as little-endian two\'s complement, before and after the buffer grows', () => {
    fc.assert(fc.property(fc.array(fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }), { minLength: 1, maxLength: 200 }), fc.integer({ min: 0, max: 7 }), (vs, skew) => {
      const w = new ValueWriter();
      for (let i = 0; i < skew; i++) w.byte(i);
      for (const v of vs) w.i64(v);
      const want = Buffer.alloc(skew + vs.length * 8);
      for (let i = 0; i < skew; i++) want[i] = i;
      vs.forEach((v, i) => want.writeBigInt64LE(v, skew + i * 8));
      expect(w.view()).toEqual(want);
    }));
  });

  it('keeps long and multi-byte strings and a __proto__ key', () => {
    const doc = JSON.parse('{"__proto__": "x", "t": "caf\u00e9 \ud83d\ude00"}') as Record<string, unknown>;
    doc.long = 'x\u00e9'.repeat(100_000);
    const back = decodeValue(encodeValue(doc)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.keys(back)).toEqual(['__proto__', 't', 'long']);
    expect(back).toStrictEqual(doc);
  });

  it('drops undefined properties and round-trips bytes', () => {
    expect(decodeValue(encodeValue({ a: undefined, b: 1 }))).toStrictEqual({ b: 1 });
    expect(decodeValue(encodeValue(new Uint8Array([1, 2, 255])))).toStrictEqual(new Uint8Array([1, 2, 255]));
  });

  it('refuses values it cannot restore', () => {
    expect(() => encodeValue({ d: new Date() })).toThrow(SearchError);
    expect(() => encodeValue({ f: () => 1 })).toThrow(/cannot store/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => encodeValue(cyclic)).toThrow(/nested too deeply/);
  });

  it('rejects truncated or trailing bytes', () => {
    const buf = encodeValue({ a: 'hello', b: [1n, 2n] });
    expect(() => decodeValue(buf.subarray(0, buf.length - 3))).toThrow();
    expect(() => decodeValue(Buffer.concat([buf, Buffer.from([0])]))).toThrow(/corrupt/);
  });
});
