// The applied sequence and the write it records are one lmdb commit. A node kills itself (SIGKILL,
// QUARRY_REPLICATION_CRASH) right after a replicated write's commit: its store then holds the write
// and the sequence together, and on restart it neither applies the op again nor skips it. A node
// killed between the commits of a /bulk op (two runs) finds the op marked part-way, restores the
// cluster's tables from the latest snapshot and converges; applying the op again over its first run
// would stop at that run's duplicate id and never write the second.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { join, resolve } from 'node:path';
import { queryNode, startLocalCluster, type LocalCluster } from '../../helpers/quarry-cluster.js';
import { Store } from '../../../src/store/index.js';
import { appliedKey } from '../../../src/replication/local-state.js';

const ROOT = resolve(import.meta.dirname, '../../..');
let cl: LocalCluster;

const q = (node: number, sql: string) => queryNode(cl, node, sql);

const tableOf = async (node: number) => JSON.stringify(await q(node, 'SELECT id, title, n FROM t ORDER BY id ASC LIMIT 1000'));
const lastCommitted = async () => Number((await q(0, "SHOW STATUS LIKE 'cluster_c_last_committed'"))[0]!.Value);

/** What node 2's store holds (read with the node dead): the applied record and the ids of t. */
function storeOfNode2(): { applied: unknown; ids: bigint[] } {
  const store = Store.open(join(cl.dir, 'q2', 'data'), { readOnly: true });
  try {
    return { applied: store.getMeta(appliedKey('c')), ids: [...store.docs('t')].map(([id]) => id) };
  } finally {
    void store.close();
  }
}

async function bulk(node: number, lines: string[]): Promise<unknown> {
  const r = await fetch(`http://127.0.0.1:${cl.nodes[node]!.server!.http}/bulk`, {
    method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: `${lines.join('\n')}\n`,
  });
  return r.json();
}

beforeAll(async () => {
  cl = await startLocalCluster(ROOT, 2, 1, ['replication_snapshot_ops = 5']);
  await q(0, 'CREATE TABLE t (title TEXT, n INT)');
  await q(0, 'CREATE CLUSTER c');
  await q(0, 'ALTER CLUSTER c ADD t');
  await q(1, `JOIN CLUSTER c AT '${cl.nodes[0]!.name}'`);
  for (let i = 1; i <= 6; i++) await q(0, `INSERT INTO c:t (id, title, n) VALUES (${i}, 'row', ${i})`);
}, 90_000);

afterAll(async () => { await cl?.close(); }, 30_000);

it('a kill right after a write\'s commit leaves the write and its sequence together: no skip, no second apply', async () => {
  await expect.poll(() => tableOf(1), { timeout: 10_000 }).toBe(await tableOf(0));
  const seq = (await lastCommitted()) + 1;
  await cl.nodes[1]!.stop();
  await cl.nodes[1]!.start({ QUARRY_REPLICATION_CRASH: `applied:${seq}` });
  await q(0, "INSERT INTO c:t (id, title, n) VALUES (100, 'the crash op', 100)");
  await cl.nodes[1]!.server!.exited;
  expect(cl.nodes[1]!.server!.proc.signalCode).toBe('SIGKILL');
  const dead = storeOfNode2();
  expect(dead.applied).toEqual({ seq });
  expect(dead.ids).toContain(100n);

  await cl.nodes[1]!.start();
  await q(0, "INSERT INTO c:t (id, title, n) VALUES (101, 'after the restart', 101)");
  await expect.poll(() => tableOf(1), { timeout: 15_000 }).toBe(await tableOf(0));
  const status = new Map((await q(1, "SHOW STATUS LIKE 'cluster_c_%'")).map((r) => [r.Counter, r.Value]));
  expect(Number(status.get('cluster_c_state_seqno'))).toBe(seq + 1);
}, 60_000);

it('a kill between the commits of a /bulk op is seen at restart: the tables come back from a snapshot, then follow', async () => {
  const seq = (await lastCommitted()) + 1;
  await cl.nodes[1]!.stop();
  await cl.nodes[1]!.start({ QUARRY_REPLICATION_CRASH: `apply-commit:${seq}:1` });
  const reply = await bulk(0, [
    '{"insert":{"cluster":"c","table":"t","id":200,"doc":{"title":"first run","n":200}}}',
    '',
    '{"insert":{"cluster":"c","table":"t","id":201,"doc":{"title":"second run","n":201}}}',
  ]);
  expect(reply).toMatchObject({ errors: false });
  await cl.nodes[1]!.server!.exited;
  const dead = storeOfNode2();
  expect(dead.applied).toEqual({ seq: seq - 1, partial: seq });
  expect(dead.ids).toContain(200n);
  expect(dead.ids).not.toContain(201n);

  await cl.nodes[1]!.start();
  await expect.poll(() => tableOf(1), { timeout: 15_000 }).toBe(await tableOf(0));
  expect(JSON.parse(await tableOf(1)).map((r: { id: number }) => Number(r.id))).toEqual([1, 2, 3, 4, 5, 6, 100, 101, 200, 201]);
}, 60_000);
