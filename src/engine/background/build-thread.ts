/**
 * The build thread of a bulk load (build-worker.ts): one worker, jobs in order. The import's other
 * thread reads, checks and writes while this one tokenizes and encodes, so the load uses two cores
 * (Sphinx's indexer uses one). Found beside this file or, in the bundle of `quarry import` in
 * dist/src/import, beside the module this file was compiled to; none when run from src/ (rows build inline).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import type { BuiltSegment } from '../../index/segment/segment-builder.js';
import type { AttrValue } from '../../index/types.js';
import { appendTerms } from '../../index/segment/sorted-terms.js';
import type { BuildJob, BuildPart, BuildRunner } from './build-job.js';
import { phase } from '../../util/phase-trace.js';
import { buildThreadCount, jobSentFlag, newBuildWorker, takeEarlyBuildWorker } from './early-build-worker.js';

interface Reply { id: number; blob?: Uint8Array; terms?: string[]; hostCols?: (AttrValue[] | null)[]; error?: string }

export interface BuildThread {
  run: BuildRunner;
  /** Ends the thread (jobs still on it fail). */
  close(): Promise<void>;
  /** Jobs sent and not yet answered. */
  readonly pending: number;
  /** Starts the thread now (it loads its code and core while the first batch is read), not at the first job. */
  warm(): void;
  /** Sends field texts to tokenize ahead of their job (build-job.ts, primeFields); no answer. */
  prime(part: BuildPart): void;
}

/** A build thread over a worker started from `file` on first use. */
function buildThreadOf(file: URL): BuildThread {
  let worker: Worker | null = null;
  let next = 0;
  const waiting = new Map<number, { resolve(b: BuiltSegment): void; reject(e: unknown): void }>();
  // set once a job is sent: the thread stops warming up and priming (shared memory, read between steps
  // and fields); the early worker's own when that one is taken
  let jobSent = jobSentFlag();
  const start = (): Worker => {
    // the worker the CLI started before this bundle loaded (early-build-worker.ts), else a new one
    const early = takeEarlyBuildWorker(file);
    if (early) jobSent = early.stop;
    const w = early?.worker ?? newBuildWorker(file, jobSent);
    w.unref(); // an idle build thread never keeps the process alive
    w.on('message', (r: Reply) => {
      phase(`job ${r.id} back`);
      const job = waiting.get(r.id);
      waiting.delete(r.id);
      if (waiting.size === 0) w.unref();
      if (r.error !== undefined) job?.reject(new Error(`quarry: build thread: ${r.error}`));
      // the dictionary packed, as those built on this thread (sorted-terms.ts appendTerms says why)
      else job?.resolve({ blob: r.blob!, terms: appendTerms([], r.terms!), hostCols: r.hostCols! });
    });
    // the thread is gone (an error, or close() while jobs were on it): its jobs fail, none waits forever
    const gone = (e: unknown) => {
      if (worker === w) worker = null;
      for (const j of waiting.values()) j.reject(e);
      waiting.clear();
    };
    w.on('error', gone);
    w.on('exit', (code) => gone(new Error(`quarry: build thread exited (code ${code})`)));
    return w;
  };
  const run: BuildRunner = (job: BuildJob) => new Promise<BuiltSegment>((resolve, reject) => {
    worker ??= start();
    Atomics.store(jobSent, 0, 1);
    const id = next++;
    waiting.set(id, { resolve, reject });
    worker.ref(); // a build in flight finishes before the process may exit on its own
    worker.postMessage({ id, job });
    phase(`job ${id} posted`);
  });
  const close = async () => {
    const w = worker;
    worker = null;
    if (!w) return;
    // terminate()'s promise alone did not keep the loop alive with a job still on the thread (an import
    // whose one batch was refused as duplicate ids closes before its build comes back): Node 20 ended
    // the process with 13 (an unsettled top-level await) and no summary; a timer holds the loop meanwhile
    const hold = setInterval(() => {}, 60_000);
    try {
      await w.terminate();
    } finally {
      clearInterval(hold);
    }
  };
  const warm = () => { worker ??= start(); };
  const prime = (part: BuildPart) => { (worker ??= start()).postMessage({ id: -1, prime: part, stop: jobSent }); };
  return { run, close, warm, prime, get pending() { return waiting.size; } };
}

/** `n` build threads, each job to the one with the fewest waiting. */
export function buildThreadsOf(file: URL, n: number): BuildThread {
  const threads = Array.from({ length: Math.max(1, n) }, () => buildThreadOf(file));
  const run: BuildRunner = (job) => threads.reduce((a, b) => (b.pending < a.pending ? b : a)).run(job);
  const close = async () => { await Promise.all(threads.map((t) => t.close())); };
  const warm = () => { for (const t of threads) t.warm(); };
  // each thread keeps its own pipeline: every one is primed
  const prime = (part: BuildPart) => { for (const t of threads) t.prime(part); };
  return { run, close, warm, prime, get pending() { return threads.reduce((s, t) => s + t.pending, 0); } };
}

/**
 * Build threads over the compiled worker, or null when there is none (run from src/): one per core
 * beside the loading thread's (QUARRY_BUILD_THREADS overrides; 0: none). On 2 cores a second build
 * thread cost 0.7 s more CPU over the gcide import (its own module load, dictionary and scanner) for
 * no gain: the loading thread is busy a third of the time.
 */
export function nodeBuildThreads(): BuildThread | null {
  const n = buildThreadCount();
  for (const path of ['./build-worker.js', '../engine/background/build-worker.js']) {
    const file = new URL(path, import.meta.url);
    if (existsSync(fileURLToPath(file))) return n >= 1 ? buildThreadsOf(file, n) : null;
  }
  return null;
}
