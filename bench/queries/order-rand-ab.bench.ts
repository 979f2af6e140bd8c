// bench/queries/order-rand-ab.bench.ts: ORDER BY RAND() LIMIT 20 at N documents (default 100k) in process, this build
// against `--baseline DIR` (a checkout with its own dist/), alternated in child processes (ab-children.ts).
// A full scan and a full-text query matching about half the rows, with OPTION rand_seed (one seed, so each
// query orders alike) and without (a fresh seed a query, as an application's "random pick" runs), and a
// numeric expression key for comparison, and RAND() inside formula keys. Each query runs `--queries` times after
// 10 warm-ups; a child prints the process CPU ms and wall ms a query (a query that fails throws).
// Run: npm run build && node dist/bench/queries/order-rand-ab.bench.js [--docs N] [--queries Q] [--rounds R] [--baseline DIR]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { runAlternated, timeQueries } from '../lib/ab-children.js';
import { arg } from '../lib/bench-util.js';

const QUERIES: Record<string, string> = {
  scanSeeded: 'SELECT id FROM t ORDER BY RAND() LIMIT 20 OPTION rand_seed=1234',
  scanFresh: 'SELECT id FROM t ORDER BY RAND() LIMIT 20',
  matchSeeded: "SELECT id FROM t WHERE MATCH('even') ORDER BY RAND() LIMIT 20 OPTION rand_seed=1234",
  // an expression key of the core's formula code: its merge values are read in place, not copied
  exprKey: 'SELECT id, a * 2 + 1 AS k FROM t ORDER BY k DESC LIMIT 20',
  // RAND() inside a formula key: the core's RAND_ID in the formula code (sort-code.ts), formerly a host key
  randFormula: 'SELECT id, RAND() * 2 + a AS k FROM t ORDER BY k ASC LIMIT 20 OPTION rand_seed=1234',
  randFormulaMatch: "SELECT id, if(RAND() > 0.5, a, -a) AS k FROM t WHERE MATCH('even') ORDER BY k DESC LIMIT 20",
};

async function child(root: string): Promise<void> {
  const { open } = (await import(pathToFileURL(join(root, 'dist/src/index.js')).href)) as typeof import('../../src/index.js');
  const docs = arg('docs', 100_000);
  const queries = arg('queries', 20);
  const dir = mkdtempSync(join(tmpdir(), 'quarry-order-rand-'));
  const db = await open(dir);
  try {
    await db.sql('CREATE TABLE t (title text, a int)');
    for (let i = 0; i < docs; i += 5000) {
      const values = Array.from({ length: Math.min(5000, docs - i) }, (_, j) => `(${i + j + 1},'${(i + j) % 2 ? 'odd' : 'even'} row',${(i + j) % 97})`);
      await db.sql(`INSERT INTO t (id, title, a) VALUES ${values.join(',')}`);
    }
    await db.sql('OPTIMIZE TABLE t');
    console.log(JSON.stringify(await timeQueries(db, QUERIES, queries, 10)));
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

runAlternated(fileURLToPath(import.meta.url), child);
