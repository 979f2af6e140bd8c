// bench/side-by-side/side-by-side.bench.ts: quarry over HTTP next to Sphinx 2.2.11 over SphinxQL, same machine,
// same run, same corpus (dict-gcide, or with --synthetic the seeded Zipf corpus drawn from its vocabulary,
// bench/engine/engine.bench.ts) and queries. Load docs/s with 1000-row INSERTs (and for the JSON API /bulk
// bodies of 1000 documents), then QPS and p50/p99 with 1, 8 and 64 concurrent clients (quarry over HTTP
// /sql, over the MySQL protocol and over HTTP JSON /search, whose hits carry their `_source`) over a
// shuffled mix of every query class, and the server's CPU time per query from 1 and 8 clients (every thread of
// the server process, from the scheduler's nanosecond run times: process-cpu.ts cpuMsSince), and the bench
// client's own at 8 clients (it shares the cores); ratios quarry/Sphinx. Each peer's queries start once its server has gone idle
// after the load (merges, checkpoints, flushes done), after the same warm-up (200 queries from one client,
// the mix from 8 for --warm-seconds, 5); each timed phase repeats the mix until it has run --min-seconds (2); quarry's rows
// show its segment count when the queries started (`a -> b` if it changed while they ran). Each server's footprint at rest after its loads
// and queries (two readings a second apart that agree, no collection between: footprint.ts memoryAtRest): PSS, and disk bytes per document (Sphinx's: its index files plus the raw text, which its RT
// index does not keep). Above 100k documents each peer also holds the first 100k in a table of their own
// and answers the same queries there from one client: cost growth is the p50 ratio of the big table to the
// small one (the queries are drawn from those first 100k documents at every size).
// HTTP by the harness's client (http-client.ts: undici's Pool.request since session 20; --http-client node for node:http).
// Run: npm run bench -- side-by-side [--docs N] [--synthetic] [--small N] [--queries M] [--min-seconds S] [--warm-seconds S] [--lean-client 1] [--load-only 1] (the loads
// alone, with the server CPU ms per 1000 documents). At 1M documents the default is 800 queries (100 per
// class) instead of 4000, to keep a run near 15 minutes on 2 cores. Needs dict-gcide and sphinxsearch. Seed 42.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadGcide, type CorpusDoc } from '../lib/corpus.js';
import { arg, mulberry32, percentile, sqlString } from '../lib/bench-util.js';
import { documentFrequencies, queryClasses, synthetic } from '../engine/engine.bench.js';
import { filesBytes, memoryAtRest, searchdPid, untilQuiet } from '../lib/footprint.js';
import { progress } from '../lib/progress.js';
import { createConnection } from 'mysql2/promise';
import { freePort, gcideIndex, startSphinx, sphinxAvailable } from '../peers/sphinx.js';
import { bulkBody, clientAgent, LeanHttpClient, postOk, postText, type BenchAgent } from '../lib/http-client.js';
import { cpuMark, cpuMsSince, processCpuMs, waitIdle } from '../lib/process-cpu.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/**
 * --lean-client 1: /sql's and /search's clients write and read HTTP by hand (http-client.ts LeanHttpClient)
 * instead of the harness's client (undici; until session 20 node:http, whose CPU per query on the cores the
 * server uses is above mysql2's: ~0.3 ms per 40 kB /search reply). Off by default. Measured (100k gcide,
 * one run each, off then on; wall QPS moved with the load between runs, CPU per query did not): /search bench
 * client CPU ms/query (8 clients) 0.141 -> 0.060 (load 25), 0.101 -> 0.055 (load 7-9); server CPU ms/query
 * at 1/8 clients 0.385/0.405 -> 0.274/0.297 (load 25), 0.307/0.294 -> 0.262/0.251 (load 7-9).
 */
const LEAN_CLIENT = arg('lean-client', 0) === 1;
const BATCH = 1000;

/** Runs one SQL statement on a peer; throws on an error reply. */
type Exec = (sql: string) => Promise<void>;
/** One client: SQL statements, and the benchmark's query its own way when it has one (JSON /search). */
export interface PeerConn { exec: Exec; search?(query: string, table: string): Promise<void>; close(): Promise<void> }
/**
 * `pid`: the server process, whose CPU time the query runs read. `segments`: quarry's segment count of a
 * table (SHOW TABLE ... STATUS), the layout its queries ran on, which a load's timing can change.
 */
export interface Peer { name: string; pid?: number; open(): Promise<PeerConn>; stop(): Promise<void>; segments?(table: string): Promise<number> }

/** POST /sql?mode=raw by the harness's HTTP client (http-client.ts: undici, or node:http with --http-client node). */
async function post(agent: BenchAgent, port: number, sql: string): Promise<void> {
  const r = await postText(agent, port, '/sql?mode=raw', sql);
  if (r.status !== 200 || /"error":"[^"]/.test(r.body)) throw new Error(`quarry: ${r.body.slice(0, 200)}`);
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
  const segments = async (table: string) => {
    const agent = clientAgent();
    try {
      const reply = await postOk(agent, port, '/sql?mode=raw', `query=${encodeURIComponent(`SHOW TABLE ${table} STATUS`)}`);
      const rows = (JSON.parse(reply) as Array<{ data: Array<{ Variable_name: string; Value: string }> }>)[0]!.data;
      return Number(rows.find((r) => r.Variable_name === 'ram_chunk_segments_count')?.Value);
    } finally {
      agent.destroy();
    }
  };
  const overHttp: Peer = {
    name: 'quarry (HTTP /sql)', pid, segments,
    async open() {
      if (LEAN_CLIENT) {
        const client = new LeanHttpClient(port);
        return {
          exec: async (sql: string) => {
            const r = await client.post('/sql?mode=raw', sql);
            if (r.status !== 200 || /"error":"[^"]/.test(r.body)) throw new Error(`quarry: ${r.body.slice(0, 200)}`);
          },
          close: async () => client.close(),
        };
      }
      // One keep-alive connection per client, as a SphinxQL client holds one connection, opened here as
      // mysql2's is in overMysql.open(): not by the first timed statement
      const agent = clientAgent();
      await agent.connect(port);
      return {
        exec: (sql: string) => post(agent, port, sql),
        close: async () => agent.destroy(),
      };
    },
    stop,
  };
  const overMysql: Peer = {
    name: 'quarry (MySQL protocol)', pid, segments,
    async open() {
      const c = await createConnection({ host: '127.0.0.1', port: mysqlPort });
      return { exec: async (sql: string) => { await c.query(sql); }, close: () => c.end() };
    },
    stop,
  };
  // The JSON API as applications use it: /search with the hits' `_source` (Sphinx returns ids and weights)
  const overJson: Peer = {
    name: 'quarry (HTTP JSON /search)', pid, segments,
    async open() {
      const body = (q: string, table: string) => `{"table":"${table}","query":{"query_string":${JSON.stringify(q)}},"limit":20}`;
      if (LEAN_CLIENT) {
        const client = new LeanHttpClient(port);
        const ok = async (path: string, text: string) => {
          const r = await client.post(path, text);
          if (r.status !== 200 || /"error":"[^"]/.test(r.body)) throw new Error(`quarry: ${r.body.slice(0, 200)}`);
        };
        return { exec: (sql) => ok('/sql?mode=raw', sql), search: (q, table) => ok('/search', body(q, table)), close: async () => client.close() };
      }
      const agent = clientAgent();
      await agent.connect(port);
      return {
        exec: (sql: string) => post(agent, port, sql),
        search: async (q: string, table: string) => { await postOk(agent, port, '/search', body(q, table)); },
        close: async () => agent.destroy(),
      };
    },
    stop,
  };
  return { overHttp, overMysql, overJson, port, mysqlPort, pid, stop };
}

/** Sphinx with the gcide index, and the others named in `more` (same schema). */
export async function sphinxPeer(dir: string, more: string[] = []): Promise<Peer> {
  const s = await startSphinx(dir, await freePort(), [gcideIndex(dir), ...more.map((n) => gcideIndex(dir, n))].join('\n'));
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

/**
 * The mix from `clients` concurrent clients, whole, and again until `minMs` have passed: QPS, p50/p99 and
 * the server's CPU ms per query over every query run.
 */
export async function queryRun(peer: Peer, queries: string[], clients: number, table = 'gcide', minMs = 0) {
  const times: number[] = [];
  let next = 0;
  let end = queries.length;
  // Connections are opened one by one before the clock starts: a burst of connects overflows a small
  // listen backlog (Sphinx's default is 5) and would measure connection setup, not queries.
  const conns = [];
  for (let i = 0; i < clients; i++) conns.push(await peer.open());
  const cpu0 = peer.pid ? cpuMark(peer.pid) : null;
  const t0 = performance.now();
  const client0 = process.cpuUsage();
  // another whole pass of the mix while the run is shorter than minMs
  const more = () => next < end || (performance.now() - t0 < minMs && (end += queries.length) > next);
  await Promise.all(conns.map(async (conn) => {
    while (more()) {
      const q = queries[next++ % queries.length]!;
      progress.tick(next, end, 'queries');
      const s = performance.now();
      if (conn.search) await conn.search(q, table);
      else await conn.exec(`SELECT id, weight() FROM ${table} WHERE MATCH(${sqlString(q)}) LIMIT 20`);
      times.push(performance.now() - s);
    }
  }));
  const secs = (performance.now() - t0) / 1000;
  const cpuMs = cpu0 ? cpuMsSince(cpu0) / next : NaN;
  // this process's CPU, the clients', on the same cores as the server: part of what bounds QPS at 8 and 64
  const client = process.cpuUsage(client0);
  const clientCpuMs = (client.user + client.system) / 1000 / next;
  for (const conn of conns) await conn.close();
  times.sort((a, b) => a - b);
  return { qps: next / secs, clientCpuMs, p50ms: percentile(times, 50), p99ms: percentile(times, 99), cpuMs };
}

function shuffled<T>(xs: T[], seed: number): T[] {
  const rng = mulberry32(seed);
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(rng() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; }
  return a;
}

/** Documents of the small table of the cost growth, and of the sample the queries are drawn from (--small N). */
const SMALL = arg('small', 100_000);
/** Each timed phase runs the mix again until this long (--min-seconds S, default 2). */
const MIN_MS = arg('min-seconds', 2) * 1000;
/** The warm-up's 8-client part runs the mix again until this long (--warm-seconds S, default 5). */
const WARM_MS = arg('warm-seconds', 5) * 1000;
const CREATE = (table: string) => `CREATE TABLE ${table} (title text, body text, len uint) morphology='stem_en'`;

/** dict-gcide, or the synthetic corpus drawn from its vocabulary. */
function corpus(n: number, useSynthetic: boolean): CorpusDoc[] {
  return useSynthetic ? synthetic(documentFrequencies(loadGcide()), n) : loadGcide(n);
}

/** Bytes of raw text (title and body) of `docs`. */
const rawText = (docs: CorpusDoc[]) => docs.reduce((t, d) => t + Buffer.byteLength(d.title) + Buffer.byteLength(d.body), 0);

export async function sideBySideBench() {
  if (!sphinxAvailable()) throw new Error('sphinxsearch is not installed: apt-get install sphinxsearch');
  const docs = corpus(arg('docs', 100_000), process.argv.includes('--synthetic'));
  const perClass = Math.max(1, Math.floor(arg('queries', docs.length >= 1_000_000 ? 800 : 4000) / 8));
  const queries = shuffled(queryClasses(docs.slice(0, SMALL), perClass).flatMap((c) => c.queries), 42);
  // the cost growth's small table: the first 100k documents, when the corpus is larger
  const small = docs.length > SMALL ? docs.slice(0, SMALL) : [];
  const held = docs.length + small.length;
  const bytesPerDoc = (bytes: number) => bytes / held;
  const rows: Record<string, unknown>[] = [];
  const base = mkdtempSync(join(tmpdir(), 'quarry-side-'));
  try {
    // `extra.growth`: also the cost growth (the small table's p50); the rest of `extra` goes into the row
    const measure = async (peer: Peer, loaded: number, label = peer.name, { growth: withGrowth, ...extra }: Record<string, unknown> = {}) => {
      const at = (what: string) => progress.step(`side-by-side: ${label}: ${what}`);
      at('waiting for background work to finish');
      if (peer.pid) await waitIdle(peer.pid); // background work after a load (merges, flushes) done first
      const segmentsAt = async () => (peer.segments ? String(await peer.segments('gcide')) : '-');
      const segmentsBefore = await segmentsAt();
      // Warm-up, the same for every peer: 200 queries from one client, then the mix from 8 for WARM_MS.
      // Quarry's MySQL rows run on a server just restarted, whose 8-client phase came 600 queries in with
      // --queries 400 and paid the JIT: 100k gcide, main after restarts (bench/side-by-side/restart-warmup.bench.ts --passes 10),
      // server CPU ms per query of back-to-back 8-client passes of 400: 0.46, 0.43, 0.41, 0.25, 0.20, 0.24,
      // 0.17, 0.19, 0.16, 0.14 (S12's and S13's builds alike in the first three).
      at('warm-up');
      await queryRun(peer, queries.slice(0, 200), 1);
      await queryRun(peer, queries, 8, 'gcide', WARM_MS);
      // each phase at least MIN_MS: 400 queries from 8 clients take 0.1-0.3 s, where one slice of another
      // process, a collection or a compile job on the 2 cores moves the figure by a third
      at('1 client');
      const one = await queryRun(peer, queries, 1, 'gcide', MIN_MS);
      at('8 clients');
      const eight = await queryRun(peer, queries, 8, 'gcide', MIN_MS);
      at('64 clients');
      const many = await queryRun(peer, queries, 64, 'gcide', MIN_MS);
      const segmentsAfter = await segmentsAt();
      let growth: Record<string, unknown> = { 'p50 ms 100k': '-', 'cost growth p50': '-' };
      if (small.length && withGrowth) {
        at('1 client, 100k table');
        const p = (await queryRun(peer, queries, 1, 'gcide_small', MIN_MS)).p50ms;
        growth = { 'p50 ms 100k': p, 'cost growth p50': one.p50ms / p };
      }
      rows.push({ peer: label, docs: docs.length, 'load docs/s': loaded, 'QPS 1 client': one.qps, 'p50 ms': one.p50ms,
        'p99 ms': one.p99ms, 'server CPU ms/query': one.cpuMs, 'QPS 8 clients': eight.qps, 'p99 ms (8)': eight.p99ms,
        'server CPU ms/query (8)': eight.cpuMs, 'client CPU ms/query (8)': eight.clientCpuMs, 'QPS 64 clients': many.qps,
        'p99 ms (64)': many.p99ms, ...growth, 'PSS MiB': '-', 'disk B/doc': '-',
        // quarry's segments when the queries started (and when they ended, if that differs)
        segments: segmentsBefore === segmentsAfter ? segmentsBefore : `${segmentsBefore} -> ${segmentsAfter}`, ...extra });
    };
    const quarry = await startQuarry(join(base, 'quarry'));
    const viaHttp = await load(quarry.overHttp, docs, CREATE('gcide'));
    if (arg('load-only', 0)) {
      // each load starts once the last one's merges and checkpoints are done: its CPU is its own
      await waitIdle(quarry.pid);
      const viaBulk = await bulkLoad(quarry.port, quarry.pid, docs, 'gcide_bulk');
      await waitIdle(quarry.pid);
      const viaMysql = await load(quarry.overMysql, docs, CREATE('gcide_mysql'), 'gcide_mysql');
      await quarry.stop();
      return await loadRows(docs, { '/sql': viaHttp, MySQL: viaMysql, '/bulk': viaBulk }, join(base, 'sphinx'));
    }
    if (small.length) await load(quarry.overHttp, small, CREATE('gcide_small'), 'gcide_small');
    await measure(quarry.overHttp, viaHttp.docsPerSec);
    await measure(quarry.overJson, NaN);
    // the footprint once at rest after the loads and queries, before /bulk's table: quiet for 22 s (the
    // idle collection and its follow-ups at ~2, 7 and 12 s after the last work ran), then read until two
    // readings a second apart agree with no collection between them (footprint.ts memoryAtRest): one
    // reading at ~22 s raced the last follow-up, and V8's heap read 34 or 45 MiB by chance. Sphinx's alike.
    progress.step('side-by-side: quarry: waiting until quiet for its footprint');
    await untilQuiet(quarry.pid, 22_000);
    const footprint = { mem: await memoryAtRest(quarry.pid, true), disk: filesBytes(join(base, 'quarry')) };
    const viaBulk = await bulkLoad(quarry.port, quarry.pid, docs, 'gcide_bulk');
    rows[rows.length - 1]['load docs/s'] = viaBulk.docsPerSec;
    await quarry.stop();
    // MySQL on the same data after a restart (merges done), with the default threads and then with every
    // query on the protocol thread (threads = 1): before and after the worker threads in one run
    for (const threads of [undefined, 1]) {
      const again = await startQuarry(join(base, 'quarry'), [], threads);
      const extra = threads ? {} : { growth: true, 'PSS MiB': footprint.mem.pss, 'disk B/doc': bytesPerDoc(footprint.disk), 'PSS parts MiB': footprint.mem };
      await measure(again.overMysql, viaHttp.docsPerSec, threads ? `quarry threads=${threads} (MySQL protocol)` : again.overMysql.name, extra);
      await again.stop();
    }
    const sphinxDir = join(base, 'sphinx');
    const sphinx = await sphinxPeer(sphinxDir, small.length ? ['gcide_small'] : []);
    const sphinxLoad = (await load(sphinx, docs, null)).docsPerSec;
    if (small.length) await load(sphinx, small, null, 'gcide_small');
    await measure(sphinx, sphinxLoad, sphinx.name, { growth: true });
    const s = rows[rows.length - 1];
    // the same rule as quarry's reading: two readings a second apart that agree, no work between them
    s['PSS MiB'] = (await memoryAtRest(searchdPid(sphinxDir))).pss;
    const conn = await sphinx.open();
    for (const t of small.length ? ['gcide', 'gcide_small'] : ['gcide']) await conn.exec(`FLUSH RTINDEX ${t}`);
    await conn.close();
    await sphinx.stop();
    s['disk B/doc'] = bytesPerDoc(filesBytes(sphinxDir, (n) => n.startsWith('gcide')) + rawText(docs) + rawText(small));
    for (const q of rows.slice(0, -1)) {
      rows.push(Object.fromEntries(Object.entries(q).filter(([k]) => k !== 'PSS parts MiB').map(([k, v]) => [k,
        k === 'peer' ? `ratio ${q.peer}/Sphinx` : k === 'docs' ? v : typeof v === 'number' && typeof s[k] === 'number' ? v / (s[k] as number) : '-'])));
    }
    return rows;
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
