// bench/http/http-clients.bench.ts: what the highlight bench's HTTP client costs, beside the server it measures.
// One quarry server loaded with dict-gcide; the highlight bench's JSON request (highlight-classes.ts
// jsonSearch: top 20, every stored field highlighted) of every query class sent one at a time by each
// client in turn, in alternated blocks (A, B, C, ..., then reversed): node:http over a keep-alive agent
// (the bench's default until session 16), node:http with its reply read as buffers, undici's `Client.request`
// (the client under Node's own fetch; imported from `--undici DIR` or the `undici` package if installed),
// the bench's LeanHttpClient, and mysql2's SQL `SELECT id, HIGHLIGHT() ... LIMIT 20` for reference (the
// client Sphinx's side keeps). Per client: this process's CPU per request (the bench client's, on the cores
// the server shares), the server's CPU per request (user + system, /proc) and the median block's wall
// time per request. Client CPU is what a loaded two-core machine charges the JSON column's wall figure.
// Run: npm run build && node dist/bench/http/http-clients.bench.js [--docs N] [--queries M] [--rounds R] [--undici DIR]
// Needs dict-gcide. Seed 42 (engine.bench's query classes).
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createConnection } from 'mysql2/promise';
import { arg, argString, GCIDE_CREATE, gcideInserts } from '../lib/bench-util.js';
import { loadGcide } from '../lib/corpus.js';
import { queryClasses } from '../engine/engine.bench.js';
import { highlightSql, jsonSearch } from '../highlight/highlight-classes.js';
import { clientAgent, LeanHttpClient, postText, undiciClient, type HttpReply } from '../lib/http-client.js';
import { processCpuMs } from '../lib/process-cpu.js';
import { startQuarry } from '../side-by-side/side-by-side.bench.js';

interface Client { name: string; send(body: string): Promise<number>; close(): Promise<void> | void }

/** node:http as the bench used it, but the reply kept as buffers and decoded once (no StringDecoder per chunk). */
function postBuffers(agent: http.Agent, port: number, body: string): Promise<HttpReply> {
  return new Promise((done, fail) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/search', method: 'POST', agent }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }));
    });
    req.on('error', fail);
    req.end(body);
  });
}

const hits = (r: HttpReply): number => {
  if (r.status !== 200) throw new Error(`HTTP ${r.status}: ${r.body.slice(0, 200)}`);
  return (r.body.match(/"highlight":/g) ?? []).length;
};

async function clients(port: number, mysqlPort: number): Promise<Client[]> {
  const agent = clientAgent('node');
  const agent2 = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const lean = new LeanHttpClient(port);
  const mysql = await createConnection({ host: '127.0.0.1', port: mysqlPort });
  const out: Client[] = [
    { name: 'node:http (agent, setEncoding)', send: async (b) => hits(await postText(agent, port, '/search', b)), close: () => agent.destroy() },
    { name: 'node:http (agent, buffers)', send: async (b) => hits(await postBuffers(agent2, port, b)), close: () => agent2.destroy() },
  ];
  const dir = argString('undici');
  const undici = await undiciClient(port, dir ? pathToFileURL(join(resolve(dir), 'node_modules/undici/index.js')).href : undefined);
  if (undici) out.push({ name: `undici ${undici.version} Client.request`, send: async (b) => hits(await undici.post('/search', b)), close: () => undici.close() });
  else console.error('http-clients: undici not found (npm install undici, or --undici DIR with DIR/node_modules/undici): left out');
  out.push(
    { name: 'LeanHttpClient', send: async (b) => hits(await lean.post('/search', b)), close: () => lean.close() },
    { name: 'mysql2 SQL HIGHLIGHT() (reference)', send: async (q) => { const [r] = await mysql.query(q); return (r as unknown[]).length; }, close: () => mysql.end() },
  );
  return out;
}

async function main(): Promise<void> {
  const docs = loadGcide(arg('docs', 100000));
  const queries = queryClasses(docs, arg('queries', 20)).flatMap((c) => c.queries);
  const rounds = arg('rounds', 5);
  const dir = mkdtempSync(join(tmpdir(), 'quarry-http-clients-'));
  const server = await startQuarry(join(dir, 'quarry'));
  try {
    const load = await createConnection({ host: '127.0.0.1', port: server.mysqlPort });
    await load.query(GCIDE_CREATE);
    for (const sql of gcideInserts(docs)) await load.query(sql);
    await load.end();
    const cs = await clients(server.port, server.mysqlPort);
    const bodyOf = (c: Client, q: string): string => (c.name.startsWith('mysql2') ? highlightSql(q) : jsonSearch(q));
    const figures = new Map(cs.map((c) => [c.name, { clientMs: 0, clientSysMs: 0, serverMs: 0, requests: 0, hits: 0, wall: [] as number[] }]));
    for (const c of cs) for (const q of queries) await c.send(bodyOf(c, q)); // warm-up
    for (let r = 0; r < rounds; r++) {
      for (const c of r % 2 ? [...cs].reverse() : cs) {
        const f = figures.get(c.name)!;
        const own0 = process.cpuUsage();
        const server0 = processCpuMs(server.pid);
        const t0 = performance.now();
        for (const q of queries) f.hits += await c.send(bodyOf(c, q));
        f.wall.push((performance.now() - t0) / queries.length);
        const own = process.cpuUsage(own0);
        f.clientMs += (own.user + own.system) / 1000;
        f.clientSysMs += own.system / 1000;
        f.serverMs += processCpuMs(server.pid) - server0;
        f.requests += queries.length;
      }
    }
    for (const c of cs) await c.close();
    const rows = [...figures].map(([name, f]) => ({
      client: name,
      'client CPU us/request': Math.round((1000 * f.clientMs) / f.requests),
      'of which system': Math.round((1000 * f.clientSysMs) / f.requests),
      'server CPU us/request': Math.round((1000 * f.serverMs) / f.requests),
      'wall us/request (median block)': Math.round(1000 * [...f.wall].sort((a, b) => a - b)[f.wall.length >> 1]!),
      'hits/request': +(f.hits / f.requests).toFixed(1),
    }));
    console.table(rows);
    console.log(JSON.stringify({ docs: docs.length, requests: queries.length * rounds, rows }));
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
