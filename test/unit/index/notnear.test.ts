// NOTNEAR/N in the core: left hits with no right hit within N words (same field) survive;
// a row matches with at least one survivor, or when the right operand is absent.
import { describe, expect, it } from 'vitest';
import { RtIndex } from '../../../src/index/rt-index.js';
import type { IndexSchema } from '../../../src/index/types.js';
import type { QueryNode } from '../../../src/query/ast.js';
import { doc, req, t } from './helpers.js';

const schema: IndexSchema = { fields: ['title', 'body'], attrs: [] };
const idx = new RtIndex(schema);
idx.addBatch([
  doc(schema, 1, { title: 'apple banana', body: '' }),
  doc(schema, 2, { title: 'apple x y z banana', body: '' }),
  doc(schema, 3, { title: 'apple', body: 'banana' }),
  doc(schema, 4, { title: 'banana apple x x x x apple', body: '' }),
  doc(schema, 5, { title: 'apple only', body: 'nothing' }),
  doc(schema, 6, { title: 'banana x apple x banana', body: '' }),
  doc(schema, 7, { title: 'banana only', body: '' }),
]);

const notNear = (a: QueryNode, b: QueryNode, distance: number): QueryNode => ({ kind: 'near', children: [a, b], distance, negate: true });
const ids = (q: QueryNode) => idx.search(req(q, { sort: [{ attr: 'id', desc: false }] })).hits.map((h) => Number(h.docId));

describe('NOTNEAR/N', () => {
  it('drops rows whose every left hit has a right hit within N words', () => {
    // distance 1: doc 1 (adjacent) out; doc 2 (4 apart) in; doc 3 (other field) in; doc 4 second apple
    // far in; doc 6 (bananas 2 words before and after) in
    expect(ids(notNear(t('apple'), t('banana'), 1))).toEqual([2, 3, 4, 5, 6]);
    // distance 4: doc 2's banana is 4 words after apple: out
    expect(ids(notNear(t('apple'), t('banana'), 4))).toEqual([3, 4, 5]);
    // distance 5: doc 4's second apple is 6 words after banana: still in
    expect(ids(notNear(t('apple'), t('banana'), 5))).toEqual([3, 4, 5]);
    expect(ids(notNear(t('apple'), t('banana'), 6))).toEqual([3, 5]);
  });
  it('hits on both sides count (right before or after the left hit)', () => {
    // doc 6: banana 2 before and 2 after apple
    expect(ids(notNear(t('apple'), t('banana'), 1))).toContain(6);
    expect(ids(notNear(t('apple'), t('banana'), 2))).not.toContain(6);
  });
  it('the surviving left hits are the row hits', () => {
    const w = (q: QueryNode) => new Map(idx.search(req(q, { ranker: 'wordcount' })).hits.map((h) => [Number(h.docId), h.weight]));
    // doc 4 "banana apple x x x x apple": with N=1 only the far apple survives; with N=0 both do
    expect(w(notNear(t('apple'), t('banana'), 1)).get(4)).toBe(1);
    expect(w(notNear(t('apple'), t('banana'), 0)).get(4)).toBe(2);
  });
});
