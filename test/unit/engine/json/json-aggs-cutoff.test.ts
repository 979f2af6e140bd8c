// /search "options":{"cutoff":N} with "aggs": searchd runs each aggregation as a FACET query copied from the
// main one (daemon/search_handler.cpp: the copies keep m_iCutoff), so each groups only the first N matches
// of its scope in row order, as SQL `OPTION cutoff=N FACET ...` does (facet-fuzzy-cutoff.test.ts); the
// hits keep the main query's own total. quarry refused the request (`option 'cutoff' is not supported
// with GROUP BY, FACET or aggregates`).
import { expect, it } from 'vitest';
import { newSession } from '../../../../src/engine/index.js';
import { searchReply } from '../../../../src/http/json-routes.js';
import { replyBody } from '../../../../src/http/sql-routes.js';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('json-aggs-cutoff', async (t) => {
  await t.exec('create table t (title text, g int)');
  // inserted one by one: row order is insertion order, ids out of order
  for (const [id, g] of [[5, 1], [3, 1], [9, 2], [1, 2], [7, 3]]) await t.exec(`insert into t (id, title, g) values (${id}, 'text here', ${g})`);
});

interface Reply { hits: { total: number; total_relation: string; hits: { _id: number }[] }; aggregations: Record<string, { buckets?: { key: number }[] }>; error?: string }
/** The /search reply as a client reads it. */
async function search(body: string): Promise<Reply> {
  return JSON.parse(replyBody(await searchReply(t.engine.json!, newSession(), body)).toString()) as Reply;
}

it('each aggregation groups the first N matches, as the SQL FACET of the same cutoff', async () => {
  const r = await search('{"table":"t","query":{"match":{"title":"text"}},"options":{"cutoff":3},"aggs":{"g":{"terms":{"field":"g","size":10}},"top":{"max":{"field":"g"}}}}');
  expect(r.aggregations.g).toEqual({ buckets: [{ key: 1, doc_count: 2 }, { key: 2, doc_count: 1 }] });
  expect(r.aggregations.top).toEqual({ value: 2 });
  const facet = (await t.exec("select id from t where match('text') option cutoff=3 facet g order by g desc")).at(-1)!;
  expect(facet.kind === 'rows' && facet.rows).toEqual([[2, 1n], [1, 2n]]);
  expect(r.hits).toMatchObject({ total: 3, total_relation: 'eq' });
  // without cutoff every match is grouped, and the total is the aggregations' exact count
  const all = await search('{"table":"t","aggs":{"g":{"terms":{"field":"g","size":10}}}}');
  expect(all.aggregations.g!.buckets!.map((b) => b.key).sort()).toEqual([1, 2, 3]);
});

it('a full scan stopped at N keeps its lower-bound total; a scoped aggregation cuts its own matches', async () => {
  const r = await search('{"table":"t","options":{"cutoff":2},"aggs":{"g":{"terms":{"field":"g","size":10}}}}');
  expect(r.aggregations.g).toEqual({ buckets: [{ key: 1, doc_count: 2 }] });
  expect(r.hits).toMatchObject({ total: 2, total_relation: 'gte' });
  // max mode groups the broad query (no filters): its first 2 rows, ids 5 and 3 (g = 1, which the filter
  // leaves out: unavailable), not all five
  const scoped = await search('{"table":"t","query":{"range":{"g":{"gte":2}}},"options":{"cutoff":2},"aggs":{"g":{"terms":{"field":"g","size":10},"mode":"max"}}}');
  expect(scoped.hits.hits.map((h) => h._id)).toEqual([1, 9]);
  expect(scoped.aggregations.g).toEqual({ buckets: [{ key: 1, doc_count: 2, status: 'unavailable' }] });
});
