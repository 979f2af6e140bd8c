// bench/highlight/highlight-sql-ab.bench.ts: the whole SQL statement of the highlight bench's modes, in process (no
// protocol): `SELECT id, HIGHLIGHT() ... LIMIT 20` (search, document reads, HIGHLIGHT() setup and every
// document) and CALL SNIPPETS of the query's top-20 bodies (statement parse of the long texts, builder),
// this build against a baseline build (a copy of a checkout with dist/) in one process, each with its own
// table of the same documents (threads = 1), alternated round by round (A, B, B, A, ...): process CPU
// (user + system, every thread) per statement, median and first quartile of `--rounds` rounds of 5 passes
// over a class's 20 queries. On the loaded shared machine the server bench's per-block CPU moves 2-4x
// between rounds (and its first classes pay the JIT's compiles); this reads a 10% change.
// `--data-a DIR --data-b DIR` reuse tables loaded before (a quarry data directory holding table gcide of
// the same `--docs`; loaded there when missing, kept); otherwise both are loaded into a temporary folder.
// Run: npm run build && node dist/bench/highlight/highlight-sql-ab.bench.js --baseline DIR [--docs N] [--classes 7,2]
// [--modes sql,call] [--rounds 41] [--data-a DIR --data-b DIR]. Classes are bench/engine/engine.bench.ts queryClasses' indices.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { arg, argString, GCIDE_CREATE, gcideInserts } from '../lib/bench-util.js';
import { loadGcide, type CorpusDoc } from '../lib/corpus.js';
import { queryClasses } from '../engine/engine.bench.js';
import { callSnippets, highlightSql, searchSql } from './highlight-classes.js';

const PASSES = 5;

interface Db { sql(text: string): Promise<{ kind: string; message?: string; rows?: unknown[][] }[]>; close(): Promise<void> }

/** One build's embedded engine on `data`, the documents loaded there first when it holds no table yet. */
async function openBuild(root: string, data: string, docs: CorpusDoc[]): Promise<Db> {
  const fresh = !existsSync(data);
  const { open } = await import(pathToFileURL(`${root}/dist/src/index.js`).href);
  const db: Db = await open(data, { threads: 1 });
  if (fresh) {
    await db.sql(GCIDE_CREATE);
    for (const sql of gcideInserts(docs)) {
      const [r] = await db.sql(sql);
      if (r.kind === 'error') throw new Error(r.message);
    }
  }
  return db;
}

const sorted = (xs: number[]): number[] => [...xs].sort((a, b) => a - b);

export async function highlightSqlAbBench(): Promise<Record<string, string | number>[]> {
  const baseline = argString('baseline');
  if (!baseline) throw new Error('--baseline DIR is required');
  const docs = loadGcide(arg('docs', 100000));
  const byId = new Map(docs.map((d) => [d.id, d]));
  const classes = queryClasses(docs, arg('queries', 20));
  const tmp = mkdtempSync(join(tmpdir(), 'quarry-hl-sql-ab-'));
  const self = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
  const builds: [string, Db][] = [];
  try {
    builds.push(['quarry', await openBuild(self, argString('data-a') ?? join(tmp, 'a'), docs)]);
    builds.push(['baseline', await openBuild(resolve(baseline), argString('data-b') ?? join(tmp, 'b'), docs)]);
    const rows: Record<string, string | number>[] = [];
    const rounds = arg('rounds', 41);
    for (const ci of (argString('classes') ?? '7,2').split(',').map(Number)) {
      const qs = classes[ci].queries;
      // the same statements for both builds: the first build's top-20 bodies for CALL SNIPPETS
      const bodies = new Map<string, string[]>();
      for (const q of qs) {
        const [r] = await builds[0][1].sql(searchSql(q));
        bodies.set(q, (r.rows ?? []).map((x) => byId.get(Number(x[0]))?.body ?? ''));
      }
      for (const mode of (argString('modes') ?? 'sql,call').split(',')) {
        const stmts = qs.filter((q) => mode === 'sql' || bodies.get(q)!.length)
          .map((q) => (mode === 'sql' ? highlightSql(q) : callSnippets(bodies.get(q)!, q)));
        const pass = async (db: Db): Promise<void> => {
          for (const s of stmts) {
            const [x] = await db.sql(s);
            if (x.kind === 'error') throw new Error(x.message);
          }
        };
        for (const [, db] of builds) for (let k = 0; k < 30; k++) await pass(db); // JIT warm-up
        const us = builds.map((): number[] => []);
        for (let r = 0; r < rounds; r++) {
          for (const bi of r % 2 ? [1, 0] : [0, 1]) {
            const c0 = process.cpuUsage();
            for (let k = 0; k < PASSES; k++) await pass(builds[bi][1]);
            const c = process.cpuUsage(c0);
            us[bi].push((c.user + c.system) / (PASSES * stmts.length));
          }
        }
        const row: Record<string, string | number> = { class: classes[ci].name, mode };
        builds.forEach(([name], bi) => {
          const s = sorted(us[bi]);
          row[`${name} CPU us median`] = +s[s.length >> 1].toFixed(1);
          row[`${name} CPU us q1`] = +s[s.length >> 2].toFixed(1);
        });
        row['quarry / baseline'] = +(sorted(us[0])[rounds >> 1] / sorted(us[1])[rounds >> 1]).toFixed(3);
        rows.push(row);
      }
    }
    return rows;
  } finally {
    for (const [, db] of builds) await db.close().catch(() => undefined);
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('highlight-sql-ab.bench.js')) {
  highlightSqlAbBench().then((r) => console.log(JSON.stringify(r, null, 2))).catch((e) => { console.error(e); process.exitCode = 1; });
}
