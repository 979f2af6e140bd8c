// bench/store/checkpoint.bench.ts: what a checkpoint costs once a table is big: load N dict-gcide docs
// (1000-row INSERTs, stem_en), close (the first, full checkpoint), then R rounds of reopen, one more
// 1000-row INSERT and close, timing each close: the checkpoint of a small change to a big table, the
// common case every 10 s under steady writes. Also reports segment-file bytes each close wrote.
// Run: npx tsc -p tsconfig.json && node dist/bench/store/checkpoint.bench.js [--docs N] [--rounds R]
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open, type Database } from '../../src/index.js';
import { loadGcide, type CorpusDoc } from '../lib/corpus.js';
import { arg, sqlString } from '../lib/bench-util.js';

const BATCH = 1000;

async function insert(db: Database, docs: CorpusDoc[]): Promise<void> {
  const rows = docs.map((d) => `(${d.id},${sqlString(d.title)},${sqlString(d.body)},${d.body.length})`);
  const [r] = await db.sql(`INSERT INTO gcide (id, title, body, len) VALUES ${rows.join(',')}`);
  if (r.kind === 'error') throw new Error(r.message);
}

/** Segment files under `dir` with their sizes, by path. */
function segmentFiles(dir: string, out = new Map<string, number>()): Map<string, number> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) segmentFiles(p, out);
    else if (e.name.startsWith('seg-')) out.set(p, statSync(p).size);
  }
  return out;
}

function newBytes(before: Map<string, number>, after: Map<string, number>): number {
  let n = 0;
  for (const [p, size] of after) if (!before.has(p)) n += size;
  return n;
}

async function timedClose(db: Database, dir: string): Promise<{ ms: number; bytes: number }> {
  const before = segmentFiles(dir);
  const t0 = performance.now();
  await db.close();
  return { ms: performance.now() - t0, bytes: newBytes(before, segmentFiles(dir)) };
}

async function main() {
  const nDocs = arg('docs', 100_000);
  const rounds = arg('rounds', 3);
  const docs = loadGcide(nDocs + rounds * BATCH);
  const dir = mkdtempSync(join(tmpdir(), 'quarry-cp-bench-'));
  try {
    let db = await open(dir);
    await db.sql("CREATE TABLE gcide (title text, body text, len uint) morphology='stem_en'");
    for (let i = 0; i < nDocs; i += BATCH) await insert(db, docs.slice(i, i + BATCH));
    const full = await timedClose(db, dir);
    const small = [];
    for (let k = 0; k < rounds; k++) {
      db = await open(dir);
      await insert(db, docs.slice(nDocs + k * BATCH, nDocs + (k + 1) * BATCH));
      small.push(await timedClose(db, dir));
    }
    console.log(JSON.stringify({
      docs: nDocs, fullCheckpointMs: full.ms, fullBytes: full.bytes,
      smallChangeCheckpointMs: small.map((s) => s.ms), smallChangeBytes: small.map((s) => s.bytes),
    }, null, 2));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
