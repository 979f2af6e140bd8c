// bench/side-by-side/first-query.bench.ts: the CPU of a query the process has not seen before against the same query
// repeated. The side-by-side mostly runs first-time queries (its 400-query sets), which miss the parse
// caches (statement, MATCH text) and the plan cache (keyword stats, term lookups, encoded trees). Loads
// one table in process, then per round runs a set of queries none of the earlier sets held (deduplicated
// from a large pool of the side-by-side's classes) and then the same set again; prints the median CPU
// microseconds per query (process CPU, every thread) of each. With `--baseline DIR` (a checkout with
// dist/ built) that build's engine is opened beside this one's on the same documents and each round runs
// its fresh set on both, the order alternated, so a load change on the shared machine hits both alike.
// Run: npm run bench -- first-query [--docs N] [--queries M] [--rounds R] [--baseline DIR]. Defaults: 100k
// dict-gcide, 400 queries, 7 rounds (plus 2 warm-up). Seed 42.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { open, type Database } from '../../src/index.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadGcide } from '../lib/corpus.js';
import { arg, argString, mulberry32, sqlString } from '../lib/bench-util.js';
import { queryClasses } from '../engine/engine.bench.js';
import { progress } from '../lib/progress.js';

async function exec(db: Database, sql: string): Promise<void> {
  const [r] = await db.sql(sql);
  if (r.kind === 'error') throw new Error(r.message);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

async function main() {
  const docs = loadGcide(arg('docs', 100_000));
  const perSet = arg('queries', 400);
  const rounds = arg('rounds', 7);
  const sets = rounds + 2;
  // a pool large enough that `sets` sets of distinct texts fit; the high-df class repeats, so oversample
  const pool = [...new Set(queryClasses(docs, Math.ceil((perSet * sets * 3) / 8)).flatMap((c) => c.queries))];
  const rng = mulberry32(42);
  for (let i = pool.length - 1; i > 0; i--) { const j = Math.floor(rng() * (i + 1)); [pool[i], pool[j]] = [pool[j], pool[i]]; }
  if (pool.length < perSet * sets) throw new Error(`only ${pool.length} distinct queries for ${sets} sets of ${perSet}`);
  const baseline = argString('baseline');
  type Open = typeof open;
  const builds: [string, Open][] = [['quarry', open]];
  if (baseline) builds.push(['baseline', ((await import(pathToFileURL(resolve(baseline, 'dist/src/index.js')).href)) as { open: Open }).open]);
  const dirs: string[] = [];
  try {
    const dbs: Database[] = [];
    for (const [name, openBuild] of builds) {
      const dir = mkdtempSync(join(tmpdir(), 'quarry-first-query-'));
      dirs.push(dir);
      const db = await openBuild(dir, { threads: 1 });
      await exec(db, `CREATE TABLE gcide (title text, body text, len uint) morphology='stem_en'`);
      for (let i = 0; i < docs.length; i += 1000) {
        progress.step(`first-query: ${name} loading ${i}`);
        const rows = docs.slice(i, i + 1000).map((d) => `(${d.id},${sqlString(d.title)},${sqlString(d.body)},${d.body.length})`);
        await exec(db, `INSERT INTO gcide (id, title, body, len) VALUES ${rows.join(',')}`);
      }
      await exec(db, 'OPTIMIZE INDEX gcide');
      dbs.push(db);
    }
    const run = async (db: Database, qs: string[]) => {
      const c0 = process.cpuUsage();
      for (const q of qs) await exec(db, `SELECT id, weight() FROM gcide WHERE MATCH(${sqlString(q)}) LIMIT 20`);
      const c = process.cpuUsage(c0);
      return (c.user + c.system) / qs.length;
    };
    const first = builds.map(() => [] as number[]);
    const again = builds.map(() => [] as number[]);
    for (let s = 0; s < sets; s++) {
      progress.step(`first-query: set ${s + 1} of ${sets}`);
      const qs = pool.slice(s * perSet, (s + 1) * perSet);
      const order = s % 2 ? [...dbs.keys()].reverse() : [...dbs.keys()];
      for (const b of order) {
        const a = await run(dbs[b], qs);
        const r = await run(dbs[b], qs);
        if (s >= 2) { first[b].push(a); again[b].push(r); }
      }
    }
    for (const db of dbs) await db.close();
    progress.clear();
    const runs = (xs: number[]) => xs.map((x) => Math.round(x)).join(' ');
    console.log(JSON.stringify(builds.map(([name], b) => ({
      build: name, docs: docs.length, queries: perSet, rounds,
      'first-time CPU us/query': median(first[b]), 'first-time runs': runs(first[b]),
      'repeated CPU us/query': median(again[b]), 'repeated runs': runs(again[b]),
      ...(b > 0 ? { 'first-time quarry / baseline': +(median(first[0]) / median(first[b])).toFixed(3) } : {}),
    })), null, 2));
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
