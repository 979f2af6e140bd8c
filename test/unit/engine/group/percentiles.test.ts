// Percentiles, ranks and MAD: the nearest-rank rule against a direct count, and Manticore's published answers.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { distResult, distSqlText, jsonDistOptions, sqlDistOptions } from '../../../../src/engine/group/percentiles.js';

describe('percentiles', () => {
  it('answers the manual\'s agg_td example (Searching/Grouping.md)', () => {
    const v = [10, 20, 30, 40, 50];
    expect(distSqlText(jsonDistOptions('percentiles', undefined), v)).toBe('{"1":10,"5":10,"25":20,"50":30,"75":40,"95":50,"99":50}');
    expect(distSqlText(jsonDistOptions('percentile_ranks', [10, 150, 1500]), v)).toBe('{"10":20,"150":100,"1500":100}');
    expect(distSqlText(jsonDistOptions('mad', undefined), v)).toBe('{"value":10,"value_as_string":"10"}');
    expect(distSqlText(jsonDistOptions('mad', undefined), [])).toBeNull();
  });

  it('the p-th percentile is a value with at least p% of the values at or below it, and no smaller such value', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: -50, max: 50 }), { minLength: 1 }), fc.integer({ min: 0, max: 100 }), (values, p) => {
      const r = distResult(jsonDistOptions('percentiles', [p]), values) as { pairs: [number, number][] };
      const x = r.pairs[0]![1];
      const atOrBelow = (t: number) => values.filter((v) => v <= t).length;
      expect(values).toContain(x);
      expect(atOrBelow(x) * 100).toBeGreaterThanOrEqual(p * values.length);
      for (const smaller of values.filter((v) => v < x)) expect(atOrBelow(smaller) * 100).toBeLessThan(Math.max(p, 1e-9) * values.length);
    }));
  });

  it('reads the SQL option map and rejects what it does not know', () => {
    expect(sqlDistOptions('percentiles', [{ name: 'values', value: { kind: 'string', value: '5, 50' } }]).values).toEqual([5, 50]);
    expect(() => sqlDistOptions('percentiles', [{ name: 'bogus', value: { kind: 'int', value: 1, text: '1' } }])).toThrow("unknown or invalid option 'bogus'");
    expect(() => sqlDistOptions('percentile_ranks', undefined)).toThrow('requires values');
    expect(() => sqlDistOptions('percentiles', [{ name: 'values', value: { kind: 'string', value: '101' } }])).toThrow('[0..100]');
  });
});
