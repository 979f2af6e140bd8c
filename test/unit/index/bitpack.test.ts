import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bitWidth, packedWords, packInto, unpackBits, unpackInto } from '../../../src/index/bitpack.js';

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
