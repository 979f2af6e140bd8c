// bench/engine/merge-ab.bench.ts: the CPU of one background merge as a 1000-row load makes them (dict-gcide,
// morphology='stem_en', `--parts` segments of `--rows` documents each, one segment per batch, merged into
// one by mergeSegments, the merge thread's work), this build against a baseline build, alternated run by
// run in child processes (the only fair comparison on a shared machine). Each child builds the segments
// once, merges them `--repeat` times and reports CPU ms per merge (process.cpuUsage; the first merge, while
// V8 compiles, not counted) and the merged segment's terms, bytes and md5 (blob and dictionary; equal
// across builds unless the format changed).
// Run: npm run bench -- merge-ab [--baseline DIR] [--parts 10] [--rows 1000] [--repeat 5] [--rounds 3]
// (DIR: a copy of a checkout with dist/ and build/; or node dist/bench/engine/merge-ab.bench.js after npx tsc).
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAlternated, processCpuMs } from '../lib/ab-children.js';
import { arg } from '../lib/bench-util.js';

/** The md5 of a merged segment's blob and dictionary (equal across builds for a pure speed-up). */
function md5Of(built: { blob: Uint8Array; terms: readonly string[] }): string {
  return createHash('md5').update(built.blob).update(built.terms.join('\n')).digest('hex').slice(0, 12);
}

/** In a child: the merges with the modules of the checkout at `root`. */
async function child(root: string): Promise<void> {
  const mod = (p: string) => import(join(root, 'dist', p));
  (await mod('src/engine/node-host.js')).installNodeHost(); // that checkout's WASM core, as its server loads it
  const { RtIndex } = await mod('src/index/rt-index.js');
  const { createTextPipeline } = await mod('src/text/text-pipeline.js');
  const { mergeSegments } = await mod('src/index/segment/segment-merger.js');
  const { loadGcide } = await import('../lib/corpus.js');
  const parts = arg('parts', 10);
  const rows = arg('rows', 1000);
  const repeat = arg('repeat', 5);
  const schema = { fields: ['title', 'body'], attrs: [{ name: 'len', type: 'uint' }] };
  const pipeline = createTextPipeline({ morphology: 'stem_en' });
  const inputs = loadGcide(parts * rows).map((d) => ({
    docId: BigInt(d.id), fields: [pipeline.indexField(d.title), pipeline.indexField(d.body)], attrs: [d.body.length],
  }));
  const idx = new RtIndex(schema, { autoMerge: false });
  for (let i = 0; i < inputs.length; i += rows) idx.addBatch(inputs.slice(i, i + rows));
  const segs = idx.segments.slice();
  const cpu = processCpuMs;
  let ms = 0;
  let out = { terms: 0, bytes: 0, md5: '' };
  for (let r = 0; r <= repeat; r++) {
    const c0 = cpu();
    const built = mergeSegments(schema, segs);
    if (r > 0) ms += cpu() - c0;
    out = { terms: built.terms.length, bytes: built.blob.length, md5: md5Of(built) };
  }
  console.log(JSON.stringify({ 'CPU ms per merge': Math.round((ms / repeat) * 10) / 10, ...out }));
}

runAlternated(fileURLToPath(import.meta.url), child);
