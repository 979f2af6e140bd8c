// bench/cluster/replication.bench.ts: write latency with replication vs without, on one machine.
// 3 nats-server processes (JetStream, R3 stream) and 3 quarry nodes; on node 1 over MySQL, a local
// table `plain` and a replicated table `c:rep` of the same schema take alternately: single-row INSERTs
// (SINGLES of them each), 1000-row INSERT batches (BATCHES each) and 1000-line /bulk requests over HTTP
// (BATCHES each). Latency = client round trip: for the replicated table that is publish -> JetStream
// quorum ack -> applied on node 1 (its applied sequence stored in the same commit). Prints JSON.
// Run: npm run bench -- replication   (needs nats-server; every process shares this machine's cores)
import mysql from 'mysql2/promise';
import { fileURLToPath } from 'node:url';
import { startLocalCluster } from '../../test/helpers/quarry-cluster.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SINGLES = Number(process.env.SINGLES ?? 400);
const BATCHES = Number(process.env.BATCHES ?? 20);
const BATCH_ROWS = 1000;

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function main() {
  const cl = await startLocalCluster(ROOT, 3);
  try {
    const conns = await Promise.all(cl.nodes.map((n) => mysql.createConnection({ host: '127.0.0.1', port: n.server!.mysql })));
    const c = conns[0]!;
    await c.query('CREATE TABLE plain (title TEXT, n INT)');
    await c.query('CREATE TABLE rep (title TEXT, n INT)');
    await c.query('CREATE CLUSTER c');
    await c.query('ALTER CLUSTER c ADD rep');
    for (const x of conns.slice(1)) await x.query(`JOIN CLUSTER c AT '${cl.nodes[0]!.name}'`);
    const lat = {
      plain: { single: [] as number[], batch: [] as number[], bulk: [] as number[] },
      rep: { single: [] as number[], batch: [] as number[], bulk: [] as number[] },
    };
    const bulk = (lines: string) => fetch(`http://127.0.0.1:${cl.nodes[0]!.server!.http}/bulk`, {
      method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: lines,
    }).then(async (r) => { if (!r.ok) throw new Error(await r.text()); });
    const bulkLines = (cluster: string, table: string, base: number) => Array.from({ length: BATCH_ROWS }, (_, k) =>
      `{"insert":{${cluster}"table":"${table}","id":${base + k},"doc":{"title":"document number ${base + k} with a few words of text","n":${k}}}}\n`).join('');
    const row = (id: number) => `(${id}, 'document number ${id} with a few words of text', ${id % 1000})`;
    for (let i = 1; i <= SINGLES; i++) {
      lat.plain.single.push(await timed(() => c.query(`INSERT INTO plain (id, title, n) VALUES ${row(i)}`)));
      lat.rep.single.push(await timed(() => c.query(`INSERT INTO c:rep (id, title, n) VALUES ${row(i)}`)));
    }
    for (let b = 0; b < BATCHES; b++) {
      const base = 1_000_000 + b * BATCH_ROWS;
      const values = Array.from({ length: BATCH_ROWS }, (_, k) => row(base + k)).join(',');
      lat.plain.batch.push(await timed(() => c.query(`INSERT INTO plain (id, title, n) VALUES ${values}`)));
      lat.rep.batch.push(await timed(() => c.query(`INSERT INTO c:rep (id, title, n) VALUES ${values}`)));
    }
    for (let b = 0; b < BATCHES; b++) {
      const base = 2_000_000 + b * BATCH_ROWS;
      lat.plain.bulk.push(await timed(() => bulk(bulkLines('', 'plain', base))));
      lat.rep.bulk.push(await timed(() => bulk(bulkLines('"cluster":"c",', 'rep', base))));
    }
    const stat = (xs: number[]) => ({ p50_ms: +pct(xs, 50).toFixed(2), p99_ms: +pct(xs, 99).toFixed(2) });
    const out = {
      what: 'write latency on node 1 (INSERT over MySQL, /bulk over HTTP): local table vs replicated table (3 quarry nodes, 3 NATS servers, stream R3)',
      singles: SINGLES, batches: BATCHES, batch_rows: BATCH_ROWS,
      single_row: { plain: stat(lat.plain.single), replicated: stat(lat.rep.single), p50_ratio: +(pct(lat.rep.single, 50) / pct(lat.plain.single, 50)).toFixed(2) },
      batch_1000: { plain: stat(lat.plain.batch), replicated: stat(lat.rep.batch), p50_ratio: +(pct(lat.rep.batch, 50) / pct(lat.plain.batch, 50)).toFixed(2) },
      bulk_1000: { plain: stat(lat.plain.bulk), replicated: stat(lat.rep.bulk), p50_ratio: +(pct(lat.rep.bulk, 50) / pct(lat.plain.bulk, 50)).toFixed(2) },
    };
    console.log(JSON.stringify(out, null, 2));
    await Promise.all(conns.map((x) => x.end()));
  } finally {
    await cl.close();
  }
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
