/**
 * The server's seal thread: a build thread (build-thread.ts, the worker of `quarry import`) that builds
 * the RAM tails' segments from their rows' texts (text-row.ts), so a stream of small INSERTs has its
 * rows tokenized and inverted off the protocol thread. Started on the first seal; ends once idle for
 * IDLE_EXIT_MS, as the merge thread does, so a server at rest holds no second text pipeline and core.
 * Opt-in (QUARRY_SEAL_THREAD=1): see nodeSealThread.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BuildRunner } from './build-job.js';
import { buildThreadOf, type BuildThread } from './build-thread.js';
// the merge thread's: outlasts a pause in a stream of writes, not a server at rest
import { IDLE_EXIT_MS } from './merge-thread.js';

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
 * The seal thread over the compiled build worker beside this file when QUARRY_SEAL_THREAD=1, else null
 * (the tails' rows then build on the protocol thread, still in one batch). Off by default: on 2 busy cores
 * its second isolate costs more than it moves. 16 clients x 6,000 single-row INSERTs over MySQL after
 * 1,000 of warm-up (load average 23-30, three alternated runs; server CPU ms an INSERT, protocol thread
 * + other threads): session 14's build 0.180+0.307 / 0.148+0.223 / 0.135+0.300, rows built in one batch
 * on the protocol thread 0.123+0.223 / 0.125+0.263 / 0.133+0.272, on the seal thread 0.153+0.387 /
 * 0.127+0.347 / 0.105+0.305 (the thread 0.03 of it, V8's helpers compiling and collecting its isolate
 * most of the rest). Worth it where a core is idle while the protocol thread is the bottleneck.
 */
export function nodeSealThread(): BuildRunner | null {
  if (process.env.QUARRY_SEAL_THREAD !== '1') return null;
  const file = new URL('./build-worker.js', import.meta.url);
  return existsSync(fileURLToPath(file)) ? sealThreadOf(file) : null;
}
