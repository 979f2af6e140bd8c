// bench/engine/engine.bench.ts: the whole engine in process (SQL parse, tokenize + stem_en, lmdb commit,
// segment build in the WASM core, merges) on Debian's dict-gcide, then a seeded synthetic corpus drawn
// from its vocabulary (Zipf). Reports load docs/s with 1000-row INSERTs, query latency p50/p99 per
// class (single term of high/mid/low document frequency, 2- and 3-term AND, OR, phrase, field), memory
// and disk per document. The synthetic corpus is generated and loaded batch by batch (never all in memory,
// so 10M fits), its queries drawn from its first 100k documents; queries start once the table's merges are
// done. Run: npm run bench -- engine [--docs N] [--synthetic N] [--queries M]: `--docs` caps dict-gcide;
// above 1M it is the synthetic corpus's size too (`--docs 10000000`: the 10M run), else `--synthetic`
// (default 1M); `--bigram-index MODE` creates the table with that bigram_index. Seed 42.
import { mkdtempSync, rmSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import type { RtIndex } from '../../src/index/rt-index.js';
import { breakdown, rollup } from '../lib/smaps.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open, type Database } from '../../src/index.js';
import { lastPlacement } from '../../src/index/parallel/place-query.js';
import { loadGcide, type CorpusDoc } from '../lib/corpus.js';
import { arg, argString, diskBytes, mulberry32, percentile, sqlString } from '../lib/bench-util.js';
import { progress } from '../lib/progress.js';
import { phase } from '../../src/util/phase-trace.js';

const SEED = 42;
const BATCH = 1000;

interface LoadResult {
  docs: number; seconds: number; docsPerSec: number; mergedSeconds: number; diskBytesPerDoc: number; rssBytesPerDoc: number;
  pssMiB: number; peakRssMiB: number;
  /** the main core's linear memory (its peak: a wasm memory never shrinks), what its allocator holds in
   * use and free below the untouched top, and the resident pages of every wasm memory (bench/lib/smaps.ts) */
  coreMemoryMiB: number; coreUsedMiB: number; coreFreeBelowTopMiB: number; wasmPssMiB: number;
}
export interface QueryClass { name: string; queries: string[] }
interface QueryResult { name: string; queries: number; p50ms: number; p99ms: number; qps: number; avgHits: number }

/** Documents kept (the first ones) to draw the queries from. */
const SAMPLE = 100_000;

/** Loads the batches; keeps the first SAMPLE documents in `sample`; waits for the merges. */
async function load(db: Database, batches: Iterable<CorpusDoc[]>, total: number, dir: string, sample: CorpusDoc[]): Promise<LoadResult> {
  // --bigram-index none: the table without pair postings (src/index/segment/segment-pairs.ts), to compare
  const bigram = argString('bigram-index');
  await db.sql(`CREATE TABLE gcide (title text, body text, len uint) morphology='stem_en'${bigram ? ` bigram_index='${bigram}'` : ''}`);
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  progress.step(`engine: loading ${total.toLocaleString('en-US')} documents`);
  let done = 0;
  for (const batch of batches) {
    if (sample.length < SAMPLE) sample.push(...batch.slice(0, SAMPLE - sample.length));
    for (let i = 0; i < batch.length; i += BATCH) {
      const rows = batch.slice(i, i + BATCH).map((d) => `(${d.id},${sqlString(d.title)},${sqlString(d.body)},${d.body.length})`);
      const [r] = await db.sql(`INSERT INTO gcide (id, title, body, len) VALUES ${rows.join(',')}`);
      if (r.kind === 'error') throw new Error(r.message);
    }
    done += batch.length;
    progress.tick(done, total, 'documents');
  }
  const seconds = (performance.now() - t0) / 1000;
  progress.step('engine: waiting for the merges');
  const engine = db.engine as unknown as { ctx: { catalog: { get(n: string): { index: RtIndex } } } };
  await engine.ctx.catalog.get('gcide').index.whenMerged();
  const mergedSeconds = (performance.now() - t0) / 1000;
  // and for the idle compaction the merges arm (merge-scheduler.ts whenIdle), not counted above: timed
  // queries running beside it shared the cores with its merge and one waited for its swap (10M, session 13:
  // AND-3 'with measure obs' 1520 ms, 12 ms alone)
  progress.step('engine: waiting for the idle compaction');
  await engine.ctx.catalog.get('gcide').index.whenIdle();
  // --slow: the layout the queries run on (each segment is planned and bounded on its own, so the count
  // moves every class's cost; the merges' timing decides it, and so it can differ between two runs)
  if (argString('slow')) {
    const live = engine.ctx.catalog.get('gcide').index.segments.map((s) => s.live);
    process.stderr.write(`\nsegments: ${live.length} (${live.map((n) => (n >= 1e6 ? `${(n / 1e6).toFixed(2)}M` : `${Math.round(n / 1e3)}k`)).join(' ')})\n`);
  }
  const heap = engine.ctx.catalog.get('gcide').index.core.heapStats();
  return {
    docs: done, seconds, docsPerSec: done / seconds, mergedSeconds,
    diskBytesPerDoc: diskBytes(dir) / done, rssBytesPerDoc: (process.memoryUsage().rss - rss0) / done,
    pssMiB: rollup('self').Pss / 2 ** 20, peakRssMiB: process.resourceUsage().maxRSS / 1024,
    coreMemoryMiB: heap.memory / 2 ** 20, coreUsedMiB: heap.used / 2 ** 20, coreFreeBelowTopMiB: (heap.free - heap.topFree) / 2 ** 20,
    wasmPssMiB: breakdown('self').wasm / 2 ** 20,
  };
}

/** Words with their document frequencies, by a plain lowercase split (close enough to pick classes). */
export function documentFrequencies(docs: CorpusDoc[]): [string, number][] {
  const df = new Map<string, number>();
  for (const d of docs) {
    for (const w of new Set(`${d.title} ${d.body}`.toLowerCase().match(/[a-z]{3,}/g) ?? [])) df.set(w, (df.get(w) ?? 0) + 1);
  }
  return [...df].sort((a, b) => b[1] - a[1]);
}

export function queryClasses(docs: CorpusDoc[], n: number): QueryClass[] {
  const rng = mulberry32(SEED);
  const byDf = documentFrequencies(docs);
  const band = (lo: number, hi: number) => byDf.filter(([, f]) => f >= lo && f <= hi).map(([w]) => w);
  const high = byDf.slice(0, 50).map(([w]) => w);
  // A band can be empty on a synthetic corpus (no word that rare): then take the nearest words by df.
  const orNearest = (ws: string[], at: number) => (ws.length ? ws : byDf.slice(Math.max(0, at - 100), at + 100).map(([w]) => w));
  const mid = orNearest(band(docs.length / 200, docs.length / 50), Math.floor(byDf.length / 20));
  const low = orNearest(band(5, 20), byDf.length - 100);
  const pick = (ws: string[]) => ws[Math.floor(rng() * ws.length)];
  const many = (f: () => string) => Array.from({ length: n }, f);
  const phrases = docs.map((d) => d.body.toLowerCase().match(/[a-z]{3,} [a-z]{3,}/)?.[0]).filter((x): x is string => !!x);
  return [
    { name: 'term high df', queries: many(() => pick(high)) },
    { name: 'term mid df', queries: many(() => pick(mid)) },
    { name: 'term low df', queries: many(() => pick(low)) },
    { name: 'AND 2 terms', queries: many(() => `${pick(mid)} ${pick(high)}`) },
    { name: 'AND 3 terms', queries: many(() => `${pick(high)} ${pick(mid)} ${pick(high)}`) },
    { name: 'OR 2 terms', queries: many(() => `${pick(mid)} | ${pick(mid)}`) },
    { name: 'phrase', queries: many(() => `"${pick(phrases)}"`) },
    { name: 'field @title', queries: many(() => `@title ${pick(mid)}`) },
  ];
}

async function runQueries(db: Database, table: string, cls: QueryClass): Promise<QueryResult> {
  const times: number[] = [];
  const slow: [number, string, number][] = [];
  // --slow: where each query ran, its learnt estimate and evaluation time (threads': their tasks' sum),
  // and the collections inside it: a slow query's own cost told from a pause around it
  const placed: string[] = [];
  const spans: [number, number][] = [];
  let hits = 0;
  // --slow: this thread's collections during the class (a pause inside a timed query is in its time)
  const gcs: number[] = [];
  const gcAt: [number, number][] = [];
  const gcObserver = argString('slow') ? new PerformanceObserver((l) => { for (const e of l.getEntries()) { gcs.push(e.duration); gcAt.push([e.startTime, e.duration]); } }) : null;
  gcObserver?.observe({ entryTypes: ['gc'] });
  const t0 = performance.now();
  progress.step(`engine: ${cls.name}`);
  phase(`bench class ${cls.name}`);
  for (const q of cls.queries) {
    const s = performance.now();
    const [r] = await db.sql(`SELECT id, weight() FROM ${table} WHERE MATCH(${sqlString(q)}) LIMIT 20`);
    times.push(performance.now() - s);
    slow.push([times[times.length - 1], q, times.length]);
    const pl = lastPlacement();
    placed.push(`${pl.where}${pl.asked !== pl.where ? `(${pl.asked})` : ''} est ${pl.estimateMs.toFixed(1)} eval ${pl.evalMs.toFixed(1)}`);
    spans.push([s, performance.now()]);
    if (r.kind === 'error') throw new Error(`${q}: ${r.message}`);
    if (r.kind === 'rows') hits += r.meta?.totalFound ?? 0;
  }
  const total = (performance.now() - t0) / 1000;
  gcObserver?.disconnect();
  times.sort((a, b) => a - b);
  // --slow: the class's slowest queries on stderr, to find what bounds its p99
  if (argString('slow')) {
    slow.sort((a, b) => b[0] - a[0]);
    // each with its place in the class (#n) and the same text's fastest time: a slow first run or a slow
    // repeat of a query that is fast elsewhere is a pause (compile, collection, preemption), not its cost
    const fastest = new Map<string, number>();
    for (const [t, q] of slow) fastest.set(q, Math.min(fastest.get(q) ?? Infinity, t));
    const gcIn = (at: number) => gcAt.filter(([st]) => st >= spans[at - 1][0] && st < spans[at - 1][1]).reduce((a, [, d]) => a + d, 0);
    // and when it started, on the clock of QUARRY_TRACE_PHASES=1's marks (ms since the process started):
    // set against the marks of merges and checkpoints
    const clock0 = Date.now() - process.uptime() * 1000;
    const show = ([t, q, at]: [number, string, number]) =>
      `${q} ${t.toFixed(1)} ms (#${at} @${(performance.timeOrigin + spans[at - 1][0] - clock0).toFixed(0)}, fastest ${fastest.get(q)!.toFixed(1)}, ${placed[at - 1]}, gc ${gcIn(at).toFixed(1)})`;
    const gcMs = gcs.reduce((a, b) => a + b, 0);
    process.stderr.write(`\n${cls.name} slowest: ${slow.slice(0, 4).map(show).join('; ')}; ${gcs.length} collections, ${gcMs.toFixed(0)} ms, longest ${Math.max(0, ...gcs).toFixed(1)}\n`);
  }
  return { name: cls.name, queries: times.length, p50ms: percentile(times, 50), p99ms: percentile(times, 99), qps: times.length / total, avgHits: hits / times.length };
}

/** The seeded synthetic corpus: `n` documents of Zipf-drawn words from the 50k most frequent of `vocab`. */
export function synthetic(vocab: [string, number][], n: number): CorpusDoc[] {
  const out: CorpusDoc[] = [];
  for (const batch of syntheticBatches(vocab, n)) out.push(...batch);
  return out;
}

/** synthetic()'s documents, in order, `batch` at a time (a corpus too big to hold: bench/memory/scale.bench.ts). */
export function* syntheticBatches(vocab: [string, number][], n: number, batch = BATCH): Generator<CorpusDoc[]> {
  const rng = mulberry32(SEED);
  const words = vocab.slice(0, 50_000).map(([w]) => w);
  const cdf = new Float64Array(words.length);
  let sum = 0;
  for (let i = 0; i < words.length; i++) cdf[i] = sum += 1 / (i + 1);
  const draw = () => {
    const x = rng() * sum;
    let lo = 0, hi = words.length - 1;
    while (lo < hi) { const m = (lo + hi) >> 1; if (cdf[m] < x) lo = m + 1; else hi = m; }
    return words[lo];
  };
  const text = (k: number) => Array.from({ length: k }, draw).join(' ');
  for (let i = 0; i < n; i += batch) {
    const docs: CorpusDoc[] = [];
    for (let id = i + 1; id <= Math.min(n, i + batch); id++) docs.push({ id, title: text(4 + Math.floor(rng() * 6)), body: text(20 + Math.floor(rng() * 60)) });
    yield docs;
  }
}

async function corpusRun(label: string, batches: Iterable<CorpusDoc[]>, total: number, nQueries: number) {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-bench-'));
  const db = await open(dir);
  try {
    const sample: CorpusDoc[] = [];
    const loaded = await load(db, batches, total, dir, sample);
    const queries = [];
    for (const cls of queryClasses(sample, nQueries)) queries.push(await runQueries(db, 'gcide', cls));
    return { corpus: label, load: loaded, queries };
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `docs` in batches of BATCH. */
function* inBatches(docs: CorpusDoc[]): Generator<CorpusDoc[]> {
  for (let i = 0; i < docs.length; i += BATCH) yield docs.slice(i, i + BATCH);
}

export async function engineBench() {
  const gcide = loadGcide(arg('docs', Infinity));
  const nQueries = arg('queries', 500);
  const results = [await corpusRun(`dict-gcide (${gcide.length} docs)`, inBatches(gcide), gcide.length, nQueries)];
  const nSynth = arg('synthetic', Math.max(arg('docs', 0), 1_000_000));
  if (nSynth > 0) {
    const vocab = documentFrequencies(gcide);
    gcide.length = 0;
    results.push(await corpusRun(`synthetic Zipf (${nSynth} docs)`, syntheticBatches(vocab, nSynth), nSynth, nQueries));
  }
  return results;
}
