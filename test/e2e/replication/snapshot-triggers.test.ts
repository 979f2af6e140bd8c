// The size and time triggers of cluster snapshots (replication_snapshot_bytes and _interval), with the
// op count out of reach: node 1 snapshots its cluster `a` once the ops since the latest reach 4k bytes
// (small ops do not), node 2 its cluster `b` once 2 s have passed and an op arrives. Each snapshot is
// seen in the cluster's object store, and the stream trimmed through it. One NATS server.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { Objm } from '@nats-io/obj';
import { queryNode, startLocalCluster, type LocalCluster } from '../../helpers/quarry-cluster.js';
import { snapshotBucket, streamName } from '../../../src/replication/cluster-log.js';
import { snapshotSeqOf } from '../../../src/replication/cluster-snapshots.js';

const ROOT = resolve(import.meta.dirname, '../../..');
let cl: LocalCluster;

const q = (node: number, sql: string) => queryNode(cl, node, sql);

/** The sequences of cluster `c`'s snapshots, and its stream's first and last sequence. */
async function snapshotsOf(c: string): Promise<{ snapshots: number[]; first: number; last: number }> {
  const nc = await connect({ servers: cl.nats.map((n) => n.url) });
  try {
    const os = await new Objm(nc).open(snapshotBucket(c));
    const snapshots = (await os.list()).filter((o) => !o.deleted).map((o) => snapshotSeqOf(o.name)).filter((s): s is number => s !== undefined);
    const info = await (await jetstreamManager(nc)).streams.info(streamName(c));
    return { snapshots: snapshots.sort((x, y) => x - y), first: info.state.first_seq, last: info.state.last_seq };
  } finally {
    await nc.close();
  }
}

beforeAll(async () => {
  cl = await startLocalCluster(ROOT, 2, 1, (i) => ['replication_snapshot_ops = 100000',
    ...(i === 0 ? ['replication_snapshot_bytes = 4k'] : ['replication_snapshot_bytes = 0', 'replication_snapshot_interval = 2s'])]);
  for (const [node, c] of [[0, 'a'], [1, 'b']] as const) {
    await q(node, 'CREATE TABLE t (title TEXT, n INT)');
    await q(node, `CREATE CLUSTER ${c}`);
    await q(node, `ALTER CLUSTER ${c} ADD t`);
  }
}, 90_000);

afterAll(async () => { await cl?.close(); }, 30_000);

it('takes a snapshot once the ops since the latest reach replication_snapshot_bytes, and trims the stream', async () => {
  for (let i = 1; i <= 5; i++) await q(0, `INSERT INTO a:t (id, title, n) VALUES (${i}, 'small', ${i})`);
  expect((await snapshotsOf('a')).snapshots).toEqual([]);
  const big = 'x'.repeat(2000);
  for (let i = 6; i <= 8; i++) await q(0, `INSERT INTO a:t (id, title, n) VALUES (${i}, '${big}', ${i})`);
  await expect.poll(async () => (await snapshotsOf('a')).snapshots.length, { timeout: 10_000 }).toBeGreaterThan(0);
  const s = await snapshotsOf('a');
  // ~2.1k bytes per big op: due after the second of them (the small ones and the ADD count too)
  expect(s.snapshots[0]).toBeGreaterThanOrEqual(s.last - 2);
  // trimmed through the latest snapshot (a slow run may have taken a second one by now)
  await expect.poll(async () => { const n = await snapshotsOf('a'); return n.first === n.snapshots.at(-1)! + 1; }, { timeout: 10_000 }).toBe(true);
  expect((await q(0, 'SELECT COUNT(*) AS c FROM t'))[0]!.c).toBe(8);
}, 60_000);

it('takes a snapshot once replication_snapshot_interval has passed and an op arrives', async () => {
  await q(1, "INSERT INTO b:t (id, title, n) VALUES (1, 'one', 1)");
  await new Promise((r) => setTimeout(r, 2_200));
  await q(1, "INSERT INTO b:t (id, title, n) VALUES (2, 'two', 2)");
  await expect.poll(async () => (await snapshotsOf('b')).snapshots, { timeout: 10_000 }).not.toEqual([]);
  // the op after the pause is snapshotted (on a slow machine the one before it may be too), the stream trimmed through it
  const last = (await q(1, "SHOW STATUS LIKE 'cluster_b_last_committed'"))[0]!.Value;
  await expect.poll(async () => (await snapshotsOf('b')).snapshots.at(-1), { timeout: 10_000 }).toBe(Number(last));
  await expect.poll(async () => (await snapshotsOf('b')).first, { timeout: 10_000 }).toBe(Number(last) + 1);
}, 60_000);
