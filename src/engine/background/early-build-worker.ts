/**
 * The build thread of `quarry import --data` started before the import's bundle loads: the CLI
 * (src/server/cli.ts) starts it as its first step, so the thread loads its code and compiles its core
 * while this thread loads the bundle and opens the engine, and is tokenizing the first rows sooner
 * (from the thread's start to the import's last build it is the critical path: HISTORY, session 16).
 * The bundle holds its own copy of this module, so the worker is handed over through a global, not a
 * module variable; build-thread.ts takes it for its first thread, or starts its own when there is none
 * or the early one failed before it was taken.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

interface Early { worker: Worker; href: string; failed: boolean; stop: Int32Array }

/**
 * A build worker of `file` with `stop` (shared memory), the flag its loader sets once a job is sent:
 * the worker warms its build up as soon as it has loaded (build-worker.ts), stopping at that flag.
 */
export function newBuildWorker(file: URL, stop: Int32Array): Worker {
  return new Worker(file, { workerData: { stop } });
}

/** A fresh job-sent flag for newBuildWorker. */
export function jobSentFlag(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(4));
}

const KEY = Symbol.for('quarry.earlyBuildWorker');
const slot = globalThis as { [KEY]?: Early };

/** Build threads a load uses: one per core beside the loading thread's (QUARRY_BUILD_THREADS overrides; 0: none). */
export function buildThreadCount(): number {
  return Number(process.env.QUARRY_BUILD_THREADS ?? Math.max(1, availableParallelism() - 1));
}

/** Starts the worker of `file` now, to be taken by takeEarlyBuildWorker; none when no build thread is wanted. */
export function startEarlyBuildWorker(file: URL): void {
  if (slot[KEY] || buildThreadCount() < 1) return;
  const stop = jobSentFlag();
  const worker = newBuildWorker(file, stop);
  worker.unref(); // never keeps the process alive: an import that stops before its first job just exits
  const early: Early = { worker, href: file.href, failed: false, stop };
  // an error or exit before the hand-over: the taker starts a worker of its own
  const gone = () => { early.failed = true; };
  worker.once('error', gone);
  worker.once('exit', gone);
  slot[KEY] = early;
}

/** The worker started early for `file` and its job-sent flag, if one is running (taken once); null: start one. */
export function takeEarlyBuildWorker(file: URL): { worker: Worker; stop: Int32Array } | null {
  const early = slot[KEY];
  if (!early || early.href !== file.href) return null;
  delete slot[KEY];
  if (early.failed) return null;
  early.worker.removeAllListeners('error');
  early.worker.removeAllListeners('exit');
  return { worker: early.worker, stop: early.stop };
}
