// bench/engine/index.bench.ts: the write path below SQL and the store, stage by stage, on dict-gcide with
// morphology='stem_en': tokenize (text pipeline), invert + build (1000-doc segments), tiered merges,
// checkpoint serialization, dictionary lookups (the first after merges, then per term). Reports CPU
// ms per stage (process.cpuUsage: other load on the machine matters less than wall time), docs per
// CPU second. Run: npx tsc -p tsconfig.json &&
// node dist/bench/engine/index.bench.js [--docs N] [--rounds R]; prints one JSON object (best of R rounds).
import { installNodeHost } from '../../src/engine/node-host.js';
import { RtIndex } from '../../src/index/rt-index.js';
import type { DocInput, IndexSchema } from '../../src/index/types.js';
import { createTextPipeline } from '../../src/text/text-pipeline.js';
import { loadGcide } from '../lib/corpus.js';
import { arg } from '../lib/bench-util.js';

const BATCH = 1000;

/** CPU milliseconds (user + system) spent in `f`. */
function cpuMs<T>(f: () => T): [T, number] {
  const t0 = process.cpuUsage();
  const out = f();
  const d = process.cpuUsage(t0);
  return [out, (d.user + d.system) / 1000];
}

function round(docs: { id: number; title: string; body: string }[]) {
  const schema: IndexSchema = { fields: ['title', 'body'], attrs: [{ name: 'len', type: 'uint' }] };
  const pipeline = createTextPipeline({ morphology: 'stem_en' });
  const [inputs, tokenizeMs] = cpuMs(() => docs.map((d): DocInput => ({
    docId: BigInt(d.id), fields: [pipeline.indexField(d.title), pipeline.indexField(d.body)], attrs: [d.body.length],
  })));
  const idx = new RtIndex(schema, { autoMerge: false });
  let buildMs = 0;
  let mergeMs = 0;
  for (let i = 0; i < inputs.length; i += BATCH) {
    buildMs += cpuMs(() => idx.addBatch(inputs.slice(i, i + BATCH)))[1];
    mergeMs += cpuMs(() => idx.maybeMerge())[1];
  }
  const [bytes, serializeMs] = cpuMs(() => idx.serializeSegments().reduce((n, b) => n + b.length, 0));
  // dictionary lookups as a query's planning does them: the first one on fresh segments, then more
  const probe = inputs.slice(0, 2000).map((d) => d.fields[1].terms[0] ?? 'x');
  const firstLookupMs = cpuMs(() => idx.segments.forEach((seg) => seg.termId(probe[0])))[1];
  const lookupMs = cpuMs(() => { for (const t of probe) for (const seg of idx.segments) seg.termId(t); })[1];
  idx.truncate();
  return { tokenizeMs, buildMs, mergeMs, serializeMs, segmentBytes: bytes, firstLookupMs, lookupUs: (lookupMs * 1000) / probe.length };
}

function main() {
  installNodeHost(); // the core's whole-field scanner, as the server tokenizes
  const docs = loadGcide(arg('docs', 100_000));
  const rounds = arg('rounds', 3);
  const runs = Array.from({ length: rounds }, () => round(docs));
  const best = (k: 'tokenizeMs' | 'buildMs' | 'mergeMs' | 'serializeMs' | 'firstLookupMs' | 'lookupUs') => Math.min(...runs.map((r) => r[k]));
  const total = best('tokenizeMs') + best('buildMs') + best('mergeMs');
  console.log(JSON.stringify({
    docs: docs.length, rounds, tokenizeMs: best('tokenizeMs'), buildMs: best('buildMs'), mergeMs: best('mergeMs'),
    serializeMs: best('serializeMs'), firstLookupMs: best('firstLookupMs'), lookupUs: best('lookupUs'), segmentBytes: runs[0].segmentBytes, docsPerCpuSec: docs.length / (total / 1000),
  }, null, 2));
}

main();
