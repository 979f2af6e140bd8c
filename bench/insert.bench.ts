// bench/insert.bench.ts: write throughput with multi-row INSERTs of 1, 100 and 1000 rows, quarry over
// the MySQL protocol and over HTTP next to Sphinx 2.2.11 over SphinxQL, same run, dict-gcide documents.
// Each statement is acknowledged only when durable (quarry: lmdb fsync; Sphinx: binlog_flush=1).
// Run: npm run bench -- insert [--docs N]. Seed-free: documents in corpus order.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadGcide, type CorpusDoc } from './corpus.js';
import { arg, sqlString } from './bench-util.js';
import { sphinxPeer, startQuarry, type Peer } from './side-by-side.bench.js';

const SIZES = [1, 100, 1000];
const CREATE = "CREATE TABLE gcide (title text, body text, len uint) morphology='stem_en'";

async function insertRun(peer: Peer, docs: CorpusDoc[], rowsPer: number, idBase: number): Promise<number> {
  const conn = await peer.open();
  // Small statements are slow one by one: cap the count so each size runs a few seconds at most.
  const n = Math.min(docs.length, rowsPer === 1 ? 2000 : docs.length);
  const t0 = performance.now();
  for (let i = 0; i < n; i += rowsPer) {
    const rows = docs.slice(i, Math.min(n, i + rowsPer)).map((d) => `(${idBase + d.id},${sqlString(d.title)},${sqlString(d.body)},${d.body.length})`);
    await conn.exec(`INSERT INTO gcide (id, title, body, len) VALUES ${rows.join(',')}`);
  }
  const s = (performance.now() - t0) / 1000;
  await conn.close();
  return n / s;
}

export async function insertBench() {
  const docs = loadGcide(arg('docs', 20_000));
  const base = mkdtempSync(join(tmpdir(), 'quarry-insert-'));
  const rows: Record<string, unknown>[] = [];
  try {
    const quarry = await startQuarry(join(base, 'quarry'));
    const c = await quarry.overHttp.open();
    await c.exec(CREATE);
    await c.close();
    for (const peer of [quarry.overMysql, quarry.overHttp]) {
      const row: Record<string, unknown> = { peer: peer.name };
      for (const size of SIZES) row[`${size} row(s)/INSERT docs/s`] = await insertRun(peer, docs, size, (rows.length * 10 + size) * 1_000_000);
      rows.push(row);
    }
    await quarry.stop();
    const sphinx = await sphinxPeer(join(base, 'sphinx'));
    const row: Record<string, unknown> = { peer: sphinx.name };
    for (const size of SIZES) row[`${size} row(s)/INSERT docs/s`] = await insertRun(sphinx, docs, size, (20 + size) * 1_000_000);
    rows.push(row);
    await sphinx.stop();
    return rows;
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
