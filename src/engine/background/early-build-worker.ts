/**
 * The build thread of `quarry import --data` started before the import's bundle loads: the CLI
 * (src/server/cli.ts) starts it as its first step, so the thread loads its code and compiles its core
 * while this thread loads the bundle and opens the engine, and is tokenizing the first rows sooner
 * (from the thread's start to the import's last build it is the critical path: HISTORY, session 16).
 * The bundle holds its own copy of this module, so the worker is handed over through a global, not a
 * module variable; build-thread.ts takes it for its first thread, or starts its own when there is none
 * or the early one failed before it was taken.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
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

/**
 * `quarry import --data`'s build thread (the worker of `file`) started before the import's bundle loads
 * (~0.1 s of a 1.7 s gcide import sooner); the bundle's build-thread.ts takes it. Not for --url (no
 * build thread) or --help; a command that stops before its first batch leaves it unreferenced.
 * `argv`: the import's command line (`import` first). bin/quarry.js calls it before it loads the CLI's
 * modules (~30 ms of CPU), the CLI again (then it does nothing).
 */
export function startImportBuildThread(argv: string[], file: URL): void {
  if (!argv.some((a) => a === '--data' || a.startsWith('--data=')) || argv.includes('--url') || argv.includes('--help')) return;
  if (existsSync(fileURLToPath(file))) startEarlyBuildWorker(file);
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
