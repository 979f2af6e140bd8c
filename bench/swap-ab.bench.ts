// bench/swap-ab.bench.ts: the protocol-thread CPU of swapping a merged segment in (MergeScheduler
// #swapIn: the merged rows' ids, the doc map re-pointed at them, the blob placed), this build against
// a baseline build, alternated run by run in child processes. Each child loads `--parts` segments of
// `--rows` synthetic one-line documents (tiny blobs: the per-row work, not the blob copy, dominates),
// times mergeSegments over them (the merge thread's part, twice, the second counted), then OPTIMIZE
// (the same merge inline, then the swap): swap CPU = OPTIMIZE - merge. The swap grows with the doc map
// (its probes miss the caches), so the default is a 1.6M-row table. Work the swap leaves to later
// event-loop turns (the doc map's re-pointing in slices) is reported apart: its total and longest turn.
// Run: npm run bench -- swap-ab [--baseline DIR] [--parts 160] [--rows 10000] [--rounds 3]
// (DIR: a copy of a checkout with dist/ and build/; or node dist/bench/swap-ab.bench.js after npx tsc).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAlternated, processCpuMs } from './ab-children.js';
import { arg } from './bench-util.js';

/** In a child: the swap with the modules of the checkout at `root`. */
async function child(root: string): Promise<void> {
  const mod = (p: string) => import(join(root, 'dist', p));
  (await mod('src/engine/node-host.js')).installNodeHost();
  const { RtIndex } = await mod('src/index/rt-index.js');
  const { createTextPipeline } = await mod('src/text/text-pipeline.js');
  const { mergeSegments } = await mod('src/index/segment/segment-merger.js');
  const parts = arg('parts', 160);
  const rows = arg('rows', 10000);
  const schema = { fields: ['body'], attrs: [{ name: 'n', type: 'uint' }] };
  const pipeline = createTextPipeline({});
  const idx = new RtIndex(schema, { autoMerge: false });
  for (let b = 0, id = 1; b < parts; b++) {
    const batch = [];
    for (let i = 0; i < rows; i++, id++) batch.push({ docId: BigInt(id * 7 + 3), fields: [pipeline.indexField(`w${id % 5000} x${id % 77} y${id % 13}`)], attrs: [id % 1000] });
    idx.addBatch(batch);
  }
  const cpu = processCpuMs;
  mergeSegments(schema, idx.segments.slice());
  let c0 = cpu();
  mergeSegments(schema, idx.segments.slice());
  const merge = cpu() - c0;
  c0 = cpu();
  idx.optimize();
  const optimize = cpu() - c0;
  // work the swap left to later event-loop turns (segment-slots.ts re-points the doc map in slices):
  // its total, and the longest turn, what a request queued behind it waits at most
  let later = 0, longest = 0, quiet = 0, turns = 0;
  while (quiet < 3) {
    c0 = cpu();
    await new Promise((r) => setImmediate(r));
    const t = cpu() - c0;
    later += t;
    if (t >= 0.2) turns++;
    longest = Math.max(longest, t);
    quiet = t < 0.2 ? quiet + 1 : 0;
  }
  console.log(JSON.stringify({
    'merge CPU ms': Math.round(merge), 'OPTIMIZE CPU ms': Math.round(optimize), 'swap CPU ms': Math.round(optimize - merge),
    'later turns CPU ms': Math.round(later), 'longest turn ms': +longest.toFixed(1), 'busy turns': turns, segments: idx.segments.length,
  }));
}

runAlternated(fileURLToPath(import.meta.url), child);
