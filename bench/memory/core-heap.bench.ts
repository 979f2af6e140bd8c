// bench/memory/core-heap.bench.ts: how the core's linear memory grows over a load, against what it holds. The
// engine in this process takes N synthetic documents (1000-row INSERTs, stem_en, as bench/memory), and
// every `--every` batches, then after the merges and the idle compaction (whenIdle), a line gives the
// wasm memory's size and resident pages (PSS of the wasm mappings, bench/lib/smaps.ts), the allocator's
// account (Core.heapStats: bytes in used and free blocks, the largest free block), the segments' blob
// bytes and their count. A wasm memory never gives pages back: resident minus used is what merges left
// free inside it. Run: node dist/bench/memory/core-heap.bench.js [--docs N] [--every K]. Seed 42.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from '../../src/index.js';
import type { RtIndex } from '../../src/index/rt-index.js';
import { loadGcide } from '../lib/corpus.js';
import { arg, sqlString } from '../lib/bench-util.js';
import { documentFrequencies, syntheticBatches } from '../engine/engine.bench.js';
import { breakdown } from '../lib/smaps.js';

const MiB = 1024 * 1024;
const mib = (v: number) => Math.round((v / MiB) * 10) / 10;

function line(label: string, index: RtIndex): Record<string, unknown> {
  const h = index.core.heapStats();
  const blobs = index.segments.reduce((n, s) => n + s.blobLen, 0);
  return { at: label, memory: mib(h.memory), wasmPss: mib(breakdown('self').wasm), used: mib(h.used), free: mib(h.free),
    largestFree: mib(h.largestFree), topFree: mib(h.topFree), blobs: mib(blobs), segments: index.segments.length };
}

async function main() {
  const n = arg('docs', 1_000_000);
  const every = arg('every', 100);
  const dir = mkdtempSync(join(tmpdir(), 'quarry-core-heap-'));
  try {
    const db = await open(dir);
    await db.sql("CREATE TABLE gcide (title text, body text, len uint) morphology='stem_en'");
    const engine = db.engine as unknown as { ctx: { catalog: { get(n: string): { index: RtIndex } } } };
    const index = engine.ctx.catalog.get('gcide').index;
    let batches = 0;
    for (const batch of syntheticBatches(documentFrequencies(loadGcide()), n)) {
      const rows = batch.map((d) => `(${d.id},${sqlString(d.title)},${sqlString(d.body)},${d.body.length})`);
      const [r] = await db.sql(`INSERT INTO gcide (id, title, body, len) VALUES ${rows.join(',')}`);
      if (r.kind === 'error') throw new Error(r.message);
      if (++batches % every === 0) console.log(JSON.stringify(line(`${batches}k`, index)));
    }
    await index.whenIdle();
    console.log(JSON.stringify(line('idle', index)));
    await db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
