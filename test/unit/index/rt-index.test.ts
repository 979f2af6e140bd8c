// RtIndex behaviour: matching operators, filters, sort and paging, writes, merges, checkpoints.
import { describe, expect, it } from 'vitest';
import { RtIndex } from '../../../src/index/rt-index.js';
import { serializeSegment } from '../../../src/index/segment/segment-codec.js';
import type { AttrValue, IndexSchema, SearchRequest } from '../../../src/index/types.js';
import { evaluateCalls } from '../../../src/wasm/segment-runner.js';
import { and, doc, field, not, or, phrase, prox, req, t } from './helpers.js';

const schema: IndexSchema = {
  fields: ['title', 'body'],
  attrs: [
    { name: 'gid', type: 'uint' }, { name: 'big', type: 'bigint' }, { name: 'price', type: 'float' },
    { name: 'tag', type: 'string' }, { name: 'tags', type: 'mva' }, { name: 'j', type: 'json' },
  ],
};

function corpus(idx: RtIndex): void {
  idx.addBatch([
    doc(schema, 1, { title: 'hello world', body: 'quick brown fox' }, [10, 100n, 1.5, 'b', [1n, 2n], '{"a":1}']),
    doc(schema, 2, { title: 'hello hallo world', body: 'lazy dog' }, [20, -5n, 2.5, 'a', [2n], null]),
    doc(schema, 3, { title: 'a b world', body: 'brown quick fox jumps' }, [30, 7n, 0.5, 'c', [], null]),
    doc(schema, 4, { title: 'hello war', body: 'the quick red fox' }, [40, 1n << 40n, 3.25, 'a', [5n, 7n], null]),
    doc(schema, 5, { title: 'war and peace', body: 'hello there' }, [50, 0n, 9, 'd', [7n], null]),
  ]);
}

const matchIds = (idx: RtIndex, r: SearchRequest) => idx.search({ ...r, sort: [{ attr: 'id', desc: false }] }).hits.map((h) => Number(h.docId));

describe('matching', () => {
  const idx = new RtIndex(schema);
  corpus(idx);
  it('AND, OR, NOT', () => {
    expect(matchIds(idx, req(and(t('hello'), t('world'))))).toEqual([1, 2]);
    expect(matchIds(idx, req(or(t('hallo'), t('peace'))))).toEqual([2, 5]);
    expect(matchIds(idx, req(and(t('hello'), not(t('war')), not(t('hallo')))))).toEqual([1]);
    expect(matchIds(idx, req(not(t('hello'))))).toEqual([3]);
    expect(matchIds(idx, req(and(t('hello'), t('absent'))))).toEqual([]);
    expect(matchIds(idx, req(or(t('hello'), t('absent'))))).toEqual([1, 2, 4, 5]);
  });
  it('phrases, gaps and proximity', () => {
    expect(matchIds(idx, req(phrase('quick brown')))).toEqual([1]);
    expect(matchIds(idx, req(phrase('brown fox')))).toEqual([1]);
    expect(matchIds(idx, req(phrase('quick * fox')))).toEqual([1, 4]);
    expect(matchIds(idx, req(phrase('the * fox')))).toEqual([]);
    expect(matchIds(idx, req(phrase('world quick')))).toEqual([]); // never across fields
    expect(matchIds(idx, req(prox('fox quick', 1)))).toEqual([3]);
    expect(matchIds(idx, req(prox('fox quick', 2)))).toEqual([1, 3, 4]);
  });
  it('field limits, @f[N], ^ and $', () => {
    expect(matchIds(idx, req(t('hello', { field: field(['body']) })))).toEqual([5]);
    expect(matchIds(idx, req(t('hello', { field: { fields: ['body'], exclude: true } })))).toEqual([1, 2, 4]);
    expect(matchIds(idx, req(t('world', { field: field(['title'], { maxPos: 2 }) })))).toEqual([1]);
    expect(matchIds(idx, req(t('world', { field: field(['title'], { maxPos: 3 }) })))).toEqual([1, 2, 3]);
    expect(matchIds(idx, req(t('hello', { fieldStart: true })))).toEqual([1, 2, 4, 5]);
    expect(matchIds(idx, req(t('fox', { fieldEnd: true })))).toEqual([1, 4]);
    expect(matchIds(idx, req(t('war', { fieldStart: true, fieldEnd: false })))).toEqual([5]);
    expect(() => idx.search(req(t('x', { field: field(['nope']) })))).toThrow("no field 'nope' found in schema");
  });
  it('reports keyword statistics', () => {
    const r = idx.search(req(and(t('hello'), t('fox'))));
    expect(r.keywords).toEqual([{ keyword: 'hello', docs: 4, hits: 4 }, { keyword: 'fox', docs: 3, hits: 3 }]);
  });
  it('wildcards expand over the dictionary as one keyword', () => {
    expect(matchIds(idx, req(t('ha*', { wildcard: true })))).toEqual([2]);
    expect(matchIds(idx, req(t('w*', { wildcard: true })))).toEqual([1, 2, 3, 4, 5]);
    expect(idx.search(req(t('w*', { wildcard: true }))).keywords).toEqual([{ keyword: 'w*', docs: 5, hits: 5 }]);
  });
});

describe('filters', () => {
  const idx = new RtIndex(schema);
  corpus(idx);
  const f = (filters: SearchRequest['filters'], q = null as SearchRequest['query']) => matchIds(idx, req(q, { filters }));
  it('numeric columns in the core', () => {
    expect(f([{ attr: 'gid', op: '>=', value: 30 }])).toEqual([3, 4, 5]);
    expect(f([{ attr: 'gid', op: 'between', low: 20, high: 40 }])).toEqual([2, 3, 4]);
    expect(f([{ attr: 'gid', op: 'between', low: 20, high: 40, negate: true }])).toEqual([1, 5]);
    expect(f([{ attr: 'big', op: '<', value: 0n }])).toEqual([2]);
    expect(f([{ attr: 'big', op: '=', value: 1n << 40n }])).toEqual([4]);
    expect(f([{ attr: 'price', op: '>', value: 2.5 }])).toEqual([4, 5]);
    expect(f([{ attr: 'price', op: 'in', values: [0.5, 9] }])).toEqual([3, 5]);
    expect(f([{ attr: 'id', op: 'in', values: [2n, 4n, 99n] }])).toEqual([2, 4]);
    expect(f([{ attr: 'id', op: '!=', value: 2n }, { attr: 'gid', op: '<', value: 40 }])).toEqual([1, 3]);
    expect(f([{ attr: 'gid', op: '>=', value: 29.5 }])).toEqual([3, 4, 5]);
    expect(f([{ attr: 'gid', op: '<', value: 20.5 }])).toEqual([1, 2]);
    expect(f([{ attr: 'gid', op: '=', value: 20.5 }])).toEqual([]);
    expect(f([{ attr: 'gid', op: '!=', value: 20.5 }])).toEqual([1, 2, 3, 4, 5]);
    expect(f([{ attr: 'gid', op: 'between', low: 9.5, high: 30.5 }])).toEqual([1, 2, 3]);
  });
  it('host columns through the allow bitmap', () => {
    expect(f([{ attr: 'tag', op: '=', value: 'a' }])).toEqual([2, 4]);
    expect(f([{ attr: 'tag', op: 'in', values: ['b', 'd'] }])).toEqual([1, 5]);
    expect(f([{ attr: 'tags', op: '=', value: 7n }])).toEqual([4, 5]);
    expect(f([{ attr: 'id', op: 'in', values: Array.from({ length: 40 }, (_, i) => BigInt(i * 2)) }])).toEqual([2, 4]);
    expect(f([{ attr: 'tag', op: '=', value: 'a' }], t('hello'))).toEqual([2, 4]);
  });
  it('counts matches after filters', () => {
    expect(idx.search(req(t('hello'), { filters: [{ attr: 'gid', op: '>', value: 15 }], limit: 1 })).totalFound).toBe(3);
  });
});

describe('sort and paging', () => {
  const idx = new RtIndex(schema);
  corpus(idx);
  const order = (sort: SearchRequest['sort'], extra: Partial<SearchRequest> = {}) =>
    idx.search(req(null, { sort, ...extra })).hits.map((h) => Number(h.docId));
  it('full scan keeps internal order', () => expect(order([])).toEqual([1, 2, 3, 4, 5]));
  it('by numeric and string attributes', () => {
    expect(order([{ attr: 'price', desc: true }])).toEqual([5, 4, 2, 1, 3]);
    expect(order([{ attr: 'big', desc: false }])).toEqual([2, 5, 3, 1, 4]);
    expect(order([{ attr: 'tag', desc: false }, { attr: 'gid', desc: true }])).toEqual([4, 2, 1, 3, 5]);
  });
  it('offset, limit and max_matches', () => {
    expect(order([{ attr: 'id', desc: true }], { offset: 1, limit: 2 })).toEqual([4, 3]);
    expect(order([{ attr: 'id', desc: true }], { offset: 1, limit: 10, maxMatches: 3 })).toEqual([4, 3]);
    expect(idx.search(req(null, { limit: 2 })).totalFound).toBe(5);
  });
  it('weight ties: lower id first, whatever segment holds the row (Manticore\'s docid tie-break)', () => {
    const j = new RtIndex({ fields: ['title'], attrs: [] });
    j.addBatch([doc(j.schema, 1, { title: 'hello' })]);
    j.addBatch([doc(j.schema, 2, { title: 'world' })]);
    j.addBatch([doc(j.schema, 9, { title: 'hello' }), doc(j.schema, 0, { title: 'world' })]);
    const hits = j.search(req(or(t('hello'), t('world')))).hits;
    expect(hits.map((h) => h.docId)).toEqual([0n, 1n, 2n, 9n]);
    expect(new Set(hits.map((h) => h.weight)).size).toBe(1); // all tie
  });
});

describe('writes', () => {
  it('delete, has, count, update, duplicate ids', () => {
    const idx = new RtIndex(schema);
    corpus(idx);
    expect(idx.count()).toBe(5);
    expect(idx.delete([2n, 99n, 2n])).toBe(1);
    expect(idx.has(2n)).toBe(false);
    expect(idx.count()).toBe(4);
    expect(matchIds(idx, req(t('hello')))).toEqual([1, 4, 5]);
    expect(idx.updateAttrs(1n, new Map<string, never>([['gid', 77 as never], ['tag', 'z' as never]]))).toBe(true);
    expect(idx.updateAttrs(2n, new Map([['gid', 1]]))).toBe(false);
    expect(idx.getAttrs(1n)?.slice(0, 4)).toEqual([77, 100n, 1.5, 'z']);
    expect(matchIds(idx, req(null, { filters: [{ attr: 'gid', op: '=', value: 77 }] }))).toEqual([1]);
    expect(() => idx.addBatch([doc(schema, 1, { title: 'x' })])).toThrow("duplicate id '1'");
    idx.addBatch([doc(schema, 2, { title: 'hello again' })]);
    expect(matchIds(idx, req(t('hello')))).toEqual([1, 2, 4, 5]);
    idx.truncate();
    expect(idx.count()).toBe(0);
    expect(idx.search(req(t('hello'))).hits).toEqual([]);
  });
});

describe('token input', () => {
  it('accepts positions out of order and gaps (dropped stopwords)', () => {
    const idx = new RtIndex({ fields: ['title'], attrs: [] });
    idx.addBatch([
      { docId: 1n, fields: [{ terms: ['c', 'a', 'b'], positions: [5, 1, 2], length: 5 }], attrs: [] },
      { docId: 2n, fields: [{ terms: ['a', 'x', 'b', 'a'], positions: [1, 2, 4, 3], length: 4 }], attrs: [] },
    ]);
    const ids = (q: SearchRequest['query']) => idx.search(req(q)).hits.map((h) => Number(h.docId)).sort();
    expect(ids(phrase('a b'))).toEqual([1, 2]);
    expect(ids(phrase('a * * c'))).toEqual([]);
    expect(ids(phrase('b * * c'))).toEqual([1]);
    // the field end is Manticore's: the last token given and, going back, those not below its position
    // (doc 1: b at 2, not c at 5; doc 2: a at 3 and b at 4 before it)
    expect(ids(t('c', { fieldEnd: true }))).toEqual([]);
    expect(ids(t('b', { fieldEnd: true }))).toEqual([1, 2]);
    expect(ids(t('a', { fieldEnd: true }))).toEqual([2]);
  });
});

describe('wide tables', () => {
  it('searches fields past the 32nd without a field limit', () => {
    const fields = Array.from({ length: 40 }, (_, i) => `f${i}`);
    const idx = new RtIndex({ fields, attrs: [] });
    idx.addBatch([doc(idx.schema, 1, { f35: 'deep word', f2: 'other' }), doc(idx.schema, 2, { f1: 'word' })]);
    const ids = (q: SearchRequest['query']) => idx.search(req(q, { sort: [{ attr: 'id', desc: false }] })).hits.map((h) => Number(h.docId));
    expect(ids(t('deep'))).toEqual([1]);
    expect(ids(phrase('deep word'))).toEqual([1]);
    expect(ids(t('word', { field: field(['f1']) }))).toEqual([2]);
  });
});

describe('segments', () => {
  const small: IndexSchema = { fields: ['title'], attrs: [{ name: 'n', type: 'uint' }] };
  const words = ['alpha', 'beta', 'gamma', 'delta'];
  const fill = (idx: RtIndex, n: number) => {
    for (let i = 1; i <= n; i++) idx.addBatch([doc(small, i, { title: `${words[i % 4]} common ${words[(i * 7) % 4]}` }, [i])]);
  };
  const snapshot = (idx: RtIndex) => idx.search(req(and(t('common'), t('beta')), { sort: [{ attr: 'id', desc: false }], limit: 1000 }));

  it('tiered merges keep results and weights', async () => {
    const merged = new RtIndex(small);
    const unmerged = new RtIndex(small, { autoMerge: false });
    fill(merged, 150);
    fill(unmerged, 150);
    await merged.whenMerged();
    expect(unmerged.segments.length).toBe(150);
    expect(merged.segments.length).toBeLessThan(25);
    expect(snapshot(merged)).toEqual(snapshot(unmerged));
    merged.delete([4n, 8n]);
    merged.optimize();
    expect(merged.segments.length).toBe(1);
    expect(merged.count()).toBe(148);
    expect(snapshot(merged).hits.map((h) => h.docId)).not.toContain(4n);
  });
  it('merges after the write returns by default, inside addBatch with autoMerge true', async () => {
    const deferred = new RtIndex(small);
    const inline = new RtIndex(small, { autoMerge: true });
    fill(deferred, 10);
    fill(inline, 10);
    expect(deferred.segments.length).toBe(10);
    expect(inline.segments.length).toBe(1);
    const before = deferred.segments;
    await deferred.whenMerged();
    expect(deferred.segments.length).toBe(1);
    expect(before.length).toBe(10); // a list handed out earlier is a snapshot
    expect(snapshot(deferred)).toEqual(snapshot(inline));
  });
  it('holds merges during a bulk load, then runs the policy once when released', async () => {
    const held = new RtIndex(small);
    const plain = new RtIndex(small, { autoMerge: true });
    const release = held.holdMerges();
    fill(held, 30);
    fill(plain, 30);
    await held.whenMerged();
    expect(held.segments.length).toBe(30); // every batch still its own segment, all searchable
    expect(snapshot(held)).toEqual(snapshot(plain));
    await release();
    expect(held.segments.length).toBe(plain.segments.length);
    expect(snapshot(held)).toEqual(snapshot(plain));
    await release(); // a second release is a no-op
    expect(held.segments.length).toBe(plain.segments.length);
  });
  it('a merge drops terms whose rows were all deleted', () => {
    const idx = new RtIndex(small, { autoMerge: false });
    idx.addBatch([doc(small, 1, { title: 'only here' }, [1])]);
    idx.addBatch([doc(small, 2, { title: 'here too' }, [2])]);
    idx.delete([1n]);
    idx.optimize();
    expect(idx.segments[0].terms).toEqual(['here', 'too']);
    expect(idx.search(req(t('only'))).hits).toEqual([]);
    expect(idx.search(req(t('here'))).keywords).toEqual([{ keyword: 'here', docs: 1, hits: 1 }]);
  });
  it('one evaluate call per segment per query', () => {
    const idx = new RtIndex(small, { autoMerge: false });
    fill(idx, 7);
    const before = evaluateCalls.count;
    idx.search(req(and(t('common'), or(t('beta'), t('alpha*', { wildcard: true })))));
    expect(evaluateCalls.count - before).toBe(7);
  });
  it('serialize and load round trip, deletes and updates included', () => {
    const idx = new RtIndex(schema);
    corpus(idx);
    idx.delete([3n]);
    idx.updateAttrs(4n, new Map<string, AttrValue>([['price', 7.75], ['tags', [9n]]]));
    const files = idx.segments.map(serializeSegment);
    const back = RtIndex.fromSegments(schema, files);
    expect(back.count()).toBe(4);
    expect(back.getAttrs(4n)).toEqual(idx.getAttrs(4n));
    const q = req(or(t('hello'), t('fox')));
    expect(back.search(q)).toEqual(idx.search(q));
  });
});
