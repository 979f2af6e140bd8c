// bench/embedded/embedded.bench.ts: quarry as a library (src/index.ts `open()`, SphinxQL in process, the default
// proximity_bm25 ranker) beside MiniSearch and FlexSearch indexing the same documents in the same process,
// asked the same queries (one-word, two-word AND and OR; phrases are quarry's only, so not timed). Each
// engine runs the whole query set in rounds, the engines alternated round by round; throughput is
// queries per CPU-second of the process (process.cpuUsage: every thread, fair on a shared machine) and
// per wall second, with the ratio quarry / peer of each. quarry's figures are of the top 20 with weights
// (`SELECT id, weight() ... LIMIT 20`); MiniSearch's of its ranked list cut to 20; FlexSearch (no ranking
// by relevance, no OR) of `search(q, 20)`, its AND query only. Each engine first runs the whole set
// --warmup times (default 15): V8 keeps optimizing quarry's query path (and deoptimizing it, as it meets
// new object and array maps) for its first few thousand queries, each TurboFan compile on V8's worker
// threads, while the main thread runs the code not yet optimized. After one warm-up round, 29 compiles
// landed in quarry's 5 measured rounds (--trace-opt) and 46% of their process CPU was off the main thread;
// its OR class ran at 2.1-3.9k queries per CPU-second (main thread alone 3.2-6.1k), after 15 rounds at
// 5.7-7.2k (7.5-7.9k), AND 2.3-4.4k -> 15.5-19.4k: a class's 50 queries take 3-8 ms, so its figure said
// which compiles landed in it (the OR class 2.4-6.9x MiniSearch's over 12 runs of session 20).
// Run: npm run bench -- embedded [--docs N] [--queries M] [--rounds R] [--warmup W] [--threads T]. Seed 42.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import FlexSearch from 'flexsearch';
import { open } from '../../src/index.js';
import { arg, mulberry32, sqlString } from '../lib/bench-util.js';
import { loadGcide, type CorpusDoc } from '../lib/corpus.js';

interface Query { cls: string; words: string[]; and: boolean }

/** Words of document frequency 30..3000 and adjacent pairs of them, from random documents (as the browser bench). */
function queries(docs: CorpusDoc[], perClass: number): Query[] {
  const rnd = mulberry32(42);
  const df = new Map<string, number>();
  const words = (d: CorpusDoc) => d.body.toLowerCase().match(/[a-z]{4,}/g) ?? [];
  for (const d of docs) for (const w of new Set(words(d))) df.set(w, (df.get(w) ?? 0) + 1);
  const byDf = [...df].sort((a, b) => b[1] - a[1]);
  const mid = (w: string) => { const n = df.get(w) ?? 0; return n >= 30 && n <= 3000; };
  const pair = (): string[] => {
    for (;;) {
      const ws = words(docs[Math.floor(rnd() * docs.length)]);
      const i = Math.floor(rnd() * (ws.length - 1));
      if (ws.length > 1 && mid(ws[i]) && mid(ws[i + 1]) && ws[i] !== ws[i + 1]) return [ws[i], ws[i + 1]];
    }
  };
  const out: Query[] = [];
  for (let i = 0; i < perClass; i++) {
    const [a, b] = pair();
    out.push({ cls: 'word', words: [a], and: true });
    out.push({ cls: 'and', words: [a, b], and: true });
    out.push({ cls: 'or', words: [a, b], and: false });
    out.push({ cls: 'frequent word', words: [byDf[Math.floor(rnd() * 50)][0]], and: true });
  }
  return out;
}

type Runner = (q: Query) => Promise<unknown> | unknown;

/** CPU and wall ms of running every query of `qs` once. */
async function round(run: Runner, qs: Query[]): Promise<{ cpu: number; wall: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (const q of qs) await run(q);
  const c = process.cpuUsage(c0);
  return { cpu: (c.user + c.system) / 1000, wall: performance.now() - t0 };
}

async function main(): Promise<void> {
  const nDocs = arg('docs', 100_000);
  const perClass = arg('queries', 50);
  const rounds = arg('rounds', 5);
  const warmup = arg('warmup', 15);
  const threads = arg('threads', 0) || undefined;
  const docs = loadGcide(nDocs);
  const qs = queries(docs, perClass);
  const dir = mkdtempSync(join(tmpdir(), 'quarry-bench-embedded-'));
  try {
    const db = await open(join(dir, 'data'), { threads });
    await db.sql('CREATE TABLE gcide (title text, body text)');
    const tq = performance.now();
    for (let i = 0; i < docs.length; i += 1000) {
      const vals = docs.slice(i, i + 1000).map((d) => `(${d.id}, ${sqlString(d.title)}, ${sqlString(d.body)})`).join(',');
      const [r] = await db.sql(`INSERT INTO gcide (id, title, body) VALUES ${vals}`);
      if (r.kind === 'error') throw new Error(r.message);
    }
    const quarryIndexMs = performance.now() - tq;
    await db.sql('OPTIMIZE TABLE gcide'); // one segment, as the peers' one index (waits for the merge)
    // --quarry-only: quarry's queries alone (to profile them); the peers' columns are then empty
    const peers = !process.argv.includes('--quarry-only');
    const mini = new MiniSearch({ fields: ['title', 'body'] });
    const tm = performance.now();
    if (peers) mini.addAll(docs);
    const miniIndexMs = performance.now() - tm;
    const flex = new FlexSearch.Index({ tokenize: 'strict' });
    const tf = performance.now();
    if (peers) for (const d of docs) flex.add(d.id, `${d.title} ${d.body}`);
    const flexIndexMs = performance.now() - tf;

    const runners: Record<string, Runner> = {
      quarry: async (q) => {
        const text = q.and ? q.words.join(' ') : q.words.join(' | ');
        const [r] = await db.sql(`SELECT id, weight() FROM gcide WHERE MATCH(${sqlString(text)}) LIMIT 20`);
        if (r.kind === 'error') throw new Error(r.message);
        return r;
      },
      minisearch: (q) => mini.search(q.words.join(' '), { combineWith: q.and ? 'AND' : 'OR' }).slice(0, 20),
      flexsearch: (q) => (q.and ? flex.search(q.words.join(' '), 20) : null),
    };
    const classes = [...new Set(qs.map((q) => q.cls))];
    const total: Record<string, Record<string, { cpu: number; wall: number; n: number }>> = {};
    for (const name of Object.keys(runners)) {
      total[name] = {};
      for (const cls of classes) total[name][cls] = { cpu: 0, wall: 0, n: 0 };
      for (let w = 0; w < warmup; w++) for (const q of qs) await runners[name](q); // warm-up (the JIT: see the header)
    }
    for (let r = 0; r < rounds; r++) {
      for (const [name, run] of Object.entries(runners)) {
        for (const cls of classes) {
          if (name === 'flexsearch' && cls === 'or') continue;
          const set = qs.filter((q) => q.cls === cls);
          const t = await round(run, set);
          const acc = total[name][cls];
          acc.cpu += t.cpu; acc.wall += t.wall; acc.n += set.length;
        }
      }
    }
    const qps = (name: string, cls: string, k: 'cpu' | 'wall') => {
      const t = total[name][cls];
      return t.n ? (t.n * 1000) / t[k] : NaN;
    };
    const all = (name: string, k: 'cpu' | 'wall', only?: string[]) => {
      const cs = (only ?? classes).filter((c) => total[name][c].n);
      const n = cs.reduce((s, c) => s + total[name][c].n, 0);
      return (n * 1000) / cs.reduce((s, c) => s + total[name][c][k], 0);
    };
    const rows = [...classes, 'all'].map((cls) => {
      const get = (name: string, k: 'cpu' | 'wall') => (cls === 'all' ? all(name, k) : qps(name, cls, k));
      const row: Record<string, string | number> = { class: cls };
      for (const name of Object.keys(runners)) {
        row[`${name} q/cpu-s`] = Math.round(get(name, 'cpu'));
      }
      row['quarry/minisearch cpu'] = +(get('quarry', 'cpu') / get('minisearch', 'cpu')).toFixed(2);
      row['quarry/minisearch wall'] = +(get('quarry', 'wall') / get('minisearch', 'wall')).toFixed(2);
      const fl = cls === 'all' ? all('flexsearch', 'cpu') / all('quarry', 'cpu', classes.filter((c) => c !== 'or')) : get('flexsearch', 'cpu') / get('quarry', 'cpu');
      row['quarry/flexsearch cpu'] = Number.isFinite(fl) ? +(1 / fl).toFixed(2) : '-';
      return row;
    });
    await db.close();
    console.log(JSON.stringify({
      bench: 'embedded', seed: 42, docs: docs.length, queriesPerClass: perClass, rounds, warmup, threads: threads ?? 'default',
      indexMs: { quarry: Math.round(quarryIndexMs), minisearch: Math.round(miniIndexMs), flexsearch: Math.round(flexIndexMs) },
      rows,
    }, null, 2));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
