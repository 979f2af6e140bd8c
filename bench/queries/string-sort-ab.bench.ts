// bench/queries/string-sort-ab.bench.ts: queries over a STRING attribute (ORDER BY, GROUP BY, = and IN filters) at
// N documents (default 100k) in process, this build against `--baseline DIR` (a checkout with its own
// dist/), alternated in child processes (ab-children.ts). Strings: two words of mixed case from 200, so
// many differ only in case (the collation, libc_ci by default, folds those together). Each query runs
// `--queries` times after 3 warm-ups; a child prints the process CPU ms and wall ms a query.
// Run: npm run build && node dist/bench/queries/string-sort-ab.bench.js [--docs N] [--queries Q] [--rounds R] [--baseline DIR]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { runAlternated, timeQueries } from '../lib/ab-children.js';
import { arg } from '../lib/bench-util.js';

const QUERIES: Record<string, string> = {
  orderBy: 'SELECT id, s FROM t ORDER BY s ASC LIMIT 20',
  groupBy: 'SELECT s, COUNT(*) FROM t GROUP BY s ORDER BY COUNT(*) DESC LIMIT 20',
  equals: "SELECT id FROM t WHERE s = 'Word7 word9' LIMIT 20",
  inList: "SELECT id FROM t WHERE s IN ('word1 word2', 'WORD3 word4', 'word5 Word6') LIMIT 20",
};

function value(i: number, rnd: () => number): string {
  const w = () => {
    const n = Math.floor(rnd() * 200);
    const c = rnd();
    return c < 0.6 ? `word${n}` : c < 0.8 ? `Word${n}` : `WORD${n}`;
  };
  return i % 2 ? `${w()} ${w()}` : `${w()} ${w()}`;
}

async function child(root: string): Promise<void> {
  const { open } = (await import(pathToFileURL(join(root, 'dist/src/index.js')).href)) as typeof import('../../src/index.js');
  const docs = arg('docs', 100_000);
  const queries = arg('queries', 20);
  const dir = mkdtempSync(join(tmpdir(), 'quarry-string-sort-'));
  const db = await open(dir);
  try {
    let seed = 42;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    await db.sql('CREATE TABLE t (title text, s string)');
    for (let i = 0; i < docs; i += 5000) {
      const values = Array.from({ length: Math.min(5000, docs - i) }, (_, j) => `(${i + j + 1},'x','${value(i + j, rnd)}')`);
      await db.sql(`INSERT INTO t (id, title, s) VALUES ${values.join(',')}`);
    }
    await db.sql('OPTIMIZE TABLE t');
    console.log(JSON.stringify(await timeQueries(db, QUERIES, queries, 3)));
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

runAlternated(fileURLToPath(import.meta.url), child);
