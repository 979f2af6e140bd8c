// bench/cluster/distributed.bench.ts: query throughput of one quarry node holding every document, against a
// distributed table on a master node whose agents are 2 and then 4 quarry nodes each holding an equal
// share (separate processes on this machine, over loopback). Per setup: QPS and p50/p99 from 8
// concurrent MySQL clients over a seeded mix of queries (1-2 word AND, OR, phrase, GROUP BY), and the
// CPU time per query of every process (master + agents), in total and per node. With 2 cores the
// processes share two cores, so the distributed setups cannot scale here: the figures show the cost
// of the fan-out (master merge, protocol, per-shard fixed costs), not the speed-up of real machines.
// Run: npm run bench -- distributed [--docs N] [--seconds S]. Seed 42.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createConnection, type Connection } from 'mysql2/promise';
import { arg, mulberry32, percentile } from '../lib/bench-util.js';
import { processCpuMs, waitIdle } from '../lib/process-cpu.js';
import { syntheticDocs, word } from '../lib/synthetic.js';
import { spawnQuarry, type SpawnedQuarry } from '../../test/helpers/spawn-quarry.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CLIENTS = 8;
const SCHEMA = '(title text, body text, gid uint)';

interface Doc { id: number; title: string; body: string; gid: number }

function docs(n: number): Doc[] {
  return syntheticDocs(n, mulberry32(42)).map((d) => ({
    id: Number(d.docId), title: d.fields[0]!.terms.join(' '), body: d.fields[1]!.terms.join(' '), gid: Number(d.attrs[0]) % 50,
  }));
}

async function load(conn: Connection, table: string, rows: Doc[]): Promise<void> {
  await conn.query(`CREATE TABLE ${table} ${SCHEMA}`);
  for (let i = 0; i < rows.length; i += 1000) {
    const part = rows.slice(i, i + 1000);
    await conn.query(`INSERT INTO ${table} (id, title, body, gid) VALUES ${part.map((d) => `(${d.id}, '${d.title}', '${d.body}', ${d.gid})`).join(',')}`);
  }
}

/** The seeded query mix: common and mid-frequency words in each query class. */
function queries(table: string, n: number): string[] {
  const r = mulberry32(7);
  const w = (lo: number, hi: number) => word(lo + Math.floor(r() * (hi - lo)));
  return Array.from({ length: n }, (_, i) => {
    switch (i % 5) {
      case 0: return `SELECT id, weight() FROM ${table} WHERE MATCH('${w(20, 300)}') LIMIT 20`;
      case 1: return `SELECT id, weight() FROM ${table} WHERE MATCH('${w(5, 100)} ${w(50, 500)}') LIMIT 20`;
      case 2: return `SELECT id, weight() FROM ${table} WHERE MATCH('${w(100, 1000)} | ${w(100, 1000)}') LIMIT 20`;
      case 3: return `SELECT id, weight() FROM ${table} WHERE MATCH('"${w(0, 30)} ${w(0, 30)}"') LIMIT 20`;
      default: return `SELECT gid, COUNT(*) c FROM ${table} WHERE MATCH('${w(10, 200)}') GROUP BY gid ORDER BY c DESC LIMIT 10`;
    }
  });
}

interface Row {
  setup: string; nodes: number; qps: number; p50_ms: number; p99_ms: number; cpu_ms_per_query: number;
  cpu_ms_per_query_per_node: number; master_cpu_ms_per_query: number; agent_cpu_ms_per_query: number;
}

async function measure(setup: string, master: SpawnedQuarry, all: SpawnedQuarry[], table: string, seconds: number): Promise<Row> {
  for (const p of all) await waitIdle(p.proc.pid!, 3, 30_000);
  const conns = await Promise.all(Array.from({ length: CLIENTS }, () => createConnection({ host: '127.0.0.1', port: master.mysql })));
  const mix = queries(table, 500);
  for (const q of mix.slice(0, 50)) await conns[0]!.query(q); // warm-up
  const cpu0 = all.map((p) => processCpuMs(p.proc.pid!));
  const lat: number[] = [];
  const until = performance.now() + seconds * 1000;
  let next = 0;
  await Promise.all(conns.map(async (c) => {
    while (performance.now() < until) {
      const q = mix[next++ % mix.length]!;
      const t0 = performance.now();
      await c.query(q);
      lat.push(performance.now() - t0);
    }
  }));
  const used = all.map((p, i) => processCpuMs(p.proc.pid!) - cpu0[i]!);
  const cpu = used.reduce((a, b) => a + b, 0);
  await Promise.all(conns.map((c) => c.end()));
  lat.sort((a, b) => a - b);
  return {
    setup, nodes: all.length, qps: lat.length / seconds, p50_ms: percentile(lat, 50), p99_ms: percentile(lat, 99),
    cpu_ms_per_query: cpu / lat.length, cpu_ms_per_query_per_node: cpu / lat.length / all.length,
    // the node the clients talk to, and the mean of the others (each agent's share of one query)
    master_cpu_ms_per_query: used[0]! / lat.length,
    agent_cpu_ms_per_query: all.length > 1 ? (cpu - used[0]!) / (all.length - 1) / lat.length : 0,
  };
}

async function run(): Promise<Row[]> {
  const n = arg('docs', 40_000);
  const seconds = arg('seconds', 5);
  const corpus = docs(n);
  const dir = mkdtempSync(join(tmpdir(), 'quarry-dist-bench-'));
  const procs: SpawnedQuarry[] = [];
  const start = async (name: string) => {
    const p = await spawnQuarry(ROOT, ['--data', join(dir, name), '--agent', '127.0.0.1:0']);
    procs.push(p);
    return p;
  };
  try {
    const out: Row[] = [];
    const single = await start('single');
    const sc = await createConnection({ host: '127.0.0.1', port: single.mysql });
    await load(sc, 'everything', corpus);
    await sc.end();
    out.push(await measure('one node', single, [single], 'everything', seconds));
    single.proc.kill();
    await single.exited;
    for (const k of [2, 4]) {
      const master = await start(`master${k}`);
      const agents = await Promise.all(Array.from({ length: k }, (_, i) => start(`agent${k}-${i}`)));
      await Promise.all(agents.map(async (a, i) => {
        const c = await createConnection({ host: '127.0.0.1', port: a.mysql });
        await load(c, 'shard', corpus.filter((d) => d.id % k === i));
        await c.end();
      }));
      const mc = await createConnection({ host: '127.0.0.1', port: master.mysql });
      await mc.query(`CREATE TABLE d type='distributed' ${agents.map((a) => `agent='127.0.0.1:${a.agent}:shard'`).join(' ')}`);
      await mc.query(`CREATE TABLE dp type='distributed' ${agents.map((a) => `agent_persistent='127.0.0.1:${a.agent}:shard'`).join(' ')}`);
      await mc.end();
      // a connection per query vs pooled persistent connections, on the same processes
      out.push(await measure(`distributed over ${k} agents`, master, [master, ...agents], 'd', seconds));
      out.push(await measure(`distributed over ${k} agents, agent_persistent`, master, [master, ...agents], 'dp', seconds));
      for (const p of [master, ...agents]) { p.proc.kill(); await p.exited; }
    }
    return out;
  } finally {
    for (const p of procs) p.proc.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

run().then((rows) => {
  const base = rows[0]!;
  console.log(JSON.stringify({
    docs: arg('docs', 40_000), clients: CLIENTS, seconds: arg('seconds', 5), cores: 2,
    rows: rows.map((r) => ({ ...r, qps_vs_one_node: r.qps / base.qps, cpu_vs_one_node: r.cpu_ms_per_query / base.cpu_ms_per_query })),
  }, null, 2));
}).catch((e) => { console.error(e); process.exitCode = 1; });
