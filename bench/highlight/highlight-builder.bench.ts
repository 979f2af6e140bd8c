// bench/highlight/highlight-builder.bench.ts: the snippet builder alone, in process, per benchmark query class
// (bench/engine/engine.bench.ts queryClasses on dict-gcide): for each query, CALL SNIPPETS' work on 20 bodies
// holding its first word (default options, stem_en), CPU ms per class (median of `--rounds` rounds, 7 by default, of 5 passes).
// With `--baseline DIR` (a copy of a checkout with dist/) that build's modules are loaded beside this
// one's in the same process and the two alternate round by round (A, B, A, B), so a loaded machine
// weighs on both alike: the server bench's CPU figures are too coarse for a 10-30% change at load 20.
// `--bodies top`: each query's 20 bodies are its top 20 hits by quarry's own search (in process, stem_en),
// the texts the server bench highlights (longer than the first bodies holding the word, so the passage
// pick weighs more); the default `first` keeps the figures comparable with earlier sessions'.
// `--rounds N` (default 7): at load 20 a 7-round median moves by 5-20% between runs of the same builds; 41 rounds
// held a few percent. `--classes 0,2`: only those classes (indices in queryClasses' order).
// `--mode json`: JSON `/search` highlight's work instead (implies `--bodies top`): each query's top-20 documents,
// title and body, through highlightDocuments with `"highlight":{}` (every field its passages or its start) and
// each hit's highlight object written as JSON text (render-highlight.ts); the builds alternate round by round.
// Run: npm run build && node dist/bench/highlight/highlight-builder.bench.js [--docs N] [--queries M] [--baseline DIR] [--bodies top]
// [--mode json] [--rounds N] [--classes I,J]
// Caution: the build named first reads 1-6% slower in an A/A run (this build against a copy of itself, load 30);
// for a few-percent change, run it both ways (a copy of the baseline with this file as `quarry`).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { open } from '../../src/index.js';
import { arg, argString, sqlString } from '../lib/bench-util.js';
import { loadGcide, type CorpusDoc } from '../lib/corpus.js';
import { queryClasses } from '../engine/engine.bench.js';

const BODIES = 20;
const PASSES = 5;

/** One build's builder over the class queries: runs every query's bodies once, returns the output length. */
type Pass = (cls: number) => number | Promise<number>;

/**
 * A build's modules (`paths` under its dist/, in order) with its query parser, the node host installed,
 * and a stem_en text environment: what both passes start from.
 */
async function loadBuild(root: string, paths: string[]): Promise<{ parseQuery: any; env: object; mods: any[] }> {
  const load = (p: string) => import(pathToFileURL(`${root}/dist/${p}`).href);
  const [{ installNodeHost }, { parseQuery }, { createTextPipeline }, ...mods] = await Promise.all(
    ['src/engine/node-host.js', 'src/query/parse-query.js', 'src/text/text-pipeline.js', ...paths].map(load),
  );
  installNodeHost();
  return { parseQuery, env: { pipeline: createTextPipeline({ morphology: 'stem_en' }), settings: { morphology: 'stem_en' } }, mods };
}

/** JSON highlight's pass: each query's documents (title, body) through highlightDocuments and highlightJsonText. */
async function jsonPass(root: string, classes: { queries: string[] }[], docsOf: (q: string) => CorpusDoc[]): Promise<Pass> {
  const { parseQuery, env, mods: [{ highlightDocuments, parseJsonHighlight }, { highlightJsonText }] } = await loadBuild(root, [
    'src/highlight/highlight-request.js', 'src/http/render-highlight.js',
  ]);
  const fields = ['title', 'body'];
  const table = { env, schemaFields: fields, storedFields: fields };
  const spec = parseJsonHighlight({});
  // frozen, and the same strings every pass: as the store's document cache hands them to every page
  const work = classes.map((c) => c.queries.map((q) => ({
    root: parseQuery(q, { fields }).root, docs: docsOf(q).map((d) => Object.freeze({ title: d.title, body: d.body })),
  })));
  return async (cls) => {
    let out = 0;
    for (const { root: r, docs } of work[cls]) {
      for (const hl of await highlightDocuments(r, docs, fields, spec, table)) out += highlightJsonText(hl).length;
    }
    return out;
  };
}

async function buildPass(root: string, classes: { queries: string[] }[], bodiesOf: (q: string) => string[]): Promise<Pass> {
  const { parseQuery, env, mods: [{ snippetBuilder, packSnippets }, { snippetOptions }] } = await loadBuild(root, [
    'src/highlight/snippet-builder.js', 'src/highlight/snippet-options.js',
  ]);
  const o = snippetOptions([]);
  const flags = { ignoreFields: true, textFromIndex: false, packFields: false };
  const work = classes.map((c) => c.queries.map((q) => ({ root: parseQuery(q, {}).root, bodies: bodiesOf(q) })));
  return (cls) => {
    let out = 0;
    for (const { root: r, bodies } of work[cls]) {
      const b = snippetBuilder(r, o, env, flags);
      for (const t of bodies) out += packSnippets(b([{ name: '', text: t }]), o).length;
    }
    return out;
  };
}

async function cpuMs(f: () => Promise<void>): Promise<number> {
  const c0 = process.cpuUsage();
  await f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** Each query's top BODIES documents by quarry's own search over the documents (an in-process table, stem_en). */
export async function topDocs(docs: CorpusDoc[], queries: string[]): Promise<Map<string, CorpusDoc[]>> {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-bench-hlb-'));
  const byId = new Map(docs.map((d) => [d.id, d]));
  const out = new Map<string, CorpusDoc[]>();
  try {
    const db = await open(join(dir, 'data'));
    await db.sql("CREATE TABLE gcide (title text, body text) morphology='stem_en'");
    for (let i = 0; i < docs.length; i += 1000) {
      const vals = docs.slice(i, i + 1000).map((d) => `(${d.id}, ${sqlString(d.title)}, ${sqlString(d.body)})`).join(',');
      const [r] = await db.sql(`INSERT INTO gcide (id, title, body) VALUES ${vals}`);
      if (r.kind === 'error') throw new Error(r.message);
    }
    for (const q of queries) {
      const [r] = await db.sql(`SELECT id FROM gcide WHERE MATCH(${sqlString(q)}) LIMIT ${BODIES}`);
      if (r.kind !== 'rows') throw new Error(`search failed: ${q}`);
      out.set(q, r.rows.map((row) => byId.get(Number(row[0])) ?? { id: Number(row[0]), title: '', body: '' }));
    }
    await db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

export async function highlightBuilderBench(): Promise<Record<string, string | number>[]> {
  const docs = loadGcide(arg('docs', 100000));
  const classes = queryClasses(docs, arg('queries', 20));
  const json = argString('mode') === 'json';
  const top = argString('bodies') === 'top' || json ? await topDocs(docs, classes.flatMap((c) => c.queries)) : new Map<string, CorpusDoc[]>();
  const bodies = new Map([...top].map(([q, ds]) => [q, ds.map((d) => d.body)]));
  const bodiesOf = (q: string): string[] => {
    let b = bodies.get(q);
    if (!b) {
      const w = q.replace(/@title|["|]/g, ' ').trim().split(/\s+/)[0].toLowerCase();
      b = [];
      for (const d of docs) if (d.body.toLowerCase().includes(w) && b.push(d.body) >= BODIES) break;
      bodies.set(q, b);
    }
    return b;
  };
  const self = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
  const baseline = argString('baseline');
  const passOf = (root: string): Promise<Pass> => (json ? jsonPass(root, classes, (q) => top.get(q) ?? []) : buildPass(root, classes, bodiesOf));
  const builds: [string, Pass][] = [['quarry', await passOf(self)]];
  if (baseline) builds.push(['baseline', await passOf(resolve(baseline))]);
  const rounds = arg('rounds', 7);
  const only = argString('classes')?.split(',').map(Number);
  const rows: Record<string, string | number>[] = [];
  for (const [ci, c] of classes.entries()) {
    if (only && !only.includes(ci)) continue;
    for (const [, pass] of builds) await pass(ci);
    const ms = builds.map((): number[] => []);
    for (let r = 0; r < rounds; r++) {
      // alternate which build goes first, so neither always follows the other's garbage
      const order = r % 2 ? [...builds.keys()].reverse() : [...builds.keys()];
      for (const bi of order) ms[bi].push(await cpuMs(async () => { for (let k = 0; k < PASSES; k++) await builds[bi][1](ci); }) / PASSES);
    }
    const row: Record<string, string | number> = { class: c.name };
    builds.forEach(([name], bi) => { row[`${name} CPU ms`] = +median(ms[bi]).toFixed(2); });
    if (baseline) {
      row['quarry / baseline'] = +(median(ms[0]) / median(ms[1])).toFixed(3);
      row['paired ratio (median)'] = +median(ms[0].map((x, r) => x / ms[1][r])).toFixed(3);
    }
    rows.push(row);
  }
  return rows;
}

if (process.argv[1]?.endsWith('highlight-builder.bench.js')) {
  highlightBuilderBench().then((r) => console.log(JSON.stringify(r, null, 2))).catch((e) => { console.error(e); process.exitCode = 1; });
}
