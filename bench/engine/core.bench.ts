// bench/engine/core.bench.ts: the RT index on the WASM core (release build) vs the naive TypeScript
// reference evaluator. Seeded synthetic corpus: Zipf(1.0) vocabulary, title ~8 words, body ~60.
// Measures indexing docs/s (1000-doc batches, tiered merges, then optimize) and per-class query
// latency p50/p99. Run: npx tsc -p tsconfig.json && node dist/bench/engine/core.bench.js [--docs N] [--queries M]
// Prints one JSON object. Seed 42.
import { RtIndex } from '../../src/index/rt-index.js';
import type { IndexSchema } from '../../src/index/types.js';
import type { QueryNode, TermNode } from '../../src/query/ast.js';
import { evaluateRefs, refDoc } from '../../test/reference/evaluator.js';
import { arg, mulberry32 } from '../lib/bench-util.js';
import { syntheticDocs, VOCAB, word } from '../lib/synthetic.js';

const SEED = 42;
const BATCH = 1000;


const t = (rank: number, field?: string): TermNode =>
  ({ kind: 'term', text: word(rank), field: field ? { fields: [field], exclude: false } : undefined });

function queryClasses(rng: () => number, m: number): Record<string, QueryNode[]> {
  const r = (lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo));
  const make = (f: () => QueryNode) => Array.from({ length: m }, f);
  return {
    'term high df': make(() => t(r(0, 10))),
    'term mid df': make(() => t(r(100, 1000))),
    'term low df': make(() => t(r(10_000, 40_000))),
    'and 2': make(() => ({ kind: 'and', children: [t(r(0, 50)), t(r(50, 500))] })),
    'and 3': make(() => ({ kind: 'and', children: [t(r(0, 20)), t(r(20, 200)), t(r(200, 2000))] })),
    'or 2': make(() => ({ kind: 'or', children: [t(r(50, 500)), t(r(500, 5000))] })),
    phrase: make(() => ({ kind: 'phrase', terms: [t(r(0, 30)), t(r(0, 30))], offsets: [0, 1] })),
    field: make(() => t(r(10, 200), 'title')),
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function timeQueries(run: (q: QueryNode) => unknown, qs: QueryNode[]): { p50: number; p99: number; mean: number } {
  const ms: number[] = [];
  for (const q of qs) {
    const t0 = performance.now();
    run(q);
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return { p50: round(percentile(ms, 50)), p99: round(percentile(ms, 99)), mean: round(ms.reduce((a, b) => a + b, 0) / ms.length) };
}

function main(): void {
  const nDocs = arg('docs', 50_000);
  const nQueries = arg('queries', 50);
  const refQueries = arg('ref-queries', 5);
  const rng = mulberry32(SEED);
  const schema: IndexSchema = { fields: ['title', 'body'], attrs: [{ name: 'gid', type: 'uint' }] };
  const docs = syntheticDocs(nDocs, rng);
  const idx = new RtIndex(schema);
  const t0 = performance.now();
  for (let i = 0; i < docs.length; i += BATCH) idx.addBatch(docs.slice(i, i + BATCH));
  const indexMs = performance.now() - t0;
  const segmentsBefore = idx.segments.length;
  const t1 = performance.now();
  idx.optimize();
  const optimizeMs = performance.now() - t1;
  const refs = docs.map(refDoc);
  const classes = queryClasses(rng, nQueries);
  const search = (q: QueryNode) => idx.search({ query: q, ranker: 'proximity_bm25', fieldWeights: {}, filters: [], sort: [], offset: 0, limit: 20, maxMatches: 1000 });
  const queries: Record<string, unknown> = {};
  for (const [name, qs] of Object.entries(classes)) {
    search(qs[0]); // warm up
    const hits = qs.reduce((s, q) => s + search(q).totalFound, 0) / qs.length;
    queries[name] = {
      meanMatches: Math.round(hits),
      wasm: timeQueries(search, qs),
      reference: timeQueries((q) => evaluateRefs(schema, refs, q, 'proximity_bm25'), qs.slice(0, refQueries)),
    };
  }
  console.log(JSON.stringify({
    bench: 'core', seed: SEED, docs: nDocs, vocab: VOCAB, build: process.env.QUARRY_WASM ?? 'release',
    indexing: { docsPerSec: Math.round(nDocs / (indexMs / 1000)), ms: Math.round(indexMs), segmentsBefore, optimizeMs: Math.round(optimizeMs) },
    queries,
  }, null, 2));
}

main();
