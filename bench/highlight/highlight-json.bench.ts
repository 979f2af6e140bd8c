// bench/highlight/highlight-json.bench.ts: the JSON `/search` + `highlight` request alone, in process, per benchmark
// query class (bench/engine/engine.bench.ts queryClasses on dict-gcide): the highlight bench's request
// (bench/highlight/highlight-classes.ts jsonSearch: top 20, every stored field highlighted, `_source` only `len`) through
// the route the servers call (searchReply: body parse, search, highlight, reply bytes), without a socket.
// CPU of the main thread per query (median of `--rounds` rounds, 7 by default, of `--passes` passes over the class's
// queries; Linux /proc).
// With `--baseline DIR` (a copy of a checkout with dist/) that build's engine is loaded beside this one's in
// the same process over the same documents and the two alternate round by round (A, B, A, B), so a loaded
// machine weighs on both alike. `--classes 0,7`: only those classes (indices in queryClasses' order).
// `--profile FILE`: a V8 CPU profile (.cpuprofile) of the timed rounds only (not the load), main thread.
// `--heap-profile FILE`: a sampling heap profile (.heapprofile, every 512 bytes, objects a scavenge freed
// included) of the timed rounds instead: which functions allocate a request's garbage (GC is ~7% of its CPU).
// `--sql 1`: also this build's SQL `SELECT id, HIGHLIGHT() ... LIMIT 20` of the same queries (the highlight bench's
// SQL mode, in process: statement parse, search, document reads, HIGHLIGHT(); no MySQL packets) alternated with
// its JSON request: what the JSON request costs beyond SQL's on the same engine.
// `--split 1`: this build's request taken apart, each part alternated with the others round by round
// (bench/highlight/highlight-json-split.ts): where a class's JSON CPU goes per request beside SQL HIGHLIGHT()'s.
// Run: npm run build && node dist/bench/highlight/highlight-json.bench.js [--docs N] [--queries M] [--baseline DIR]
// [--rounds N] [--passes N] [--classes I,J] [--threads N] [--profile FILE] [--heap-profile FILE] [--sql 1] [--split 1]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session as Inspector } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { arg, argString, sqlString } from '../lib/bench-util.js';
import { loadGcide, type CorpusDoc } from '../lib/corpus.js';
import { queryClasses } from '../engine/engine.bench.js';
import { highlightSql, jsonSearch } from './highlight-classes.js';
import { splitParts, type SplitPart } from './highlight-json-split.js';

/** One build's request over a class's queries: runs each once, returns the reply bytes. */
interface Build {
  name: string;
  pass(queries: string[], keep?: string[]): Promise<number>;
  /** The same queries as SQL HIGHLIGHT() statements; the rows returned. */
  sqlPass(queries: string[]): Promise<number>;
  /** The request's parts (--split), each a pass over the queries. */
  parts: SplitPart[];
  close(): Promise<void>;
}

async function openBuild(name: string, root: string, dir: string, docs: CorpusDoc[]): Promise<Build> {
  const load = (p: string) => import(pathToFileURL(`${root}/dist/${p}`).href);
  const [{ open, newSession }, { searchReply }, { replyBody }, { writeSearchJson }, { ByteSink }, { parseJsonText }] = await Promise.all([
    load('src/index.js'), load('src/http/json-routes.js'), load('src/http/sql-routes.js'),
    load('src/http/render-search.js'), load('src/http/reply-sink.js'), load('src/http/json-body.js'),
  ]);
  const threads = argString('threads');
  const db = await open(join(dir, name), threads === null ? {} : { threads: Number(threads) });
  const exec = async (sql: string) => {
    const [r] = await db.sql(sql);
    if (r.kind === 'error') throw new Error(r.message);
  };
  await exec("CREATE TABLE gcide (title text, body text, len uint) morphology='stem_en'");
  for (let i = 0; i < docs.length; i += 1000) {
    const rows = docs.slice(i, i + 1000).map((d) => `(${d.id},${sqlString(d.title)},${sqlString(d.body)},${d.body.length})`);
    await exec(`INSERT INTO gcide (id, title, body, len) VALUES ${rows.join(',')}`);
  }
  // the merges and the idle compaction done: the same layout in both builds (equal weights keep segment order)
  await (db.engine as { ctx: { catalog: { get(n: string): { index: { whenIdle(): Promise<void> } } } } }).ctx.catalog.get('gcide').index.whenIdle();
  const session = newSession();
  const json = db.engine.json;
  const parts = splitParts({ db, json, session, searchReply, replyBody, writeSearchJson, ByteSink, parseJsonText });
  return {
    name,
    parts,
    async pass(queries, keep) {
      let bytes = 0;
      for (const q of queries) {
        const reply = await searchReply(json, session, jsonSearch(q));
        const body = replyBody(reply);
        if (reply.status !== 200) throw new Error(`${name}: ${q}: ${body.toString()}`);
        bytes += body.length;
        keep?.push(body.toString());
      }
      return bytes;
    },
    async sqlPass(queries) {
      let rows = 0;
      for (const q of queries) {
        const [r] = await db.sql(highlightSql(q));
        if (r.kind !== 'rows') throw new Error(`${name}: ${q}: ${r.message ?? r.kind}`);
        rows += r.rows.length;
      }
      return rows;
    },
    close: () => db.close(),
  };
}

/**
 * Whether two replies hold the same total and the same hits: the ones of an id in both replies equal,
 * as JSON. Hits of equal weight may come in another order, and the last places go to other documents of
 * that weight, with another segment layout (merge timing) or row ranges.
 */
function sameHits(a: string, b: string): boolean {
  type Reply = { hits: { total: number; hits: { _id: number }[] } };
  const [x, y] = [JSON.parse(a) as Reply, JSON.parse(b) as Reply];
  if (x.hits.total !== y.hits.total || x.hits.hits.length !== y.hits.hits.length) return false;
  const byId = new Map(x.hits.hits.map((h) => [h._id, JSON.stringify(h)]));
  return y.hits.hits.every((h) => !byId.has(h._id) || byId.get(h._id) === JSON.stringify(h));
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** --split: each part's median main-thread CPU per query over the rounds, the parts alternated within a round. */
async function splitRow(name: string, parts: SplitPart[], queries: string[], rounds: number, passes: number): Promise<Record<string, string | number>> {
  const ready = await Promise.all(parts.map((p) => p.prepare(queries)));
  for (const run of ready) await run(); // warm
  const ms = parts.map((): number[] => []);
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 ? [...parts.keys()].reverse() : [...parts.keys()];
    for (const pi of order) ms[pi]!.push(await cpuMs(async () => { for (let k = 0; k < passes; k++) await ready[pi]!(); }) / passes / queries.length);
  }
  const row: Record<string, string | number> = { class: name };
  parts.forEach((p, pi) => { row[`${p.name} us/query`] = +(median(ms[pi]!) * 1000 / (p.repeat ?? 1)).toFixed(1); });
  return row;
}

/**
 * This thread's CPU ms so far (the scheduler's run time in /proc, ns): the two builds' background threads
 * (merges, checkpoints, query workers) run beside the timed requests, and process.cpuUsage counts them all.
 * The queries of these classes run on this thread (their cost stays under the hand-over's threshold).
 */
const mainCpuMs = (): number => Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;

async function cpuMs(f: () => Promise<unknown>): Promise<number> {
  const c0 = mainCpuMs();
  await f();
  return mainCpuMs() - c0;
}

export async function highlightJsonBench(): Promise<Record<string, string | number>[]> {
  const docs = loadGcide(arg('docs', 100000));
  const classes = queryClasses(docs, arg('queries', 20));
  const dir = mkdtempSync(join(tmpdir(), 'quarry-bench-hlj-'));
  const builds: Build[] = [];
  try {
    builds.push(await openBuild('quarry', resolve(fileURLToPath(new URL('../../..', import.meta.url))), dir, docs));
    const baseline = argString('baseline');
    if (baseline) builds.push(await openBuild('baseline', resolve(baseline), dir, docs));
    const rounds = arg('rounds', 7);
    const passes = arg('passes', 5);
    const only = argString('classes')?.split(',').map(Number);
    const out: Record<string, string | number>[] = [];
    const profile = argString('profile');
    const heapProfile = argString('heap-profile');
    const inspector = new Inspector();
    if (profile) {
      inspector.connect();
      await inspector.post('Profiler.enable');
      await inspector.post('Profiler.start');
    } else if (heapProfile) {
      inspector.connect();
      await inspector.post('HeapProfiler.enable');
      await inspector.post('HeapProfiler.startSampling', {
        samplingInterval: 512, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true,
      });
    }
    for (const [ci, c] of classes.entries()) {
      if (only && !only.includes(ci)) continue;
      // a warm-up pass each, whose replies (but `took` and the order of equal weights) must be the same bytes in both builds
      const replies = builds.map((): string[] => []);
      const sizes: number[] = [];
      for (const [bi, b] of builds.entries()) sizes.push(await b.pass(c.queries, replies[bi]));
      for (const [bi, r] of replies.entries()) {
        r.forEach((text, qi) => { if (!sameHits(replies[0]![qi]!, text)) throw new Error(`${c.name}: ${builds[bi]!.name}'s reply to ${c.queries[qi]} differs`); });
      }
      const ms = builds.map((): number[] => []);
      const sql: number[] = [];
      const withSql = arg('sql', 0) === 1;
      if (arg('split', 0) === 1) {
        out.push(await splitRow(c.name, builds[0]!.parts, c.queries, rounds, passes));
        continue;
      }
      if (withSql) await builds[0]!.sqlPass(c.queries);
      for (let r = 0; r < rounds; r++) {
        // alternate which build goes first, so neither always follows the other's garbage
        const order = r % 2 ? [...builds.keys()].reverse() : [...builds.keys()];
        for (const bi of order) {
          ms[bi]!.push(await cpuMs(async () => { for (let k = 0; k < passes; k++) await builds[bi]!.pass(c.queries); }) / passes / c.queries.length);
        }
        if (withSql) sql.push(await cpuMs(async () => { for (let k = 0; k < passes; k++) await builds[0]!.sqlPass(c.queries); }) / passes / c.queries.length);
      }
      const row: Record<string, string | number> = { class: c.name, 'reply kB': +(sizes[0]! / c.queries.length / 1000).toFixed(1) };
      builds.forEach((b, bi) => { row[`${b.name} CPU us/query`] = Math.round(median(ms[bi]!) * 1000); });
      if (withSql) row['quarry SQL HIGHLIGHT() CPU us/query'] = Math.round(median(sql) * 1000);
      if (builds.length > 1) {
        row['quarry / baseline'] = +(median(ms[0]!) / median(ms[1]!)).toFixed(3);
        // each round's pair, as load drifts over a run: the median of the rounds' ratios
        row['paired ratio (median)'] = +median(ms[0]!.map((x, r) => x / ms[1]![r]!)).toFixed(3);
      }
      out.push(row);
    }
    if (profile) writeFileSync(profile, JSON.stringify((await inspector.post('Profiler.stop')).profile));
    else if (heapProfile) writeFileSync(heapProfile, JSON.stringify((await inspector.post('HeapProfiler.stopSampling')).profile));
    return out;
  } finally {
    for (const b of builds) await b.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('highlight-json.bench.js')) {
  highlightJsonBench().then((r) => console.log(JSON.stringify(r, null, 2))).catch((e) => { console.error(e); process.exitCode = 1; });
}
