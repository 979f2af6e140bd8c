import { describe, expect, it } from 'vitest';
import { MAX_MERGED_ROWS, TieredMergePolicy } from '../../../src/index/merge-policy.js';

describe('TieredMergePolicy', () => {
  it('merges a run of factor adjacent segments on one level', () => {
    const p = new TieredMergePolicy(3);
    expect(p.findMerge([500, 30, 40, 50])).toEqual([1, 4]); // levels 5, 3, 3, 3
    expect(p.findMerge([500, 30, 300, 40])).toBeNull();
    expect(p.findMerge([])).toBeNull();
  });

  it('puts every segment under minLevelRows on one level: small rounds of mixed sizes still merge', () => {
    const p = new TieredMergePolicy();
    // group commit's rounds: 1 to 16 rows, levels 0 and 1 by turns without the floor
    const rounds = [3, 12, 7, 15, 1, 16, 9, 11, 4, 14];
    expect(p.findMerge(rounds)).toEqual([0, 10]);
    expect(p.findMerge([5000, ...rounds.slice(0, 9), 150])).toBeNull(); // 150 is a level up
    expect([99, 100, 999, 1000].map((r) => p.level(r))).toEqual([0, 1, 1, 2]);
    expect(new TieredMergePolicy(10, 1e6, 1).findMerge(rounds)).toBeNull(); // the floor off: no run forms
  });

  it('never builds a segment over maxMergedRows: big runs stay unmerged, smaller ones after them still merge', () => {
    const p = new TieredMergePolicy(3, 2500);
    expect(p.findMerge([800, 800, 800])).toEqual([0, 3]);
    expect(p.findMerge([900, 900, 900, 900])).toBeNull(); // 2,700 rows a run
    expect(p.findMerge([1500, 1500, 900, 30, 40, 50])).toEqual([3, 6]);
    expect(p.findMerge([1500, 800, 750, 740])).toEqual([1, 4]); // slides past the 1,500
    // ten 1M-row segments of a 10M table under the default cap: left as they are
    expect(new TieredMergePolicy().findMerge(Array(10).fill(1_000_000))).toBeNull();
    expect(new TieredMergePolicy().findMerge(Array(10).fill(100_000))).toBeNull(); // 1M rows: over a quarter of them
    expect(new TieredMergePolicy().findMerge([3_000_000, ...Array(10).fill(100_000)])).toEqual([1, 11]); // 4M: a quarter is 1M
  });

  it('builds at most a quarter of the live rows, never capping under 200k: the core holds the parts and the result at once', () => {
    const p = new TieredMergePolicy();
    expect(p.capRows([100_000])).toBe(200_000);
    expect(p.capRows(Array(10).fill(100_000))).toBe(250_000);
    expect(p.capRows(Array(40).fill(1_000_000))).toBe(4_000_000);
    expect(p.findMerge(Array(10).fill(10_000))).toEqual([0, 10]); // a 100k table still merges into one
  });

  it('puts each power of the factor on its own level (no logarithm rounding): a 1000-row load of 1M ends as ten 100k segments', () => {
    const p = new TieredMergePolicy();
    expect([9_999, 10_000, 99_999, 100_000, 999_999, 1_000_000].map((r) => p.level(r))).toEqual([2, 3, 3, 4, 4, 5]);
    expect(p.findMerge([100_000, ...Array(9).fill(10_000)])).toBeNull(); // 100k is a level above 10k
    // the load as the engine runs it: a batch appended, then the policy until it asks for nothing
    const segs: number[] = [];
    for (let i = 0; i < 1000; i++) {
      segs.push(1000);
      for (let r = p.findMerge(segs); r; r = p.findMerge(segs)) segs.splice(r[0], r[1] - r[0], segs.slice(r[0], r[1]).reduce((a, b) => a + b));
    }
    expect(segs).toEqual(Array(10).fill(100_000)); // one 1M segment is over the quarter cap
    expect(new TieredMergePolicy(10, MAX_MERGED_ROWS, 100, 1).findMerge(segs)).toEqual([0, 10]); // without it, one
  });
});
