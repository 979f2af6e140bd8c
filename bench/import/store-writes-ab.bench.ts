// bench/import/store-writes-ab.bench.ts: the store writes of a gcide import apart from the rest of it: the
// dict-gcide entries as `quarry import` gives them to Store.write (25k puts a call, ids ascending, documents
// {title, body}), this build against a baseline build, alternated. Per run, for one pass over the entries
// (the first of `--passes` (default 4) left out: compiles): prepareMs (prepareBatch alone: encoding and
// sealing the documents), mainCpuMs (Store.write whole, the main thread's CPU, from /proc: encoding,
// lmdb's puts) and cpuMs (the process's: lmdb's commits and syncs too).
// Run: node dist/bench/import/store-writes-ab.bench.js [--baseline DIR] [--rounds 3] [--passes 4] [--gcide N]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { processCpuMs, runAlternated } from '../lib/ab-children.js';
import { arg } from '../lib/bench-util.js';
import { loadGcide } from '../lib/corpus.js';

/** This thread's CPU ms (utime + stime of /proc/self/task/<pid>: the main thread's, in 10 ms ticks). */
function mainThreadCpuMs(): number {
  const f = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

async function child(root: string): Promise<void> {
  const at = (p: string) => import(pathToFileURL(resolve(root, p)).href);
  const { Store } = await at('dist/src/store/store.js');
  const { prepareBatch } = await at('dist/src/store/write-batch.js');
  const docs = loadGcide(arg('gcide', Infinity)).map((d, i) => ({ docId: BigInt(i + 1), doc: { title: d.title, body: d.body } }));
  const schema = {
    name: 'g', settings: {},
    columns: [{ name: 'title', type: 'text', indexed: true, stored: true }, { name: 'body', type: 'text', indexed: true, stored: true }],
  };
  const passes = Math.max(2, arg('passes', 4));
  let prepare = 0, main = 0, cpu = 0;
  for (let p = 0; p < passes; p++) {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-store-writes-'));
    const store = Store.open(dir);
    try {
      await store.createTable(schema);
      for (let b = 0; b < docs.length; b += 25_000) {
        const ops = docs.slice(b, b + 25_000).map(({ docId, doc }) => ({ op: 'put' as const, docId, doc }));
        const c0 = processCpuMs();
        prepareBatch(ops);
        const c1 = processCpuMs(), m1 = mainThreadCpuMs();
        await store.write('g', ops);
        if (p > 0) { prepare += c1 - c0; main += mainThreadCpuMs() - m1; cpu += processCpuMs() - c1; }
      }
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const per = (ms: number) => Math.round(ms / (passes - 1));
  console.log(JSON.stringify({ docs: docs.length, prepareMs: per(prepare), mainCpuMs: per(main), cpuMs: per(cpu) }));
}

runAlternated(fileURLToPath(import.meta.url), child);
