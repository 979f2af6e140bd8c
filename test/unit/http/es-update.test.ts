// POST /<table>/_update/<id> {"doc": {...}}: the Elasticsearch-like partial replace (Manticore manual
// REPLACE.md, Buddy's Replace plugin; test/clt-tests/data-manipulation/test-replace-into.rec answers
// {"_index":"tbl","updated":1}). quarry answered 501 unsupported endpoint.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { newSession, openEngine, type Engine } from '../../../src/engine/index.js';
import { createHttpApp } from '../../../src/http/app.js';

let dir: string;
let engine: Engine;
let app: ReturnType<typeof createHttpApp>;

async function post(path: string, body: string) {
  const res = await app.request(path, { method: 'POST', body });
  return { status: res.status, json: JSON.parse(await res.text()) as unknown };
}
async function source(id: number): Promise<unknown> {
  const r = await post('/search', JSON.stringify({ table: 't', query: { equals: { id } } }));
  return (r.json as { hits: { hits: { _source: unknown }[] } }).hits.hits[0]?._source;
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-es-update-'));
  engine = await openEngine({ dataDir: dir });
  app = createHttpApp({ engine, maxBodyBytes: 65536, onInternalError: () => {} });
  await engine.execute('create table t (title text, price float, tags multi, j json, s string)', newSession());
  await engine.execute(`insert into t (id, title, price, tags, j, s) values (1, 'a b', 1, (1,2), '{"x":1}', 'str')`, newSession());
});
afterEach(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

it('lays the doc over the stored document, every type kept, and answers as Buddy does', async () => {
  const r = await post('/t/_update/1', JSON.stringify({ doc: { price: 9.5, tags: [5, 3], j: { y: [1, 2] }, s: "it's \\ x" } }));
  expect(r).toEqual({ status: 200, json: { _index: 't', updated: 1 } });
  expect(await source(1)).toEqual({ title: 'a b', price: 9.5, tags: [3, 5], j: { y: [1, 2] }, s: "it's \\ x" });
  // a cluster:table path names the table; an empty doc writes the document back unchanged
  expect(await post('/c1:t/_update/1', '{"doc":{}}')).toEqual({ status: 200, json: { _index: 't', updated: 1 } });
  expect(await source(1)).toMatchObject({ title: 'a b', price: 9.5 });
});

it('makes a missing document from the doc alone', async () => {
  expect((await post('/t/_update/7', '{"doc":{"title":"new doc"}}')).status).toBe(200);
  expect(await source(7)).toEqual({ title: 'new doc', price: 0, tags: [], j: null, s: '' });
});

it('answers errors in the write endpoints\' shape', async () => {
  expect(await post('/t/_update/1', '{"doc":{"nosuch":1}}')).toEqual({
    status: 409, json: { error: { type: 'action_request_validation_exception', reason: "unknown column: 'nosuch'", table: 't' }, status: 409 },
  });
  expect((await post('/nope/_update/1', '{"doc":{"a":1}}')).json).toMatchObject({ error: { reason: "no such table 'nope'" } });
  expect((await post('/t/_update/x', '{"doc":{}}')).status).toBe(400);
  expect((await post('/t/_update/1', '{bad')).status).toBe(400);
});
