// Key layouts: byte order must equal numeric order of signed docIds and of sequences.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  docIdOf, docKey, genKey, genRange, opKey, opsAfter, opsUpTo, seqOf, writeDocKey,
} from '../../../src/store/keys.js';

const i64 = fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n });
const u64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });

describe('store keys', () => {
  it('doc keys sort like their signed ids and decode back', () => {
    fc.assert(fc.property(i64, i64, (a, b) => {
      const ka = docKey(7, a);
      const kb = docKey(7, b);
      expect(Math.sign(Buffer.compare(ka, kb))).toBe(a < b ? -1 : a > b ? 1 : 0);
      expect(docIdOf(ka)).toBe(a);
    }));
  });

  it('doc keys hold the generation and the id as u64 with its sign bit flipped, wherever the key buffer sits', () => {
    const big = Buffer.alloc(64);
    fc.assert(fc.property(fc.integer({ min: 0, max: 0xfffffffe }), i64, fc.integer({ min: 0, max: 52 }), (gen, id, at) => {
      const want = Buffer.alloc(12);
      want.writeUInt32BE(gen, 0);
      want.writeBigUInt64BE(BigInt.asUintN(64, id) ^ (1n << 63n), 4);
      expect(docKey(gen, id)).toEqual(want);
      big.fill(0xaa);
      writeDocKey(big.subarray(at, at + 12), gen, id);
      expect(big.subarray(at, at + 12)).toEqual(want);
      // nothing written outside the key
      expect(big.subarray(0, at).every((b) => b === 0xaa) && big.subarray(at + 12).every((b) => b === 0xaa)).toBe(true);
    }));
  });

  it('doc keys keep their on-disk bytes: gen u32 BE, then the id u64 BE with the sign bit flipped', () => {
    // the layout data directories were written with: a key that changed would not find its document
    const reference = (gen: number, id: bigint) => {
      const k = Buffer.alloc(12);
      k.writeUInt32BE(gen, 0);
      k.writeBigUInt64BE(BigInt.asUintN(64, id) ^ (1n << 63n), 4);
      return k;
    };
    for (const id of [0n, 1n, -1n, 255n, 256n, (1n << 63n) - 1n, -(1n << 63n), 0x0102030405060708n]) {
      expect(docKey(0xfffffffe, id).toString('hex')).toBe(reference(0xfffffffe, id).toString('hex'));
    }
    fc.assert(fc.property(fc.integer({ min: 0, max: 0xfffffffe }), i64, (gen, id) => {
      expect(docKey(gen, id).equals(reference(gen, id))).toBe(true);
    }));
  });

  it('op keys sort like their sequences and decode back', () => {
    fc.assert(fc.property(u64, u64, (a, b) => {
      expect(Math.sign(Buffer.compare(opKey(3, a), opKey(3, b)))).toBe(a < b ? -1 : a > b ? 1 : 0);
      expect(seqOf(opKey(3, a))).toBe(a);
    }));
  });

  it('a generation range holds all of its keys and none of its neighbours', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1000 }), i64, (gen, id) => {
      const { start, end } = genRange(gen);
      const inRange = (k: Buffer) => Buffer.compare(k, start) >= 0 && Buffer.compare(k, end) < 0;
      expect(inRange(docKey(gen, id))).toBe(true);
      expect(inRange(docKey(gen - 1, id))).toBe(false);
      expect(inRange(docKey(gen + 1, id))).toBe(false);
      expect(inRange(genKey(gen + 1))).toBe(false);
    }));
  });

  it('opsAfter and opsUpTo split a generation at a sequence', () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: 1000n }), fc.bigInt({ min: 1n, max: 1000n }), (cut, seq) => {
      const k = opKey(5, seq);
      const after = opsAfter(5, cut);
      const upto = opsUpTo(5, cut);
      const inA = Buffer.compare(k, after.start) >= 0 && Buffer.compare(k, after.end) < 0;
      const inU = Buffer.compare(k, upto.start) >= 0 && Buffer.compare(k, upto.end) < 0;
      expect(inA).toBe(seq > cut);
      expect(inU).toBe(seq <= cut);
    }));
  });

  it('refuses ids outside signed 64 bits', () => {
    expect(() => docKey(1, 1n << 63n)).toThrow(/out of range/);
    expect(() => docKey(1, -(1n << 63n) - 1n)).toThrow(/out of range/);
    expect(() => docKey(1, 5 as unknown as bigint)).toThrow(/out of range/);
  });
});
