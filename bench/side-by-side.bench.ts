// bench/side-by-side.bench.ts: quarry over HTTP next to Sphinx 2.2.11 over SphinxQL, same machine,
// same run, same corpus (dict-gcide) and queries. Load docs/s with 1000-row INSERTs (and for the JSON
// API /bulk bodies of 1000 documents), then QPS and p50/p99 with 1, 8 and 64 concurrent clients
// (quarry over HTTP /sql, over the MySQL protocol and over HTTP JSON /search, whose hits carry their
// `_source`) over a shuffled mix of every query class, and the server's CPU time per query from one
// client (user+system of the server process); ratios quarry/Sphinx. Each peer's queries start once its
// server has gone idle after the load (merges, checkpoints, flushes done).
// Run: npm run bench -- side-by-side [--docs N] [--queries M] [--load-only 1] (the loads alone, with the
// server CPU ms per 1000 documents). Needs dict-gcide and sphinxsearch. Seed 42.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadGcide, type CorpusDoc } from './corpus.js';
import { arg, mulberry32, percentile, sqlString } from './bench-util.js';
import { queryClasses } from './engine.bench.js';
import { progress } from './progress.js';
import { createConnection } from 'mysql2/promise';
import { freePort, startSphinx, sphinxAvailable } from './peers/sphinx.js';
import { bulkBody, clientAgent, postOk } from './http-client.js';
import { processCpuMs, waitIdle } from './process-cpu.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BATCH = 1000;

/** Runs one SQL statement on a peer; throws on an error reply. */
type Exec = (sql: string) => Promise<void>;
/** One client: SQL statements, and the benchmark's query its own way when it has one (JSON /search). */
export interface PeerConn { exec: Exec; search?(query: string): Promise<void>; close(): Promise<void> }
/** `pid`: the server process, whose CPU time the query runs read. */
export interface Peer { name: string; pid?: number; open(): Promise<PeerConn>; stop(): Promise<void> }

/** POST /sql?mode=raw with node:http (undici's fetch costs the client more CPU than the server uses). */
function post(agent: http.Agent, port: number, sql: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/sql?mode=raw', method: 'POST', agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { body += c; });
      res.on('end', () => {
        if (res.statusCode !== 200 || /"error":"[^"]/.test(body)) reject(new Error(`quarry: ${body.slice(0, 200)}`));
        else resolve();
      });
    });
    req.on('error', reject);
    req.end(sql);
  });
}

export interface QuarryServer { overHttp: Peer; overMysql: Peer; overJson: Peer; port: number; mysqlPort: number; pid: number; stop(): Promise<void> }

/**
 * `nodeArgs` go to the server's node (e.g. `--cpu-prof` for a profile of the server under load);
 * `threads` (searchd threads, by a config file) when given, else the default (one per core); `bin`: another
 * build's bin/quarry.js (a before/after in one run), else this one's.
 */
export async function startQuarry(dir: string, nodeArgs: string[] = [], threads?: number, bin = join(ROOT, 'bin/quarry.js')): Promise<QuarryServer> {
  const config: string[] = [];
  if (threads !== undefined) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'bench.conf'), `searchd {\n  threads = ${threads}\n}\n`);
    config.push('--config', join(dir, 'bench.conf'));
  }
  // Started as a program (its shell line sets glibc's malloc tuning, as `npm start` and `npx quarry` do);
  // through `node` only when Node flags are wanted (profiles), which skips that line.
  const args = [bin, 'serve', '--data', dir, '--http', '127.0.0.1:0', '--mysql', '127.0.0.1:0', ...config];
  const proc = nodeArgs.length === 0
    ? spawn(bin, args.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] })
    : spawn(process.execPath, [...nodeArgs, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [port, mysqlPort] = await new Promise<[number, number]>((resolve) => {
    let out = '';
    proc.stdout!.on('data', (c: Buffer) => {
      out += c;
      const m = /http=[\d.]+:(\d+) mysql=[\d.]+:(\d+)/.exec(out);
      if (m) resolve([Number(m[1]), Number(m[2])]);
    });
  });
  const stop = async () => { proc.kill('SIGTERM'); await new Promise((r) => proc.once('exit', r)); };
  const pid = proc.pid!;
  const overHttp: Peer = {
    name: 'quarry (HTTP /sql)', pid,
    async open() {
      // One keep-alive connection per client, as a SphinxQL client holds one connection.
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      return {
        exec: (sql: string) => post(agent, port, sql),
        close: async () => agent.destroy(),
      };
    },
    stop,
  };
  const overMysql: Peer = {
    name: 'quarry (MySQL protocol)', pid,
    async open() {
      const c = await createConnection({ host: '127.0.0.1', port: mysqlPort });
      return { exec: async (sql: string) => { await c.query(sql); }, close: () => c.end() };
    },
    stop,
  };
  // The JSON API as applications use it: /search with the hits' `_source` (Sphinx returns ids and weights)
  const overJson: Peer = {
    name: 'quarry (HTTP JSON /search)', pid,
    async open() {
      const agent = clientAgent();
      return {
        exec: (sql: string) => post(agent, port, sql),
        search: async (q: string) => {
          await postOk(agent, port, '/search', `{"table":"gcide","query":{"query_string":${JSON.stringify(q)}},"limit":20}`);
        },
        close: async () => agent.destroy(),
      };
    },
    stop,
  };
  return { overHttp, overMysql, overJson, port, mysqlPort, pid, stop };
}

export async function sphinxPeer(dir: string): Promise<Peer> {
  const s = await startSphinx(dir, await freePort());
  return {
    name: 'Sphinx 2.2.11 (SphinxQL)', pid: s.pid,
    async open() {
      const c = await s.connect();
      return { exec: async (sql: string) => { await c.query(sql); }, close: () => c.end() };
    },
    stop: () => s.stop(),
  };
}

/** Docs/s of a load and the server's CPU ms per 1000 documents (user+system, every thread). */
interface LoadFigures { docsPerSec: number; seconds: number; cpuMsPer1000: number }

async function load(peer: Peer, docs: CorpusDoc[], create: string | null, table = 'gcide'): Promise<LoadFigures> {
  progress.step(`side-by-side: ${peer.name}: loading ${docs.length.toLocaleString('en-US')} documents`);
  const conn = await peer.open();
  if (create) await conn.exec(create);
  const cpu0 = peer.pid ? processCpuMs(peer.pid) : NaN;
  const t0 = performance.now();
  for (let i = 0; i < docs.length; i += BATCH) {
    const rows = docs.slice(i, i + BATCH).map((d) => `(${d.id},${sqlString(d.title)},${sqlString(d.body)},${d.body.length})`);
    await conn.exec(`INSERT INTO ${table} (id, title, body, len) VALUES ${rows.join(',')}`);
    progress.tick(Math.min(i + BATCH, docs.length), docs.length, 'documents');
  }
  const s = (performance.now() - t0) / 1000;
  const cpuMsPer1000 = ((processCpuMs(peer.pid ?? 0) - cpu0) / docs.length) * 1000;
  await conn.close();
  return { docsPerSec: docs.length / s, seconds: s, cpuMsPer1000 };
}

/** Loads the documents through /bulk, 1000 per NDJSON body, into a table of the same schema. */
async function bulkLoad(port: number, pid: number, docs: CorpusDoc[], table: string): Promise<LoadFigures> {
  progress.step(`side-by-side: quarry /bulk: loading ${docs.length.toLocaleString('en-US')} documents`);
  const agent = clientAgent();
  await post(agent, port, `CREATE TABLE ${table} (title text, body text, len uint) morphology='stem_en'`);
  const cpu0 = processCpuMs(pid);
  const t0 = performance.now();
  for (let i = 0; i < docs.length; i += BATCH) {
    await postOk(agent, port, '/bulk', bulkBody(table, docs.slice(i, i + BATCH)), 'application/x-ndjson');
    progress.tick(Math.min(i + BATCH, docs.length), docs.length, 'documents');
  }
  const s = (performance.now() - t0) / 1000;
  const cpuMsPer1000 = ((processCpuMs(pid) - cpu0) / docs.length) * 1000;
  await post(agent, port, `DROP TABLE ${table}`);
  agent.destroy();
  return { docsPerSec: docs.length / s, seconds: s, cpuMsPer1000 };
}

/** The load figures alone: quarry over /sql and /bulk beside Sphinx's SphinxQL load, with ratios. */
async function loadRows(docs: CorpusDoc[], quarry: Record<string, LoadFigures>, sphinxDir: string) {
  const sphinx = await sphinxPeer(sphinxDir);
  const s = await load(sphinx, docs, null);
  await sphinx.stop();
  const row = (peer: string, f: LoadFigures) => ({ peer, docs: docs.length, 'load docs/s': f.docsPerSec, 'server CPU ms/1000 docs': f.cpuMsPer1000 });
  const ours = Object.entries(quarry);
  return [
    ...ours.map(([how, f]) => row(`quarry over ${how} (1000 docs per request)`, f)), row('Sphinx 2.2.11, 1000-row INSERTs', s),
    ...ours.map(([how, f]) => ({ peer: `ratio ${how} / Sphinx`, docs: docs.length, 'load docs/s': f.docsPerSec / s.docsPerSec, 'server CPU ms/1000 docs': f.cpuMsPer1000 / s.cpuMsPer1000 })),
  ];
}

async function queryRun(peer: Peer, queries: string[], clients: number) {
  const times: number[] = [];
  let next = 0;
  // Connections are opened one by one before the clock starts: a burst of connects overflows a small
  // listen backlog (Sphinx's default is 5) and would measure connection setup, not queries.
  const conns = [];
  for (let i = 0; i < clients; i++) conns.push(await peer.open());
  const cpu0 = peer.pid ? processCpuMs(peer.pid) : 0;
  const t0 = performance.now();
  await Promise.all(conns.map(async (conn) => {
    while (next < queries.length) {
      const q = queries[next++];
      progress.tick(next, queries.length, 'queries');
      const s = performance.now();
      if (conn.search) await conn.search(q);
      else await conn.exec(`SELECT id, weight() FROM gcide WHERE MATCH(${sqlString(q)}) LIMIT 20`);
      times.push(performance.now() - s);
    }
  }));
  const secs = (performance.now() - t0) / 1000;
  const cpuMs = peer.pid ? (processCpuMs(peer.pid) - cpu0) / queries.length : NaN;
  for (const conn of conns) await conn.close();
  times.sort((a, b) => a - b);
  return { qps: queries.length / secs, p50ms: percentile(times, 50), p99ms: percentile(times, 99), cpuMs };
}

function shuffled<T>(xs: T[], seed: number): T[] {
  const rng = mulberry32(seed);
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(rng() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; }
  return a;
}

export async function sideBySideBench() {
  if (!sphinxAvailable()) throw new Error('sphinxsearch is not installed: apt-get install sphinxsearch');
  const docs = loadGcide(arg('docs', 100_000));
  const perClass = Math.max(1, Math.floor(arg('queries', 4000) / 8));
  const queries = shuffled(queryClasses(docs, perClass).flatMap((c) => c.queries), 42);
  const rows: Record<string, unknown>[] = [];
  const base = mkdtempSync(join(tmpdir(), 'quarry-side-'));
  try {
    const measure = async (peer: Peer, loaded: number, label = peer.name) => {
      const at = (what: string) => progress.step(`side-by-side: ${label}: ${what}`);
      at('waiting for background work to finish');
      if (peer.pid) await waitIdle(peer.pid); // background work after a load (merges, flushes) done first
      at('warm-up');
      await queryRun(peer, queries.slice(0, 200), 1); // warm-up
      at('1 client');
      const one = await queryRun(peer, queries, 1);
      at('8 clients');
      const eight = await queryRun(peer, queries, 8);
      at('64 clients');
      const many = await queryRun(peer, queries, 64);
      rows.push({ peer: label, docs: docs.length, 'load docs/s': loaded, 'QPS 1 client': one.qps, 'p50 ms': one.p50ms,
        'p99 ms': one.p99ms, 'server CPU ms/query': one.cpuMs, 'QPS 8 clients': eight.qps, 'p99 ms (8)': eight.p99ms, 'QPS 64 clients': many.qps, 'p99 ms (64)': many.p99ms });
    };
    const quarry = await startQuarry(join(base, 'quarry'));
    const viaHttp = await load(quarry.overHttp, docs, "CREATE TABLE gcide (title text, body text, len uint) morphology='stem_en'");
    const viaBulk = await bulkLoad(quarry.port, quarry.pid, docs, 'gcide_bulk');
    if (arg('load-only', 0)) {
      const viaMysql = await load(quarry.overMysql, docs, "CREATE TABLE gcide_mysql (title text, body text, len uint) morphology='stem_en'", 'gcide_mysql');
      await quarry.stop();
      return await loadRows(docs, { '/sql': viaHttp, MySQL: viaMysql, '/bulk': viaBulk }, join(base, 'sphinx'));
    }
    await measure(quarry.overHttp, viaHttp.docsPerSec);
    await measure(quarry.overJson, viaBulk.docsPerSec);
    await quarry.stop();
    // MySQL on the same data after a restart (merges done), with the default threads and then with every
    // query on the protocol thread (threads = 1): before and after the worker threads in one run
    for (const threads of [undefined, 1]) {
      const again = await startQuarry(join(base, 'quarry'), [], threads);
      await measure(again.overMysql, viaHttp.docsPerSec, threads ? `quarry threads=${threads} (MySQL protocol)` : again.overMysql.name);
      await again.stop();
    }
    const sphinx = await sphinxPeer(join(base, 'sphinx'));
    await measure(sphinx, (await load(sphinx, docs, null)).docsPerSec);
    await sphinx.stop();
    const s = rows[rows.length - 1];
    for (const q of rows.slice(0, -1)) {
      rows.push(Object.fromEntries(Object.entries(q).map(([k, v]) => [k, k === 'peer' ? `ratio ${q.peer}/Sphinx` : k === 'docs' ? v : (v as number) / (s[k] as number)])));
    }
    return rows;
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
