// bench/engine/segments.bench.ts: what a table's segment count costs each query. The same documents are held
// in process as tables of different segment layouts (merges held, so each layout stays as built), and
// the side-by-side's shuffled query mix (bench/engine/engine.bench.ts's classes, 20 hits) runs over each in
// turn, the order alternated per round; prints each layout's CPU microseconds per query (process CPU,
// every thread), median and range of the rounds. A layout is a segment count (equal segments) or sizes
// joined by '+', each ROWS or ROWSxCOUNT ("190000x5+10000x5": what the old merge policy left of a 1M
// load); `reopened` is one segment written by a checkpoint and loaded again from its file (the state a
// restarted server queries). Run: npm run bench -- segments [--docs N] [--synthetic] [--layouts L,L,...]
// [--threads T] [--queries M] [--rounds R]. Defaults: 100k dict-gcide, layouts 1,4,10,20,reopened,
// 1 thread (the protocol thread alone: no hand-over noise), 400 queries, 7 rounds. Seed 42.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open, type Database } from '../../src/index.js';
import type { RtIndex } from '../../src/index/rt-index.js';
import { loadGcide, type CorpusDoc } from '../lib/corpus.js';
import { arg, argString, mulberry32, sqlString } from '../lib/bench-util.js';
import { documentFrequencies, queryClasses, synthetic } from './engine.bench.js';
import { progress } from '../lib/progress.js';

const CREATE = (t: string) => `CREATE TABLE ${t} (title text, body text, len uint) morphology='stem_en'`;

/** The segment sizes of a layout over `n` documents; null for `reopened`. */
export function layoutSizes(layout: string, n: number): number[] | null {
  if (layout === 'reopened') return null;
  if (/^\d+$/.test(layout)) {
    const k = Number(layout);
    return Array.from({ length: k }, (_, i) => Math.floor((n * (i + 1)) / k) - Math.floor((n * i) / k));
  }
  const sizes = layout.split('+').flatMap((part) => {
    const [rows, count = '1'] = part.split('x');
    return Array<number>(Number(count)).fill(Number(rows));
  });
  if (sizes.some((s) => !(s > 0)) || sizes.reduce((a, b) => a + b, 0) !== n) throw new Error(`layout ${layout}: sizes must be positive and add up to ${n}`);
  return sizes;
}

const indexOf = (db: Database, table: string) =>
  (db.engine as unknown as { ctx: { catalog: { get(n: string): { index: RtIndex } } } }).ctx.catalog.get(table).index;

async function exec(db: Database, sql: string): Promise<void> {
  const [r] = await db.sql(sql);
  if (r.kind === 'error') throw new Error(r.message);
}

/** Loads `docs` into a new table, one INSERT per segment of `sizes`, merges held for good. */
async function loadLayout(db: Database, table: string, docs: CorpusDoc[], sizes: number[]): Promise<void> {
  await exec(db, CREATE(table));
  const idx = indexOf(db, table);
  idx.holdMerges(); // never released: the layout stays as built
  let at = 0;
  for (const size of sizes) {
    const rows = docs.slice(at, at + size).map((d) => `(${d.id},${sqlString(d.title)},${sqlString(d.body)},${d.body.length})`);
    await exec(db, `INSERT INTO ${table} (id, title, body, len) VALUES ${rows.join(',')}`);
    at += size;
  }
  if (idx.segments.length !== sizes.length) throw new Error(`${table}: ${idx.segments.length} segments, expected ${sizes.length}`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

async function main() {
  const n = arg('docs', 100_000);
  const docs = process.argv.includes('--synthetic') ? synthetic(documentFrequencies(loadGcide()), n) : loadGcide(n);
  const layouts = (argString('layouts') ?? '1,4,10,20,reopened').split(',');
  const threads = arg('threads', 1);
  const rounds = arg('rounds', 7);
  const rng = mulberry32(42);
  const queries = queryClasses(docs.slice(0, 100_000), Math.max(1, Math.floor(arg('queries', 400) / 8))).flatMap((c) => c.queries);
  for (let i = queries.length - 1; i > 0; i--) { const j = Math.floor(rng() * (i + 1)); [queries[i], queries[j]] = [queries[j], queries[i]]; }
  const dir = mkdtempSync(join(tmpdir(), 'quarry-segments-'));
  const table = (layout: string) => `l_${layout.replace(/\W/g, '_')}`;
  try {
    if (layouts.includes('reopened')) {
      // written by one open (OPTIMIZE: one segment; close checkpoints it), queried after the next
      progress.step('segments: the reopened table');
      const first = await open(dir, { threads });
      await loadLayout(first, table('reopened'), docs, [docs.length]);
      await first.close();
    }
    const db = await open(dir, { threads });
    for (const layout of layouts) {
      const sizes = layoutSizes(layout, docs.length);
      progress.step(`segments: loading layout ${layout}`);
      if (sizes) await loadLayout(db, table(layout), docs, sizes);
      else if (indexOf(db, table(layout)).segments.length !== 1) throw new Error('reopened: expected one segment');
    }
    const run = async (t: string) => {
      const c0 = process.cpuUsage();
      for (const q of queries) await exec(db, `SELECT id, weight() FROM ${t} WHERE MATCH(${sqlString(q)}) LIMIT 20`);
      const c = process.cpuUsage(c0);
      return (c.user + c.system) / queries.length;
    };
    progress.step('segments: warm-up');
    for (const layout of layouts) { await run(table(layout)); await run(table(layout)); }
    const cpu = new Map(layouts.map((l) => [l, [] as number[]]));
    for (let r = 0; r < rounds; r++) {
      progress.step(`segments: round ${r + 1} of ${rounds}`);
      for (const layout of r % 2 ? [...layouts].reverse() : layouts) cpu.get(layout)!.push(await run(table(layout)));
    }
    await db.close();
    progress.clear();
    const base = median(cpu.get(layouts[0])!);
    console.log(JSON.stringify(layouts.map((l) => ({
      layout: l, segments: layoutSizes(l, docs.length)?.length ?? 1, docs: docs.length, threads, queries: queries.length,
      'CPU us/query': median(cpu.get(l)!), 'CPU min': Math.min(...cpu.get(l)!), 'CPU max': Math.max(...cpu.get(l)!),
      [`vs ${layouts[0]}`]: median(cpu.get(l)!) / base,
    })), null, 2));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
