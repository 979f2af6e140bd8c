// bench/highlight/highlight-http-ab.bench.ts: the JSON highlight request over HTTP as the highlight bench sends it
// (bench/highlight/highlight-classes.ts jsonSearch, node:http keep-alive client, one request at a time), this build's
// server against a baseline build's server (a copy of a checkout with dist/ and bin/), both running at once
// over the same documents, alternated block by block (A, B, B, A, ...): the server's CPU per request (every
// thread's scheduler run time, and its main thread's; mean per thread name) and the bench client's own CPU per request, median and first quartile over
// `--rounds` rounds of `--passes` passes over a class's queries. `--lean-client 1` sends the same bytes by
// http-client.ts LeanHttpClient instead (what the server's cost owes to the client). `--search 1` adds a
// trivial `/search` (the same request without `highlight`) per class.
// Run: npm run build && node dist/bench/highlight/highlight-http-ab.bench.js --baseline DIR [--docs N] [--queries M]
// [--classes 2] [--rounds 15] [--passes 3] [--warm 3000] [--lean-client 1] [--search 1] (`--warm`: requests
// per server and kind before the timed rounds). Classes: bench/engine/engine.bench.ts
// queryClasses' indices. Needs dict-gcide.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { arg, argString } from '../lib/bench-util.js';
import { loadGcide } from '../lib/corpus.js';
import { queryClasses } from '../engine/engine.bench.js';
import { jsonSearch } from './highlight-classes.js';
import { bulkBody, clientAgent, LeanHttpClient, postOk } from '../lib/http-client.js';
import { cpuMark, cpuMsSince, threadCpuNs, waitIdle } from '../lib/process-cpu.js';
import { startQuarry, type QuarryServer } from '../side-by-side/side-by-side.bench.js';
import { processCpuMs } from '../lib/ab-children.js';

/** A thread's name (/proc/<pid>/task/<tid>/comm) and its tid's distance from the pid (creation order), for a threadCpuNs key "pid/tid". */
function threadName(key: string): string {
  const [pid, tid] = key.split('/');
  let name = '?';
  try { name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim(); } catch { /* ended */ }
  return pid === tid ? 'main' : `${name}+${Number(tid) - Number(pid)}`;
}

type Post = (path: string, body: string) => Promise<string>;

/** A client of `port`: node:http over a one-socket keep-alive agent, or the lean client. */
function client(port: number, lean: boolean): { post: Post; close(): void } {
  if (lean) {
    const c = new LeanHttpClient(port);
    return {
      post: async (path, body) => {
        const r = await c.post(path, body);
        if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.body.slice(0, 200)}`);
        return r.body;
      },
      close: () => c.close(),
    };
  }
  const agent = clientAgent();
  return { post: (path, body) => postOk(agent, port, path, body), close: () => agent.destroy() };
}

async function load(s: QuarryServer, docs: ReturnType<typeof loadGcide>): Promise<void> {
  const agent = clientAgent();
  await postOk(agent, s.port, '/sql?mode=raw', `query=${encodeURIComponent("CREATE TABLE gcide (title text, body text, len uint) morphology='stem_en'")}`);
  for (let i = 0; i < docs.length; i += 1000) await postOk(agent, s.port, '/bulk', bulkBody('gcide', docs.slice(i, i + 1000)), 'application/x-ndjson');
  agent.destroy();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const quartile = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 2]!;

async function main(): Promise<void> {
  const baseline = argString('baseline');
  if (!baseline) throw new Error('--baseline DIR needed');
  const docs = loadGcide(arg('docs', 100000));
  const classes = queryClasses(docs, arg('queries', 20));
  const only = argString('classes')?.split(',').map(Number) ?? [2];
  const rounds = arg('rounds', 15);
  const passes = arg('passes', 3);
  const lean = arg('lean-client', 0) === 1;
  const warm = arg('warm', 3000);
  const dir = mkdtempSync(join(tmpdir(), 'quarry-hl-http-ab-'));
  const servers: Array<[string, QuarryServer]> = [];
  try {
    servers.push(['this', await startQuarry(join(dir, 'a'))]);
    servers.push(['baseline', await startQuarry(join(dir, 'b'), [], undefined, join(resolve(baseline), 'bin/quarry.js'))]);
    for (const [, s] of servers) await load(s, docs);
    for (const [, s] of servers) await waitIdle(s.pid);
    const out: Record<string, unknown>[] = [];
    for (const ci of only) {
      const c = classes[ci]!;
      const kinds: Array<[string, (q: string) => string]> = [['highlight', jsonSearch]];
      if (arg('search', 0) === 1) kinds.push(['search', (q) => jsonSearch(q).replace(',"highlight":{}', '')]);
      for (const [kind, body] of kinds) {
        const clients = servers.map(([, s]) => client(s.port, lean));
        const block = async (i: number) => { for (let p = 0; p < passes; p++) for (const q of c.queries) await clients[i]!.post('/search', body(q)); };
        // warm: V8 still optimizes (and deoptimizes) the path's functions ~10 times a second after 8,000 requests
        // of one class (--trace-opt), and each compile runs on its worker threads: a short warm-up times the JIT
        for (let i = 0; i < servers.length; i++) for (let k = 0; k < warm; k += c.queries.length) for (const q of c.queries) await clients[i]!.post('/search', body(q));
        const server: number[][] = servers.map(() => []);
        const mainMs: number[][] = servers.map(() => []);
        const byName: Array<Map<string, number>> = servers.map(() => new Map());
        const own: number[][] = servers.map(() => []);
        const n = passes * c.queries.length;
        for (let r = 0; r < rounds; r++) {
          const order = r % 2 === 0 ? [0, 1] : [1, 0];
          for (const i of order) {
            const pid = servers[i]![1].pid;
            const mark = cpuMark(pid);
            const main0 = mark.threads.get(`${pid}/${pid}`) ?? 0;
            const me = processCpuMs();
            await block(i);
            const now = threadCpuNs(pid);
            mainMs[i]!.push(((now.get(`${pid}/${pid}`)! - main0) / 1e3) / n);
            for (const [tid, ns] of now) {
              const name = threadName(tid);
              byName[i]!.set(name, (byName[i]!.get(name) ?? 0) + (ns - (mark.threads.get(tid) ?? 0)) / 1e3 / n / rounds);
            }
            own[i]!.push(((processCpuMs() - me) / n) * 1000);
            server[i]!.push((cpuMsSince(mark) / n) * 1000);
          }
        }
        for (const cl of clients) cl.close();
        const row: Record<string, unknown> = { class: c.name, kind, client: lean ? 'lean' : 'node:http' };
        servers.forEach(([name], i) => {
          row[`${name} server us/req median`] = +median(server[i]!).toFixed(1);
          row[`${name} server us/req q1`] = +quartile(server[i]!).toFixed(1);
          row[`${name} main thread us/req`] = +median(mainMs[i]!).toFixed(1);
          row[`${name} threads us/req`] = [...byName[i]!].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([t, us]) => `${t} ${us.toFixed(0)}`).join(', ');
          row[`${name} client us/req`] = +median(own[i]!).toFixed(1);
        });
        row['this/baseline'] = +(median(server[0]!.map((x, k) => x / server[1]![k]!))).toFixed(3);
        console.error(JSON.stringify(row));
        out.push(row);
      }
    }
    console.log(JSON.stringify(out, null, 2));
  } finally {
    for (const [, s] of servers) await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
