// Attributes in ranking formulas: the core against plain arithmetic on random values, with
// Manticore's casts (IntEval: the value as int; Eval: as float; float formulas truncated).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RtIndex } from '../../../../src/index/rt-index.js';
import type { IndexSchema } from '../../../../src/index/types.js';
import { doc, t } from '../helpers.js';
import { tableWeights } from './rank-expr-search.js';

const schema: IndexSchema = {
  fields: ['title'],
  attrs: [{ name: 'gid', type: 'uint' }, { name: 'big', type: 'bigint' }, { name: 'price', type: 'float' }, { name: 'flag', type: 'bool' }],
};
const f = Math.fround;
/** C's (int) of a float on x86: out of range is INT_MIN. */
const toInt = (v: number) => (v >= 2 ** 31 || v < -(2 ** 31) || Number.isNaN(v) ? -(2 ** 31) : Math.trunc(v) | 0);

interface Row { gid: number; big: bigint; price: number; flag: number }
const row = fc.record({
  gid: fc.oneof(fc.nat(1000), fc.integer({ min: 0, max: 2 ** 32 - 1 })),
  big: fc.bigInt({ min: -(2n ** 40n), max: 2n ** 40n }),
  price: fc.float({ min: -1000, max: 1000, noNaN: true }).map(f),
  flag: fc.constantFrom(0, 1),
});

const FORMULAS: [string, (r: Row) => number][] = [
  ['sum(lcs)*1000 + gid', (r) => (1000 + (r.gid | 0)) | 0],
  ['gid*1.0', (r) => toInt(f(r.gid))],
  ['price*100', (r) => toInt(f(r.price * 100))],
  ['price', (r) => toInt(r.price)],
  ['flag*7 + (big > 1000000000000) + (big < 0)*10', (r) => r.flag * 7 + (r.big > 1000000000000n ? 1 : 0) + (r.big < 0n ? 10 : 0)],
  ['big/1000', (r) => toInt(f(f(Number(r.big)) / 1000))],
];

describe('attributes in the formula: core equals plain arithmetic', () => {
  it('random uint, bigint, float and bool values', () => {
    fc.assert(fc.property(fc.array(row, { minLength: 1, maxLength: 8 }), (rows) => {
      const idx = new RtIndex(schema);
      idx.addBatch(rows.map((r, i) => doc(schema, i + 1, { title: 'x' }, [r.gid, r.big, r.price, r.flag])));
      for (const [e, fn] of FORMULAS) {
        expect(tableWeights(idx, t('x'), e), e).toEqual(new Map(rows.map((r, i) => [i + 1, fn(r)])));
      }
    }), { numRuns: 60 });
  });
});
