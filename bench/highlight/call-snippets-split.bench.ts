// bench/highlight/call-snippets-split.bench.ts: where a CALL SNIPPETS statement of the highlight bench spends its CPU,
// in process (no protocol), per query class: the whole statement (the bench's top-20 bodies of each query),
// the same statement naming a table that does not exist (SQL lexer + parser + options, then the error:
// everything before the snippet builder), and the SQL lexer alone over the statement text. The difference
// between the first two is the snippet builder over the statement's texts. Process CPU (user + system, every
// thread) per statement, median of `--rounds` rounds of `--passes` passes, the three interleaved in each
// round (the shared machine's load moves all three alike). It answers whether the statement's long string
// literals (6-80 kB a statement) or the builder bound CALL SNIPPETS. S15 (2026-11-27 15:08, load average
// 22-25, --data reused, 100k gcide), high/mid/low df, AND2, AND3, OR, phrase, @title: CPU us a statement
// 732/429/140/655/973/480/318/138, before the builder 26/23/19/16/20/15/13/11 (lexer 11/5/2/6/8/5/3/2),
// builder share 0.97/0.95/0.87/0.98/0.98/0.97/0.96/0.92: the builder bounds every class (its scan and the
// core's passage pick; the pick is 37% of an @title statement, whose ~580-character bodies exceed the 256
// limit), so a faster statement parse can win at most the 3-13% before it.
// `--data DIR` reuses (or loads once and keeps) a quarry data directory holding table gcide of `--docs`.
// Run: npm run build && node dist/bench/highlight/call-snippets-split.bench.js [--docs 100000] [--classes 0,...,7]
// [--rounds 5] [--passes 10] [--data DIR]. Classes are bench/engine/engine.bench.ts queryClasses' indices.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from '../../src/index.js';
import { tokenize } from '../../src/sql/lexer.js';
import { arg, argString, GCIDE_CREATE, gcideInserts } from '../lib/bench-util.js';
import { loadGcide } from '../lib/corpus.js';
import { queryClasses } from '../engine/engine.bench.js';
import { callSnippets, searchSql } from './highlight-classes.js';

/** What this bench reads of the embedded engine's results. */
interface Db { sql(text: string): Promise<{ kind: string; message?: string; rows?: unknown[][] }[]>; close(): Promise<void> }

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** CPU us per item of `run` over `items`, `passes` times. */
async function cpuPer<T>(items: T[], passes: number, run: (x: T) => unknown): Promise<number> {
  const c0 = process.cpuUsage();
  for (let k = 0; k < passes; k++) for (const x of items) await run(x);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / (passes * items.length);
}

async function statement(db: Db, sql: string, wantError: boolean): Promise<void> {
  const [r] = await db.sql(sql);
  if ((r.kind === 'error') !== wantError) throw new Error(`unexpected ${r.kind}: ${r.kind === 'error' ? r.message : sql.slice(0, 80)}`);
}

export async function callSnippetsSplitBench(): Promise<Record<string, string | number>[]> {
  const docs = loadGcide(arg('docs', 100000));
  const byId = new Map(docs.map((d) => [d.id, d]));
  const classes = queryClasses(docs, arg('queries', 20));
  const given = argString('data');
  const tmp = given ? null : mkdtempSync(join(tmpdir(), 'quarry-call-split-'));
  const data = given ?? join(tmp!, 'data');
  const fresh = !existsSync(data);
  const db: Db = await open(data, { threads: 1 });
  try {
    if (fresh) {
      await db.sql(GCIDE_CREATE);
      for (const sql of gcideInserts(docs)) await statement(db, sql, false);
    }
    const rounds = arg('rounds', 5);
    const passes = arg('passes', 10);
    const rows: Record<string, string | number>[] = [];
    const wanted = argString('classes')?.split(',').map(Number) ?? classes.map((_, i) => i);
    // every class's statements first, then one warm-up over all of them: a class measured straight after
    // the open read 3x (low df 435 us, 140-175 after another class), most likely the table's work after
    // opening, which process CPU counts (every thread)
    const sets: { ci: number; stmts: string[]; texts: number; unknown: string[] }[] = [];
    for (const ci of wanted) {
      const stmts: string[] = [];
      let texts = 0;
      for (const q of classes[ci].queries) {
        const [r] = await db.sql(searchSql(q));
        const bodies = (r.rows ?? []).map((x) => byId.get(Number(x[0]))?.body ?? '');
        texts += bodies.length;
        if (bodies.length) stmts.push(callSnippets(bodies, q));
      }
      sets.push({ ci, stmts, texts, unknown: stmts.map((s) => s.replace(", 'gcide', ", ", 'no_such_table', ")) });
    }
    const whole = (s: string) => statement(db, s, false);
    const front = (s: string) => statement(db, s, true);
    for (const { stmts, unknown } of sets) {
      // JIT warm-up of all three
      await cpuPer(stmts, 10, whole);
      await cpuPer(unknown, 10, front);
      await cpuPer(stmts, 10, tokenize);
    }
    for (const { ci, stmts, texts, unknown } of sets) {
      const all: number[] = [], parse: number[] = [], lex: number[] = [];
      for (let r = 0; r < rounds; r++) {
        all.push(await cpuPer(stmts, passes, whole));
        parse.push(await cpuPer(unknown, passes, front));
        lex.push(await cpuPer(stmts, passes, tokenize));
      }
      const a = median(all), p = median(parse);
      rows.push({
        class: classes[ci].name, statements: stmts.length, 'texts a statement': +(texts / stmts.length).toFixed(1),
        'chars a statement': Math.round(stmts.reduce((n, s) => n + s.length, 0) / stmts.length),
        'CPU us a statement': +a.toFixed(1), 'before the builder us': +p.toFixed(1), 'lexer us': +median(lex).toFixed(1),
        'builder share': +((a - p) / a).toFixed(3),
      });
    }
    return rows;
  } finally {
    await db.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('call-snippets-split.bench.js')) {
  callSnippetsSplitBench().then((r) => console.log(JSON.stringify(r, null, 2))).catch((e) => { console.error(e); process.exitCode = 1; });
}
