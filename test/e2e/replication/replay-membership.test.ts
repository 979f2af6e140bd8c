// A node killed (SIGKILL) inside a /bulk op before the cluster has any snapshot restores by applying
// the stream again from its start. Table u was added, written, then dropped from the cluster and
// written locally on that node: the replay must respect the drop in stream order, neither reloading u
// from its ADD snapshot nor writing the cluster's old writes over it, while t (still in the cluster)
// is rebuilt and converges. One NATS server and two quarry nodes.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { queryNode, startLocalCluster, type LocalCluster } from '../../helpers/quarry-cluster.js';

const ROOT = resolve(import.meta.dirname, '../../..');
let cl: LocalCluster;

const q = (node: number, sql: string) => queryNode(cl, node, sql);
const rowsOf = async (node: number, table: string) => JSON.stringify(await q(node, `SELECT id, title, n FROM ${table} ORDER BY id ASC LIMIT 1000`));
const status = async (node: number) => new Map((await q(node, "SHOW STATUS LIKE 'cluster_c_%'")).map((r) => [r.Counter, r.Value]));
const lastCommitted = async () => Number((await status(0)).get('cluster_c_last_committed'));

async function bulk(lines: string[]): Promise<unknown> {
  const r = await fetch(`http://127.0.0.1:${cl.nodes[0]!.server!.http}/bulk`, {
    method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: `${lines.join('\n')}\n`,
  });
  return r.json();
}

beforeAll(async () => {
  cl = await startLocalCluster(ROOT, 2, 1);
  await q(0, 'CREATE TABLE t (title TEXT, n INT)');
  await q(0, 'CREATE TABLE u (title TEXT, n INT)');
  await q(0, 'CREATE CLUSTER c');
  await q(0, 'ALTER CLUSTER c ADD t');
  await q(0, 'ALTER CLUSTER c ADD u');
  await q(1, `JOIN CLUSTER c AT '${cl.nodes[0]!.name}'`);
}, 90_000);

afterAll(async () => { await cl?.close(); }, 30_000);

it('a replay from the stream start after a crash inside /bulk leaves a table dropped from the cluster as this node wrote it', async () => {
  for (let i = 1; i <= 3; i++) {
    await q(0, `INSERT INTO c:t (id, title, n) VALUES (${i}, 'row', ${i})`);
    await q(0, `INSERT INTO c:u (id, title, n) VALUES (${i}, 'cluster', ${i})`);
  }
  // one /bulk op writing both tables: replayed, only its line on t may apply
  expect(await bulk(['{"insert":{"cluster":"c","table":"t","id":10,"doc":{"title":"bulk","n":10}}}', '{"insert":{"cluster":"c","table":"u","id":10,"doc":{"title":"bulk","n":10}}}'])).toMatchObject({ errors: false });
  await q(0, 'ALTER CLUSTER c DROP u');
  await expect.poll(async () => (await status(1)).get('cluster_c_indexes'), { timeout: 15_000 }).toBe('t');
  // u is node 1's own table now: local writes
  await q(1, "INSERT INTO u (id, title, n) VALUES (50, 'local', 50)");
  await q(1, 'UPDATE u SET n = 99 WHERE id = 1');
  await q(1, 'DELETE FROM u WHERE id IN (2, 10)');
  const localU = await rowsOf(1, 'u');
  expect(JSON.parse(localU).map((r: { id: number }) => Number(r.id))).toEqual([1, 3, 50]);
  expect((await status(1)).get('cluster_c_state_seqno')).toBe(String(await lastCommitted()));

  // node 1 dies between the two commits of a /bulk op on t; no snapshot exists (10,000 ops apart)
  const seq = (await lastCommitted()) + 1;
  await cl.nodes[1]!.stop();
  await cl.nodes[1]!.start({ QUARRY_REPLICATION_CRASH: `apply-commit:${seq}:1` });
  const reply = await bulk(['{"insert":{"cluster":"c","table":"t","id":200,"doc":{"title":"first run","n":200}}}', '',
    '{"insert":{"cluster":"c","table":"t","id":201,"doc":{"title":"second run","n":201}}}']);
  expect(reply).toMatchObject({ errors: false });
  await cl.nodes[1]!.server!.exited;
  expect(cl.nodes[1]!.server!.proc.signalCode).toBe('SIGKILL');

  await cl.nodes[1]!.start();
  await q(0, "INSERT INTO c:t (id, title, n) VALUES (300, 'after the restart', 300)");
  await expect.poll(() => rowsOf(1, 't'), { timeout: 20_000 }).toBe(await rowsOf(0, 't'));
  expect(JSON.parse(await rowsOf(1, 't')).map((r: { id: number }) => Number(r.id))).toEqual([1, 2, 3, 10, 200, 201, 300]);
  expect(await rowsOf(1, 'u')).toBe(localU);
  const s = await status(1);
  expect(s.get('cluster_c_indexes')).toBe('t');
  expect(s.get('cluster_c_state_seqno')).toBe(String(await lastCommitted()));
  // u is still local on node 1 (writable without the cluster), and the cluster's t is not
  await q(1, "INSERT INTO u (id, title, n) VALUES (51, 'local again', 51)");
  await expect(q(1, "INSERT INTO t (id, title, n) VALUES (400, 'x', 1)")).rejects.toThrow(/cluster/);
}, 90_000);
