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
import { CLOSE, COUNT, DONE, IDLE, JOB, MAILBOX, OUT_WORDS, READY, STATE, TASK_TRAPPED, TASK_WORDS, WORKER_SOURCE } from './worker-program.js';

export { TASK_TRAPPED };

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
 * task n is the block's bytes (or an E_* code) and `block` a copy of it. `us`: the task's time on the
 * worker in microseconds (the hand-over policy learns queries' costs from it, cost-model.ts).
 */
export interface RangeResult { n: number; total: number; block?: Uint8Array; us?: number }


/**
 * Scratch memory per worker instance (hit buffers, trees, merged postings) at first; a task needing
 * more traps, runs again on the main instance, and the worker's region doubles, up to the cap.
 */
const WORKER_HEAP_BYTES = 32 << 20;
const WORKER_HEAP_MAX_BYTES = 512 << 20;


/** Atomics.waitAsync (ES2024, in Node since 16), typed here since the project's lib is ES2022. */
const waitAsync = (Atomics as unknown as {
  waitAsync?: (a: Int32Array, index: number, value: number) => { async: false; value: string } | { async: true; value: Promise<string> };
}).waitAsync;


/** One thread running WORKER_SOURCE (a CommonJS program given `workerData`), as the host makes it. */
export interface CoreThread {
  on(event: 'error', fn: (e: unknown) => void): void;
  /** While a job is out, the thread keeps the process alive (an idle one does not). */
  ref(): void;
  unref(): void;
  terminate(): Promise<unknown>;
}

/** Starts a thread running `source` with `workerData` (must not keep the process alive). */
export type ThreadSpawner = (source: string, workerData: unknown) => CoreThread;

let spawner: ThreadSpawner | null = null;

/** Installs how threads start (Node: worker_threads with eval); none installed = no pool. */
export function setThreadSpawner(fn: ThreadSpawner | null): void {
  spawner = fn;
}

/** A spawner is installed and the host can wait for a worker without blocking (Atomics.waitAsync). */
export function threadsAvailable(): boolean {
  return spawner !== null && waitAsync !== undefined;
}

/** The installed spawner (to restore after a test installs its own). */
export function threadSpawner(): ThreadSpawner | null {
  return spawner;
}

interface Job { tasks: RangeTask[]; resolve(r: RangeResult[]): void; reject(e: unknown): void }

class PoolWorker {
  readonly worker: CoreThread;
  readonly core: Core;
  readonly #control = new Int32Array(new SharedArrayBuffer(16));
  readonly #onIdle: (w: PoolWorker) => void;
  region: number;
  regionBytes = WORKER_HEAP_BYTES;
  /** The mailbox in the core's memory and how many tasks it holds (it grows with the largest batch). */
  #mailbox = 0;
  #mailboxTasks = 0;
  /** A larger region to move to with the next job, and the old one to free once that job is back. */
  #moveTo = 0;
  #retired = 0;
  job: Job | null = null;
  /** Tasks this worker ran: tests check a big query spread over more than one thread. */
  tasks = 0;
  /**
   * The thread has made its instance: a job sent now starts at once. Read from the control block, not
   * set by the wait below: that wait resolves only in a later event-loop turn, and a caller whose queries
   * all run inline never yields one (an embedded loop of awaited queries resolves by microtasks alone),
   * so a flag set there stayed false and every query ran on the calling thread (S17's 10M run: AND-3
   * p50 7.9 -> 14.2 ms).
   */
  get ready(): boolean { return Atomics.load(this.#control, READY) === 1; }

  constructor(
    spawn: ThreadSpawner, core: Core, onIdle: (w: PoolWorker) => void, onFail: (w: PoolWorker, e: unknown) => void,
    onReady: () => void,
  ) {
    this.core = core;
    this.#onIdle = onIdle;
    this.region = core.alloc(WORKER_HEAP_BYTES);
    this.worker = spawn(WORKER_SOURCE, {
      module: core.module, memory: core.exports.memory, control: this.#control.buffer,
      root: this.region, end: this.region + WORKER_HEAP_BYTES, queryMemory: core.queryMemory,
    });
    this.worker.on('error', (e) => onFail(this, e));
    // wakes whenReady()'s waiters; `ready` itself reads the block
    const up = () => {
      if (this.ready) onReady(); // not when closed before it started
    };
    const wait = waitAsync!(this.#control, READY, 0);
    if (wait.async) void wait.value.then(up);
    else up();
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
    for (const p of [this.region, this.#moveTo, this.#retired, this.#mailbox]) if (p) this.core.free(p);
  }

  /** Writes a job into the mailbox ([region move or 0, 0, tasks...]), wakes the worker and waits for it. */
  send(job: Job): void {
    const n = job.tasks.length;
    if (n > this.#mailboxTasks) {
      const p = this.core.alloc((2 + n * (TASK_WORDS + OUT_WORDS)) * 4); // throws before anything changed
      this.core.free(this.#mailbox);
      this.#mailbox = p;
      this.#mailboxTasks = n;
    }
    this.job = job;
    this.tasks += n;
    const u32 = this.core.u32;
    const at = this.#mailbox >>> 2;
    u32[at] = 0;
    u32[at + 1] = 0;
    if (this.#moveTo) {
      u32[at] = this.#moveTo;
      u32[at + 1] = this.#moveTo + this.regionBytes;
      this.#retired = this.region;
      this.region = this.#moveTo;
      this.#moveTo = 0;
    }
    for (let t = 0, w = at + 2; t < n; t++, w += TASK_WORDS) {
      const k = job.tasks[t];
      u32[w] = k.desc; u32[w + 1] = k.plan; u32[w + 2] = k.planWords; u32[w + 3] = k.k; u32[w + 4] = k.out;
      u32[w + 5] = k.from; u32[w + 6] = k.to; u32[w + 7] = k.spec ?? 0; u32[w + 8] = k.specWords ?? 0;
    }
    const c = this.#control;
    c[MAILBOX] = this.#mailbox;
    c[COUNT] = n;
    this.worker.ref();
    Atomics.store(c, STATE, JOB);
    Atomics.notify(c, STATE);
    const wait = waitAsync!(c, STATE, JOB);
    if (wait.async) void wait.value.then(() => this.#done(job));
    else queueMicrotask(() => this.#done(job));
  }

  /** Reads the job's results (copying group blocks out of the worker's heap) and hands the worker on. */
  #done(job: Job): void {
    if (this.job !== job) return; // failed meanwhile (the worker died)
    this.job = null;
    this.worker.unref();
    const n = job.tasks.length;
    const core = this.core;
    const u32 = core.u32;
    const at = (this.#mailbox >>> 2) + 2 + n * TASK_WORDS;
    const out: RangeResult[] = [];
    for (let t = 0, o = at; t < n; t++, o += OUT_WORDS) {
      const r: RangeResult = { n: u32[o] | 0, total: u32[o + 1], us: u32[o + 3] };
      if (u32[o + 2] !== 0 && r.n >= 0) r.block = core.u8.slice(u32[o + 2], u32[o + 2] + r.n);
      if (r.n === TASK_TRAPPED) this.#grow();
      out.push(r);
    }
    Atomics.store(this.#control, STATE, IDLE);
    if (this.#retired) { core.free(this.#retired); this.#retired = 0; }
    job.resolve(out);
    this.#onIdle(this);
  }

  /** Asks the thread to leave its loop (terminate() then ends it if it is inside a task). */
  close(): void {
    Atomics.store(this.#control, READY, 2); // ends the wait for it to start
    Atomics.notify(this.#control, READY);
    Atomics.store(this.#control, STATE, CLOSE);
    Atomics.notify(this.#control, STATE);
  }
}

export class CorePool {
  readonly core: Core;
  #workers: PoolWorker[] = [];
  #idle: PoolWorker[] = [];
  #queue: Job[] = [];
  #closed = false;
  #readyWaiters: (() => void)[] = [];

  constructor(core: Core, threads: number) {
    if (!spawner) throw new Error('quarry: no thread spawner installed (the host calls setThreadSpawner)');
    if (!core.shared) throw new Error('quarry: worker threads need the core\'s memory shared');
    this.core = core;
    for (let i = 0; i < threads; i++) {
      const w = new PoolWorker(spawner, core, (x) => this.#next(x), (x, e) => this.#fail(x, e), () => this.#checkReady());
      this.#workers.push(w);
      this.#idle.push(w);
    }
  }

  get threads(): number { return this.#workers.length; }

  /** False once every worker has died (each one that failed was dropped): callers go inline. */
  get alive(): boolean { return !this.#closed && this.#workers.length > 0; }

  /**
   * Every thread has started and made its instance, so a job sent now starts at once (before, it waits
   * for the thread to start: tens of ms, which the first query of a new or released pool would pay).
   */
  get ready(): boolean { return this.alive && this.#workers.every((w) => w.ready); }

  /** Resolves once the pool is ready, or once it can never be (closed, or every thread died). */
  whenReady(): Promise<void> {
    if (this.ready || !this.alive) return Promise.resolve();
    return new Promise((resolve) => this.#readyWaiters.push(resolve));
  }

  #checkReady(): void {
    if (this.ready || !this.alive) for (const f of this.#readyWaiters.splice(0)) f();
  }

  /** Workers with no job now (a query sent to one starts at once). */
  get idle(): number { return this.#idle.length; }

  /** Whether a job is running or queued. */
  get busy(): boolean { return this.#queue.length > 0 || this.#workers.some((w) => w.job !== null); }

  /** Tasks run so far by each worker. */
  taskCounts(): number[] { return this.#workers.map((w) => w.tasks); }

  /** Each worker's heap region in bytes (it doubles after a trapped task). */
  regionSizes(): number[] { return this.#workers.map((w) => w.regionBytes); }

  /** Runs one batch of tasks on one worker (in order); resolves with each task's result. */
  run(tasks: RangeTask[]): Promise<RangeResult[]> {
    if (!this.alive) return Promise.reject(new Error('quarry: the query thread pool has no thread'));
    return new Promise<RangeResult[]>((resolve, reject) => {
      this.#queue.push({ tasks, resolve, reject });
      const w = this.#idle.pop();
      if (w) this.#next(w);
    });
  }

  #next(w: PoolWorker): void {
    for (let job; (job = this.#queue.shift()); ) {
      try {
        w.send(job);
        return;
      } catch (e) {
        job.reject(e); // no core memory for its mailbox: the caller runs it on the main instance
      }
    }
    this.#idle.push(w);
  }

  /**
   * A worker died or could not start (not a trap: those are caught inside it): its job fails (the
   * caller re-runs it on the main instance), the others go on; its region is not reused.
   */
  #fail(w: PoolWorker, e: unknown): void {
    console.error('quarry: a query thread failed:', e);
    const job = w.job;
    w.job = null;
    job?.reject(e);
    this.#workers = this.#workers.filter((x) => x !== w);
    this.#idle = this.#idle.filter((x) => x !== w);
    if (!this.#workers.length) {
      for (const j of this.#queue.splice(0)) j.reject(e);
    }
    this.#checkReady(); // the ones left may all be up, or none is left
  }

  /** Stops the workers; their heap regions return to the core once they have exited. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const j of this.#queue.splice(0)) j.reject(new Error('quarry: the query thread pool is closed'));
    this.#checkReady();
    const workers = this.#workers.splice(0);
    for (const w of workers) w.close();
    await Promise.all(workers.map((w) => w.worker.terminate()));
    for (const w of workers) w.release();
  }
}
