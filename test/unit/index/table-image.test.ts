// The exported image round-trips; 64-bit ids beyond 2^53 travel as decimal strings; bad bytes are refused.
import { describe, expect, it } from 'vitest';
import { decodeImage, encodeImage, exactNumber, pageValue, type TableImage } from '../../../src/index/table-image.js';

const image: TableImage = {
  manifest: { table: 't', columns: [{ name: 'title', type: 'text', indexed: true, stored: true }], index: { fields: ['title'], attrs: [] }, settings: {}, files: { '/x/stop.txt': 'a\n' }, rows: 1 },
  segment: new Uint8Array([1, 2, 3, 4, 5]),
  docs: [{ title: 'héllo' }],
};

describe('table image', () => {
  it('round-trips', () => {
    const back = decodeImage(encodeImage(image));
    expect(back.manifest).toEqual(image.manifest);
    expect(Array.from(back.segment)).toEqual([1, 2, 3, 4, 5]);
    expect(back.docs).toEqual(image.docs);
  });
  it('keeps integers exact', () => {
    expect(exactNumber(9007199254740991n)).toBe(9007199254740991);
    expect(exactNumber(9007199254740993n)).toBe('9007199254740993');
    expect(exactNumber(-9007199254740993n)).toBe('-9007199254740993');
    expect(pageValue([1n, 2n ** 60n])).toEqual([1, '1152921504606846976']);
  });
  it('refuses other bytes and truncated images', () => {
    expect(() => decodeImage(new Uint8Array(30))).toThrow('not a quarry table image');
    expect(() => decodeImage(encodeImage(image).subarray(0, 40))).toThrow('truncated');
  });
});
