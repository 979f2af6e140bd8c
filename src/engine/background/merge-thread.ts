/**
 * Segment merges off the protocol thread: one worker thread per core instance (merge-worker.ts) reads
 * the parts where the core placed them (its memory is shared) and builds the merged blob, so a merge
 * of 100k documents never holds up queries and writes; the index swaps the result in (rt-index.ts).
 * Installed by the Node host; where the compiled worker file is absent (tests run from src/), merges
 * stay inline.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { MergedSegment, MergeRunner, MergeRunnerFactory } from '../../index/parallel/merge-job.js';
import { TERMS_CHUNK, type AddMessage, type JobMessage, type MoreMessage, type ReplyMessage, type WirePart } from './merge-wire.js';
import { appendTerms } from '../../index/segment/sorted-terms.js';

/**
 * An idle merge thread ends after this long (its heap, 30-40 MiB after a merge, most of it V8's young
 * generation, goes with it) and starts again on demand. Long enough to outlast a pause in a stream of
 * writes: a thread started again compiles the merge code afresh in its new isolate, and V8's optimizing
 * compiles of it (on its helper threads) cost as much CPU as the merges. Session 13, npm run bench's
 * insert phases in order (1, 100, 1000 rows an INSERT, then 16 single-row clients x 2,000 over MySQL;
 * load 13-18), server CPU per 1000 documents of the 16-client phase until idle: 3 s against a thread kept
 * alive, protocol thread 155 / 140 / 165 / 105 -> 145 / 110 / 105 / 165 ms, the other threads 305 / 280 /
 * 400 / 270 -> 180 / 140 / 190 / 190. Shorter than the 10 quiet seconds after which the benchmarks read a
 * server's memory at rest (bench/lib/footprint.ts untilQuiet): kept alive, the idle thread read +25-40 MiB PSS.
 */
const IDLE_EXIT_MS = 8000;

/**
 * The merge thread's nice value (the protocol thread keeps the process's, normally 0): a merge takes the
 * CPU the writes and queries leave, and yields a shared core to them (weight 110 against 1024), as
 * Lucene's ConcurrentMergeScheduler ran merges a priority below the indexing threads and Sphinx 2.2
 * throttles its RT merge (rt_merge_iops). A 1000-row load keeps the protocol thread, the client and lmdb's
 * writer busy on 2 cores while the merges of its earlier batches run beside them.
 */
export const MERGE_THREAD_NICE = 10;

/**
 * A runner over a worker started from `file`; jobs run one after another, in the order they are posted
 * (a job whose dictionaries go ahead in chunks is posted after them, so one called later, for another
 * table on the same core, may run first). The thread ends once idle for `idleExitMs` (a merge thread holds
 * 10+ MiB of heap between loads) and starts again on demand (tens of ms, against the seconds a big merge
 * takes).
 */
export function mergeThreadRunner(file: URL, idleExitMs = IDLE_EXIT_MS): MergeRunnerFactory {
  return (core) => {
    let worker: Worker | null = null;
    let idleTimer: NodeJS.Timeout | undefined;
    let next = 0;
    const waiting = new Map<number, { resolve(b: MergedSegment): void; reject(e: unknown): void; terms: string[] | null }>();
    // The dictionaries the running thread keeps (merge-wire.ts), by the array its reply gave this
    // thread (a Segment's terms): a job names them by key. A key whose array was collected (its
    // segment gone without being merged on the thread) is forgotten with the next job.
    let known = new WeakMap<readonly string[], number>();
    let forget: number[] = [];
    const gone = new FinalizationRegistry<{ w: Worker; key: number }>(({ w, key }) => { if (w === worker) forget.push(key); });
    const retire = (w: Worker) => {
      idleTimer = setTimeout(() => {
        if (worker !== w || waiting.size) return;
        worker = null;
        void w.terminate();
      }, idleExitMs);
      idleTimer.unref();
    };
    const start = (): Worker => {
      const w = new Worker(file, { workerData: { memory: core.exports.memory, nice: MERGE_THREAD_NICE } });
      // a new thread keeps nothing yet
      known = new WeakMap();
      forget = [];
      w.unref(); // an idle merge thread never keeps the process alive
      w.on('message', (r: ReplyMessage) => {
        const job = waiting.get(r.id);
        if (!job) return;
        if (r.error === undefined && !r.blob) {
          // a chunk of the merged dictionary: the next one in a later task
          // packed, as the dictionaries built on this thread (sorted-terms.ts appendTerms says why)
          job.terms = appendTerms(job.terms ?? [], r.terms!);
          w.postMessage({ more: r.id } satisfies MoreMessage);
          return;
        }
        waiting.delete(r.id);
        if (waiting.size === 0) {
          w.unref();
          retire(w);
        }
        if (r.error !== undefined) return job.reject(new Error(`quarry: merge thread: ${r.error}`));
        const terms = appendTerms(job.terms ?? [], r.terms!);
        if (worker === w) {
          known.set(terms, r.key!);
          gone.register(terms, { w, key: r.key! }, terms);
        }
        job.resolve({ blob: r.blob!, terms, hostCols: [], forward: r.forward });
      });
      w.on('error', (e) => {
        // the thread is gone: its jobs fail (the index merges inline from then on), a new one starts on demand
        if (worker === w) worker = null;
        for (const j of waiting.values()) j.reject(e);
        waiting.clear();
      });
      return w;
    };
    let added = 0;
    const run: MergeRunner = async (job) => {
      clearTimeout(idleTimer);
      const w = (worker ??= start());
      const id = next++;
      const result = new Promise<MergedSegment>((resolve, reject) => waiting.set(id, { resolve, reject, terms: null }));
      w.ref(); // a merge in flight finishes before the process may exit on its own
      // a dictionary the thread does not keep goes ahead of the job, TERMS_CHUNK terms a message and a
      // turn between (160 parts of 20k terms: 90 ms of structured clone at once on this thread)
      let sent = 0;
      const parts: WirePart[] = [];
      for (const p of job.parts) {
        let key = known.get(p.terms);
        if (key !== undefined) {
          // the thread drops it once merged: sent again if this part is ever in a job again
          known.delete(p.terms);
          gone.unregister(p.terms);
        } else {
          key = --added; // keys this thread chooses are negative, the merge thread's positive
          for (let at = 0; at === 0 || at < p.terms.length; at += TERMS_CHUNK) {
            if (sent >= TERMS_CHUNK) {
              sent = 0;
              await new Promise<void>((r) => { setImmediate(r); });
              // the thread failed meanwhile: its error handler rejected this job's result already
              if (worker !== w) return result;
            }
            const terms = at === 0 && p.terms.length <= TERMS_CHUNK ? p.terms : p.terms.slice(at, at + TERMS_CHUNK);
            w.postMessage({ add: key, terms } satisfies AddMessage);
            sent += terms.length;
          }
        }
        parts.push({ blobPtr: p.blobPtr, deleted: p.deleted, key });
      }
      w.postMessage({ id, job: { schema: job.schema, parts }, forget: forget.splice(0) } satisfies JobMessage);
      return result;
    };
    return run;
  };
}

/**
 * The runner factory over the compiled worker beside this file (or, in the bundle of `quarry import`
 * in dist/src/import, beside the module this file was compiled to), or null when there is none (run
 * from src/).
 */
export function nodeMergeThreads(): MergeRunnerFactory | null {
  for (const path of ['./merge-worker.js', '../engine/background/merge-worker.js']) {
    const file = new URL(path, import.meta.url);
    if (existsSync(fileURLToPath(file))) return mergeThreadRunner(file);
  }
  return null;
}
