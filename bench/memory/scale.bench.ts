// bench/memory/scale.bench.ts: how quarry's memory, load time and query latency grow with the table, for sizing
// 10M documents (issue 16): the engine in this process (open(), 1000-row INSERTs, stem_en), the seeded
// synthetic corpus of engine.bench generated batch by batch (never all in memory, so 10M fits), then
// after merges, a checkpoint and a full GC: bytes per document of the WASM core (linear memory and live
// segment blobs), lmdb's mapped pages, the JS heap, the process's PSS; then p50/p99 of engine.bench's
// query classes. Run it at two sizes and extrapolate per document:
// npm run bench -- scale --docs 1000000 [--queries 200]. Run as `MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072
// MALLOC_TRIM_THRESHOLD_=131072 node dist/bench/memory/scale.bench.js ...` for the server's malloc tuning.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { open } from '../../src/index.js';
import type { RtIndex } from '../../src/index/rt-index.js';
import { arg, diskBytes, percentile, sqlString } from '../lib/bench-util.js';
import { loadGcide, type CorpusDoc } from '../lib/corpus.js';
import { documentFrequencies, queryClasses, syntheticBatches } from '../engine/engine.bench.js';
import { breakdown, rollup } from '../lib/smaps.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MiB = 1024 * 1024;

async function main(): Promise<void> {
  const n = arg('docs', 1_000_000);
  const nQueries = arg('queries', 200);
  const vocab = documentFrequencies(loadGcide());
  const dir = mkdtempSync(join(tmpdir(), 'quarry-scale-'));
  try {
    const db = await open(dir);
    await db.sql("CREATE TABLE gcide (title text, body text, len uint) morphology='stem_en'");
    const sample: CorpusDoc[] = [];
    const t0 = performance.now();
    let done = 0;
    for (const batch of syntheticBatches(vocab, n)) {
      if (sample.length < 100_000) sample.push(...batch);
      const rows = batch.map((d) => `(${d.id},${sqlString(d.title)},${sqlString(d.body)},${d.body.length})`);
      const [r] = await db.sql(`INSERT INTO gcide (id, title, body, len) VALUES ${rows.join(',')}`);
      if (r.kind === 'error') throw new Error(r.message);
      done += batch.length;
      if (done % 500_000 === 0) console.error(`${done} docs, ${Math.round((performance.now() - t0) / 1000)} s, rss ${Math.round(process.memoryUsage().rss / MiB)} MiB`);
    }
    const loadSeconds = (performance.now() - t0) / 1000;
    const engine = db.engine as unknown as { ctx: { catalog: { get(n: string): { index: RtIndex } } }; checkpoints: { runOnce(): Promise<void> } };
    const index = engine.ctx.catalog.get('gcide').index;
    await index.whenMerged();
    const mergedSeconds = (performance.now() - t0) / 1000;
    await engine.checkpoints.runOnce();
    for (let i = 0; i < 3; i++) gc();
    let live = 0;
    for (const seg of index.segments) live += seg.blobLen;
    const parts = breakdown('self');
    const mem = {
      processPss: rollup('self').Pss, wasmLinearMemory: index.core.exports.memory.buffer.byteLength, wasmLiveSegments: live,
      lmdbMappedPss: parts.lmdb, jsHeapUsed: getHeapStatistics().used_heap_size, mallocHeapPss: parts.mallocHeap,
    };
    // queries after the load, one at a time
    const queries = [];
    for (const cls of queryClasses(sample, nQueries)) {
      const times: number[] = [];
      for (const q of cls.queries) {
        const s = performance.now();
        const [r] = await db.sql(`SELECT id, weight() FROM gcide WHERE MATCH(${sqlString(q)}) LIMIT 20`);
        times.push(performance.now() - s);
        if (r.kind === 'error') throw new Error(`${q}: ${r.message}`);
      }
      times.sort((a, b) => a - b);
      queries.push({ class: cls.name, p50ms: +percentile(times, 50).toFixed(2), p99ms: +percentile(times, 99).toFixed(2) });
    }
    await db.close();
    const disk = diskBytes(dir);
    const perDoc = (v: number) => Math.round(v / n);
    console.log(JSON.stringify({
      bench: 'scale', seed: 42, docs: n, segments: index.segments.length, loadSeconds: Math.round(loadSeconds), docsPerSec: Math.round(n / loadSeconds),
      mergedSeconds: Math.round(mergedSeconds),
      mib: Object.fromEntries(Object.entries({ ...mem, disk }).map(([k, v]) => [k, Math.round(v / MiB)])),
      bytesPerDoc: Object.fromEntries(Object.entries({ ...mem, disk }).map(([k, v]) => [k, perDoc(v)])),
      queries,
    }, null, 2));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
