// bench/http/http-cpu.bench.ts: the HTTP JSON path's cost in the server's CPU time per request (user+system
// of the whole server process, from /proc/<pid>/stat), the fairest figure on a shared machine, with the
// client's p50 beside it. Loads the corpus through /bulk (1000 docs per body), then one keep-alive
// client sends each request class: /search with and without `_source`, the same rows through /sql,
// the side-by-side's /sql?mode=raw query, a round trip without a search, and single /insert writes.
// Run: npm run bench -- http-cpu [--docs N] [--requests M] [--profile DIR] [--only REGEX] (DIR gets the
// server's --cpu-prof profile; REGEX picks request classes by name). Needs dict-gcide. Queries: engine.bench's classes, shuffled, seed 42.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadGcide, type CorpusDoc } from '../lib/corpus.js';
import { arg, mulberry32, percentile, sqlString } from '../lib/bench-util.js';
import { queryClasses } from '../engine/engine.bench.js';
import { startQuarry } from '../side-by-side/side-by-side.bench.js';
import { bulkBody, clientAgent, postOk, type BenchAgent } from '../lib/http-client.js';
import { processCpuMs, waitIdle } from '../lib/process-cpu.js';
import { progress } from '../lib/progress.js';

const TABLE = 'gcide';
const BATCH = 1000;
const NDJSON = 'application/x-ndjson';
function stringArg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

interface Request { path: string; body: string; type?: string }
export interface ClassResult { class: string; requests: number; 'server CPU ms/req': number; 'p50 ms': number; 'p99 ms': number; QPS: number }

/**
 * Sends the requests one after another on one connection; server CPU per request and latencies. The
 * first quarter (at most 100) warms up and is not counted: each request is sent once (writes of new ids).
 */
async function measure(name: string, agent: BenchAgent, port: number, pid: number, all: Request[]): Promise<ClassResult> {
  const warm = Math.min(100, all.length >> 2);
  for (const r of all.slice(0, warm)) await postOk(agent, port, r.path, r.body, r.type);
  const reqs = all.slice(warm);
  const times: number[] = [];
  const cpu0 = processCpuMs(pid);
  const t0 = performance.now();
  for (const r of reqs) {
    const s = performance.now();
    await postOk(agent, port, r.path, r.body, r.type);
    times.push(performance.now() - s);
  }
  const secs = (performance.now() - t0) / 1000;
  const cpu = processCpuMs(pid) - cpu0;
  times.sort((a, b) => a - b);
  return { class: name, requests: reqs.length, 'server CPU ms/req': cpu / reqs.length, 'p50 ms': percentile(times, 50), 'p99 ms': percentile(times, 99), QPS: reqs.length / secs };
}

function shuffled<T>(xs: T[], seed: number): T[] {
  const rng = mulberry32(seed);
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(rng() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; }
  return a;
}

/** The request classes over the loaded table, `n` requests each. */
function classes(docs: CorpusDoc[], n: number): Array<[string, Request[]]> {
  const queries = shuffled(queryClasses(docs, Math.max(1, Math.ceil(n / 8))).flatMap((c) => c.queries), 42).slice(0, n);
  const search = (extra: string) => queries.map((q) => ({ path: '/search', body: `{"table":"${TABLE}","query":{"query_string":${JSON.stringify(q)}},"limit":20${extra}}` }));
  const sql = (select: string, path: string) => queries.map((q) => ({ path, body: `query=${encodeURIComponent(`SELECT ${select} FROM ${TABLE} WHERE MATCH(${sqlString(q)}) LIMIT 20`)}` }));
  const writes = Math.min(n, 500);
  const fresh = Array.from({ length: writes }, (_, i) => docs[i % docs.length]!);
  return [
    ['/search, _source of 20 hits', search('')],
    ['/search, ids only', search(',"_source":{"excludes":["*"]}')],
    ['/sql SELECT * (same rows)', sql('*', '/sql')],
    ['/sql?mode=raw id, weight()', sql('id, weight()', '/sql?mode=raw')],
    ['round trip, no search', queries.map(() => ({ path: '/sql?mode=raw', body: 'query=SHOW%20VARIABLES%20LIKE%20%27autocommit%27' }))],
    ['/insert 1 doc', fresh.map((d, i) => ({ path: '/insert', body: JSON.stringify({ table: 'w', id: i + 1, doc: { title: d.title, body: d.body, len: d.body.length } }) }))],
    ['/bulk 1000 docs', Array.from({ length: Math.max(1, Math.floor(writes / 50)) }, (_, i) => ({
      path: '/bulk', type: NDJSON, body: bulkBody('b', docs.slice(0, BATCH).map((d, j) => ({ ...d, id: i * BATCH + j + 1 }))),
    }))],
  ];
}

export async function httpCpuBench() {
  const docs = loadGcide(arg('docs', 100_000));
  const n = arg('requests', 2000);
  const profile = stringArg('profile');
  const dir = mkdtempSync(join(tmpdir(), 'quarry-http-cpu-'));
  const server = await startQuarry(join(dir, 'data'), profile ? ['--cpu-prof', `--cpu-prof-dir=${resolve(profile)}`] : []);
  const agent = clientAgent();
  try {
    const create = (t: string) => postOk(agent, server.port, '/sql?mode=raw', `query=${encodeURIComponent(`CREATE TABLE ${t} (title text, body text, len uint) morphology='stem_en'`)}`);
    for (const t of [TABLE, 'w', 'b']) await create(t);
    const cpu0 = processCpuMs(server.pid);
    const t0 = performance.now();
    for (let i = 0; i < docs.length; i += BATCH) await postOk(agent, server.port, '/bulk', bulkBody(TABLE, docs.slice(i, i + BATCH)), NDJSON);
    const loadSecs = (performance.now() - t0) / 1000;
    const load = { docs: docs.length, 'load docs/s (/bulk)': docs.length / loadSecs, 'server CPU ms per 1000 docs': ((processCpuMs(server.pid) - cpu0) * BATCH) / docs.length };
    await waitIdle(server.pid); // the load's merges and checkpoints are not the first class's cost
    const results: ClassResult[] = [];
    const only = new RegExp(stringArg('only') ?? '');
    for (const [name, reqs] of classes(docs, n).filter(([c]) => only.test(c))) {
      progress.step(`http-cpu: ${name}`);
      results.push(await measure(name, agent, server.port, server.pid, reqs));
    }
    progress.clear();
    return { load, classes: results };
  } finally {
    agent.destroy();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('http-cpu.bench.js')) {
  httpCpuBench().then((r) => console.log(JSON.stringify(r, null, 2))).catch((e) => { console.error(e); process.exitCode = 1; });
}
