// bench/queries/query-ops.bench.ts: the cost of each query-operator class (phrase, proximity, quorum, NEAR,
// NOTNEAR, strict order, wildcard prefix / infix, expression ranker) on a seeded synthetic corpus
// (Zipf(1.0) vocabulary, title ~8 words, body ~60; default 1M documents): the WASM core, the
// TypeScript reference evaluator (on the first --ref-docs documents, scaled to the corpus size as
// it is a linear scan) and Sphinx 2.2.11 with the same documents where Sphinx has the operator.
// Run: npx tsc -p tsconfig.json && node dist/bench/queries/query-ops.bench.js [--docs N] [--queries M]
//      [--ref-docs R] [--ref-queries Q] [--no-sphinx]. Prints one JSON object. Seed 7.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RtIndex } from '../../src/index/rt-index.js';
import type { DocInput, IndexSchema, SearchRequest } from '../../src/index/types.js';
import { parseQuery } from '../../src/query/parse-query.js';
import type { QueryNode } from '../../src/query/ast.js';
import { evaluateRefs, refDoc } from '../../test/reference/evaluator.js';
import { arg, mulberry32, percentile } from '../lib/bench-util.js';
import { startOpsSphinx } from '../peers/query-ops-sphinx.js';
import { syntheticDocs, word } from '../lib/synthetic.js';

const SEED = 7;
const BATCH = 1000;
/** Rows per INSERT sent to Sphinx. */
const SPHINX_BATCH = 500;
const SPHINX_PORT = 19_412;
const EXPANSION = { minPrefixLen: 1, minInfixLen: 2, exactForms: false };


interface OpClass { name: string; queries: string[]; sphinx: boolean; rankExpr?: string }

/** Query texts per class; the same text goes to quarry's parser and to Sphinx. */
function classes(rng: () => number, m: number): OpClass[] {
  const r = (lo: number, hi: number) => word(lo + Math.floor(rng() * (hi - lo)));
  const make = (f: () => string) => Array.from({ length: m }, f);
  return [
    { name: 'phrase', queries: make(() => `"${r(0, 30)} ${r(0, 30)}"`), sphinx: true },
    { name: 'proximity', queries: make(() => `"${r(0, 50)} ${r(0, 50)} ${r(0, 50)}"~5`), sphinx: true },
    { name: 'quorum', queries: make(() => `"${r(0, 100)} ${r(0, 100)} ${r(0, 100)} ${r(0, 100)}"/2`), sphinx: true },
    { name: 'near', queries: make(() => `${r(0, 50)} NEAR/3 ${r(0, 50)}`), sphinx: true },
    { name: 'notnear', queries: make(() => `${r(0, 50)} NOTNEAR/3 ${r(0, 50)}`), sphinx: false },
    { name: 'order', queries: make(() => `${r(0, 50)} << ${r(0, 50)}`), sphinx: true },
    { name: 'prefix', queries: make(() => `${r(0, 300).slice(0, 3)}*`), sphinx: true },
    { name: 'infix', queries: make(() => `*${r(1000, 40_000).slice(1, 4)}*`), sphinx: true },
    { name: 'expr ranker', queries: make(() => `${r(0, 50)} ${r(50, 500)}`), sphinx: true, rankExpr: 'sum(lcs*user_weight)*1000+bm25+sum(exact_hit)' },
  ];
}

function stats(ms: number[]): { p50: number; p99: number; mean: number } {
  const s = [...ms].sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return { p50: round(percentile(s, 50)), p99: round(percentile(s, 99)), mean: round(s.reduce((a, b) => a + b, 0) / Math.max(1, s.length)) };
}

function timed(run: () => unknown): number {
  const t0 = performance.now();
  run();
  return performance.now() - t0;
}

async function sphinxTimes(docs: DocInput[], ops: OpClass[]): Promise<Record<string, ReturnType<typeof stats>> | null> {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-ops-sphinx-'));
  const peer = await startOpsSphinx(dir, SPHINX_PORT);
  if (!peer) return null;
  const c = await peer.connect();
  try {
    for (let i = 0; i < docs.length; i += SPHINX_BATCH) {
      const rows = docs.slice(i, i + SPHINX_BATCH).map((d) =>
        `(${d.docId},'${d.fields[0].terms.join(' ')}','${d.fields[1].terms.join(' ')}',${d.attrs[0]})`);
      await c.query(`INSERT INTO ops (id, title, body, gid) VALUES ${rows.join(',')}`);
    }
    const out: Record<string, ReturnType<typeof stats>> = {};
    for (const op of ops.filter((o) => o.sphinx)) {
      const opt = op.rankExpr ? ` OPTION ranker=expr('${op.rankExpr}')` : '';
      const ms: number[] = [];
      for (const q of op.queries) {
        const t0 = performance.now();
        await c.query(`SELECT id, WEIGHT() FROM ops WHERE MATCH('${q}') LIMIT 20${opt}`);
        ms.push(performance.now() - t0);
      }
      out[op.name] = stats(ms);
    }
    return out;
  } finally {
    await c.end();
    await peer.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const nDocs = arg('docs', 1_000_000);
  const nQueries = arg('queries', 30);
  const refDocs = Math.min(nDocs, arg('ref-docs', 50_000));
  const refQueries = arg('ref-queries', 3);
  const rng = mulberry32(SEED);
  const schema: IndexSchema = { fields: ['title', 'body'], attrs: [{ name: 'gid', type: 'uint' }] };
  const docs = syntheticDocs(nDocs, rng);
  // merges inside addBatch, as before deferred merges: optimize() after ~1000 unmerged segments gives
  // wrong phrase counts at 400k+ documents (rt-index.ts, reported), which would skew every class
  const idx = new RtIndex(schema, { autoMerge: true });
  const t0 = performance.now();
  for (let i = 0; i < docs.length; i += BATCH) idx.addBatch(docs.slice(i, i + BATCH));
  idx.optimize();
  const indexMs = performance.now() - t0;
  const refs = docs.slice(0, refDocs).map(refDoc);
  const ops = classes(rng, nQueries);
  const result: Record<string, unknown> = {};
  for (const op of ops) {
    const nodes: QueryNode[] = op.queries.map((q) => parseQuery(q, { fields: schema.fields }).root);
    const req = (q: QueryNode): SearchRequest => ({
      query: q, ranker: op.rankExpr ? 'expr' : 'proximity_bm25', rankExpr: op.rankExpr, fieldWeights: {}, filters: [], sort: [],
      offset: 0, limit: 20, maxMatches: 1000, expansion: EXPANSION,
    });
    idx.search(req(nodes[0]));
    const matches = nodes.reduce((s, q) => s + idx.search(req(q)).totalFound, 0) / nodes.length;
    const wasm = stats(nodes.map((q) => timed(() => idx.search(req(q)))));
    let reference: unknown = 'not modelled';
    if (!op.rankExpr && op.name !== 'prefix' && op.name !== 'infix') {
      const ms = nodes.slice(0, refQueries).map((q) => timed(() => evaluateRefs(schema, refs, q, 'proximity_bm25')) * (nDocs / refDocs));
      reference = stats(ms);
    }
    result[op.name] = { meanMatches: Math.round(matches), wasm, reference };
  }
  const sphinx = process.argv.includes('--no-sphinx') ? null : await sphinxTimes(docs, ops);
  if (sphinx) for (const [name, s] of Object.entries(sphinx)) (result[name] as Record<string, unknown>).sphinx = s;
  console.log(JSON.stringify({
    bench: 'query-ops', seed: SEED, docs: nDocs, refDocs, queriesPerClass: nQueries, build: process.env.QUARRY_WASM ?? 'release',
    indexMs: Math.round(indexMs), note: 'ms per query; reference scaled linearly from refDocs to docs', classes: result,
  }, null, 2));
}

main().catch((e) => { console.error(e); process.exit(1); });
