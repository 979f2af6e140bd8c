// Cluster snapshots and the stream's trimming: with replication_snapshot_ops = 10, a node killed
// while 60 more writes go through (snapshots taken, the stream trimmed past what it applied) comes
// back by loading the latest snapshot and following the stream from there; a node joining after the
// trim does the same. All three end with identical tables.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { queryNode, startLocalCluster, type LocalCluster } from '../../helpers/quarry-cluster.js';
import { Objm } from '@nats-io/obj';
import { snapshotBucket, streamName } from '../../../src/replication/cluster-log.js';

const ROOT = resolve(import.meta.dirname, '../../..');
let cl: LocalCluster;

const q = (node: number, sql: string) => queryNode(cl, node, sql);

const tableOf = async (node: number) => JSON.stringify(await q(node, 'SELECT id, title, n FROM t ORDER BY id ASC LIMIT 1000'));

/** The objects in the cluster's snapshot bucket. */
async function bucketNames(): Promise<string[]> {
  const nc = await connect({ servers: cl.nats.map((n) => n.url) });
  try {
    const os = await new Objm(nc).open(snapshotBucket('c'));
    return (await os.list()).filter((o) => !o.deleted).map((o) => o.name).sort();
  } finally {
    await nc.close();
  }
}

async function streamState(): Promise<{ first: number; last: number }> {
  const nc = await connect({ servers: cl.nats.map((n) => n.url) });
  try {
    const info = await (await jetstreamManager(nc)).streams.info(streamName('c'));
    return { first: info.state.first_seq, last: info.state.last_seq };
  } finally {
    await nc.close();
  }
}

beforeAll(async () => {
  cl = await startLocalCluster(ROOT, 3, 1, ['replication_snapshot_ops = 10']);
}, 90_000);

afterAll(async () => { await cl?.close(); }, 30_000);

it('a node down across a trim, and one joining after it, load the latest snapshot and then follow', async () => {
  await q(0, 'CREATE TABLE t (title TEXT, n INT)');
  await q(0, "INSERT INTO t (id, title, n) VALUES (1, 'before the cluster', 1)");
  await q(0, 'CREATE CLUSTER c');
  await q(0, 'ALTER CLUSTER c ADD t');
  await q(1, `JOIN CLUSTER c AT '${cl.nodes[0]!.name}'`);
  await q(1, "INSERT INTO c:t (id, title, n) VALUES (2, 'both nodes up', 2)");
  await expect.poll(() => tableOf(0), { timeout: 10_000 }).toBe(await tableOf(1));
  const appliedAtKill = (await streamState()).last;
  await cl.nodes[1]!.kill();

  for (let i = 3; i <= 50; i++) await q(0, `INSERT INTO c:t (id, title, n) VALUES (${i}, 'while node 2 is down', ${i})`);
  await q(0, 'UPDATE c:t SET n = 100 WHERE id = 2');
  await q(0, 'DELETE FROM c:t WHERE id = 3');
  for (let i = 51; i <= 60; i++) await q(0, `REPLACE INTO c:t (id, title, n) VALUES (${i - 40}, 'replaced', ${i})`);
  // snapshots every 10 ops; the stream is trimmed through the latest one (node 2 lags too far to hold
  // it back), so the ops node 2 lacks are gone from the stream; on a loaded machine a snapshot still
  // uploading lets the next ones pass, so a few more writes may be needed to reach a trim past them
  let k = 0;
  await expect.poll(async () => {
    if (k++ > 0) await q(0, `REPLACE INTO c:t (id, title, n) VALUES (4, 'while node 2 is down', ${4 + k})`);
    const { first, last } = await streamState();
    return first > appliedAtKill + 1 && last - first < 40;
  }, { timeout: 30_000, interval: 200, message: 'the stream was trimmed past node 2' }).toBe(true);

  // the table's ADD snapshot went with the trimmed ADD op; the latest two cluster snapshots stay
  await expect.poll(async () => (await bucketNames()).map((n) => n.replace(/\d+$/, 'N')), { timeout: 15_000 }).toEqual(['cluster@N', 'cluster@N']);

  await cl.nodes[1]!.start();
  await q(2, `JOIN CLUSTER c AT '${cl.nodes[0]!.name}'`);
  await q(2, "INSERT INTO c:t (id, title, n) VALUES (61, 'after the trim', 61)");
  // node 1 applies the joiner's write moments after it was acknowledged: wait for it there first
  await expect.poll(async () => (await q(0, 'SELECT id FROM t WHERE id = 61')).length, { timeout: 15_000 }).toBe(1);
  const want = await tableOf(0);
  for (const node of [1, 2]) await expect.poll(() => tableOf(node), { timeout: 30_000, message: `node ${node + 1} converged` }).toBe(want);
  const rows = JSON.parse(want) as { id: number; n: number }[];
  expect(rows.map((r) => Number(r.id))).toEqual([1, 2, ...Array.from({ length: 47 }, (_, i) => i + 4), 61]);
  expect(rows.find((r) => r.id === 20)?.n).toBe(60);
  expect(rows.find((r) => r.id === 2)?.n).toBe(100);
  const status = new Map((await q(1, "SHOW STATUS LIKE 'cluster_c_%'")).map((r) => [r.Counter, r.Value]));
  expect(status.get('cluster_c_node_state')).toBe('synced');
  expect(status.get('cluster_c_indexes')).toBe('t');
}, 120_000);
