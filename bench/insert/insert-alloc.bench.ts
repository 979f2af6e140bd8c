// bench/insert/insert-alloc.bench.ts: the bytes the server allocates per single-row INSERT from 16 clients, garbage
// included (V8's sampling heap profiler with the objects later collected kept in), this build and a baseline
// build alternated. Each build runs in a child process that serves in-process and drives itself with 16
// mysql2 (or node:http `/sql?mode=raw`) clients: 2,000 warm-up INSERTs, then the sampled ones. The client's
// frames (mysql2, node:http's client, this file) are left out of "server kB"; "total kB" has both. Why: GC is
// ~15% of the protocol thread's time under single-row INSERTs, and the CPU benches (insert-ab) cannot
// resolve a few hundred bytes a statement on a loaded machine; this can, to about +-1 kB a run (the seal's
// allocations land in one run's window or the next's).
// Run: node dist/bench/insert/insert-alloc.bench.js --baseline DIR [--http 1] [--statements 4000] [--rounds 2]
// [--top 0] (the N functions allocating most, server side, per build's last round)
// (DIR: another build's checkout with dist/). Needs dict-gcide.
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import { Session } from 'node:inspector/promises';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { arg, argString, sqlString } from '../lib/bench-util.js';

const ROOT = resolve(new URL('../../..', import.meta.url).pathname);
/** Stack frames of the driving clients: their allocations are not the server's. */
const CLIENT_FRAMES = /mysql2|insert-alloc\.bench|sql-escaper|bench-util|_http_client|_http_incoming|_http_common/;

interface HeapNode { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children: HeapNode[] }
interface Client { exec(sql: string): Promise<unknown> }

/** In the child: serves from `root`'s build, runs the INSERTs, prints one JSON line of what it measured. */
async function child(root: string, overHttp: boolean, n: number, top: number): Promise<void> {
  const { main } = await import(join(root, 'dist/src/server/cli.js'));
  // a baseline built before bench/ had folders keeps corpus.js at dist/bench/
  const corpus = join(root, 'dist/bench/lib/corpus.js');
  const { loadGcide } = await import(existsSync(corpus) ? corpus : join(root, 'dist/bench/corpus.js'));
  const mysql = (await import(join(root, 'node_modules/mysql2/promise.js'))).default;
  const dir = mkdtempSync(join(tmpdir(), 'quarry-insert-alloc-'));
  let out = '';
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((c: string | Uint8Array) => { out += String(c); return true; }) as typeof process.stdout.write;
  void main(['serve', '--data', dir, '--http', '127.0.0.1:0', '--mysql', '127.0.0.1:0']);
  let m: RegExpExecArray | null;
  while (!(m = /http=[\d.]+:(\d+) mysql=[\d.]+:(\d+)/.exec(out))) await new Promise((r) => setTimeout(r, 50));
  const [httpPort, mysqlPort] = [Number(m[1]), Number(m[2])];
  const docs = loadGcide(2000 + n) as { title: string; body: string }[];
  const sqlOf = (i: number) => `INSERT INTO gcide (id, title, body, len) VALUES (${i + 1},${sqlString(docs[i]!.title)},${sqlString(docs[i]!.body)},${docs[i]!.body.length})`;
  const overMysql = async (): Promise<Client> => {
    const c = await mysql.createConnection({ host: '127.0.0.1', port: mysqlPort });
    return { exec: (sql) => c.query(sql) };
  };
  const viaHttp = async (): Promise<Client> => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    return {
      exec: (sql) => new Promise((res, rej) => {
        const req = http.request({ host: '127.0.0.1', port: httpPort, path: '/sql?mode=raw', method: 'POST', agent }, (r) => { r.resume(); r.on('end', res); });
        req.on('error', rej);
        req.end(sql);
      }),
    };
  };
  await (await overMysql()).exec("CREATE TABLE gcide (title text, body text, len uint) morphology='stem_en'");
  const clients = await Promise.all(Array.from({ length: 16 }, () => (overHttp ? viaHttp() : overMysql())));
  const phase = async (from: number, to: number) => {
    let next = from;
    await Promise.all(clients.map(async (c) => { while (next < to) await c.exec(sqlOf(next++)); }));
  };
  await phase(0, 2000);
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', { samplingInterval: 512, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as never);
  await phase(2000, 2000 + n);
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: HeapNode } };
  let total = 0;
  let server = 0;
  const byFn = new Map<string, number>();
  const walk = (node: HeapNode, client: boolean) => {
    const f = node.callFrame;
    const isClient = client || CLIENT_FRAMES.test(f.url);
    total += node.selfSize;
    if (!isClient) {
      server += node.selfSize;
      const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
      byFn.set(key, (byFn.get(key) ?? 0) + node.selfSize);
    }
    for (const c of node.children) walk(c, isClient);
  };
  walk(profile.head, false);
  const topFns = [...byFn].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, v]) => `${Math.round(v / n)} B ${k}`);
  write(`${JSON.stringify({ 'server kB/INSERT': Number((server / n / 1024).toFixed(2)), 'total kB/INSERT': Number((total / n / 1024).toFixed(2)), ...(top ? { top: topFns } : {}) })}\n`);
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

export function insertAllocBench(): Record<string, unknown>[] {
  const baseline = argString('baseline');
  if (!baseline) throw new Error('--baseline DIR is required');
  const overHttp = arg('http', 0) === 1;
  const n = arg('statements', 4000);
  const rounds = arg('rounds', 2);
  const top = arg('top', 0);
  const rows: Record<string, unknown>[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const [name, root] of [['baseline', resolve(baseline)], ['this', ROOT]] as const) {
      // the server's own Node flag (bin/quarry.js): the young generation's size sets how often it collects
      const line = execFileSync(process.execPath, ['--min-semi-space-size=4', new URL(import.meta.url).pathname, '--child', root, '--http', String(overHttp ? 1 : 0), '--statements', String(n), '--top', String(r === rounds - 1 ? top : 0)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 24 });
      rows.push({ build: name, round: r + 1, protocol: overHttp ? 'http /sql' : 'mysql', ...JSON.parse(line.trim().split('\n').pop()!) });
    }
  }
  return rows;
}

if (process.argv[1]?.endsWith('insert-alloc.bench.js')) {
  const at = process.argv.indexOf('--child');
  if (at >= 0) void child(process.argv[at + 1]!, arg('http', 0) === 1, arg('statements', 4000), arg('top', 0));
  else console.log(JSON.stringify(insertAllocBench(), null, 2));
}
