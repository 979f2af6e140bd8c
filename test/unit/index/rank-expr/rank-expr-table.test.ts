// Formulas that need the table: attributes of the row and bm25a/bm25f over index_field_lengths,
// run through the core with planExprSection's table context; weights worked out by hand.
import { describe, expect, it } from 'vitest';
import { RtIndex } from '../../../../src/index/rt-index.js';
import type { IndexSchema } from '../../../../src/index/types.js';
import type { QueryNode } from '../../../../src/query/ast.js';
import { fieldLengthAttrs, tableFieldLengths } from '../../../../src/index/rank-expr/rank-expr-plan.js';
import { tableWeights as weights } from './rank-expr-search.js';
import { and, doc, t } from '../helpers.js';

const f = Math.fround;

/** Manticore's normalized idf (float32), divided by the keyword count. */
function idf(total: number, docs: number, words: number): number {
  return f(f(f(Math.log(f(f(total - docs + 1) / docs))) / f(2 * f(Math.log(total + 1)))) / words);
}

describe('attributes in the formula', () => {
  const schema: IndexSchema = {
    fields: ['title'],
    attrs: [{ name: 'gid', type: 'uint' }, { name: 'big', type: 'bigint' }, { name: 'price', type: 'float' }, { name: 'tag', type: 'string' }, { name: 'flag', type: 'bool' }],
  };
  const idx = new RtIndex(schema);
  idx.addBatch([
    doc(schema, 1, { title: 'hello world' }, [7, 5000000000n, 1.5, 'x', 1]),
    doc(schema, 2, { title: 'hello' }, [4294967295, -3n, 0.25, 'y', 0]),
  ]);
  const q = t('hello');
  it('integer, float and bool attributes by name', () => {
    expect(weights(idx, q, 'sum(lcs)*1000 + gid')).toEqual(new Map([[1, 1007], [2, 999]]));
    // a uint above 2^31 is -1 as an int (Manticore's IntEval), 4294967295 as a float
    expect(weights(idx, q, 'gid/1000')).toEqual(new Map([[1, 0], [2, 4294967]]));
    expect(weights(idx, q, 'price*100 + flag')).toEqual(new Map([[1, 151], [2, 25]]));
  });
  it('a bigint is compared at full width; a bigint formula is a type error', () => {
    expect(weights(idx, q, 'big > 4000000000')).toEqual(new Map([[1, 1], [2, 0]]));
    expect(() => weights(idx, q, 'gid + big')).toThrow('ranking expression must evaluate to integer or float');
    expect(() => weights(idx, q, 'id')).toThrow('ranking expression must evaluate to integer or float');
    expect(weights(idx, q, 'id*1.0')).toEqual(new Map([[1, 1], [2, 2]]));
  });
  it("string attributes and unknown names get Manticore's errors", () => {
    expect(() => weights(idx, q, 'tag')).toThrow('ranking expression must evaluate to integer or float');
    expect(() => weights(idx, q, 'nope + 1')).toThrow('unknown column: nope');
  });
});

describe('bm25a and bm25f with index_field_lengths', () => {
  // the `<field>_len` attributes mark a table with field lengths (index_field_lengths=1)
  const schema: IndexSchema = { fields: ['title', 'body'], attrs: [{ name: 'title_len', type: 'uint' }, { name: 'body_len', type: 'uint' }] };
  const idx = new RtIndex(schema);
  const rows: [number, string, string][] = [[1, 'cat', 'a b c cat'], [2, 'dog dog', 'cat'], [3, 'x y z', 'q'], [4, 'w', 'v u']];
  idx.addBatch(rows.map(([id, title, body]) => doc(schema, id, { title, body }, [title.split(' ').length, body.split(' ').length])));
  it('the table has field lengths: 7 title tokens and 8 body tokens over 4 documents', () => {
    expect(fieldLengthAttrs(schema)).toEqual([0, 1]);
    expect(fieldLengthAttrs({ fields: ['title', 'body'], attrs: [{ name: 'title_len', type: 'uint' }] })).toBeNull();
    expect(tableFieldLengths(idx.segments, [0, 1])).toEqual([7, 8]);
  });
  it('bm25a: tf/(tf + k1*(1 - b + b*dl/avgdl))*idf + 0.5, avgdl = 15/4', () => {
    const i = idf(4, 2, 1);
    const avg = f(f(7 + 8) / 4);
    const bm25a = (tf: number, dl: number) => f(f(f(tf / f(tf + f(f(1.2) * f(f(1 - f(0.75)) + f(f(f(0.75) * dl) / avg))))) * i) + 0.5);
    // doc 1: "cat" twice (title and body), 5 tokens; doc 2: once, 3 tokens
    const w = weights(idx, t('cat'), 'bm25a(1.2,0.75)*1000000');
    expect(Math.abs(w.get(1)! - Math.trunc(f(bm25a(2, 5) * 1e6)))).toBeLessThanOrEqual(1);
    expect(Math.abs(w.get(2)! - Math.trunc(f(bm25a(1, 3) * 1e6)))).toBeLessThanOrEqual(1);
  });
  it('bm25f: weighted per-field terms over integer field averages (7/4 -> 1, 8/4 -> 2)', () => {
    const i = idf(4, 2, 1);
    const k1 = f(1.2);
    const b = f(0.75);
    const term = (w: number, tf: number, len: number, avg: number) =>
      f(f(f(f(f(w) * i) * tf) * f(k1 + 1)) / f(tf + f(k1 * f(f(1 - b) + f(f(b * len) / avg)))));
    // doc 1: title "cat" (len 1, weight 2/2), body "a b c cat" (len 4, weight 1/2)
    const doc1 = f(f(f(0 + term(1, 1, 1, 1)) + term(0.5, 1, 4, 2)) + 0.5);
    const w = weights(idx, t('cat'), 'bm25f(1.2,0.75,{title=2})*1000000');
    expect(Math.abs(w.get(1)! - Math.trunc(f(doc1 * 1e6)))).toBeLessThanOrEqual(1);
    // doc 2: body "cat" only (len 1)
    const doc2 = f(f(0 + term(0.5, 1, 1, 2)) + 0.5);
    expect(Math.abs(w.get(2)! - Math.trunc(f(doc2 * 1e6)))).toBeLessThanOrEqual(1);
  });
  it('without field lengths bm25f is 0.5 and bm25a loses its length term', () => {
    const plain = new RtIndex({ fields: ['title', 'body'], attrs: [] });
    plain.addBatch(rows.map(([id, title, body]) => doc(plain.schema, id, { title, body })));
    expect(weights(plain, t('cat'), 'bm25f(1.2,0.75)*1000')).toEqual(new Map([[1, 500], [2, 500]]));
    const i = idf(4, 2, 1);
    const w = weights(plain, and(t('cat')), 'bm25a(1.2,0.75)*1000000');
    const v = f(f(f(2 / f(2 + f(f(1.2) * f(1 - f(0.75))))) * i) + 0.5);
    expect(Math.abs(w.get(1)! - Math.trunc(f(v * 1e6)))).toBeLessThanOrEqual(1);
  });
});
