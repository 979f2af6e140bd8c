// /search `aggs` over JSON attribute paths and nested sub-aggregations, as searchd answers them:
// terms on j.k buckets the key's values (rows without the key make none); a metric over a JSON path is
// SQL's ambiguous SUM(j.n) (sphinxsort.cpp SetupAggregateExpr); an `aggs` beside or inside a bucket's
// type is refused (sphinxjsonquery.cpp AddSubAggregate).
import { parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../../../src/engine/index.js';
import { searchJsonText } from '../../../../src/http/render-search.js';
import { newSession } from '../../../../src/engine/session.js';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('json-aggs-paths', async (t) => {
  await t.exec('create table jt (j json, a int)');
  await t.exec(`insert into jt (id, j, a) values (1, '{"k":"p","n":1}', 1), (2, '{"k":"q","n":2}', 2),
    (3, '{"k":"p","n":1}', 2), (4, '{"x":1}', 3)`);
});

async function aggregations(body: unknown): Promise<unknown> {
  const r = await t.engine.json!.search(parse(JSON.stringify(body)) as JsonValue, newSession());
  return JSON.parse(searchJsonText(r)).aggregations;
}
async function error(body: unknown): Promise<string> {
  try { await aggregations(body); return 'no error'; } catch (e) { return (e as Error).message; }
}

describe('/search aggs over JSON paths', () => {
  it('terms on j.k: one bucket per value, rows without the key in none', async () => {
    expect(await aggregations({ table: 'jt', size: 0, aggs: { g: { terms: { field: 'j.k' } } } }))
      .toEqual({ g: { buckets: [{ key: 'p', doc_count: 2 }, { key: 'q', doc_count: 1 }] } });
  });

  it('a metric over a JSON path is the ambiguous-type error; over a column it sums', async () => {
    expect(await error({ table: 'jt', size: 0, aggs: { s: { sum: { field: 'j.n' } } } }))
      .toBe("table jt: ambiguous attribute type 'j.n', use INTEGER(), BIGINT() or DOUBLE() conversion functions");
    expect(await aggregations({ table: 'jt', size: 0, aggs: { s: { sum: { field: 'a' } } } })).toEqual({ s: { value: 8 } });
  });

  it('refuses nested "aggs" beside the type and inside it', async () => {
    const inner = { h: { terms: { field: 'j.k' } } };
    expect(await error({ table: 'jt', size: 0, aggs: { g: { terms: { field: 'a' }, aggs: inner } } })).toBe('nested "aggs" is not supported');
    expect(await error({ table: 'jt', size: 0, aggs: { g: { terms: { field: 'a', aggs: inner } } } })).toBe('nested "aggs" is not supported');
  });
});
