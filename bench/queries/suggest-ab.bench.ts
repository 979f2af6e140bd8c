// bench/queries/suggest-ab.bench.ts: CALL SUGGEST / CALL QSUGGEST over a 100k-document gcide table (min_infix_len=2,
// as suggestions need), this build against `--baseline DIR` (a checkout with its own dist/), alternated in
// child processes (ab-children.ts). Each word runs `--queries` times after 2 warm-ups; a child prints the
// process CPU ms and wall ms a call per class and a digest of every answer (the two builds must agree).
// Run: npm run build && node dist/bench/queries/suggest-ab.bench.js [--docs N] [--queries Q] [--rounds R] [--baseline DIR]
import { mkdtempSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { processCpuMs, runAlternated } from '../lib/ab-children.js';
import { arg, gcideInserts } from '../lib/bench-util.js';
import { loadGcide } from '../lib/corpus.js';

/** Misspellings of short, mid and long words, and a word of no letters the dictionary has. */
const CALLS: Record<string, string[]> = {
  short: ["CALL SUGGEST('teh', 'gcide')", "CALL SUGGEST('hous', 'gcide')", "CALL QSUGGEST('a wrod', 'gcide')"],
  mid: ["CALL SUGGEST('dictionery', 'gcide')", "CALL SUGGEST('langauge', 'gcide')", "CALL QSUGGEST('the beautifull', 'gcide')"],
  long: ["CALL SUGGEST('incomprehensibel', 'gcide')", "CALL SUGGEST('electromagnetisme', 'gcide', 2 as max_edits)"],
  options: ["CALL SUGGEST('plantt', 'gcide', 10 as limit, 2 as delta_len)", "CALL SUGGEST('zzzqqx', 'gcide')"],
};

async function child(root: string): Promise<void> {
  const { open } = (await import(pathToFileURL(join(root, 'dist/src/index.js')).href)) as typeof import('../../src/index.js');
  const docs = arg('docs', 100_000);
  const queries = arg('queries', 10);
  const dir = mkdtempSync(join(tmpdir(), 'quarry-suggest-'));
  const db = await open(dir);
  try {
    await db.sql("CREATE TABLE gcide (title text, body text, len uint) morphology='stem_en' min_infix_len='2'");
    for (const ins of gcideInserts(loadGcide(docs))) await db.sql(ins);
    // merged into its final segments first: a background merge would run on the other core during the calls
    await db.sql('OPTIMIZE TABLE gcide');
    const out: Record<string, number | string> = {};
    const digest = createHash('sha1');
    for (const [name, calls] of Object.entries(CALLS)) {
      for (const sql of calls) for (let i = 0; i < 2; i++) digest.update(JSON.stringify(await db.sql(sql)));
      const cpu0 = processCpuMs(), t0 = performance.now();
      for (let i = 0; i < queries; i++) for (const sql of calls) await db.sql(sql);
      const n = queries * calls.length;
      out[`${name}CpuMs`] = Number(((processCpuMs() - cpu0) / n).toFixed(3));
      out[`${name}WallMs`] = Number(((performance.now() - t0) / n).toFixed(3));
    }
    out.answers = digest.digest('hex').slice(0, 12);
    console.log(JSON.stringify(out));
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

runAlternated(fileURLToPath(import.meta.url), child);
