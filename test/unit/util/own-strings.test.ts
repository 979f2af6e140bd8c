// ownStrings: the same strings, in order, whatever they hold (the separator included).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ownStrings } from '../../../src/util/own-strings.js';

describe('ownStrings', () => {
  it('returns equal strings in the same order', () => {
    fc.assert(fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 40 }), { maxLength: 20 }), (xs) => {
      expect(ownStrings(xs)).toEqual(xs);
    }));
  });

  it('copies strings one by one when one holds the separator', () => {
    const statement = `INSERT INTO t VALUES ('${'x'.repeat(100)}\u0000tail', 'longer than thirteen')`;
    const xs = [statement.slice(22, 140), statement.slice(-23, -2), ''];
    expect(ownStrings(xs)).toEqual(xs);
  });

  it('keeps an empty list empty', () => {
    expect(ownStrings([])).toEqual([]);
  });
});
