// A background thread's priority: lowerThreadPriority changes the nice value of the calling thread
// alone (the compiled module, run in a worker thread as the merge thread runs it), and the merge thread
// a server starts runs at MERGE_THREAD_NICE while the thread that started it keeps its own.
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { threadId, threadNice } from '../../../../src/engine/background/thread-priority.js';
import { MERGE_THREAD_NICE, mergeThreadRunner } from '../../../../src/engine/background/merge-thread.js';
import { Core } from '../../../../src/wasm/core.js';
import { RtIndex } from '../../../../src/index/rt-index.js';
import { TieredMergePolicy } from '../../../../src/index/merge-policy.js';
import { setMergeRunnerFactory } from '../../../../src/index/parallel/merge-job.js';
import { mergeSchema } from '../../index/merge-ops.js';
import { doc } from '../../index/helpers.js';

const DIST = new URL('../../../../dist/src/engine/background/', import.meta.url);
const linux = existsSync('/proc/thread-self');

/** Runs lowerThreadPriority(nice) in a new worker thread; its thread id and the answer, read before it ends. */
function lowerInWorker(nice: number): Promise<{ tid: number; ok: boolean; niceThere: number | null; release(): Promise<number> }> {
  const mod = new URL('thread-priority.js', DIST).href;
  const code = `
    const { parentPort } = require('node:worker_threads');
    import(${JSON.stringify(mod)}).then((m) => {
      const ok = m.lowerThreadPriority(${nice});
      const tid = m.threadId();
      parentPort.postMessage({ ok, tid, niceThere: m.threadNice(tid) });
      parentPort.once('message', () => process.exit(0));
    });`;
  const w = new Worker(code, { eval: true });
  return new Promise((resolve, reject) => {
    w.once('error', reject);
    w.once('message', (m) => resolve({ ...m, release: () => { w.postMessage('end'); return new Promise((r) => w.once('exit', r)); } }));
  });
}

describe.runIf(linux)('thread priority', () => {
  it('finds the compiled module (npm test builds it first)', () => {
    expect(existsSync(fileURLToPath(new URL('thread-priority.js', DIST)))).toBe(true);
  });

  it('names the calling thread', () => {
    const tid = threadId();
    expect(tid).toBeGreaterThan(0);
    expect(existsSync(`/proc/self/task/${tid}`)).toBe(true);
  });

  it('lowers the calling thread only', async () => {
    const mine = threadNice(threadId());
    expect(mine).not.toBeNull();
    const target = Math.min(19, mine! + 5);
    const w = await lowerInWorker(target);
    try {
      expect(w.ok).toBe(true);
      expect(w.tid).not.toBe(threadId());
      expect(w.niceThere).toBe(target);
      expect(threadNice(w.tid)).toBe(target); // seen from this thread too
      expect(threadNice(threadId())).toBe(mine); // this thread's is unchanged
    } finally {
      await w.release();
    }
  });

  it('runs the merge thread at MERGE_THREAD_NICE', async () => {
    const worker = new URL('merge-worker.js', DIST);
    const before = new Set(tasks());
    setMergeRunnerFactory(mergeThreadRunner(worker));
    try {
      const core = new Core();
      // levels from one row up: every second batch merges
      const idx = new RtIndex(mergeSchema, { core, mergePolicy: new TieredMergePolicy(2, Infinity, 1) });
      for (let i = 1; i <= 4; i++) idx.addBatch([doc(mergeSchema, i, { body: `w${i} common` }, [i, `s${i}`])]);
      await idx.whenMerged();
      const fresh = tasks().filter((t) => !before.has(t));
      // a test run under `nice` above it leaves the thread at the process's
      expect(fresh.map(threadNice)).toContain(Math.max(MERGE_THREAD_NICE, threadNice(threadId())!));
      expect(idx.segments.length).toBe(1); // the merges ran (on that thread)
      idx.truncate();
    } finally {
      setMergeRunnerFactory(null);
    }
  });
});

/** This process's thread ids. */
function tasks(): number[] {
  return readdirSync('/proc/self/task').map(Number);
}
