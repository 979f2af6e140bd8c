/**
 * Query worker threads over one core's shared memory. The threads come from the host (Node's
 * worker_threads, installed by src/engine/node-host.ts; src/wasm imports no Node built-in), so where
 * there is none, queries simply stay on the calling thread. Each worker runs its own instance of the same
 * compiled module over that memory (the segments are read where the main instance placed them, never
 * copied), with its heap confined to a region the main instance allocated for it (heapConfine). The
 * main thread plans and places every input (plans, row-allow bitmaps, deleted-rows snapshots, output
 * buffers) before a batch is sent and reads the outputs after it comes back; a worker only calls
 * evaluateRange, or groupRange for grouping, whose result block (allocated in the worker's own heap)
 * it copies into the reply and frees. Batches queue in arrival order and go to whichever worker is free, so concurrent
 * queries from different clients run on different threads.
 */
import type { Core } from './core.js';

/**
 * One evaluateRange call, or with `spec` one groupRange call (k and out unused): every address is in
 * the shared memory, placed by the main thread.
 */
export interface RangeTask {
  desc: number;
  plan: number;
  planWords: number;
  k: number;
  out: number;
  from: number;
  to: number;
  spec?: number;
  specWords?: number;
}

/**
 * evaluateRange's return (n >= 0 pairs written, or an E_* code) and the range's total; for a group
 * task n is the block's bytes (or an E_* code) and `block` a copy of it.
 */
export interface RangeResult { n: number; total: number; block?: Uint8Array }

/** A worker's reply to a batch: per task (n, total), and the group tasks' blocks (null for the others). */
export interface BatchReply { out: Int32Array; blocks: (ArrayBuffer | null)[] }

/** Words per task in a batch message: RangeTask's fields in order, spec and specWords 0 for evaluateRange. */
const TASK_WORDS = 9;

/** The result a worker reports for a task that trapped (its instance is re-made). */
export const TASK_TRAPPED = -100;

/**
 * Scratch memory per worker instance (hit buffers, trees, merged postings) at first; a task needing
 * more traps, runs again on the main instance, and the worker's region doubles, up to the cap.
 */
const WORKER_HEAP_BYTES = 32 << 20;
const WORKER_HEAP_MAX_BYTES = 512 << 20;
/** The TLSF root's bytes at the start of a worker's region (heapConfine's first 2048 bytes). */
const ROOT_BYTES = 2048;

// The worker's whole program: CommonJS, run with eval so no file path has to resolve from src/ or dist/.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { module, memory } = workerData;
let { root, end } = workerData;
let ex;
function instantiate() {
  new Uint8Array(memory.buffer, root, ${ROOT_BYTES}).fill(0);
  const env = { memory, abort() { throw new Error('quarry wasm core: assertion failed'); } };
  ex = new WebAssembly.Instance(module, { env }).exports;
  ex.heapConfine(root, end);
  ex._start();
  ex.budgetSet(workerData.queryMemory);
}
instantiate();
// A message is [newRoot, newEnd, then ${TASK_WORDS} words per task]; a non-zero newRoot moves the heap there.
// A group task's block is copied out of this instance's heap and freed before the next task.
parentPort.on('message', (words) => {
  if (words[0] !== 0) { root = words[0]; end = words[1]; instantiate(); }
  const tasks = words.subarray(2);
  const out = new Int32Array((tasks.length / ${TASK_WORDS}) * 2);
  const blocks = [];
  for (let i = 0, t = 0; i < tasks.length; i += ${TASK_WORDS}, t++) {
    let n;
    let block = null;
    try {
      if (tasks[i + 7] !== 0) {
        n = ex.groupRange(tasks[i], tasks[i + 1], tasks[i + 2], tasks[i + 7], tasks[i + 8], tasks[i + 5], tasks[i + 6]);
        if (n >= 0) {
          const p = ex.groupResult() >>> 0;
          block = new Uint8Array(n);
          block.set(new Uint8Array(memory.buffer, p, n));
          ex.free(p);
        }
      } else {
        n = ex.evaluateRange(tasks[i], tasks[i + 1], tasks[i + 2], tasks[i + 3], tasks[i + 4], tasks[i + 5], tasks[i + 6]);
      }
    } catch (e) {
      n = ${TASK_TRAPPED};
      block = null;
      instantiate();
    }
    out[t * 2] = n;
    out[t * 2 + 1] = n >= 0 ? ex.lastTotal() : 0;
    blocks.push(block ? block.buffer : null);
  }
  parentPort.postMessage({ out, blocks }, [out.buffer, ...blocks.filter((b) => b !== null)]);
});
`;

/** One thread running WORKER_SOURCE (a CommonJS program given `workerData`), as the host makes it. */
export interface CoreThread {
  postMessage(words: Uint32Array): void;
  on(event: 'message', fn: (reply: BatchReply) => void): void;
  on(event: 'error', fn: (e: unknown) => void): void;
  terminate(): Promise<unknown>;
}

/** Starts a thread running `source` with `workerData` (must not keep the process alive). */
export type ThreadSpawner = (source: string, workerData: unknown) => CoreThread;

let spawner: ThreadSpawner | null = null;

/** Installs how threads start (Node: worker_threads with eval); none installed = no pool. */
export function setThreadSpawner(fn: ThreadSpawner | null): void {
  spawner = fn;
}

export function threadsAvailable(): boolean {
  return spawner !== null;
}

/** The installed spawner (to restore after a test installs its own). */
export function threadSpawner(): ThreadSpawner | null {
  return spawner;
}

interface Job { words: Uint32Array; resolve(r: BatchReply): void; reject(e: unknown): void }

class PoolWorker {
  readonly worker: CoreThread;
  readonly core: Core;
  region: number;
  regionBytes = WORKER_HEAP_BYTES;
  /** A larger region to move to with the next job, and the old one to free once that job is back. */
  #moveTo = 0;
  #retired = 0;
  job: Job | null = null;
  /** Tasks this worker ran: tests check a big query spread over more than one thread. */
  tasks = 0;

  constructor(spawn: ThreadSpawner, core: Core, onIdle: (w: PoolWorker) => void, onFail: (w: PoolWorker, e: unknown) => void) {
    this.core = core;
    this.region = core.alloc(WORKER_HEAP_BYTES);
    this.worker = spawn(WORKER_SOURCE, {
      module: core.module, memory: core.exports.memory, root: this.region, end: this.region + WORKER_HEAP_BYTES, queryMemory: core.queryMemory,
    });
    this.worker.on('message', (reply: BatchReply) => {
      const job = this.job!;
      this.job = null;
      if (this.#retired) { core.free(this.#retired); this.#retired = 0; }
      for (let i = 0; i < reply.out.length; i += 2) if (reply.out[i] === TASK_TRAPPED) this.#grow();
      job.resolve(reply);
      onIdle(this);
    });
    this.worker.on('error', (e) => onFail(this, e));
  }

  /** Doubles the region for the next job (once per trap, up to the cap; the main core may refuse). */
  #grow(): void {
    if (this.#moveTo || this.regionBytes >= WORKER_HEAP_MAX_BYTES) return;
    try {
      this.#moveTo = this.core.alloc(this.regionBytes * 2);
    } catch {
      return; // the core is out of memory itself: keep the region
    }
    this.regionBytes *= 2;
  }

  /** Returns every region this worker holds to the core (once its thread has exited). */
  release(): void {
    for (const p of [this.region, this.#moveTo, this.#retired]) if (p) this.core.free(p);
  }

  /** Sends a job: [region move or 0, 0, tasks...]. */
  send(job: Job): void {
    this.job = job;
    this.tasks += (job.words.length - 2) / TASK_WORDS;
    if (this.#moveTo) {
      job.words[0] = this.#moveTo;
      job.words[1] = this.#moveTo + this.regionBytes;
      this.#retired = this.region;
      this.region = this.#moveTo;
      this.#moveTo = 0;
    }
    this.worker.postMessage(job.words);
  }
}

export class CorePool {
  readonly core: Core;
  #workers: PoolWorker[] = [];
  #idle: PoolWorker[] = [];
  #queue: Job[] = [];
  #closed = false;

  constructor(core: Core, threads: number) {
    if (!spawner) throw new Error('quarry: no thread spawner installed (the host calls setThreadSpawner)');
    if (!core.shared) throw new Error('quarry: worker threads need the core\'s memory shared');
    this.core = core;
    for (let i = 0; i < threads; i++) {
      const w = new PoolWorker(spawner, core, (x) => this.#next(x), (x, e) => this.#fail(x, e));
      this.#workers.push(w);
      this.#idle.push(w);
    }
  }

  get threads(): number { return this.#workers.length; }

  /** False once every worker has died (each one that failed was dropped): callers go inline. */
  get alive(): boolean { return !this.#closed && this.#workers.length > 0; }

  /** Workers with no job now (a query sent to one starts at once). */
  get idle(): number { return this.#idle.length; }

  /** Tasks run so far by each worker. */
  taskCounts(): number[] { return this.#workers.map((w) => w.tasks); }

  /** Each worker's heap region in bytes (it doubles after a trapped task). */
  regionSizes(): number[] { return this.#workers.map((w) => w.regionBytes); }

  /** Runs one batch of tasks on one worker (in order); resolves with each task's result. */
  run(tasks: RangeTask[]): Promise<RangeResult[]> {
    if (!this.alive) return Promise.reject(new Error('quarry: the query thread pool has no thread'));
    const words = new Uint32Array(2 + tasks.length * TASK_WORDS);
    tasks.forEach((t, i) => words.set([t.desc, t.plan, t.planWords, t.k, t.out, t.from, t.to, t.spec ?? 0, t.specWords ?? 0], 2 + i * TASK_WORDS));
    return new Promise<BatchReply>((resolve, reject) => {
      this.#queue.push({ words, resolve, reject });
      const w = this.#idle.pop();
      if (w) this.#next(w);
    }).then(({ out, blocks }) => tasks.map((_, i) => {
      const block = blocks[i];
      return block ? { n: out[2 * i], total: out[2 * i + 1] >>> 0, block: new Uint8Array(block) } : { n: out[2 * i], total: out[2 * i + 1] >>> 0 };
    }));
  }

  #next(w: PoolWorker): void {
    const job = this.#queue.shift();
    if (!job) { this.#idle.push(w); return; }
    w.send(job);
  }

  /**
   * A worker died or could not start (not a trap: those are caught inside it): its job fails (the
   * caller re-runs it on the main instance), the others go on; its region is not reused.
   */
  #fail(w: PoolWorker, e: unknown): void {
    console.error('quarry: a query thread failed:', e);
    w.job?.reject(e);
    w.job = null;
    this.#workers = this.#workers.filter((x) => x !== w);
    this.#idle = this.#idle.filter((x) => x !== w);
    if (!this.#workers.length) {
      for (const j of this.#queue.splice(0)) j.reject(e);
    }
  }

  /** Stops the workers; their heap regions return to the core once they have exited. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const j of this.#queue.splice(0)) j.reject(new Error('quarry: the query thread pool is closed'));
    const workers = this.#workers.splice(0);
    await Promise.all(workers.map((w) => w.worker.terminate()));
    for (const w of workers) w.release();
  }
}
