// Planned queries kept per frozen query tree (plan-cache.ts): a repeated query answers exactly as one
// planned afresh (an unfrozen copy of the same tree) while the table changes under it: new segments,
// deletes (the live count changes the IDF), merges, and requests with other rankers, idf or expansion.
import { describe, expect, it } from 'vitest';
import { RtIndex } from '../../../src/index/rt-index.js';
import { queryPlan } from '../../../src/index/plan-cache.js';
import type { IndexSchema, SearchRequest } from '../../../src/index/types.js';
import type { QueryNode } from '../../../src/query/ast.js';
import { deepFreeze } from '../../../src/util/deep-freeze.js';
import { and, doc, or, phrase, req, t } from './helpers.js';

const schema: IndexSchema = { fields: ['title', 'body'], attrs: [] };
const WORDS = ['apple', 'banana', 'cherry', 'date', 'elder', 'fig', 'grape', ...'hijklmnopqrstuvwxyz'.split('').map((c) => `${c}word`)];

function batch(idx: RtIndex, from: number, n: number): void {
  idx.addBatch(Array.from({ length: n }, (_, i) => {
    const id = from + i;
    const w = (k: number) => WORDS[(id * (k + 3) + k) % WORDS.length];
    return doc(schema, id, { title: `${w(0)} ${w(1)}`, body: `${w(2)} ${w(3)} ${w(4)} ${w(1)} ${w(0)}` });
  }));
}

const QUERIES: QueryNode[] = [
  t('apple'), and(t('banana'), t('cherry')), or(t('fig'), t('grape'), t('date')), phrase('cherry date'),
  t('ban*', { wildcard: true }), and(t('apple'), or(t('elder'), t('fig*', { wildcard: true }))),
];

/** Hits and keyword statistics, from the same tree frozen (kept plans) and as a fresh copy (planned each time). */
function both(idx: RtIndex, frozen: QueryNode, extra: Partial<SearchRequest> = {}) {
  const expansion = { minPrefixLen: 1, minInfixLen: 0, exactForms: false };
  const run = (q: QueryNode) => {
    const r = idx.search(req(q, { expansion, ...extra }));
    return { hits: r.hits.map((h) => [h.docId, h.weight]), total: r.totalFound, keywords: r.keywords };
  };
  return { kept: run(frozen), fresh: run(structuredClone(frozen)) };
}

describe('plan cache', () => {
  it('answers a repeated frozen query as a freshly planned one while segments, deletes and merges change', () => {
    const idx = new RtIndex(schema);
    const frozen = QUERIES.map((q) => deepFreeze(structuredClone(q)));
    const check = () => {
      for (const q of frozen) {
        for (const extra of [{}, { ranker: 'bm25' as const }, { idf: { plain: true } }, { expansion: { minPrefixLen: 1, minInfixLen: 0, exactForms: false, limit: 1 } }]) {
          const { kept, fresh } = both(idx, q, extra);
          expect(kept).toEqual(fresh);
        }
      }
    };
    batch(idx, 1, 40);
    check();
    check(); // every plan kept now
    batch(idx, 41, 30); // a second segment
    check();
    idx.delete([3n, 7n, 50n, 51n, 60n]); // fewer live documents: other IDFs
    check();
    idx.optimize(); // merged: other segments
    check();
    expect(idx.search(req(frozen[0]!)).hits.length).toBeGreaterThan(0);
  });

  it('a delete changes the IDF of a kept query', () => {
    const idx = new RtIndex(schema);
    idx.addBatch(Array.from({ length: 40 }, (_, i) => doc(schema, i + 1, { title: i % 3 ? 'apple pie' : 'pie', body: 'x' })));
    const q = deepFreeze(t('apple'));
    const before = both(idx, q);
    expect(before.kept).toEqual(before.fresh);
    idx.delete(Array.from({ length: 20 }, (_, i) => BigInt(2 * i + 1)));
    const after = both(idx, q);
    expect(after.kept).toEqual(after.fresh);
    expect(after.kept.hits[0]![1]).toBeLessThan(before.kept.hits[0]![1] as number);
  });

  it('keeps the plan of a frozen tree, plans an unfrozen one or one with a wildcard each time', () => {
    const idx = new RtIndex(schema);
    batch(idx, 1, 20);
    const segments = idx.segments;
    const r = req(null);
    const frozen = deepFreeze(structuredClone(QUERIES[1]!));
    expect(queryPlan(frozen, schema.fields, segments, 20, r).planned).toBe(queryPlan(frozen, schema.fields, segments, 20, r).planned);
    expect(queryPlan(frozen, schema.fields, segments, 19, r).planned).not.toBe(queryPlan(frozen, schema.fields, segments, 20, r).planned);
    const other = [...segments, ...segments];
    expect(queryPlan(frozen, schema.fields, other, 20, r).planned).not.toBe(queryPlan(frozen, schema.fields, segments, 20, r).planned);
    for (const extra of [{ ranker: 'bm25' as const }, { idf: { unnormalized: true } }, { expansion: { minPrefixLen: 2, minInfixLen: 0, exactForms: false } }]) {
      const plan = queryPlan(frozen, schema.fields, segments, 20, r).planned;
      expect(queryPlan(frozen, schema.fields, segments, 20, { ...r, ...extra }).planned).not.toBe(plan);
    }
    const wild = deepFreeze(structuredClone(QUERIES[4]!));
    expect(queryPlan(wild, schema.fields, segments, 20, r).planned).not.toBe(queryPlan(wild, schema.fields, segments, 20, r).planned);
    const open = structuredClone(QUERIES[1]!);
    expect(queryPlan(open, schema.fields, segments, 20, r).planned).not.toBe(queryPlan(open, schema.fields, segments, 20, r).planned);
  });
});
