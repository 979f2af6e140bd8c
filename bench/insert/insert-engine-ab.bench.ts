// bench/insert/insert-engine-ab.bench.ts: single-row INSERTs from 16 sessions at once straight into the engine
// (Engine.execute, no socket, no protocol), so the group-commit round, the store's encoding, the write log,
// the lmdb apply and the RAM tail are measured without the protocol thread's reads and replies (insert-ab
// has those, and the noise of two client processes on the shared cores). In a child process per run, this
// build against a baseline build alternated run by run; Node runs as bin/quarry.js runs it
// (--min-semi-space-size=4). Per run: INSERTs/s, the main thread's CPU us per INSERT during the timed
// INSERTs (`main`), the other threads' (`other`: V8's compiler and GC helpers, libuv's pool writing the log,
// lmdb's writer, the merge thread), and both again to 1.5 s after the last (`main+idle`, `other+idle`: the
// deferred lmdb apply, the idle seal and merges). The statements' texts are made before the timing; the
// sessions' loop is the only client work on the main thread.
// Run: node dist/bench/insert/insert-engine-ab.bench.js [--baseline DIR] [--statements 8000] [--rounds 3]
// (DIR: a copy of a checkout with dist/ and build/). dict-gcide documents in corpus order, 4,000 warm-up first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runAlternated } from '../lib/ab-children.js';
import { arg, sqlString } from '../lib/bench-util.js';
import { loadGcide } from '../lib/corpus.js';
import { mainThreadSched, threadCpuMs } from '../lib/process-cpu.js';

const CLIENTS = 16;
const WARMUP = 4000;

/** One run in this process: `root`'s engine, WARMUP then `n` single-row INSERTs from CLIENTS sessions; prints its figures as JSON. */
async function child(root: string, n: number): Promise<void> {
  const engineMod = await import(pathToFileURL(join(root, 'dist/src/engine/index.js')).href);
  const texts = loadGcide(WARMUP + n).map((d) => `INSERT INTO gcide (id, title, body, len) VALUES (${d.id + 1},${sqlString(d.title)},${sqlString(d.body)},${d.body.length})`);
  const dir = mkdtempSync(join(tmpdir(), 'quarry-insert-engine-ab-'));
  const engine = await engineMod.openEngine({ dataDir: dir, threads: 1 });
  const phase = async (from: number, to: number) => {
    let next = from;
    await Promise.all(Array.from({ length: CLIENTS }, async () => {
      const session = engineMod.newSession();
      while (next < to) {
        const [r] = await engine.execute(texts[next++]!, session);
        if (r.kind === 'error') throw new Error(r.message);
      }
    }));
  };
  try {
    await engine.execute("CREATE TABLE gcide (title text, body text, len uint) morphology='stem_en'", engineMod.newSession());
    await phase(0, WARMUP);
    await new Promise((r) => setTimeout(r, 1500)); // the warm-up's idle seal, apply and merges
    // the main thread's time on a CPU from the scheduler (nanoseconds; /proc's ticks are 10 ms), the others' from ticks
    const cpu0 = threadCpuMs(process.pid);
    const run0 = mainThreadSched(process.pid).runMs;
    const t0 = performance.now();
    await phase(WARMUP, WARMUP + n);
    const s = (performance.now() - t0) / 1000;
    const cpu1 = threadCpuMs(process.pid);
    const run1 = mainThreadSched(process.pid).runMs;
    await new Promise((r) => setTimeout(r, 1500));
    const cpu2 = threadCpuMs(process.pid);
    const run2 = mainThreadSched(process.pid).runMs;
    const per = (ms: number) => Number(((ms / n) * 1000).toFixed(1));
    console.log(JSON.stringify({
      'INSERTs/s': Math.round(n / s), 'CPU us/INSERT main': per(run1 - run0), 'other': per(cpu1.other - cpu0.other),
      'main+idle': per(run2 - run0), 'other+idle': per(cpu2.other - cpu0.other),
    }));
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

runAlternated(fileURLToPath(import.meta.url), (root) => child(root, arg('statements', 8000)), ['--min-semi-space-size=4']);
