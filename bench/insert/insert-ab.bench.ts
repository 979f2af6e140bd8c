// bench/insert/insert-ab.bench.ts: single-row INSERTs from CLIENTS clients at once (group commit), this build against
// a baseline build, alternated run by run (the only fair comparison on a shared machine); per run the rate and
// the server's CPU ms an INSERT, split into its protocol thread and all its other threads (lmdb's writer,
// V8's compiler and GC helpers, the merge thread), and the bytes it wrote to disk an INSERT (fewer, fuller
// commit rounds write fewer pages), from /proc after it went idle again; and the clients' own CPU an INSERT (this
// process: mysql2 or node:http on the same cores). Quarry only, no Sphinx. QUARRY_TRACE_ROUNDS=1 in the
// environment: each server prints where its group-commit rounds spent their time (src/util/round-trace.ts).
// Run: npm run bench -- insert-ab [--baseline DIR] [--clients 16] [--statements 6000] [--rounds 3] [--http 1]
// [--json 1] (HTTP JSON `/insert` bodies instead of `/sql` INSERTs; the same rows)
// [--http-client undici|node] (the HTTP client: undici's Pool.request, the default, or node:http; http-client.ts)
// [--client-ab 1] (this build alone, its clients alternated run by run instead of two builds: mysql2, then HTTP
// /sql, or /insert with --json 1, by node:http and by undici, and with --lean 1 by LeanHttpClient too; the
// clients' CPU an INSERT is the figure to read)
// [--profile DIR] (each server with --cpu-prof, its profiles in DIR/<build>-<round>)
// [--threads 1] (each thread name's CPU ms an INSERT too: lmdb's writer, V8 workers, libuv, merge thread)
// [--strace 1] (strace -f -c attached to the server for the timed phase: fdatasyncs and pwrites an INSERT;
// tracing slows every syscall, so read its rate and CPU as traced, not against untraced runs)
// [--perf DIR] (perf record -g of every thread of the server for the timed phase, DIR/<build>-<round>.data: which
// thread spends its CPU where, V8's compiler and GC helpers included; read with `perf report --sort comm,dso,sym`)
// [--build DIR] (the build called 'this', instead of this checkout's: two traced copies alternated, say)
// [--v8-log DIR] (each server with V8's --log-code --log-deopt, its logs in DIR/<build>-<round>/ (made here), and per
// row the main isolate's TurboFan compiles and deopts in the timed phase: by area, how many had been compiled
// before in the run, the names; bench/lib/v8-log.ts. Logging costs CPU: read its figures against each other)
// [--marks 1] (each phase's start and end on stderr as epoch ms, to place a server's V8 traces: --trace-opt lines
// carry no time)
// [--warmup N] (statements of the untimed 16-client warm-up, 1000; 0 for none)
// [--phases 1] (before the warm-up, the phases `npm run bench -- insert` runs before its 16-client one, one
// client each: 2,000 single-row INSERTs, then 20,000 rows 100 and 1000 to an INSERT, each followed by a wait
// for idle; the pauses between them are where V8's idle-time collections drop code, so the timed phase
// meets the server as the insert bench's does; use --statements 2000 for that bench's phase)
// Each row also has the server's CPU over the whole run ('CPU ms whole run').
// (DIR: a copy of a checkout with dist/, build/ and bin/). dict-gcide documents in corpus order.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { arg, argString, sqlString } from '../lib/bench-util.js';
import { loadGcide, type CorpusDoc } from '../lib/corpus.js';
import { clientAgent, HTTP_CLIENT, httpClientNote, postOk, type HttpClientName } from '../lib/http-client.js';
import { waitIdle } from '../lib/process-cpu.js';
import { processStartEpochMs, v8LogArgs, windowCompiles } from '../lib/v8-log.js';
import { startQuarry } from '../side-by-side/side-by-side.bench.js';

const ROOT = new URL('../../..', import.meta.url).pathname;

/**
 * CPU ms (user + system) of the process's protocol thread and of its other threads, and per thread name
 * (`comm`: lmdb's writer, V8's workers, libuv's pool, the merge thread) for `--threads 1`.
 */
function threadCpuMs(pid: number): { main: number; other: number; byName: Map<string, number> } {
  const out = { main: 0, other: 0, byName: new Map<string, number>() };
  // the process's own total keeps the CPU of threads that ended (the idle collector releases idle worker
  // threads, often in the wait for idle after the timed phase): other = total - main, not a sum of the live
  // threads, which then came out short or negative
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const total = (Number(f[11]) + Number(f[12])) * 10;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ms = (Number(f[11]) + Number(f[12])) * 10; // USER_HZ 100
      if (tid === String(pid)) out.main += ms;
      // Node 20 leaves its threads unnamed ("node"): the tid tells them apart, the busiest first in the output
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const name = tid === String(pid) ? 'main' : comm === 'node' ? tid : comm;
      out.byName.set(name, (out.byName.get(name) ?? 0) + ms);
    } catch { /* the thread ended meanwhile */ }
  }
  out.other = total - out.main;
  return out;
}

/**
 * Bytes the process has had written to storage so far (/proc/<pid>/io write_bytes): each lmdb commit writes
 * whole 16 KiB pages, so per INSERT this falls as rounds hold more statements (fewer commits).
 */
function diskWriteBytes(pid: number): number {
  const m = /write_bytes: (\d+)/.exec(readFileSync(`/proc/${pid}/io`, 'utf8'));
  return m ? Number(m[1]) : NaN;
}

/**
 * strace -f -c attached to `pid` until the returned stop() (SIGINT), which resolves with the calls of each
 * syscall that syncs or writes files (fdatasync, fsync, pwrite64, write, ...) counted meanwhile.
 */
async function traceSyscalls(pid: number, out: string): Promise<() => Promise<Record<string, number>>> {
  const t = spawn('strace', ['-f', '-c', '-qq', '-e', 'trace=fdatasync,fsync,sync_file_range,msync,pwrite64,pwritev,write,writev', '-o', out, '-p', String(pid)], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 500)); // attached to every thread by then
  return async () => {
    t.kill('SIGINT');
    await new Promise((r) => t.once('exit', r));
    const calls: Record<string, number> = {};
    for (const line of readFileSync(out, 'utf8').split('\n')) {
      const m = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)\s*$/.exec(line);
      if (m && m[2] !== 'total') calls[m[2]!] = Number(m[1]);
    }
    return calls;
  };
}

/** `perf record -g` of every thread of `pid` into `out` until the returned stop() (SIGINT). */
async function recordPerf(pid: number, out: string): Promise<() => Promise<void>> {
  const p = spawn('perf', ['record', '-q', '-g', '-F', '2999', '-p', String(pid), '-o', out], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 500)); // attached by then
  return async () => {
    p.kill('SIGINT');
    await new Promise((r) => p.once('exit', r));
  };
}

/** Each thread name's CPU ms an INSERT between two readings (threads that ended meanwhile are lost). */
function perName(before: Map<string, number>, after: Map<string, number>, count: number): Record<string, number> {
  const rows = [...after].map(([name, ms]) => [name, ms - (before.get(name) ?? 0)] as const).filter(([, d]) => d > 0);
  rows.sort((a, b) => b[1] - a[1]);
  return Object.fromEntries(rows.map(([name, d]) => [`thread ${name}`, Number((d / count).toFixed(3))]));
}

/** One server of `bin`: with --phases the insert bench's earlier phases, then a warm-up of 1,000 INSERTs, then `n` timed ones, each client one statement at a time. */
async function run(bin: string, docs: CorpusDoc[], n: number, clients: number, http: boolean, json: boolean, httpClient: HttpClientName, profile?: string, perfOut?: string, v8Log?: string): Promise<Record<string, number | string>> {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-insert-ab-'));
  if (v8Log) mkdirSync(v8Log, { recursive: true });
  for (const k of Object.keys(v8Figures)) delete v8Figures[k];
  const q = await startQuarry(join(dir, 'data'), [...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []), ...(v8Log ? v8LogArgs(v8Log) : [])], undefined, bin);
  const started = v8Log ? processStartEpochMs(q.overMysql.pid!) : 0;
  /** The timed phase's start and end, epoch ms (for the V8 log's window). */
  let timedWindow: [number, number] | undefined;
  try {
    const peer = http ? q.overHttp : q.overMysql;
    // `/insert` with one document per request, one keep-alive connection per client (as `/sql`)
    const jsonInsert = (d: CorpusDoc, id: number) => JSON.stringify({ table: 'gcide', id, doc: { title: d.title, body: d.body, len: d.body.length } });
    const c = await q.overHttp.open();
    await c.exec("CREATE TABLE gcide (title text, body text, len uint) morphology='stem_en'");
    await c.close();
    const phase = async (base: number, count: number, traced: boolean, perfTo?: string) => {
      const sqlInsert = (d: CorpusDoc, id: number) => `INSERT INTO gcide (id, title, body, len) VALUES (${id},${sqlString(d.title)},${sqlString(d.body)},${d.body.length})`;
      const conns = http
        ? await Promise.all(Array.from({ length: clients }, async () => {
          // one keep-alive connection per client, of the HTTP client chosen (side-by-side's /sql?mode=raw),
          // opened before the clock starts as mysql2's are by peer.open()
          const agent = clientAgent(httpClient);
          await agent.connect(q.port);
          const insert = json
            ? (d: CorpusDoc, id: number) => postOk(agent, q.port, '/insert', jsonInsert(d, id))
            : (d: CorpusDoc, id: number) => postOk(agent, q.port, '/sql?mode=raw', sqlInsert(d, id));
          return { insert, close: async () => agent.destroy() };
        }))
        : await Promise.all(Array.from({ length: clients }, async () => {
          const c = await peer.open();
          return { insert: (d: CorpusDoc, id: number) => c.exec(sqlInsert(d, id)), close: () => c.close() };
        }));
      let next = 0;
      await waitIdle(q.overMysql.pid!);
      const cpu0 = threadCpuMs(q.overMysql.pid!);
      const disk0 = diskWriteBytes(q.overMysql.pid!);
      const stopTrace = traced ? await traceSyscalls(q.overMysql.pid!, join(dir, 'strace.txt')) : undefined;
      const stopPerf = perfTo ? await recordPerf(q.overMysql.pid!, perfTo) : undefined;
      mark(`phase ${count} x1 from ${clients} clients start`);
      const epoch0 = Date.now();
      const t0 = performance.now();
      const client0 = process.cpuUsage();
      await Promise.all(conns.map(async (conn) => {
        while (next < count) {
          const d = docs[next++]!;
          await conn.insert(d, base + d.id);
        }
      }));
      const s = (performance.now() - t0) / 1000;
      const client = process.cpuUsage(client0);
      mark(`phase ${count} x1 end`);
      // the last phase run is the timed one; compiles its last statements queued end just after it (+0.5 s);
      // the V8 log's clock starts after the process's (up to 1 s earlier: v8-log.ts), in the idle wait before
      timedWindow = [epoch0 - 1000, Date.now() + 500];
      const calls = stopTrace ? await stopTrace() : undefined;
      await stopPerf?.();
      await Promise.all(conns.map((x) => x.close()));
      await waitIdle(q.overMysql.pid!);
      const cpu = threadCpuMs(q.overMysql.pid!);
      const disk = diskWriteBytes(q.overMysql.pid!) - disk0;
      const per = (ms: number) => Number((ms / count).toFixed(3));
      return {
        'INSERTs/s': Math.round(count / s), 'CPU ms/INSERT main': per(cpu.main - cpu0.main), 'CPU ms/INSERT other': per(cpu.other - cpu0.other),
        'disk KB/INSERT': Number((disk / 1024 / count).toFixed(2)),
        // the clients' own CPU (this process: mysql2 or node:http, the statement text) shares the server's cores
        'client CPU ms/INSERT': per((client.user + client.system) / 1000),
        ...(threadNames ? perName(cpu0.byName, cpu.byName, count) : {}),
        ...(calls ? Object.fromEntries(Object.entries(calls).map(([k, v]) => [`${k}/INSERT`, Number((v / count).toFixed(3))])) : {}),
      };
    };
    if (phases) await benchPhases(q.overMysql.pid!, peer, docs);
    if (warmup > 0) await phase(10_000_000, Math.min(warmup, n), false);
    const timed = await phase(20_000_000, n, trace, perfOut);
    // the whole run's CPU too (phases, warm-up, timed phase, each followed by a wait for idle): work moved
    // out of the timed phase (a collection, a recompile, a merge) still shows here
    const whole = threadCpuMs(q.overMysql.pid!);
    return { ...timed, 'CPU ms whole run': whole.main + whole.other };
  } finally {
    await q.overMysql.stop();
    rmSync(dir, { recursive: true, force: true });
    // read once the server has ended (V8 writes its log buffered)
    if (v8Log && timedWindow) Object.assign(v8Figures, windowCompiles(v8Log, q.overMysql.pid!, started, ...timedWindow));
  }
}
/** The last run's figures from its V8 log (--v8-log), read after the server ended. */
const v8Figures: Record<string, number | string> = {};

/** `npm run bench -- insert`'s phases before its 16-client one (insertRun: one client, a wait for idle after each). */
async function benchPhases(pid: number, peer: { open(): Promise<{ exec(sql: string): Promise<unknown>; close(): Promise<void> }> }, docs: CorpusDoc[]): Promise<void> {
  for (const [rowsPer, count] of [[1, 2000], [100, BENCH_PHASE_DOCS], [1000, BENCH_PHASE_DOCS]] as const) {
    // a connection of its own each phase, as insertRun opens: over HTTP each opens with SHOW VERSION
    // (http-client.ts), so the server meets a non-INSERT statement between the phases as in the insert bench
    const c = await peer.open();
    await waitIdle(pid);
    mark(`phase ${count} x${rowsPer} from 1 client start`);
    for (let i = 0; i < Math.min(count, docs.length); i += rowsPer) {
      const rows = docs.slice(i, Math.min(count, i + rowsPer)).map((d) => `(${(30 + rowsPer) * 1_000_000 + d.id},${sqlString(d.title)},${sqlString(d.body)},${d.body.length})`);
      await c.exec(`INSERT INTO gcide (id, title, body, len) VALUES ${rows.join(',')}`);
    }
    mark(`phase ${count} x${rowsPer} end`);
    await c.close();
    // insertRun waits for idle after each run too (to read the CPU): the pause between two of its runs is
    // two waits long (2-3 s), as here
    await waitIdle(pid);
  }
}

/** Documents of the bench phases' 100- and 1000-row runs (`npm run bench -- insert --docs 20000`). */
const BENCH_PHASE_DOCS = 20_000;
const clients = arg('clients', 16);
const n = arg('statements', 6000);
const rounds = arg('rounds', 3);
const json = arg('json', 0) === 1;
const http = json || arg('http', 0) === 1;
const baseline = argString('baseline');
const profileDir = argString('profile') ?? undefined;
const threadNames = arg('threads', 0) === 1;
const trace = arg('strace', 0) === 1;
const phases = arg('phases', 0) === 1;
// --warmup 0 with --phases 1: the timed phase is the insert bench's own 16-client phase, its new connections'
// first statements and the compiles they cause included (the warm-up had them out of the timed phase)
const warmup = arg('warmup', 1000);
const perfDir = argString('perf') ?? undefined;
const v8LogDir = argString('v8-log') ?? undefined;
const marks = arg('marks', 0) === 1;
function mark(what: string): void {
  if (marks) console.error(`mark ${Date.now()} ${what}`);
}
const docs = loadGcide(phases ? Math.max(n, BENCH_PHASE_DOCS) : n);
const thisBin = join(argString('build') ?? ROOT, 'bin/quarry.js');
const clientAb = arg('client-ab', 0) === 1;
/** [name, bin/quarry.js, over HTTP, the HTTP client] of each alternated run. */
const builds: [string, string, boolean, HttpClientName][] = clientAb
  ? [['this mysql2', thisBin, false, HTTP_CLIENT], ['this node:http', thisBin, true, 'node'], ['this undici', thisBin, true, 'undici'], ...(arg('lean', 0) === 1 ? [['this lean', thisBin, true, 'lean'] as [string, string, boolean, HttpClientName]] : [])]
  : [['this', thisBin, http, HTTP_CLIENT]];
if (baseline && !clientAb) builds.unshift(['baseline', join(baseline, 'bin/quarry.js'), http, HTTP_CLIENT]);
if (clientAb) console.error('insert-ab: clients mysql2, node:http and undici alternated');
else if (http) console.error(`insert-ab: ${httpClientNote()}`);
const rows: Record<string, unknown>[] = [];
for (let r = 0; r < rounds; r++) {
  for (const [name, bin, overHttp, client] of builds) {
    const protocol = !overHttp ? 'mysql' : `${json ? 'http /insert' : 'http /sql'} (${client === 'node' ? 'node:http' : client})`;
    rows.push({ build: name, round: r + 1, clients, protocol, ...(await run(bin, docs, n, clients, overHttp, overHttp && json, client, profileDir && resolve(profileDir, `${name}-${r + 1}`), perfDir && resolve(perfDir, `${name}-${r + 1}.data`), v8LogDir && resolve(v8LogDir, `${name}-${r + 1}`))), ...v8Figures });
  }
}
console.log(JSON.stringify(rows, null, 2));
