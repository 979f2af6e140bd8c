// Record checksums: a sealed record reads back as its bytes; any flipped bit or cut is refused.
import { describe, expect, it } from 'vitest';
import { CHECK_BYTES, seal, unseal } from '../../../src/store/record-check.js';

describe('seal / unseal', () => {
  const body = Buffer.from('a stored document');
  it('round-trips', () => {
    const rec = seal(body);
    expect(rec.length).toBe(body.length + CHECK_BYTES);
    expect(unseal(rec, () => 'doc 1')).toEqual(body);
    expect(unseal(seal(Buffer.alloc(0)), () => 'empty')).toEqual(Buffer.alloc(0));
  });

  it('refuses every single flipped bit, and a cut record, naming the record', () => {
    const rec = seal(body);
    for (let bit = 0; bit < rec.length * 8; bit++) {
      const bad = Buffer.from(rec);
      bad[bit >> 3] ^= 1 << (bit & 7);
      expect(() => unseal(bad, () => 'document 7')).toThrow('store of record damaged: document 7 fails its checksum');
    }
    expect(() => unseal(rec.subarray(0, rec.length - 1), () => 'document 7')).toThrow(/fails its checksum/);
    expect(() => unseal(rec.subarray(0, 2), () => 'document 7')).toThrow(/fails its checksum/);
  });
});
