// bench/http/bulk-ab.bench.ts: the /bulk exchange without a socket (src/http/json-routes.ts bulkReply: the NDJSON
// body parsed, its lines read and written, the reply rendered), 100k dict-gcide documents in bodies of 1000 as
// the side-by-side sends them, in a child process per run, this build against a baseline build alternated run
// by run. Per run: the protocol thread's CPU ms per 1000 documents while the bodies are answered (`main`),
// the other threads' (lmdb's writer, the merge thread), docs/s, and the protocol thread's idle ms per 1000
// (wall time neither on a CPU nor waiting for one: waiting for a commit; bench/lib/process-cpu.ts mainThreadSched). Node runs as bin/quarry.js runs it
// (--min-semi-space-size=4). No HTTP server, so the figure is the
// per-body and per-line work load-ab.bench.ts measures among the rest, at a finer grain.
// Run: npm run bench -- bulk-ab [--baseline DIR] [--docs 100000] [--rounds 3]
// (DIR: a copy of a checkout with dist/ and build/).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runAlternated } from '../lib/ab-children.js';
import { arg } from '../lib/bench-util.js';
import { loadGcide } from '../lib/corpus.js';
import { bulkBody } from '../lib/http-client.js';
import { mainThreadSched, threadCpuMs } from '../lib/process-cpu.js';

const BATCH = 1000;

/** One run in this process: `root`'s engine and bulkReply over `docs` documents; prints its figures as JSON. */
async function child(root: string, docs: number): Promise<void> {
  const engineMod = await import(pathToFileURL(join(root, 'dist/src/engine/index.js')).href);
  const routes = await import(pathToFileURL(join(root, 'dist/src/http/json-routes.js')).href);
  const corpus = loadGcide(docs);
  const bodies: string[] = [];
  for (let i = 0; i < corpus.length; i += BATCH) bodies.push(bulkBody('gcide', corpus.slice(i, i + BATCH)));
  const dir = mkdtempSync(join(tmpdir(), 'quarry-bulk-ab-'));
  const engine = await engineMod.openEngine({ dataDir: dir, threads: 1 });
  try {
    const session = engineMod.newSession();
    await engine.execute("CREATE TABLE gcide (title text, body text, len uint) morphology='stem_en'", session);
    const cpu0 = threadCpuMs(process.pid);
    const sched0 = mainThreadSched(process.pid);
    const t0 = performance.now();
    for (const body of bodies) {
      const r = await routes.bulkReply(engine.json, 'application/x-ndjson', body);
      if (r.status !== 200) throw new Error(`bulk: ${r.status} ${String(r.body).slice(0, 300)}`);
    }
    const s = (performance.now() - t0) / 1000;
    const cpu = threadCpuMs(process.pid);
    const sched = mainThreadSched(process.pid);
    const idleMs = (performance.now() - t0) - (sched.runMs - sched0.runMs) - (sched.waitMs - sched0.waitMs);
    const per = (ms: number) => Number(((ms / corpus.length) * 1000).toFixed(1));
    console.log(JSON.stringify({ 'docs/s': Math.round(corpus.length / s), 'CPU ms/1000 main': per(cpu.main - cpu0.main), 'CPU ms/1000 other': per(cpu.other - cpu0.other), 'main idle ms/1000': per(idleMs) }));
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

runAlternated(fileURLToPath(import.meta.url), (root) => child(root, arg('docs', 100_000)), ['--min-semi-space-size=4']);
