// bench/import/import-ab.bench.ts: `quarry import --data` of the dict-gcide entries (as import.bench.ts runs it:
// one TSV file, a stem_en table created first, the process timed by /usr/bin/time), this build against a
// baseline build, alternated run by run (the only fair comparison on a shared machine). Per run: wall
// seconds, docs/s, CPU seconds (user + sys, both threads), peak RSS and the md5 of the table's segment
// files in table order (equal across builds and runs: byte-identical segments; segment-files.ts).
// Quarry only, no Sphinx (import.bench.ts has it).
// With `--profile DIR` each import runs with --cpu-prof (the build thread writes a profile of its own)
// into DIR/<build>-<round>. With `--batch N` the import's batches are N rows (default: quarry import's),
// so more segments, which the merge thread merges when the import ends (the merge thread's code measured
// too; a 25k-row batch leaves gcide at 6 segments and merges nothing).
// With `--tail 1` each run also reports tailMs (last segment built -> engine closed), firstJobMs, and the CPU ms
// of the build thread (buildCpuMs; jobsCpuMs from its first job's start), the main thread and the process's other threads (V8's helpers: otherCpuMs).
// Run: npm run bench -- import-ab [--baseline DIR] [--gcide N] [--rounds 3] [--batch N] [--profile DIR] [--tail 1]
// (DIR: a checkout with dist/ built).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runAlternated } from '../lib/ab-children.js';
import { arg, argString } from '../lib/bench-util.js';
import { loadGcide } from '../lib/corpus.js';
import { segmentsMd5 } from '../lib/segment-files.js';

const TSV = join(tmpdir(), 'quarry-import-ab-gcide.tsv');

/** The gcide rows as import.bench.ts writes them (made once, shared by the children). */
function gcideTsv(max: number): { file: string; docs: number } {
  const file = `${TSV}.${Number.isFinite(max) ? max : 'all'}`;
  if (!existsSync(file)) {
    const docs = loadGcide(max);
    const clean = (s: string) => s.replace(/[\t\r\n]/g, ' ');
    writeFileSync(file, docs.map((d) => `${d.id}\t${clean(d.title)}\t${clean(d.body)}\n`).join(''));
  }
  return { file, docs: readFileSync(file, 'utf8').split('\n').length - 1 };
}

/**
 * With `--tail 1` (QUARRY_TRACE_PHASES marks, src/util/phase-trace.ts): the ms from the build thread's
 * last segment to the engine closed (what follows the build thread, the critical path: the last
 * writes to lmdb, checkpoints, closing) and to its first job's start.
 */
function tailOf(stderr: string): { tailMs: number; firstJobMs: number; buildCpuMs: number; jobsCpuMs: number; mainCpuMs: number; otherCpuMs: number } {
  const lines = stderr.split('\n');
  const at = (re: RegExp) => lines.filter((l) => re.test(l)).map((l) => Number(l.split(' ')[1]));
  // the build thread's CPU at its last segment (its phase marks carry it), and the process's other threads
  // from the closing `threads` line (V8's compiler and GC helpers, libuv's pool): what competes for the cores
  const cpuAt = (re: RegExp) => lines.filter((l) => re.test(l)).map((l) => Number(/cpu=([\d.]+)/.exec(l)![1]));
  const built = cpuAt(/ t\d+ cpu=[\d.]+(?: wait=[-\d.]+)? job \d+ built$/);
  // from its first job's start: the part of its CPU on the critical path (before it, it waits for the first batch)
  const firstJobCpu = Math.min(...cpuAt(/ t\d+ cpu=[\d.]+(?: wait=[-\d.]+)? job 0 start$/));
  const threads = (lines.find((l) => l.startsWith('threads ')) ?? '').split(' ').slice(1).map((t) => t.split('='));
  const mainCpuMs = Number(threads.find(([k]) => k === 'main')?.[1] ?? 0);
  const others = threads.filter(([k]) => k !== 'main').map(([, v]) => Number(v)).sort((a, b) => b - a);
  return {
    tailMs: Math.round(Math.max(...at(/ closed$/)) - Math.max(...at(/ job \d+ built$/))), firstJobMs: Math.round(Math.min(...at(/ job 0 start$/))),
    buildCpuMs: Math.round(Math.max(0, ...built)), jobsCpuMs: Math.round(Math.max(0, ...built) - firstJobCpu), mainCpuMs, otherCpuMs: others.slice(1).reduce((a, b) => a + b, 0),
  };
}

/** `--batch N` passed on to quarry import, when given. */
function batchArgs(): string[] {
  const batch = arg('batch', 0);
  return batch > 0 ? ['--batch', String(batch)] : [];
}

async function child(root: string): Promise<void> {
  const { file, docs } = gcideTsv(arg('gcide', Infinity));
  const dir = mkdtempSync(join(tmpdir(), 'quarry-import-ab-'));
  try {
    const data = join(dir, 'data');
    const { open } = await import(pathToFileURL(resolve(root, 'dist/src/index.js')).href);
    const db = await open(data, { threads: 1 });
    await db.sql("CREATE TABLE gcide (title text, body text) morphology='stem_en'");
    await db.close();
    const profile = argString('profile');
    const build = resolve(root) === ROOT_THIS ? 'this' : 'baseline';
    const tail = arg('tail', 0) > 0;
    const prof = profile ? ['--cpu-prof', `--cpu-prof-dir=${join(profile, `${build}-${Date.now()}`)}`] : [];
    const stats = join(dir, 'time');
    const r = spawnSync('/usr/bin/time', ['-o', stats, '-f', '%e %U %S %M', process.execPath, ...prof, join(root, 'bin/quarry.js'), 'import',
      '--table', 'gcide', '--data', data, '--format', 'tsv', '--no-header', '--columns', 'id,title,body', '--quiet', ...batchArgs(), file],
    { encoding: 'utf8', env: tail ? { ...process.env, QUARRY_TRACE_PHASES: '1' } : process.env });
    if (r.status !== 0) throw new Error(`import failed: ${r.stderr}`);
    const [wall, user, sys, rss] = readFileSync(stats, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
    console.log(JSON.stringify({ docs, wallS: wall, docsPerSec: Math.round(docs / wall!), cpuS: Number((user! + sys!).toFixed(2)),
      userS: user, sysS: sys, maxRssMiB: Math.round(rss! / 1024), md5: segmentsMd5(data), ...(tail ? tailOf(r.stderr) : {}) }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const ROOT_THIS = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
runAlternated(fileURLToPath(import.meta.url), child);
