// POST /<table>/_update/<id> against the real server: the route is reached past the fast HTTP paths
// (fast-routes.ts serves only the exact JSON endpoints) and writes the partial replace.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startQuarry, type QuarryProcess } from './mysql-server.js';

let q: QuarryProcess;
beforeAll(async () => { q = await startQuarry(); }, 60_000);
afterAll(async () => { await q?.stop(); });

it('updates one field of a stored document over HTTP', async () => {
  await q.sql('create table t (title text, price float)');
  await q.sql("insert into t (id, title, price) values (1, 'a', 1)");
  const r = await fetch(`http://127.0.0.1:${q.httpPort}/t/_update/1`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"doc":{"price":3}}' });
  expect([r.status, await r.text()]).toEqual([200, '{"_index":"t","updated":1}']);
  expect(JSON.stringify(await q.sql('select title, price from t'))).toContain('"title":"a","price":3');
});
