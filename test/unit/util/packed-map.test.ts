import { describe, expect, it } from 'vitest';
import { mapPacked } from '../../../src/util/packed-map.js';

describe('mapPacked', () => {
  it('maps each item with its index, in order, into a new array', () => {
    const items = [10n, 20n, 30n];
    const out = mapPacked(items, (x, i) => `${i}:${x}`);
    expect(out).toEqual(['0:10', '1:20', '2:30']);
    expect(items).toEqual([10n, 20n, 30n]);
  });

  it('gives an empty array for no items and keeps undefined results as elements', () => {
    expect(mapPacked([], () => 1)).toEqual([]);
    const out = mapPacked([1, 2], () => undefined);
    expect(out.length).toBe(2);
    expect(1 in out).toBe(true); // an element, not a hole
  });
});
