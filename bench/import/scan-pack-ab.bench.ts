// bench/import/scan-pack-ab.bench.ts: the build thread's tokenizing alone, this build against a baseline build
// (alternated children, bench/lib/ab-children.ts): the dict-gcide rows in 25,000-row jobs (buildJobOf, as
// row-load.ts makes them), their fields scanned by the core in runs of 64K UTF-16 units (FieldScanner.scanFields,
// as scanned-fields.ts runs it) and packed into a sink as the inversion's (FieldPacker.packScanned through
// TextPipeline.indexScannedInto: batch ids by first sight, positions, counts). Per child: CPU ms of the scans
// and of the packing in the first pass (every token id, stem and term number new; the code warmed first as the
// build thread warms it) and the least of the passes after it (the same pipeline: only the per-token work), the
// tokens, and an md5 of what was packed (equal across builds).
// build-job.bench.ts times the whole build (inversion, pairs, postings too); this one sees a change of the
// scanner or the packing at a few percent where the whole build's spread hides it.
// Run: node dist/bench/import/scan-pack-ab.bench.js [--baseline DIR] [--rounds 5] [--passes 4] [--gcide N]
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { processCpuMs, runAlternated } from '../lib/ab-children.js';
import { arg } from '../lib/bench-util.js';
import { loadGcide } from '../lib/corpus.js';

const BATCH = 25_000;
const RUN_UNITS = 1 << 16;

/** The inversion's sink (invert-fields.ts StreamSink) without the inversion: ids by first sight in its batch. */
class Sink {
  static batches = 0;
  readonly batch = ++Sink.batches;
  tag = 0;
  readonly posMask = 0x7fffff;
  used = 0;
  ids: Uint32Array;
  positions: Uint32Array;
  counts: Uint32Array;
  private readonly idOfNum = new Int32Array(1 << 19).fill(-1);
  private next = 0;
  constructor(tokens: number) {
    this.ids = new Uint32Array(tokens);
    this.positions = new Uint32Array(tokens);
    this.counts = new Uint32Array(tokens);
  }
  reserve(entries: number): void {
    if (this.used + entries > this.ids.length) throw new Error('sink too small');
  }
  idOf(_numbering: unknown, num: number): number {
    const id = this.idOfNum[num];
    return id >= 0 ? id : (this.idOfNum[num] = this.next++);
  }
}

async function child(root: string): Promise<void> {
  const load = (p: string) => import(pathToFileURL(resolve(root, 'dist/src', p)).href);
  const { installNodeHost } = await load('engine/node-host.js');
  const { createTextPipeline } = await load('text/text-pipeline.js');
  const jobs = await load('engine/background/build-job.js');
  installNodeHost();
  // the build's code warmed on made-up rows first, as the build thread does (warm-build.ts), where the build has it
  await load('engine/background/warm-build.js').then((m) => m.warmBuild(), () => undefined);
  const docs = loadGcide(arg('gcide', Infinity));
  const schema = { fields: ['title', 'body'], attrs: [] };
  const settings = { morphology: 'stem_en' };
  const batches: { text: string; lengths: Uint32Array }[] = [];
  for (let i = 0; i < docs.length; i += BATCH) {
    const rows = docs.slice(i, i + BATCH);
    batches.push(jobs.buildJobOf(schema, settings, rows.map((d) => BigInt(d.id)), rows.map((d) => ({ title: d.title, body: d.body }))));
  }
  const pipeline = createTextPipeline(settings);
  const scanner = pipeline.fieldsScanner();
  const scanMs: number[] = [];
  const packMs: number[] = [];
  let tokens = 0;
  let md5 = '';
  for (let pass = 0; pass < arg('passes', 4); pass++) {
    let scan = 0, pack = 0;
    tokens = 0;
    const hash = createHash('md5');
    for (const { text, lengths } of batches) {
      const sink = new Sink(text.length);
      for (let k = 0, at = 0; k < lengths.length;) {
        let end = k, units = 0;
        while (end < lengths.length && (end === k || units + lengths[end] <= RUN_UNITS)) units += lengths[end++];
        const t0 = processCpuMs();
        const run = scanner.scanFields(text.slice(at, at + units), lengths.subarray(k, end));
        const t1 = processCpuMs();
        for (let f = 0, from = 0; f < end - k; f++) {
          const count = run.counts[f];
          if (count < 0) throw new Error('a field the core does not take: not this bench');
          sink.tag = ((k + f) % 2) << 24;
          pipeline.indexScannedInto(run, from, count, sink);
          from += count;
        }
        pack += processCpuMs() - t1;
        scan += t1 - t0;
        at += units;
        k = end;
      }
      tokens += sink.used;
      hash.update(sink.ids.subarray(0, sink.used)).update(sink.positions.subarray(0, sink.used));
    }
    scanMs.push(scan);
    packMs.push(pack);
    md5 = hash.digest('hex');
  }
  const warm = (xs: number[]) => Math.round(Math.min(...xs.slice(1)));
  console.log(JSON.stringify({
    scanColdMs: Math.round(scanMs[0]), scanWarmMs: warm(scanMs), packColdMs: Math.round(packMs[0]), packWarmMs: warm(packMs),
    tokens, md5, load: Number((await import('node:os')).loadavg()[0].toFixed(1)),
  }));
}

runAlternated(fileURLToPath(import.meta.url), child);
