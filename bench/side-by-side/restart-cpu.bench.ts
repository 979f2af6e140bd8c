// bench/side-by-side/restart-cpu.bench.ts: does a freshly restarted server cost more CPU per query? The side-by-side
// measures /sql and /search in the server that loaded the table but MySQL after a restart (cold JIT, empty
// plan and parse caches, segments loaded from files). Each repetition loads 100k dict-gcide in 1000-row
// INSERTs into a new server and measures the side-by-side's 1-client MySQL figure there (idle first, the
// 200-query warm-up, then the 400-query mix, server CPU per query from the scheduler's run times), then
// `--rounds` more runs of the same mix (the decay: JIT tier-up, plan cache); then stops it, starts a server
// on the same data and does the same. Prints per repetition and server the CPU ms/query of each run.
// Run: npm run bench -- restart-cpu [--docs N] [--queries M] [--reps R] [--rounds K]. Seed 42.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { loadGcide } from '../lib/corpus.js';
import { arg, mulberry32, sqlString } from '../lib/bench-util.js';
import { queryClasses } from '../engine/engine.bench.js';
import { queryRun, startQuarry, type QuarryServer } from './side-by-side.bench.js';
import { waitIdle } from '../lib/process-cpu.js';
import { progress } from '../lib/progress.js';

async function main() {
  const docs = loadGcide(arg('docs', 100_000));
  const rng = mulberry32(42);
  const queries = queryClasses(docs, Math.max(1, Math.floor(arg('queries', 400) / 8))).flatMap((c) => c.queries);
  for (let i = queries.length - 1; i > 0; i--) { const j = Math.floor(rng() * (i + 1)); [queries[i], queries[j]] = [queries[j], queries[i]]; }
  const rounds = arg('rounds', 2);
  const out: Record<string, unknown>[] = [];
  // as the side-by-side's measure(): idle, warm-up, the 1-client run; then the later runs
  const measure = async (q: QuarryServer, rep: number, server: string) => {
    progress.step(`restart-cpu: repetition ${rep + 1}, ${server}`);
    await waitIdle(q.pid);
    await queryRun(q.overMysql, queries.slice(0, 200), 1);
    const runs: number[] = [];
    for (let r = 0; r <= rounds; r++) runs.push((await queryRun(q.overMysql, queries, 1)).cpuMs);
    out.push({ rep: rep + 1, server, 'CPU ms/query, the side-by-side run': runs[0], 'later runs': runs.slice(1).map((x) => Number(x.toFixed(3))).join(' ') });
  };
  for (let rep = 0; rep < arg('reps', 3); rep++) {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-restart-'));
    try {
      let q = await startQuarry(dir);
      const c = await createConnection({ host: '127.0.0.1', port: q.mysqlPort });
      await c.query(`CREATE TABLE gcide (title text, body text, len uint) morphology='stem_en'`);
      for (let i = 0; i < docs.length; i += 1000) {
        const rows = docs.slice(i, i + 1000).map((d) => `(${d.id},${sqlString(d.title)},${sqlString(d.body)},${d.body.length})`);
        await c.query(`INSERT INTO gcide (id, title, body, len) VALUES ${rows.join(',')}`);
      }
      await c.end();
      await measure(q, rep, 'loaded');
      await q.stop();
      q = await startQuarry(dir);
      await measure(q, rep, 'restarted');
      await q.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  progress.clear();
  console.log(JSON.stringify(out, null, 2));
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
