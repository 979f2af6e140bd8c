// bench/insert/insert-order.bench.ts: does the insert bench's HTTP row pay for running second? `npm run bench -- insert`
// runs quarry's MySQL row (1, 100 and 1000 rows an INSERT, 16 single-row clients, queries under writes: ~46k
// rows) and then its HTTP row on the same server and table, while Sphinx gets a fresh server. This runs that
// order ('after-mysql') and the HTTP row alone on a fresh server ('fresh'), alternated, and prints the HTTP
// row's figures each time (the 16-client rate, server CPU and protocol-thread CPU per 1000 documents) with the
// table's segments when its 16-client phase ends.
// Run: node dist/bench/insert/insert-order.bench.js [--docs 20000] [--rounds 2]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg } from '../lib/bench-util.js';
import { loadGcide } from '../lib/corpus.js';
import { peerRow } from './insert.bench.js';
import { startQuarry } from '../side-by-side/side-by-side.bench.js';

const CREATE = "CREATE TABLE gcide (title text, body text, len uint) morphology='stem_en'";
const docs = loadGcide(arg('docs', 20_000));
const rounds = arg('rounds', 2);
const KEYS = ['1 row/INSERT, 16 clients docs/s', '1 row/INSERT, 16 clients server CPU ms/1000 docs', '1 row/INSERT, 16 clients protocol thread CPU ms/1000 docs'];

async function run(afterMysql: boolean): Promise<Record<string, unknown>> {
  const base = mkdtempSync(join(tmpdir(), 'quarry-insert-order-'));
  try {
    const quarry = await startQuarry(join(base, 'quarry'));
    try {
      const c = await quarry.overHttp.open();
      await c.exec(CREATE);
      await c.close();
      const out: Record<string, unknown> = { order: afterMysql ? 'after-mysql' : 'fresh', load: Number((await import('node:os')).loadavg()[0]!.toFixed(1)) };
      if (afterMysql) {
        const m = await peerRow(quarry.overMysql, docs, 0);
        out['mysql 16 clients docs/s'] = Math.round(m[KEYS[0]!] as number);
      }
      // the same id ranges as the insert bench's HTTP row (runNo 1)
      const h = await peerRow(quarry.overHttp, docs, 1);
      out['http 16 clients docs/s'] = Math.round(h[KEYS[0]!] as number);
      out['http 16 clients server CPU ms/1000'] = h[KEYS[1]!];
      out['http 16 clients protocol thread ms/1000'] = h[KEYS[2]!];
      out['segments after'] = await quarry.overHttp.segments?.('gcide');
      return out;
    } finally {
      await quarry.stop();
    }
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

const rows: Record<string, unknown>[] = [];
for (let r = 0; r < rounds; r++) for (const afterMysql of [true, false]) rows.push(await run(afterMysql));
console.log(JSON.stringify(rows, null, 2));
