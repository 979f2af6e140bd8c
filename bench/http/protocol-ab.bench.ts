// bench/http/protocol-ab.bench.ts: two builds of quarry compared per protocol by the server's CPU time per
// query (user+system of the whole server process, every thread), the fairest before/after figure on a
// shared machine. Both servers load the same dict-gcide documents through /bulk and stay up; then, round
// after round, each build in turn (the order alternated per round) answers the side-by-side's shuffled
// query mix over HTTP JSON /search (hits with `_source`), /sql?mode=raw (id, weight()) and MySQL, from
// 1, 8 and 64 concurrent clients (the bench client on the same cores, as in the side-by-side). Prints
// per protocol and client count each build's median server CPU ms/query, QPS and p99, and the ratios.
// Run: npm run bench -- protocol-ab --baseline DIR [--docs N] [--synthetic] [--queries M] [--rounds R] [--clients 1,8]
// [--only REGEX] [--threads-one 1] [--warm N] [--optimize 1] (DIR: another build's copy with dist/, build/ and bin/; REGEX picks protocols by name;
// --baseline-only 1 or --current-only 1 measures one build alone; --threads-one 1 adds the current build with threads = 1; --builds DIR,DIR,... those builds alone,
// each named by its folder, to bisect in one run; --profile DIR: each server's --cpu-prof profiles, its main
// thread's and its query threads', in DIR/<build name>, written when it stops; the load is in them too).
// Prints each build's segment count before and after the rounds (the idle compaction's timing can
// leave 100k gcide as 2 or 4 segments, and every query pays per segment); --optimize 1 merges each
// build's table into one segment first (OPTIMIZE TABLE), so the builds are compared on one layout.
// Needs dict-gcide. Seed 42.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { loadGcide, type CorpusDoc } from '../lib/corpus.js';
import { arg, argString, mulberry32 } from '../lib/bench-util.js';
import { documentFrequencies, queryClasses, synthetic } from '../engine/engine.bench.js';
import { queryRun, startQuarry, type Peer, type QuarryServer } from '../side-by-side/side-by-side.bench.js';
import { bulkBody, clientAgent, postOk } from '../lib/http-client.js';
import { waitIdle } from '../lib/process-cpu.js';
import { progress } from '../lib/progress.js';

const BATCH = 1000;

async function loaded(dir: string, docs: CorpusDoc[], bin?: string, profile?: string, threads?: number): Promise<QuarryServer> {
  const server = await startQuarry(dir, profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [], threads, bin);
  const agent = clientAgent();
  await postOk(agent, server.port, '/sql?mode=raw', `query=${encodeURIComponent("CREATE TABLE gcide (title text, body text, len uint) morphology='stem_en'")}`);
  for (let i = 0; i < docs.length; i += BATCH) {
    await postOk(agent, server.port, '/bulk', bulkBody('gcide', docs.slice(i, i + BATCH)), 'application/x-ndjson');
  }
  agent.destroy();
  return server;
}

async function sql(server: QuarryServer, statement: string): Promise<string> {
  const agent = clientAgent();
  try {
    return await postOk(agent, server.port, '/sql?mode=raw', `query=${encodeURIComponent(statement)}`);
  } finally {
    agent.destroy();
  }
}

/** The table's segment count (SHOW TABLE STATUS's ram_chunk_segments_count). */
async function segmentCount(server: QuarryServer): Promise<string> {
  return /"ram_chunk_segments_count","Value":"(\d+)"/.exec(await sql(server, 'SHOW TABLE gcide STATUS'))?.[1] ?? '?';
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

function shuffled<T>(xs: T[], seed: number): T[] {
  const rng = mulberry32(seed);
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(rng() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; }
  return a;
}

interface Sample { cpuMs: number; qps: number; p99ms: number }

export async function protocolAbBench() {
  const baseline = argString('baseline');
  const n = arg('docs', 100_000);
  // --synthetic: documents drawn from gcide's vocabulary (any count, as the side-by-side's), queries from the first 100k
  const docs = process.argv.includes('--synthetic') ? synthetic(documentFrequencies(loadGcide()), n) : loadGcide(n);
  const queries = shuffled(queryClasses(docs.slice(0, 100_000), Math.max(1, Math.floor(arg('queries', 400) / 8))).flatMap((c) => c.queries), 42);
  const rounds = arg('rounds', 3);
  const clients = (argString('clients') ?? '1,8').split(',').map(Number);
  const only = new RegExp(argString('only') ?? '');
  const dir = mkdtempSync(join(tmpdir(), 'quarry-ab-'));
  const profileDir = argString('profile');
  const profile = (name: string) => (profileDir ? resolve(profileDir, name) : undefined);
  const builds: Array<{ name: string; server: QuarryServer }> = [];
  try {
    // --builds DIR,DIR,...: those builds alone, named by their folders (a bisection in one run)
    const listed = argString('builds')?.split(',');
    if (listed) {
      for (const d of listed) builds.push({ name: basename(d), server: await loaded(join(dir, `b${builds.length}`), docs, join(d, 'bin/quarry.js'), profile(basename(d))) });
    } else {
      if (!arg('baseline-only', 0)) builds.push({ name: 'current', server: await loaded(join(dir, 'current'), docs, undefined, profile('current')) });
      if (baseline && !arg('current-only', 0)) builds.push({ name: 'baseline', server: await loaded(join(dir, 'baseline'), docs, join(baseline, 'bin/quarry.js'), profile('baseline')) });
    }
    // --threads-one 1: the current build once more with every query on the protocol thread (threads = 1),
    // the mark a hand-over policy has to meet, in the same rounds
    if (arg('threads-one', 0)) {
      builds.push({ name: 'threads=1', server: await loaded(join(dir, 'threads1'), docs, undefined, profile('threads1'), 1) });
    }
    for (const b of builds) await waitIdle(b.server.pid);
    // each query pays planning and evaluation per segment: builds left with different layouts by the
    // idle compaction's timing (100k gcide: 2 or 4) are not comparable; --optimize 1 merges each into one
    if (arg('optimize', 0)) for (const b of builds) await sql(b.server, 'OPTIMIZE TABLE gcide');
    for (const b of builds) console.error(`protocol-ab: ${b.name}: ${await segmentCount(b.server)} segments before the rounds`);
    const protocols = (s: QuarryServer): Array<[string, Peer]> =>
      ([['/search', s.overJson], ['/sql', s.overHttp], ['MySQL', s.overMysql]] as Array<[string, Peer]>).filter(([n]) => only.test(n));
    const samples = new Map<string, Sample[]>();
    // warm-up: 200 queries, or with --warm N that many passes of the whole mix from 8 clients (the JIT
    // and the caches of parses and documents filled, so the first round is not the warm-up)
    const warm = arg('warm', 0);
    for (const b of builds) {
      for (const [, peer] of protocols(b.server)) {
        if (warm) for (let w = 0; w < warm; w++) await queryRun(peer, queries, 8);
        else await queryRun(peer, queries.slice(0, 200), 1);
      }
    }
    for (let r = 0; r < rounds; r++) {
      const order = [...builds.slice(r % builds.length), ...builds.slice(0, r % builds.length)]; // each build first in turn
      for (const b of order) {
        for (const [p, peer] of protocols(b.server)) {
          for (const c of clients) {
            progress.step(`protocol-ab: round ${r + 1}/${rounds}: ${b.name} ${p} ${c} clients`);
            const run = await queryRun(peer, queries, c);
            const key = `${p}\t${c}\t${b.name}`;
            samples.set(key, [...(samples.get(key) ?? []), { cpuMs: run.cpuMs, qps: run.qps, p99ms: run.p99ms }]);
          }
        }
      }
    }
    progress.clear();
    for (const b of builds) console.error(`protocol-ab: ${b.name}: ${await segmentCount(b.server)} segments after the rounds`);
    const rows: Record<string, string | number>[] = [];
    for (const [key, s] of samples) {
      const [protocol, c, build] = key.split('\t');
      rows.push({
        protocol: protocol!, clients: Number(c), build: build!, 'server CPU ms/query': median(s.map((x) => x.cpuMs)),
        'CPU per round': s.map((x) => x.cpuMs.toFixed(3)).join(' '), QPS: median(s.map((x) => x.qps)),
        'QPS per round': s.map((x) => x.qps.toFixed(0)).join(' '), 'p99 ms': median(s.map((x) => x.p99ms)),
      });
    }
    rows.sort((a, b) => `${a.protocol}${String(a.clients).padStart(3)}${a.build}`.localeCompare(`${b.protocol}${String(b.clients).padStart(3)}${b.build}`));
    return rows;
  } finally {
    for (const b of builds) await b.server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('protocol-ab.bench.js')) {
  protocolAbBench().then((r) => console.log(JSON.stringify(r, null, 2))).catch((e) => { console.error(e); process.exitCode = 1; });
}
