// bench/side-by-side/restart-warmup.bench.ts: the side-by-side's MySQL path, build against build: each build loads
// dict-gcide through 1000-row INSERTs over /sql and stops; then, round after round (the builds' order
// alternated), each is restarted on its data, waits until idle, and answers the side-by-side's shuffled mix
// over MySQL: 200 queries from one client, the mix from one client, then --passes back-to-back passes from
// 8 clients. Prints per build and phase the server CPU ms per query (every thread; and the protocol thread's
// share), QPS, and the segment count the queries ran on: how far a just-restarted server is from its steady
// state (the JIT), and whether two builds differ there. S14: the side-by-side's 8-client MySQL figure fell
// from S12's 1.61x to 1.28x (1.01-1.43); this showed no difference between S12's build and S13's, and an
// 8-client CPU per query that falls pass after pass after a restart: with --passes 10 (main, 100k gcide,
// 400 queries a pass) 0.46, 0.43, 0.41, 0.25, 0.20, 0.24, 0.17, 0.19, 0.16, 0.14 ms, where the side-by-side
// timed its first pass. The side-by-side now warms every peer up for --warm-seconds first.
// Run: npm run build && node dist/bench/side-by-side/restart-warmup.bench.js --builds DIR,DIR [--docs N] [--queries M]
// [--rounds R] [--passes P] (DIR: a build's copy with dist/, build/ and bin/). Needs dict-gcide. Seed 42.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { loadGcide } from '../lib/corpus.js';
import { arg, argString, GCIDE_CREATE, gcideInserts, mulberry32 } from '../lib/bench-util.js';
import { queryClasses } from '../engine/engine.bench.js';
import { queryRun, startQuarry } from './side-by-side.bench.js';
import { threadCpuNs, waitIdle } from '../lib/process-cpu.js';
import { progress } from '../lib/progress.js';

function shuffled<T>(xs: T[], seed: number): T[] {
  const rng = mulberry32(seed);
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(rng() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; }
  return a;
}

/** CPU ms of the protocol thread (the process's first) since `before` (threadCpuNs). */
function mainMsSince(pid: number, before: Map<string, number>): number {
  const key = `${pid}/${pid}`;
  return ((threadCpuNs(pid).get(key) ?? 0) - (before.get(key) ?? 0)) / 1e6;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

export async function restartWarmupBench() {
  const docs = loadGcide(arg('docs', 100_000));
  const queries = shuffled(queryClasses(docs, Math.max(1, Math.floor(arg('queries', 400) / 8))).flatMap((c) => c.queries), 42);
  const builds = (argString('builds') ?? '').split(',').filter(Boolean);
  if (!builds.length) throw new Error('--builds DIR,DIR needed');
  const rounds = arg('rounds', 4);
  const passes = arg('passes', 3);
  const dir = mkdtempSync(join(tmpdir(), 'quarry-restart-'));
  const samples = new Map<string, Array<{ cpu: number; main: number; qps: number; segments: number }>>();
  try {
    for (const [i, b] of builds.entries()) {
      progress.step(`restart-warmup: ${basename(b)}: loading`);
      const s = await startQuarry(join(dir, `b${i}`), [], undefined, join(b, 'bin/quarry.js'));
      const c = await s.overHttp.open();
      await c.exec(GCIDE_CREATE);
      for (const sql of gcideInserts(docs)) await c.exec(sql);
      await c.close();
      await waitIdle(s.pid);
      await s.stop();
    }
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < builds.length; k++) {
        const i = (k + r) % builds.length;
        const name = basename(builds[i]!);
        progress.step(`restart-warmup: round ${r + 1}/${rounds}: ${name}`);
        const s = await startQuarry(join(dir, `b${i}`), [], undefined, join(builds[i]!, 'bin/quarry.js'));
        await waitIdle(s.pid);
        const m = await createConnection({ host: '127.0.0.1', port: s.mysqlPort });
        const [status] = (await m.query('SHOW TABLE gcide STATUS')) as unknown as [Array<{ Variable_name: string; Value: string }>];
        await m.end();
        const segments = Number(status.find((x) => x.Variable_name === 'ram_chunk_segments_count')?.Value);
        const phases: Array<[string, string[], number]> = [['200 at 1', queries.slice(0, 200), 1], ['mix at 1', queries, 1]];
        for (let p = 1; p <= passes; p++) phases.push([`mix at 8, pass ${p}`, queries, 8]);
        for (const [phase, qs, clients] of phases) {
          const before = threadCpuNs(s.pid);
          const run = await queryRun(s.overMysql, qs, clients);
          const key = `${name}\t${phase}`;
          samples.set(key, [...(samples.get(key) ?? []), { cpu: run.cpuMs, main: mainMsSince(s.pid, before) / qs.length, qps: run.qps, segments }]);
        }
        await s.stop();
      }
    }
    progress.clear();
    return [...samples].map(([key, s]) => {
      const [build, phase] = key.split('\t');
      return {
        build: build!, phase: phase!, 'server CPU ms/query': median(s.map((x) => x.cpu)),
        'CPU per round': s.map((x) => x.cpu.toFixed(3)).join(' '), 'protocol thread ms/query': median(s.map((x) => x.main)),
        QPS: median(s.map((x) => x.qps)), segments: s.map((x) => x.segments).join(' '),
      };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('restart-warmup.bench.js')) {
  restartWarmupBench().then((r) => console.table(r)).catch((e) => { console.error(e); process.exitCode = 1; });
}
