/**
 * The server's seal thread: a build thread (build-thread.ts, the worker of `quarry import`) that builds
 * the RAM tails' segments from their rows' texts (text-row.ts), so a stream of small INSERTs has its
 * rows tokenized and inverted off the protocol thread. Started on the first seal; ends once idle for
 * IDLE_EXIT_MS, as the merge thread does, so a server at rest holds no second text pipeline and core.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BuildRunner } from './build-job.js';
import { buildThreadOf, type BuildThread } from './build-thread.js';

/** As the merge thread's (merge-thread.ts): outlasts a pause in a stream of writes, not a server at rest. */
const IDLE_EXIT_MS = 8000;

/** A runner over a build thread started from `file` on demand, ended after `idleExitMs` without jobs. */
export function sealThreadOf(file: URL, idleExitMs = IDLE_EXIT_MS): BuildRunner {
  let thread: BuildThread | null = null;
  let idle: NodeJS.Timeout | undefined;
  return (job) => {
    clearTimeout(idle);
    const t = (thread ??= buildThreadOf(file));
    const done = () => {
      if (t.pending || thread !== t) return;
      idle = setTimeout(() => {
        if (thread !== t || t.pending) return;
        thread = null;
        void t.close();
      }, idleExitMs);
      idle.unref();
    };
    const built = t.run(job);
    built.then(done, done);
    return built;
  };
}

/**
 * The seal thread over the compiled build worker beside this file, or null when there is none (run from
 * src/) or QUARRY_SEAL_THREAD=0 (the tails' rows then build on the protocol thread, still in one batch).
 */
export function nodeSealThread(): BuildRunner | null {
  if (process.env.QUARRY_SEAL_THREAD === '0') return null;
  const file = new URL('./build-worker.js', import.meta.url);
  return existsSync(fileURLToPath(file)) ? sealThreadOf(file) : null;
}
