// bench/highlight/highlight.bench.ts: highlighting on Debian's dict-gcide. Per benchmark query class, the top
// 20 hits highlighted by quarry's server (SQL HIGHLIGHT() and CALL SNIPPETS over MySQL, JSON /search
// `highlight` over HTTP) beside Sphinx 2.2.11's searchd (search + CALL SNIPPETS, and CALL SNIPPETS
// alone) in the same run: docs/s, server CPU per query and the ratios (bench/highlight/highlight-classes.ts);
// `--baseline DIR` adds another build's server (a copy of a checkout with dist/, build/ and bin/) for a
// before/after in the same run (its columns: this build's server CPU over the baseline's per mode, the
// median over rounds of the two blocks' ratio). Then, in process: CALL SNIPPETS throughput on 1 kB and
// 100 kB texts with the WASM picker vs the TypeScript twin, the matched-occurrence marks alone (the
// core's plan evaluator vs the TypeScript twin) per query shape, and the CPU time of the highlight
// path's stages.
// How a class's figure is made (session 16): both servers idle after their loads first (quarry's
// merges and idle compaction, Sphinx's flushes), then `--warm-passes` (default 8) passes of every
// class's queries by every peer; per class two warm-up blocks of its 20 queries per
// mode, then `--rounds` (default 25) alternated rounds, each mode one block a round; a ratio is the
// median over the rounds of the round's two blocks' docs/s ratio, printed with its spread (IQR/median:
// the middle half of the rounds' ratios over their median); the JSON's `byRound` keeps every round's
// ratios, docs/s and server CPU ms (scheduler run time, to the microsecond). Until session 15 it was 3
// rounds, one warm-up block, no wait, and the ratio of the median blocks: a block is 20 queries of
// 12-90 ms, where one collection, compile or preemption moves it by 10-30%, so the middle of three
// such blocks moved a class by 10-20% between two quiet runs minutes apart (S15 and S15b: quarry's low
// df 21.3k vs 26.5k docs/s, Sphinx's 10.5k vs 14.3k; quarry's first class, high df, 11.6k vs 9.7k), and
// quarry's first classes were timed on a server still warming: its CPU per block fell by thirds of 25
// rounds 50 -> 36 -> 29 ms (high df), 18.4 -> 14.8 -> 12.5 (mid), Sphinx's flat; after the warm-up passes
// 19.5 / 19.0 / 22.5 and 15.6 / 14.0 / 15.4 (load 18-20). Each peer does the same work as before:
// the same classes, queries and top 20; only more blocks of it. At load average 13-18 a run with --only .
// (no in-process parts) took 82 and 160 s, and two runs minutes apart differed per class by a median of 14%
// (at most 25%) on the SQL ratio and 2% (19%) by server CPU, where main's 3 rounds differed by 43% (157%)
// and 33% (100%). The figures are higher than before for quarry (it is timed warm), not comparable with S15's.
// Run: npm run bench -- highlight [--docs N] [--queries M] [--rounds R] [--warm-passes P] [--baseline DIR] [--ts-tokenizer 1]
// [--only REGEX] [--profile DIR] [--lean-client 1] (lean: the JSON mode's requests by http-client.ts LeanHttpClient,
// not node:http; each mode's bench-client CPU per query is in the table either way) (REGEX picks the modes by name, else the classes; DIR: this build's server
// restarted after the load under --cpu-prof, its profiles written there when it stops; no Sphinx then).
// The JSON mode's client is the harness's (http-client.ts): since session 20 undici's Pool.request (the engine of
// Node's fetch), a real and widely used client as mysql2 is on Sphinx's side, node:http with --http-client node
// (the client until session 20; session 16's bench/http/http-clients.bench.ts, 3 runs at load 9-24: bench CPU per
// request node:http 172-208 us, undici 7 187-209, mysql2 140-162, LeanHttpClient 59-75, so on these 40 kB
// replies the two weigh about the same); --lean-client 1 shows the column without most of the client's cost.
// Needs dict-gcide (and sphinxsearch for the Sphinx columns). Seed 42. Prints a table and JSON.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { installNodeHost } from '../../src/engine/node-host.js';
import { setFieldScannerFactory } from '../../src/text/field-scanner.js';
import { parseQuery } from '../../src/query/parse-query.js';
import { createTextPipeline } from '../../src/text/text-pipeline.js';
import { buildSnippets, packSnippets } from '../../src/highlight/snippet-builder.js';
import { snippetOptions } from '../../src/highlight/snippet-options.js';
import { pickPassagesTs, setSnippetPicker, type Picker } from '../../src/highlight/snippet-pick.js';
import { markDocument } from '../../src/highlight/snippet-marks.js';
import { matchDocument } from '../../test/reference/snippet-match.js';
import { buildStream } from '../../src/highlight/snippet-stream.js';
import { pickPassagesWasm, type PickInput } from '../../src/wasm/snippet.js';
import { loadGcide, type CorpusDoc } from '../lib/corpus.js';
import { arg, argString, sqlString } from '../lib/bench-util.js';
import { queryClasses } from '../engine/engine.bench.js';
import { freePort, sphinxAvailable, startSphinx } from '../peers/sphinx.js';
import { startQuarry, type QuarryServer } from '../side-by-side/side-by-side.bench.js';
import { measureClass, median, quarryClients, quarryModes, roundRatios, sphinxModes, topBodies, TOP, type HighlightMode } from './highlight-classes.js';
import { waitIdle } from '../lib/process-cpu.js';
import { progress } from '../lib/progress.js';

const BATCH = 1000;
/**
 * Alternated rounds per class by default (--rounds). Session 15's two quiet runs of 3 rounds, minutes
 * apart, disagreed by 10-20% on a class: a block is 20 queries of 12-90 ms, and a median of three is the
 * middle of three such blocks. See the header.
 */
const ROUNDS = 25;
/** Passes over every timed class's queries by every peer before the first class is timed (--warm-passes). */
const WARM_PASSES = 8;

async function load(exec: (sql: string) => Promise<unknown>, docs: CorpusDoc[]): Promise<void> {
  for (let i = 0; i < docs.length; i += BATCH) {
    const rows = docs.slice(i, i + BATCH).map((d) => `(${d.id},${sqlString(d.title)},${sqlString(d.body)},${d.body.length})`);
    await exec(`INSERT INTO gcide (id, title, body, len) VALUES ${rows.join(',')}`);
  }
}

const CREATE = "CREATE TABLE gcide (title text, body text, len uint) morphology='stem_en'";

/**
 * A quarry server of this build (or of `bin`, a baseline build) loaded with the documents; with `profile`
 * (a folder) restarted after the load under `--cpu-prof`, so its profile holds the query phase only.
 */
async function loadedQuarry(dir: string, docs: CorpusDoc[], bin?: string, profile?: string | null): Promise<{ server: QuarryServer; clients: Awaited<ReturnType<typeof quarryClients>> }> {
  let server = await startQuarry(dir, [], undefined, bin);
  const lean = arg('lean-client', 0) === 1;
  let clients = await quarryClients(server, lean);
  await clients.mysql.query(CREATE);
  await load((sql) => clients.mysql.query(sql), docs);
  if (profile) {
    await clients.close();
    await server.stop();
    server = await startQuarry(dir, ['--cpu-prof', `--cpu-prof-dir=${resolve(profile)}`], undefined, bin);
    clients = await quarryClients(server, lean);
  }
  return { server, clients };
}

type ClassRow = Record<string, string | number | null>;

/** The middle half's width of `xs` (third quartile - first), nearest ranks. */
function iqr(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length * 3) / 4)] - s[Math.floor(s.length / 4)];
}

/**
 * Per class: each mode's docs/s and server CPU per query, and the ratios the issue targets: quarry's
 * SQL HIGHLIGHT() and JSON highlight over Sphinx's search + CALL SNIPPETS, quarry's CALL SNIPPETS over
 * Sphinx's on the same texts (and a baseline build's figures beside this one's when given).
 */
async function perClass(docs: CorpusDoc[], nq: number, rounds: number, dir: string, baseline: string | null): Promise<{ rows: ClassRow[]; byRound: ClassRow[] }> {
  const byId = new Map(docs.map((d) => [d.id, d]));
  const classes = queryClasses(docs, nq);
  const stops: (() => Promise<void>)[] = [];
  try {
    const cur = await loadedQuarry(join(dir, 'quarry'), docs, undefined, argString('profile'));
    stops.push(() => cur.clients.close(), () => cur.server.stop());
    const bodies = await topBodies(cur.clients.mysql, classes.flatMap((c) => c.queries), byId);
    const of = (q: string): string[] => bodies.get(q) ?? [];
    const modes: HighlightMode[] = quarryModes('quarry', cur.server, cur.clients, of);
    if (baseline) {
      const base = await loadedQuarry(join(dir, 'baseline'), docs, join(baseline, 'bin/quarry.js'));
      stops.push(() => base.clients.close(), () => base.server.stop());
      modes.push(...quarryModes('baseline', base.server, base.clients, of));
    }
    let sphinxOn = false;
    if (sphinxAvailable() && !argString('profile')) {
      const sphinx = await startSphinx(join(dir, 'sphinx'), await freePort());
      stops.push(() => sphinx.stop());
      const c = await sphinx.connect();
      stops.push(() => c.end());
      await load((sql) => c.query(sql), docs);
      modes.push(...sphinxModes(sphinx.pid, c, byId, of));
      sphinxOn = true;
    }
    // every server's background work after its load (merges, the idle compaction, flushes) done before any
    // block is timed: quarry's compaction used to run into the first classes while Sphinx loaded
    progress.step('highlight: waiting for the servers to go idle');
    for (const pid of new Set(modes.map((m) => m.pid))) await waitIdle(pid);
    const segments = await cur.server.overMysql.segments?.('gcide');
    const only = new RegExp(argString('only') ?? '');
    const picked = modes.filter((m) => only.test(m.name));
    const out: ClassRow[] = [];
    // every round's figures, for the spread (kept out of the table)
    const byRound: ClassRow[] = [];
    // the servers warmed on every class before any is timed: quarry's CPU per block fell over the first classes'
    // rounds without it (JIT tiers, caches: high df 50 -> 36 -> 29 ms a block by thirds of 25 rounds) while
    // Sphinx's stayed flat, so the first classes were timed on a server still warming
    const timed = classes.filter((c) => only.test(c.name) || picked.length);
    const warm = arg('warm-passes', WARM_PASSES);
    for (let p = 0; p < warm; p++) {
      progress.step(`highlight: warm-up pass ${p + 1}/${warm} over ${timed.length} classes and ${(picked.length ? picked : modes).length} peers`);
      for (const cls of timed) for (const m of picked.length ? picked : modes) for (const q of cls.queries) await m.run(q);
    }
    for (const [i, cls] of classes.entries()) {
      if (!only.test(cls.name) && !picked.length) continue;
      progress.step(`highlight: class ${i + 1}/${classes.length}: ${cls.name} (${rounds} rounds over ${modes.length} peers)`);
      const f = await measureClass(picked.length ? picked : modes, cls.queries, rounds);
      const row: ClassRow = { class: cls.name, 'quarry segments': segments ?? null };
      const perRound: ClassRow = { class: cls.name };
      const rate = (name: string): number => f.get(name)?.docsPerSec ?? NaN;
      const perCpu = (name: string): number => f.get(name)?.docsPerCpuSec ?? NaN;
      if (sphinxOn) {
        // wall docs/s ratios (the issue's target: the median over rounds of the round's two blocks' ratio),
        // their spread (the middle half of the rounds' ratios, over the median), then the same ratios by docs
        // per server CPU-second over all blocks
        const both = 'Sphinx search + CALL SNIPPETS';
        const pairs: [string, string, string][] = [
          ['SQL HIGHLIGHT() / Sphinx', 'quarry SQL HIGHLIGHT()', both], ['JSON highlight / Sphinx', 'quarry JSON highlight', both],
          ['CALL SNIPPETS / Sphinx', 'quarry CALL SNIPPETS', 'Sphinx CALL SNIPPETS'],
        ];
        for (const [col, a, b] of pairs) {
          const rs = roundRatios(f.get(a), f.get(b));
          row[col] = rs.length ? median(rs) : NaN;
          row[`${col} IQR/median`] = rs.length ? iqr(rs) / median(rs) : NaN;
          perRound[col] = rs.map((x) => +x.toFixed(3)).join(' ');
        }
        row['by CPU: SQL'] = perCpu('quarry SQL HIGHLIGHT()') / perCpu(both);
        row['by CPU: JSON'] = perCpu('quarry JSON highlight') / perCpu(both);
        row['by CPU: CALL SNIPPETS'] = perCpu('quarry CALL SNIPPETS') / perCpu('Sphinx CALL SNIPPETS');
      }
      if (baseline) {
        // this build over the baseline's, per mode: the median over rounds of the two blocks' server CPU ratio
        for (const mode of ['SQL HIGHLIGHT()', 'JSON highlight', 'CALL SNIPPETS']) {
          const a = f.get(`quarry ${mode}`)?.cpuMsBlocks;
          const b = f.get(`baseline ${mode}`)?.cpuMsBlocks;
          if (a && b) row[`${mode} server CPU quarry / baseline`] = median(a.map((x, r) => x / b[r]));
        }
      }
      for (const [name, m] of f) {
        row[`${name} docs/s`] = m.docsPerSec; row[`${name} docs/CPU-s`] = m.docsPerCpuSec; row[`${name} client ms/q`] = m.clientCpuMsPerQuery;
        row[`${name} IQR/median`] = iqr(m.blocks) / m.docsPerSec;
        perRound[`${name} docs/s`] = m.blocks.map((x) => Math.round(x)).join(' ');
        perRound[`${name} server CPU ms`] = m.cpuMsBlocks.map((x) => +x.toFixed(2)).join(' ');
      }
      out.push(row);
      byRound.push(perRound);
    }
    return { rows: out, byRound };
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  }
}

/** CALL SNIPPETS throughput on texts of ~`size` chars, with one picker. */
function throughput(docs: CorpusDoc[], size: number, picker: Picker): { size: number; picker: Picker; callsPerSec: number; mbPerSec: number } {
  setSnippetPicker(picker);
  const pipeline = createTextPipeline({ morphology: 'stem_en' });
  const env = { pipeline, settings: { morphology: 'stem_en' } };
  const texts: string[] = [];
  let cur = '';
  for (const d of docs) {
    cur += `${d.body} `;
    if (cur.length >= size) { texts.push(cur.slice(0, size)); cur = ''; if (texts.length >= 20) break; }
  }
  const o = snippetOptions([]);
  const root = parseQuery('state | water', {}).root;
  const flags = { ignoreFields: true, textFromIndex: false, packFields: false };
  const run = (t: string) => packSnippets(buildSnippets(root, [{ name: '', text: t }], o, env, flags), o);
  for (const t of texts) run(t);
  const rounds = size > 10000 ? 3 : 50;
  const t0 = performance.now();
  for (let r = 0; r < rounds; r++) for (const t of texts) run(t);
  const s = (performance.now() - t0) / 1000;
  const calls = rounds * texts.length;
  setSnippetPicker('wasm');
  return { size, picker, callsPerSec: calls / s, mbPerSec: (calls * size) / s / 1e6 };
}

/** The passage pick alone (the part in the core) on a text of `size` chars: ms per call, WASM and TS. */
function pickOnly(docs: CorpusDoc[], size: number): { size: number; tokens: number; wasmMs: number; tsMs: number } {
  const pipeline = createTextPipeline({ morphology: 'stem_en' });
  let text = '';
  for (const d of docs) { text += `${d.body} `; if (text.length >= size) break; }
  text = text.slice(0, size);
  const tokens = pipeline.tokenize(text);
  const root = parseQuery('state | water', {}).root;
  const m = markDocument(root, [{ name: '', tokens }], { pipeline, ignoreFields: true, expandInfix: false, expandPrefix: false });
  const s = buildStream({ text, tokens, marks: [], termIndex: m.termIndex[0], hits: m.hits, field: 0, tags: false, boundary: '' });
  const lim = { limit: 256, limitWords: 0, limitSnippets: 0 };
  const inp: PickInput = {
    streams: [s.passage], extract: [true], limits: [lim], global: lim, perField: true, around: 5, forceAllWords: false,
    useBoundaries: false, spz: false, termWeights: m.termWeights, foundWords: m.foundMask,
  };
  const time = (f: (i: PickInput) => unknown): number => {
    f(inp);
    const rounds = size > 10000 ? 20 : 500;
    const t0 = performance.now();
    for (let r = 0; r < rounds; r++) f(inp);
    return (performance.now() - t0) / rounds;
  };
  return { size, tokens: s.passage.len.length, wasmMs: time(pickPassagesWasm), tsMs: time(pickPassagesTs) };
}

/** Matched-occurrence marks alone per document, the core's plan evaluator vs the TypeScript twin, per query shape (CPU time). */
function marksOnly(docs: CorpusDoc[]): { query: string; coreDocsPerCpuSec: number; twinDocsPerCpuSec: number }[] {
  const pipeline = createTextPipeline({ morphology: 'stem_en' });
  const fields = docs.slice(0, 2000).map((d) => [{ name: '', tokens: pipeline.tokenize(d.body) }]);
  const rate = (f: (fs: (typeof fields)[number]) => unknown): number => {
    for (const fs of fields.slice(0, 200)) f(fs);
    const c0 = process.cpuUsage();
    for (const fs of fields) f(fs);
    const c = process.cpuUsage(c0);
    return fields.length / ((c.user + c.system) / 1e6);
  };
  return ['water', 'water state', 'water | state', '"of the"', 'water NEAR/5 state', 'plant -animal'].map((q) => {
    const root = parseQuery(q, {}).root;
    const ctx = { ignoreFields: true, expandInfix: false, expandPrefix: false };
    return {
      query: q,
      coreDocsPerCpuSec: rate((fs) => markDocument(root, fs, { ...ctx, pipeline })),
      twinDocsPerCpuSec: rate((fs) => matchDocument(root, fs, { ...ctx, normalize: (w) => pipeline.normalizeWord(w) })),
    };
  });
}

/** Median CPU ms of `rounds` runs of `f`. */
function medianCpuMs(rounds: number, f: () => void): number {
  const t: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const c0 = process.cpuUsage();
    f();
    const c = process.cpuUsage(c0);
    t.push((c.user + c.system) / 1000);
  }
  return t.sort((a, b) => a - b)[t.length >> 1];
}

/**
 * The highlight path's stages on 3,000 gcide bodies, CPU time (median of 7): analyze (tokenize the
 * stored text), buildStream (pieces and the core's token layout) and a whole in-process CALL SNIPPETS.
 */
function stages(docs: CorpusDoc[]): { docs: number; analyzeMs: number; streamMs: number; snippetsMs: number; snippetsDocsPerCpuSec: number } {
  const texts = docs.slice(0, 3000).map((d) => d.body);
  const pipeline = createTextPipeline({ morphology: 'stem_en' });
  const env = { pipeline, settings: { morphology: 'stem_en' } };
  const root = parseQuery('state | water', {}).root;
  const o = snippetOptions([]);
  const flags = { ignoreFields: true, textFromIndex: false, packFields: false };
  const analyzed = texts.map((t) => pipeline.analyze(t));
  const ctx = { pipeline, ignoreFields: true, expandInfix: false, expandPrefix: false };
  const marks = analyzed.map((a) => markDocument(root, [{ name: '', tokens: a.tokens }], ctx));
  const analyzeMs = medianCpuMs(7, () => { for (const t of texts) pipeline.analyze(t); });
  const streamMs = medianCpuMs(7, () => texts.forEach((text, i) => buildStream({
    text, tokens: analyzed[i].tokens, marks: [], termIndex: marks[i].termIndex[0], hits: marks[i].hits, field: 0, tags: false, boundary: '',
  })));
  const snippetsMs = medianCpuMs(7, () => { for (const t of texts) packSnippets(buildSnippets(root, [{ name: '', text: t }], o, env, flags), o); });
  return { docs: texts.length, analyzeMs, streamMs, snippetsMs, snippetsDocsPerCpuSec: texts.length / (snippetsMs / 1000) };
}

export async function highlightBench() {
  const nDocs = arg('docs', 100000);
  const nq = arg('queries', 20);
  const rounds = arg('rounds', ROUNDS);
  const docs = loadGcide(nDocs);
  const dir = mkdtempSync(join(tmpdir(), 'quarry-hl-bench-'));
  // --ts-tokenizer 1: fields tokenized by the TS tokenizer instead of the core's scanner (before/after, in process)
  installNodeHost();
  if (arg('ts-tokenizer', 0)) setFieldScannerFactory(null);
  try {
    const { rows: classes, byRound } = await perClass(docs, nq, rounds, dir, argString('baseline'));
    // a partial run (some modes or classes, or a profiled server) is not the committed results' run
    if (argString('profile') || argString('only')) return { docs: docs.length, top: TOP, rounds, classes, byRound, partial: true as const };
    const picker = [1000, 100000].flatMap((size) => (['wasm', 'ts'] as Picker[]).map((p) => throughput(docs, size, p)));
    const pick = [1000, 100000].map((size) => pickOnly(docs, size));
    return { docs: docs.length, top: TOP, rounds, classes, byRound, picker, pick, marks: marksOnly(docs), stages: stages(docs) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('highlight.bench.js')) {
  highlightBench().then((r) => console.log(JSON.stringify(r, null, 2))).catch((e) => { console.error(e); process.exitCode = 1; });
}
