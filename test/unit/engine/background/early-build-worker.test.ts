// The build thread started before quarry import's bundle loads (early-build-worker.ts): taken once, by
// the file it was started for, and never when it failed first (the taker then starts its own; a job
// posted to a dead worker would wait forever). The threads built from it build what a fresh one does.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startEarlyBuildWorker, takeEarlyBuildWorker } from '../../../../src/engine/background/early-build-worker.js';
import { buildThreadsOf } from '../../../../src/engine/background/build-thread.js';
import { buildOfJob } from '../../../../src/engine/background/build-job.js';
import { createTextPipeline } from '../../../../src/text/text-pipeline.js';
import type { BuildJob } from '../../../../src/engine/background/build-job.js';

const WORKER = new URL('../../../../dist/src/engine/background/build-worker.js', import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'quarry-early-worker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A worker program of its own (an idle port keeps it running until terminated). */
function program(name: string, body: string): URL {
  const file = join(dir, name);
  writeFileSync(file, body);
  return pathToFileURL(file);
}

describe('early build worker', () => {
  it('is taken once, and only for its own file', async () => {
    const file = program('idle.mjs', "import { parentPort } from 'node:worker_threads'; parentPort.on('message', () => {});\n");
    startEarlyBuildWorker(file);
    expect(takeEarlyBuildWorker(program('other.mjs', ''))).toBeNull(); // another file: not handed over...
    const w = takeEarlyBuildWorker(file); // ...and still there for its own
    expect(w).not.toBeNull();
    expect(takeEarlyBuildWorker(file)).toBeNull();
    await w!.worker.terminate();
  });

  it('is not handed over once it failed', async () => {
    const file = program('throws.mjs', "throw new Error('no core here');\n");
    startEarlyBuildWorker(file);
    // failed: the slot says so (a take would return null); wait for the error to arrive first
    await new Promise((r) => setTimeout(r, 50));
    await vi.waitFor(() => {
      const g = globalThis as Record<symbol, { failed: boolean } | undefined>;
      expect(g[Symbol.for('quarry.earlyBuildWorker')]?.failed).toBe(true);
    }, { timeout: 5000 });
    expect(takeEarlyBuildWorker(file)).toBeNull();
  });

  it('serves as the first build thread, building what a fresh pipeline builds', async () => {
    startEarlyBuildWorker(WORKER);
    const threads = buildThreadsOf(WORKER, 1);
    try {
      const settings = { morphology: 'stem_en' } as BuildJob['settings'];
      const texts = ['running foxes', 'the quick brown dogs', 'jumped over', 'lazy runners'];
      const job: BuildJob = {
        settings, schema: { fields: ['title', 'body'], attrs: [] } as unknown as BuildJob['schema'],
        ids: BigUint64Array.from([1n, 2n]), text: texts.join(''), lengths: Uint32Array.from(texts.map((s) => s.length)), attrs: [],
      };
      const built = await threads.run(job);
      // the early worker was taken: nothing left in the slot
      expect(takeEarlyBuildWorker(WORKER)).toBeNull();
      const want = buildOfJob(createTextPipeline(settings), job);
      expect(Buffer.from(built.blob).equals(Buffer.from(want.blob))).toBe(true);
      expect(built.terms).toEqual(want.terms);
    } finally {
      await threads.close();
    }
  });

  it('is handed its job-sent flag at start, and the loader that takes it sets that flag when it sends a job', async () => {
    // the worker answers a job with the flag's value as it sees it (as an error: the simplest reply)
    const file = program('flag.mjs', "import { parentPort, workerData } from 'node:worker_threads';\n"
      + "parentPort.on('message', (m) => { if (m.job) parentPort.postMessage({ id: m.id, error: 'flag ' + Atomics.load(workerData.stop, 0) }); });\n");
    startEarlyBuildWorker(file);
    const threads = buildThreadsOf(file, 1);
    try {
      await expect(threads.run({} as BuildJob)).rejects.toThrow('quarry: build thread: flag 1');
    } finally {
      await threads.close();
    }
  });

  it('a worker the loader starts itself is handed its flag too', async () => {
    const file = program('flag2.mjs', "import { parentPort, workerData } from 'node:worker_threads';\n"
      + "parentPort.on('message', (m) => { if (m.job) parentPort.postMessage({ id: m.id, error: 'flag ' + Atomics.load(workerData.stop, 0) }); });\n");
    const threads = buildThreadsOf(file, 1);
    try {
      await expect(threads.run({} as BuildJob)).rejects.toThrow('quarry: build thread: flag 1');
    } finally {
      await threads.close();
    }
  });
});
