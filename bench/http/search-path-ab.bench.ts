// bench/http/search-path-ab.bench.ts: the `/search` route's protocol-thread CPU per request in process, this
// build against a baseline build, interleaved in chunks of 100 requests: the side-by-side's /search
// body (query_string, limit 20, hits with `_source`) through searchReply (body parse, query tree, plan, evaluation, page read, metrics)
// and the reply written into a ByteSink as the lean server writes it, without sockets or the bench
// client, so a few per cent show through a loaded machine (protocol-ab's server CPU a query varies
// 10% a round at load 15). Both engines run in this process (threads = 1) over 100k gcide loaded by
// INSERTs of 1000 rows and merged into one segment (OPTIMIZE), the same shuffled query mix each.
// Run: node dist/bench/http/search-path-ab.bench.js --baseline DIR [--docs N] [--queries M] [--rounds R]
// (DIR: another build's checkout with dist/ and build/). Needs dict-gcide. Seed 42.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { arg, argString, GCIDE_CREATE, gcideInserts, mulberry32 } from '../lib/bench-util.js';
import { loadGcide, type CorpusDoc } from '../lib/corpus.js';
import { queryClasses } from '../engine/engine.bench.js';

const ROOT = resolve(new URL('../../..', import.meta.url).pathname);
const BATCH = 1000;

/** What this bench calls in one build (its own module graph: caches, core and metrics apart). */
interface Build {
  name: string;
  engine: { execute(sql: string, s: unknown): Promise<Array<{ kind: string; message?: string }>>; json?: unknown; close(): Promise<void> };
  session: unknown;
  searchReply: (json: unknown, session: unknown, text: string) => Promise<{ status: number; body: string | ((out: unknown) => void) }>;
  sink: (buf: Buffer) => { text(s: string): void; readonly end: number; readonly buffer: Buffer };
}

async function openBuild(name: string, root: string, dir: string, docs: CorpusDoc[]): Promise<Build> {
  const mod = (p: string) => import(join(root, 'dist/src', p));
  const { openEngine } = await mod('engine/index.js');
  const { newSession } = await mod('engine/session.js');
  const { searchReply } = await mod('http/json-routes.js');
  const { ByteSink } = await mod('http/reply-sink.js');
  const engine = await openEngine({ dataDir: dir, threads: 1 });
  const session = newSession();
  const run = async (sql: string) => {
    for (const r of await engine.execute(sql, session)) if (r.kind === 'error') throw new Error(`${name}: ${r.message}`);
  };
  await run(GCIDE_CREATE);
  for (const sql of gcideInserts(docs, BATCH)) await run(sql);
  await run('OPTIMIZE TABLE gcide');
  return { name, engine, session, searchReply, sink: (buf) => new ByteSink(buf, 512) };
}

function shuffled<T>(xs: T[], seed: number): T[] {
  const rng = mulberry32(seed);
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(rng() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; }
  return a;
}

/** The bodies through the build's route, each reply written; CPU microseconds this process spent. */
async function pass(b: Build, bodies: string[], scratch: Buffer): Promise<number> {
  const t0 = process.cpuUsage();
  for (const text of bodies) {
    const reply = await b.searchReply(b.engine.json, b.session, text);
    if (reply.status !== 200) throw new Error(`${b.name}: /search ${reply.status}`);
    const out = b.sink(scratch);
    if (typeof reply.body === 'string') out.text(reply.body);
    else reply.body(out);
  }
  const used = process.cpuUsage(t0);
  return used.user + used.system;
}

/**
 * One round: the whole mix through every build, interleaved in chunks of CHUNK requests (the order
 * alternated per chunk), so each build's time is taken in the same seconds as the other's: a loaded
 * machine's drift within a round then falls on both. CPU microseconds per request, per build.
 */
const CHUNK = 100;
async function round(builds: Build[], bodies: string[], scratch: Buffer): Promise<number[]> {
  const us = builds.map(() => 0);
  for (let i = 0, k = 0; i < bodies.length; i += CHUNK, k++) {
    const chunk = bodies.slice(i, i + CHUNK);
    for (let j = 0; j < builds.length; j++) {
      const at = k % 2 ? builds.length - 1 - j : j;
      us[at] += await pass(builds[at]!, chunk, scratch);
    }
  }
  return us.map((u) => u / bodies.length);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

export async function searchPathAbBench() {
  const baseline = argString('baseline');
  if (!baseline) throw new Error('--baseline DIR is required');
  const docs = loadGcide(arg('docs', 100_000));
  const queries = shuffled(queryClasses(docs.slice(0, 100_000), Math.max(1, Math.floor(arg('queries', 3200) / 8))).flatMap((c) => c.queries), 42);
  const bodies = queries.map((q) => `{"table":"gcide","query":{"query_string":${JSON.stringify(q)}},"limit":20}`);
  const rounds = arg('rounds', 6);
  const dir = mkdtempSync(join(tmpdir(), 'quarry-search-path-'));
  const builds: Build[] = [];
  try {
    builds.push(await openBuild('current', ROOT, join(dir, 'current'), docs));
    builds.push(await openBuild('baseline', resolve(baseline), join(dir, 'baseline'), docs));
    const scratch = Buffer.allocUnsafe(1 << 20);
    for (const b of builds) await pass(b, bodies, scratch); // warm-up: JIT, parse and document caches
    const us = new Map<string, number[]>(builds.map((b) => [b.name, []]));
    for (let r = 0; r < rounds; r++) {
      const perBuild = await round(builds, bodies, scratch);
      builds.forEach((b, i) => us.get(b.name)!.push(perBuild[i]!));
    }
    const base = us.get('baseline')!;
    return builds.map((b) => ({
      build: b.name, 'CPU us/request': median(us.get(b.name)!), 'per round': us.get(b.name)!.map((x) => x.toFixed(1)).join(' '),
      // the median of the rounds' ratios: each round's builds ran in the same seconds
      'vs baseline': median(us.get(b.name)!.map((x, i) => x / base[i]!)),
    }));
  } finally {
    for (const b of builds) await b.engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('search-path-ab.bench.js')) {
  searchPathAbBench().then((r) => console.log(JSON.stringify(r, null, 2))).catch((e) => { console.error(e); process.exitCode = 1; });
}
