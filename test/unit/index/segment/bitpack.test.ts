import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bitWidth, packBits, packedWords, packInto, unpackBits, unpackInto } from '../../../../src/index/segment/bitpack.js';

describe('bitpack', () => {
  it('unpackInto reads a run packed at any word offset, as unpackBits does', () => {
    fc.assert(fc.property(fc.array(fc.nat({ max: 0xffffffff }), { maxLength: 128 }), fc.nat({ max: 5 }), (values, at) => {
      const bits = bitWidth(values, 0, values.length);
      const words = new Uint32Array(at + packedWords(values.length, bits));
      packInto(words, at, values, 0, values.length, bits);
      const out = new Uint32Array(values.length + 3).fill(7);
      unpackInto(out, words, at, values.length, bits);
      expect([...out.subarray(0, values.length)]).toEqual(values.map((v) => v >>> 0));
      expect([...out.subarray(values.length)]).toEqual([7, 7, 7]); // nothing written past n
      expect([...unpackBits(words.subarray(at), values.length, bits)]).toEqual([...out.subarray(0, values.length)]);
    }));
  });

  it('a zero-width run unpacks to zeros over stale scratch', () => {
    const out = new Uint32Array(4).fill(9);
    unpackInto(out, new Uint32Array(2), 0, 3, 0);
    expect([...out]).toEqual([0, 0, 0, 9]);
  });
});

describe('runs far into a buffer (segments past 512 MiB of core memory)', () => {
  // a window onto a "huge" array: indexes near `base` map to a small backing array
  const base = 2 ** 27 + 3; // word index of byte address 512 MiB + 12: at * 32 passes 2^32
  const windowed = (backing: Uint32Array) => new Proxy(backing, {
    get: (t, k) => (typeof k === 'string' && /^\d+$/.test(k) ? t[Number(k) - base] : Reflect.get(t, k)),
    set: (t, k, v) => { if (typeof k === 'string' && /^\d+$/.test(k)) t[Number(k) - base] = v; return true; },
  }) as unknown as Uint32Array;

  it('unpackInto reads the words at `at`, not at a wrapped bit offset', () => {
    const values = Array.from({ length: 100 }, (_, i) => (i * 7919) % 1000);
    const packed = packBits(values, 0, values.length, 10);
    const out = new Uint32Array(values.length);
    unpackInto(out, windowed(packed), base, values.length, 10);
    expect(Array.from(out)).toEqual(values);
  });

  it('packInto writes the words at `at`', () => {
    const values = Array.from({ length: 100 }, (_, i) => (i * 31) % 500);
    const backing = new Uint32Array(packedWords(values.length, 9));
    packInto(windowed(backing), base, values, 0, values.length, 9);
    expect(Array.from(unpackBits(backing, values.length, 9))).toEqual(values);
  });
});
