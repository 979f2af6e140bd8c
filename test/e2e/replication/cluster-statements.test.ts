// Manticore's cluster statements over real MySQL connections to 3 quarry nodes on one JetStream
// cluster of 3 nats-server processes: CREATE/JOIN/ALTER ADD|DROP/DELETE CLUSTER, c:t writes over SQL
// and "cluster" in JSON writes and /bulk, the errors for writes that bypass the cluster, SHOW STATUS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mysql from 'mysql2/promise';
import { resolve } from 'node:path';
import { startLocalCluster, type LocalCluster } from '../../helpers/quarry-cluster.js';

const ROOT = resolve(import.meta.dirname, '../../..');
let cl: LocalCluster;
const conns: mysql.Connection[] = [];

async function q(node: number, sql: string): Promise<Record<string, unknown>[]> {
  const [rows] = await conns[node]!.query(sql);
  return rows as Record<string, unknown>[];
}

async function httpJson(node: number, path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const r = await fetch(`http://127.0.0.1:${cl.nodes[node]!.server!.http}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, json: await r.json() as Record<string, unknown> };
}

beforeAll(async () => {
  cl = await startLocalCluster(ROOT, 3);
  for (const n of cl.nodes) conns.push(await mysql.createConnection({ host: '127.0.0.1', port: n.server!.mysql }));
}, 90_000);

afterAll(async () => {
  await Promise.all(conns.map((c) => c.end().catch(() => {})));
  await cl?.close();
}, 30_000);

describe('replication cluster statements', () => {
  it('creates, joins, adds a table with its documents and replicates SQL and JSON writes', async () => {
    await q(0, 'CREATE TABLE t (title TEXT, n INT)');
    await q(1, 'CREATE TABLE local_tx (title TEXT)');
    await q(0, "INSERT INTO t (id, title, n) VALUES (1, 'before the cluster', 1)");
    await q(0, 'CREATE CLUSTER c');
    await q(0, 'ALTER CLUSTER c ADD t');
    // JOIN asks the node named in AT (its binary API) for the cluster: one that is not there, or not in it, fails
    await expect(q(1, "JOIN CLUSTER c AT '127.0.0.1:1'")).rejects.toThrow("cluster 'c', no nodes available(127.0.0.1:1), error: '127.0.0.1:1': connect() failed");
    await expect(q(1, `JOIN CLUSTER c AT '${cl.nodes[2]!.name}'`)).rejects.toThrow(`cluster 'c', no nodes available(${cl.nodes[2]!.name}), error: unknown cluster 'c'`);
    expect(await q(1, "SHOW STATUS LIKE 'cluster%'")).toEqual([]);
    await q(1, `JOIN CLUSTER c AT '${cl.nodes[0]!.name}'`);
    await q(2, `JOIN CLUSTER c AT '127.0.0.1:1,${cl.nodes[1]!.name}'`);
    for (let i = 0; i < 3; i++) expect(await q(i, 'SELECT id, n FROM t')).toEqual([{ id: 1, n: 1 }]);
    await expect(q(2, `JOIN CLUSTER c AT '${cl.nodes[0]!.name}'`)).rejects.toThrow("cluster 'c' already exists");

    await q(1, "INSERT INTO c:t (id, title, n) VALUES (2, 'second', 2), (3, 'third', 3)");
    await q(2, "INSERT INTO c:t (title, n) VALUES ('generated id', 4)");
    await q(0, 'UPDATE c:t SET n = 20 WHERE id = 2');
    await q(2, 'DELETE FROM c:t WHERE id = 3');
    await q(0, "REPLACE INTO c:t (id, title, n) VALUES (1, 'replaced', 10)");
    const ins = await httpJson(1, '/insert', { cluster: 'c', table: 't', id: 5, doc: { title: 'json', n: 5 } });
    expect(ins.status).toBe(200);
    expect(ins.json).toMatchObject({ table: 't', _id: 5, result: 'created' });
    const upd = await httpJson(2, '/update', { cluster: 'c', table: 't', id: 5, doc: { n: 50 } });
    expect(upd.json).toMatchObject({ _id: 5, result: 'updated' });
    // a /bulk request writing the cluster's tables is one op: every node runs it as /bulk
    const bulk = await fetch(`http://127.0.0.1:${cl.nodes[0]!.server!.http}/bulk`, {
      method: 'POST', headers: { 'content-type': 'application/x-ndjson' },
      body: [
        '{"insert":{"cluster":"c","table":"t","id":6,"doc":{"title":"bulk","n":6}}}',
        '{"insert":{"cluster":"c","table":"t","doc":{"title":"bulk generated id","n":7}}}',
        '{"replace":{"cluster":"c","table":"t","id":6,"doc":{"title":"bulk replaced","n":60}}}',
        '{"update":{"cluster":"c","table":"t","id":2,"doc":{"n":21}}}',
        '{"delete":{"cluster":"c","table":"t","query":{"equals":{"n":7}}}}',
        '',
      ].join('\n'),
    });
    const bulkJson = await bulk.json();
    expect([bulk.status, bulkJson]).toMatchObject([200, { errors: false, items: [{ bulk: { created: 3, deleted: 2, updated: 1 } }] }]);
    // a failing line fails alike on every node and its run writes nothing
    const dupBulk = await fetch(`http://127.0.0.1:${cl.nodes[1]!.server!.http}/bulk`, {
      method: 'POST', headers: { 'content-type': 'application/x-ndjson' },
      body: '{"insert":{"cluster":"c","table":"t","id":8,"doc":{"title":"x","n":8}}}\n{"insert":{"cluster":"c","table":"t","id":6,"doc":{"title":"dup"}}}\n',
    });
    expect(await dupBulk.json()).toMatchObject({ errors: true, error: "duplicate id '6'" });
    // a request larger than a NATS message can be is refused at once, nothing written
    const big = Array.from({ length: 12_000 }, (_, k) => `{"insert":{"cluster":"c","table":"t","id":${10_000 + k},"doc":{"title":"${'x'.repeat(80)}"}}}`).join('\n');
    const bigReply = await fetch(`http://127.0.0.1:${cl.nodes[1]!.server!.http}/bulk`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: `${big}\n` });
    expect(JSON.stringify(await bigReply.json())).toContain("more than the NATS servers' max_payload (1048576 bytes): split it into smaller requests");

    // every node applies the stream; a read right after a write on another node may lag: wait for it
    // a transaction on a cluster table is one op at COMMIT; ROLLBACK sends nothing
    await q(1, 'BEGIN');
    await q(1, "INSERT INTO c:t (id, title, n) VALUES (30, 'in a transaction', 30)");
    await q(1, "INSERT INTO c:t (id, title, n) VALUES (31, 'rolled back', 31)");
    await expect(q(1, "INSERT INTO local_tx (id) VALUES (1)")).rejects.toThrow("current txn is working with another table ('c:t')");
    await q(1, 'ROLLBACK');
    await q(1, 'BEGIN');
    await q(1, "INSERT INTO c:t (id, title, n) VALUES (30, 'in a transaction', 30)");
    await q(1, 'DELETE FROM c:t WHERE id = 30');
    await q(1, "REPLACE INTO c:t (id, title, n) VALUES (30, 'committed', 31)");
    await q(1, 'COMMIT');
    const del = await httpJson(0, '/delete', { cluster: 'c', table: 't', id: 404 });
    expect(del.json).toMatchObject({ result: 'not found' });
    const want = JSON.stringify(await q(0, 'SELECT * FROM t ORDER BY id ASC'));
    for (let i = 1; i < 3; i++) {
      await expect.poll(async () => JSON.stringify(await q(i, 'SELECT * FROM t ORDER BY id ASC')), { timeout: 10_000 }).toBe(want);
    }
    const rows = JSON.parse(want) as { id: number | string; n: number }[];
    expect(rows.map((r) => r.n).sort((a, b) => a - b)).toEqual([4, 10, 21, 31, 50, 60]);
  }, 60_000);

  it('rejects writes that bypass the cluster, and cluster names it does not know, as Manticore does', async () => {
    await expect(q(1, "INSERT INTO t (id, title) VALUES (9, 'x')")).rejects.toThrow("table 't' is a part of cluster 'c', use 'c:t'");
    await expect(q(1, 'DELETE FROM t WHERE id = 1')).rejects.toThrow("table 't' is a part of cluster 'c', use 'c:t'");
    const js = await httpJson(0, '/insert', { table: 't', id: 9, doc: { title: 'x' } });
    expect(JSON.stringify(js.json)).toContain('table \'t\' is a part of cluster \'c\', use \\"cluster\\":\\"c\\" and \\"table\\":\\"t\\" properties');
    await expect(q(0, "INSERT INTO nope:t (id) VALUES (9)")).rejects.toThrow("unknown cluster 'nope'");
    await q(0, 'CREATE TABLE local_only (title TEXT)');
    await expect(q(0, "INSERT INTO c:local_only (id, title) VALUES (1, 'x')")).rejects.toThrow("table 'local_only' is not in any cluster, use just 'local_only'");
    await expect(q(0, 'CREATE CLUSTER c')).rejects.toThrow("cluster 'c' already exists");
    await expect(q(0, 'ALTER CLUSTER c ADD t')).rejects.toThrow("table 't' is already part of cluster 'c'");
    await expect(q(0, 'ALTER TABLE t ADD COLUMN k INT')).rejects.toThrow('ALTER is not supported for tables in cluster');
    // paths that cannot replicate refuse replicated tables instead of writing one node only
    const bulkRes = await fetch(`http://127.0.0.1:${cl.nodes[0]!.server!.http}/bulk`, {
      method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: '{"insert":{"table":"t","id":9,"doc":{"title":"x"}}}\n',
    });
    expect(await bulkRes.text()).toContain('is a part of cluster');
    const mixed = await fetch(`http://127.0.0.1:${cl.nodes[0]!.server!.http}/bulk`, {
      method: 'POST', headers: { 'content-type': 'application/x-ndjson' },
      body: '{"insert":{"cluster":"c","table":"t","id":9,"doc":{"title":"x"}}}\n{"insert":{"table":"local_only","id":9,"doc":{"title":"x"}}}\n',
    });
    // mixed with a local table's line: refused, nothing written anywhere
    expect(await mixed.json()).toMatchObject({ errors: true, error: "a /bulk request writing cluster 'c' can only write tables of that cluster (with \"cluster\":\"c\" on every line)" });
    expect(await q(0, 'SELECT id FROM local_only')).toEqual([]);
    await expect(q(0, 'ATTACH TABLE local_only TO TABLE t WITH TRUNCATE')).rejects.toThrow('table t is part of cluster c, can not issue ATTACH');
    await expect(q(0, 'DROP TABLE t')).rejects.toThrow('DROP is not supported for tables in cluster');
    await expect(q(0, 'TRUNCATE TABLE t')).rejects.toThrow("table 't' is a part of cluster 'c', use 'c:t'");
    await expect(q(0, 'TRUNCATE TABLE c:t WITH RECONFIGURE')).rejects.toThrow('RECONFIGURE is not supported for a cluster table');
    // a duplicate id fails alike on every node and is reported to the writer
    await expect(q(2, "INSERT INTO c:t (id, title) VALUES (2, 'dup')")).rejects.toThrow("duplicate id '2'");
  }, 30_000);

  it('/_bulk with an _index of cluster:table replicates as /bulk does, one op for the request', async () => {
    const esBulk = async (node: number, docs: object[]) => {
      const r = await fetch(`http://127.0.0.1:${cl.nodes[node]!.server!.http}/_bulk`, {
        method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: `${docs.map((d) => JSON.stringify(d)).join('\n')}\n`,
      });
      return (await r.json()) as { errors: boolean; items: Record<string, { _index: string; _id: string; result?: string; error?: unknown }>[] };
    };
    const before = Number((await q(0, "SHOW STATUS LIKE 'cluster_c_last_committed'"))[0]!.Value);
    const reply = await esBulk(1, [
      { index: { _index: 'c:t', _id: 700 } }, { title: 'es seven hundred', n: 700 },
      { create: { _index: 'c:t' } }, { title: 'es generated id', n: 701 },
      { create: { _index: 'c:t', _id: 702 } }, { title: 'es to delete', n: 702 },
      { update: { _index: 'c:t', _id: 700 } }, { doc: { n: 7000 } },
      { delete: { _index: 'c:t', _id: 702 } },
    ]);
    expect(reply.errors).toBe(false);
    expect(reply.items.map((it) => Object.entries(it).map(([a, v]) => `${a} ${v._index} ${v.result}`)[0])).toEqual([
      'index c:t created', 'create c:t created', 'create c:t created', 'update c:t updated', 'delete c:t deleted']);
    const generated = reply.items[1]!.create!._id;
    expect(Number((await q(0, "SHOW STATUS LIKE 'cluster_c_last_committed'"))[0]!.Value)).toBe(before + 1);
    const sql = `SELECT n FROM t WHERE n >= 700 AND id IN (700, 702, ${generated}) ORDER BY n ASC`;
    const want = JSON.stringify(await q(1, sql));
    expect(want).toBe(JSON.stringify([{ n: 701 }, { n: 7000 }]));
    for (const i of [0, 2]) await expect.poll(async () => JSON.stringify(await q(i, sql)), { timeout: 10_000 }).toBe(want);
    // a bare replicated table, and c:t beside a local table, are refused per document; nothing reaches t
    const refused = await esBulk(0, [{ index: { _index: 't', _id: 710 } }, { title: 'x' }, { index: { _index: 'c:t', _id: 711 } }, { title: 'x' }, { index: { _index: 'local_only', _id: 712 } }, { title: 'local' }]);
    expect(refused.errors).toBe(true);
    expect(JSON.stringify(refused.items[0])).toContain("table 't' is a part of cluster 'c'");
    expect(JSON.stringify(refused.items[1])).toContain("a /_bulk request writing cluster 'c' can only write tables of that cluster");
    expect(refused.items[2]!.index!.result).toBe('created');
    expect(await q(0, 'SELECT id FROM t WHERE id IN (710, 711)')).toEqual([]);
    const unknown = await esBulk(0, [{ index: { _index: 'nope:t', _id: 720 } }, { title: 'x' }]);
    expect(JSON.stringify(unknown.items[0])).toContain("unknown cluster 'nope'");
  }, 30_000);

  it('SHOW STATUS LIKE cluster% has Manticore\'s variables', async () => {
    const rows = await q(1, "SHOW STATUS LIKE 'cluster%'");
    const m = new Map(rows.map((r) => [r.Counter, r.Value]));
    expect(m.get('cluster_name')).toBe('c');
    expect(m.get('cluster_c_status')).toBe('primary');
    expect(m.get('cluster_c_size')).toBe('3');
    expect(m.get('cluster_c_indexes')).toBe('t');
    expect(m.get('cluster_c_indexes_count')).toBe('1');
    expect(m.get('cluster_c_node_state')).toBe('synced');
    expect(String(m.get('cluster_c_nodes_view')).split(',').sort()).toEqual(cl.nodes.map((n) => n.name).sort());
  }, 30_000);

  it('TRUNCATE TABLE c:t empties the table on every node; ALTER CLUSTER DROP and DELETE CLUSTER leave the tables local', async () => {
    await q(1, 'TRUNCATE TABLE c:t');
    for (let i = 0; i < 3; i++) await expect.poll(async () => (await q(i, 'SELECT COUNT(*) AS n FROM t'))[0]?.n, { timeout: 10_000 }).toBe(0);
    await q(0, 'ALTER CLUSTER c DROP t');
    await expect.poll(async () => (await q(2, "SHOW STATUS LIKE 'cluster_c_indexes_count'"))[0]?.Value, { timeout: 10_000 }).toBe('0');
    await q(2, "INSERT INTO t (id, title) VALUES (100, 'local again')");
    expect(await q(0, 'SELECT id FROM t WHERE id = 100')).toEqual([]);
    await q(1, 'DELETE CLUSTER c');
    await expect.poll(async () => (await q(0, "SHOW STATUS LIKE 'cluster%'")).length, { timeout: 10_000 }).toBe(0);
    await expect(q(0, "INSERT INTO c:t (id) VALUES (1)")).rejects.toThrow("unknown cluster 'c'");
  }, 30_000);
});
