// bench/highlight-builder.bench.ts: the snippet builder alone, in process, per benchmark query class
// (bench/engine.bench.ts queryClasses on dict-gcide): for each query, CALL SNIPPETS' work on 20 bodies
// holding its first word (default options, stem_en), CPU ms per class (median of 7 rounds of 5 passes).
// With `--baseline DIR` (a copy of a checkout with dist/) that build's modules are loaded beside this
// one's in the same process and the two alternate round by round (A, B, A, B), so a loaded machine
// weighs on both alike: the server bench's CPU figures are too coarse for a 10-30% change at load 20.
// Run: npm run build && node dist/bench/highlight-builder.bench.js [--docs N] [--queries M] [--baseline DIR]
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { arg, argString } from './bench-util.js';
import { loadGcide } from './corpus.js';
import { queryClasses } from './engine.bench.js';

const BODIES = 20;
const ROUNDS = 7;
const PASSES = 5;

/** One build's builder over the class queries: runs every query's bodies once, returns the output length. */
type Pass = (cls: number) => number;

async function buildPass(root: string, classes: { queries: string[] }[], bodiesOf: (q: string) => string[]): Promise<Pass> {
  const load = (p: string) => import(pathToFileURL(`${root}/dist/${p}`).href);
  const [{ installNodeHost }, { parseQuery }, { createTextPipeline }, { snippetBuilder, packSnippets }, { snippetOptions }] = await Promise.all([
    load('src/engine/node-host.js'), load('src/query/parse-query.js'), load('src/text/text-pipeline.js'),
    load('src/highlight/snippet-builder.js'), load('src/highlight/snippet-options.js'),
  ]);
  installNodeHost();
  const pipeline = createTextPipeline({ morphology: 'stem_en' });
  const env = { pipeline, settings: { morphology: 'stem_en' } };
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

function cpuMs(f: () => void): number {
  const c0 = process.cpuUsage();
  f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];

export async function highlightBuilderBench(): Promise<Record<string, string | number>[]> {
  const docs = loadGcide(arg('docs', 100000));
  const classes = queryClasses(docs, arg('queries', 20));
  const bodies = new Map<string, string[]>();
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
  const self = resolve(fileURLToPath(new URL('../..', import.meta.url)));
  const baseline = argString('baseline');
  const builds: [string, Pass][] = [['quarry', await buildPass(self, classes, bodiesOf)]];
  if (baseline) builds.push(['baseline', await buildPass(resolve(baseline), classes, bodiesOf)]);
  return classes.map((c, ci) => {
    for (const [, pass] of builds) pass(ci);
    const ms = builds.map((): number[] => []);
    for (let r = 0; r < ROUNDS; r++) {
      builds.forEach(([, pass], bi) => ms[bi].push(cpuMs(() => { for (let k = 0; k < PASSES; k++) pass(ci); }) / PASSES));
    }
    const row: Record<string, string | number> = { class: c.name };
    builds.forEach(([name], bi) => { row[`${name} CPU ms`] = +median(ms[bi]).toFixed(2); });
    if (baseline) row['quarry / baseline'] = +(median(ms[0]) / median(ms[1])).toFixed(3);
    return row;
  });
}

if (process.argv[1]?.endsWith('highlight-builder.bench.js')) {
  highlightBuilderBench().then((r) => console.log(JSON.stringify(r, null, 2))).catch((e) => { console.error(e); process.exitCode = 1; });
}
