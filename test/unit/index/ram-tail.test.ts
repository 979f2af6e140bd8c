// The RAM tail: an index taking small writes in its tail answers every search, id lookup, count,
// attribute read and update, DELETE and REPLACE exactly as one building a segment per write, whether
// the tail is sealed by a read, by filling up or not at all, and on 1 thread or on N.
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RtIndex } from '../../../src/index/rt-index.js';
import { TAIL_BATCH_ROWS, TAIL_GROWTH_MAX, TAIL_ROWS } from '../../../src/index/ram-tail.js';
import { setBusyProbe, setParallelMinCost, setQueryThreads } from '../../../src/index/parallel/query-threads.js';
import type { DocInput, IndexSchema, SearchRequest, SearchResult } from '../../../src/index/types.js';
import type { QueryNode, TermNode } from '../../../src/query/ast.js';
import { req } from './helpers.js';

const schema: IndexSchema = {
  fields: ['title', 'body'],
  attrs: [{ name: 'n', type: 'uint' }, { name: 'f', type: 'float' }, { name: 's', type: 'string' }],
};
const VOCAB = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];

const word = fc.constantFrom(...VOCAB);
const text = fc.array(word, { minLength: 0, maxLength: 8 });
const row = (id: number) => fc.tuple(text, text, fc.integer({ min: 0, max: 5 }), fc.constantFrom(0.5, 1.5, 2), fc.constantFrom('x', 'y', ''))
  .map(([a, b, n, f, s]): DocInput => ({
    docId: BigInt(id),
    fields: [a, b].map((terms) => ({ terms, positions: terms.map((_, j) => j + 1), length: terms.length })),
    attrs: [n, f, s],
  }));
/** Ids from a small range, so writes replace and delete each other's rows. */
const id = fc.integer({ min: 1, max: 60 });

const term = word.map((t): TermNode => ({ kind: 'term', text: t }));
const terms = (min: number, max: number) => fc.array(term, { minLength: min, maxLength: max });
const query: fc.Arbitrary<QueryNode | null> = fc.letrec<{ node: QueryNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    term,
    terms(2, 3).map((ts): QueryNode => ({ kind: 'phrase', terms: ts, offsets: ts.map((_, i) => i) })),
    fc.tuple(terms(2, 3), fc.integer({ min: 1, max: 4 })).map(([ts, distance]): QueryNode => ({ kind: 'proximity', terms: ts, distance })),
    fc.tuple(terms(2, 4), fc.integer({ min: 1, max: 3 })).map(([ts, threshold]): QueryNode => ({ kind: 'quorum', terms: ts, threshold })),
    fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map((children): QueryNode => ({ kind: 'and', children })),
    fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map((children): QueryNode => ({ kind: 'or', children })),
    fc.tuple(tie('node'), tie('node')).map(([a, b]): QueryNode => ({ kind: 'and', children: [a, { kind: 'not', child: b }] })),
  ),
})).node.chain((q) => fc.constantFrom<QueryNode | null>(q, q, q, null));

const search: fc.Arbitrary<SearchRequest> = fc.record({
  q: query,
  ranker: fc.constantFrom('proximity_bm25', 'bm25', 'sph04', 'wordcount', 'none', 'proximity', 'matchany', 'fieldmask') as fc.Arbitrary<SearchRequest['ranker']>,
  sort: fc.constantFrom<SearchRequest['sort']>([], [{ attr: 'n', desc: true }, { attr: 'id', desc: false }], [{ attr: 'id', desc: true }]),
  filters: fc.constantFrom<SearchRequest['filters']>([], [{ attr: 'n', op: '>=' as const, value: 2 }], [{ attr: 's', op: '=' as const, value: 'x' }]),
  limit: fc.constantFrom(5, 1000),
}).map(({ q, ranker, sort, filters, limit }) => req(q, { ranker, sort, filters, limit: sort.length ? limit : 1000 }));

type Op =
  | { op: 'insert'; rows: number[] } | { op: 'replace'; rows: number[] } | { op: 'delete'; ids: number[] }
  | { op: 'update'; id: number; n: number } | { op: 'search'; req: SearchRequest } | { op: 'load'; from: number };
const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.array(id, { minLength: 1, maxLength: 4 }).map((rows): Op => ({ op: 'insert', rows })), weight: 4 },
  { arbitrary: fc.array(id, { minLength: 1, maxLength: 4 }).map((rows): Op => ({ op: 'replace', rows })), weight: 3 },
  { arbitrary: fc.array(id, { minLength: 1, maxLength: 3 }).map((ids): Op => ({ op: 'delete', ids })), weight: 2 },
  { arbitrary: fc.tuple(id, fc.integer({ min: 0, max: 9 })).map(([i, n]): Op => ({ op: 'update', id: i, n })), weight: 1 },
  { arbitrary: search.map((r): Op => ({ op: 'search', req: r })), weight: 2 },
  { arbitrary: fc.constant<Op>({ op: 'load', from: 1000 }), weight: 1 },
);

/** A run's documents by id, drawn once so both indexes get the same rows. */
const scenario = fc.tuple(fc.array(op, { minLength: 5, maxLength: 40 }), fc.array(search, { minLength: 3, maxLength: 6 }))
  .chain(([ops, finals]) => fc.tuple(fc.constant(ops), fc.constant(finals), fc.array(row(0), { minLength: 61, maxLength: 61 })));

/**
 * A search's answer as both indexes must give it. Keyword statistics (and the weights of rankers that
 * use them) count the rows a segment still holds deleted, as Manticore's do until a merge purges them:
 * a row replaced or deleted while in the tail was never in a segment, as if merged away at once. So
 * weights are compared where the ranker uses no statistics; elsewhere the matches, in id order.
 */
function answer(r: SearchResult, q: SearchRequest): unknown {
  // equal weights come in the order of the rows' segments, which the tail changes (as merges do)
  if (STATS_FREE.has(q.ranker)) return { total: r.totalFound, hits: q.sort.length ? r.hits : [...r.hits].sort((a, b) => b.weight - a.weight || (a.docId < b.docId ? -1 : 1)) };
  return { total: r.totalFound, ids: r.hits.map((h) => h.docId).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) };
}
const STATS_FREE = new Set<string>(['none', 'wordcount', 'proximity', 'matchany', 'fieldmask']);

/** What each index answers to every step; `final` searches at the end (tail not sealed before them unless a step did). */
function run(idx: RtIndex, ops: Op[], rows: DocInput[], finals: SearchRequest[]): unknown[] {
  const out: unknown[] = [];
  const at = (i: number) => ({ ...rows[i], docId: BigInt(i) });
  let loaded = 0;
  for (const o of ops) {
    try {
      if (o.op === 'insert') {
        const fresh = [...new Set(o.rows)].filter((i) => !idx.has(BigInt(i)));
        idx.addBatch(fresh.map(at));
        out.push(fresh.length);
      } else if (o.op === 'replace') {
        const ids = [...new Set(o.rows)];
        idx.replaceBatch(ids.map(at), ids.map(BigInt).filter((i) => idx.has(i)));
      } else if (o.op === 'delete') {
        out.push(idx.delete(o.ids.map(BigInt)));
      } else if (o.op === 'update') {
        out.push(idx.updateAttrs(BigInt(o.id), new Map([['n', o.n]])));
      } else if (o.op === 'search') {
        out.push(answer(idx.search(o.req), o.req));
      } else {
        // a write too big for the tail: a segment of its own, after the tail's rows
        const base = o.from + 1000 * loaded++;
        idx.addBatch(Array.from({ length: TAIL_BATCH_ROWS + 1 }, (_, k) => ({ ...rows[k % rows.length], docId: BigInt(base + k) })));
      }
    } catch (e) {
      out.push((e as Error).message);
    }
    out.push(idx.count(), [3, 7, 20, 41].map((i) => [idx.has(BigInt(i)), idx.getAttrs(BigInt(i))]));
  }
  for (const r of finals) out.push(answer(idx.search(r), r));
  return out;
}

describe('RAM tail', () => {
  it('answers every operation as a segment per write does', () => {
    fc.assert(fc.property(scenario, ([ops, finals, rows]) => {
      const plain = new RtIndex(schema);
      const tailed = new RtIndex(schema, { ramTail: true });
      try {
        expect(run(tailed, ops, rows, finals)).toEqual(run(plain, ops, rows, finals));
      } finally {
        plain.truncate();
        tailed.truncate();
      }
    }), { numRuns: 150 });
  });

  it('seals the tail into one segment when a read needs it or when it is full, not per write', () => {
    const idx = new RtIndex(schema, { ramTail: true, autoMerge: false });
    const d = (i: number): DocInput => ({ docId: BigInt(i), fields: [{ terms: ['a'], positions: [1], length: 1 }, { terms: [], positions: [], length: 0 }], attrs: [i, 1, 'x'] });
    for (let i = 1; i <= 10; i++) idx.addBatch([d(i)]);
    expect(idx.count()).toBe(10);
    expect(idx.search(req({ kind: 'term', text: 'a' })).totalFound).toBe(10);
    expect(idx.segments.length).toBe(1); // ten writes, one segment
    for (let i = 11; i <= TAIL_ROWS + 20; i++) idx.addBatch([d(i)]);
    // the write that would have passed TAIL_ROWS sealed the tail first
    expect(idx.count()).toBe(TAIL_ROWS + 20);
    expect(idx.segments.map((s) => s.rows)).toEqual([10, TAIL_ROWS, 10]);
    idx.truncate();
  });

  it('grows its bounds under a stream of writes no read interrupts (to TAIL_GROWTH_MAX), back to TAIL_ROWS after a read', () => {
    const idx = new RtIndex(schema, { ramTail: true, autoMerge: false });
    const d = (i: number): DocInput => ({ docId: BigInt(i), fields: [{ terms: ['a'], positions: [1], length: 1 }, { terms: [], positions: [], length: 0 }], attrs: [i, 1, 'x'] });
    let id = 0;
    const write = (n: number) => { for (let i = 0; i < n; i++) idx.addBatch([d(++id)]); };
    // seals forced by writes: TAIL_ROWS, then twice, four times as many; never more than TAIL_GROWTH_MAX times
    write(TAIL_ROWS * (1 + 2 + 4 + 4) + 5);
    expect(TAIL_GROWTH_MAX).toBe(4);
    expect(idx.count()).toBe(id);
    expect(idx.segments.map((s) => s.rows)).toEqual([TAIL_ROWS, 2 * TAIL_ROWS, 4 * TAIL_ROWS, 4 * TAIL_ROWS, 5]);
    // that read (idx.segments) sealed the last 5 rows: the next stream seals at TAIL_ROWS again
    write(TAIL_ROWS + 1);
    expect(idx.search(req({ kind: 'term', text: 'a' })).totalFound).toBe(id);
    expect(idx.segments.map((s) => s.rows).slice(5)).toEqual([TAIL_ROWS, 1]);
    idx.truncate();
  });

  it('a withheld row of a small write never shows; the others do', () => {
    const idx = new RtIndex(schema, { ramTail: true });
    const d = (i: number): DocInput => ({ docId: BigInt(i), fields: [{ terms: ['a'], positions: [1], length: 1 }, { terms: [], positions: [], length: 0 }], attrs: [i, 1, 'x'] });
    const batch = idx.prepareBatch([d(1), d(2), d(3)]);
    idx.withholdRows(batch, [1]);
    idx.applyBatch(batch);
    expect([idx.has(1n), idx.has(2n), idx.has(3n), idx.count()]).toEqual([true, false, true, 2]);
    expect(idx.search(req({ kind: 'term', text: 'a' })).hits.map((h) => h.docId)).toEqual([1n, 3n]);
    idx.truncate();
  });

  describe('on worker threads', () => {
    afterAll(async () => {
      setParallelMinCost(undefined);
      setBusyProbe(null);
      await setQueryThreads(1);
    });

    it('answers a table whose newest rows are in the tail as on the protocol thread', async () => {
      const idx = new RtIndex(schema, { ramTail: true });
      const d = (i: number): DocInput => ({
        docId: BigInt(i),
        fields: [{ terms: [VOCAB[i % 7], VOCAB[i % 3]], positions: [1, 2], length: 2 }, { terms: [VOCAB[i % 5]], positions: [1], length: 1 }],
        attrs: [i % 6, 1.5, i % 2 ? 'x' : 'y'],
      });
      for (let b = 0; b < 4; b++) idx.addBatch(Array.from({ length: 2000 }, (_, k) => d(b * 2000 + k + 1)));
      const reqs = [req({ kind: 'or', children: [{ kind: 'term', text: 'a' }, { kind: 'term', text: 'b' }] }), req({ kind: 'term', text: 'c' }, { sort: [{ attr: 'n', desc: true }, { attr: 'id', desc: false }] })];
      setParallelMinCost(1);
      setBusyProbe(() => false);
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 30; i++) idx.addBatch([d(10_000 + round * 100 + i)]); // small writes: the tail
        idx.delete([BigInt(round * 7 + 1)]);
        for (let i = 0; i < 5; i++) idx.addBatch([d(20_000 + round * 100 + i)]);
        idx.delete([BigInt(20_000 + round * 100)]);
        await setQueryThreads(3);
        const many = await Promise.all(reqs.map((r) => idx.searchAsync(r)));
        await setQueryThreads(1);
        expect(many).toEqual(reqs.map((r) => idx.search(r)));
      }
      idx.truncate();
    });
  });
});
