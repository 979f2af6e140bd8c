// bench/engine/select.bench.ts: the in-process query path (SQL parse, query parse, plan, WASM evaluate,
// page rows) in CPU time per query, which other load on a shared machine disturbs less than wall
// time. Loads N dict-gcide docs (stem_en), then runs every query class R times; reports CPU us per
// query per class, best round. Run: npx tsc -p tsconfig.json && node dist/bench/engine/select.bench.js
// [--docs N] [--queries M] [--rounds R]. Seed 42 (the engine benchmark's query classes).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from '../../src/index.js';
import { loadGcide } from '../lib/corpus.js';
import { arg, sqlString } from '../lib/bench-util.js';
import { queryClasses } from './engine.bench.js';

async function main() {
  const docs = loadGcide(arg('docs', 30_000));
  const rounds = arg('rounds', 3);
  const dir = mkdtempSync(join(tmpdir(), 'quarry-select-'));
  const db = await open(dir);
  try {
    await db.sql("CREATE TABLE gcide (title text, body text, len uint) morphology='stem_en'");
    for (let i = 0; i < docs.length; i += 1000) {
      const rows = docs.slice(i, i + 1000).map((d) => `(${d.id},${sqlString(d.title)},${sqlString(d.body)},${d.body.length})`);
      await db.sql(`INSERT INTO gcide (id, title, body, len) VALUES ${rows.join(',')}`);
    }
    const out: Record<string, number> = {};
    for (const cls of queryClasses(docs, arg('queries', 300))) {
      const sql = cls.queries.map((q) => `SELECT id, weight() FROM gcide WHERE MATCH(${sqlString(q)}) LIMIT 20`);
      let best = Infinity;
      for (let r = 0; r < rounds; r++) {
        const t0 = process.cpuUsage();
        for (const s of sql) await db.sql(s);
        const d = process.cpuUsage(t0);
        best = Math.min(best, (d.user + d.system) / sql.length);
      }
      out[cls.name] = best;
    }
    console.log(JSON.stringify({ docs: docs.length, cpuUsPerQuery: out }, null, 2));
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
