/**
 * The query worker thread's side of src/wasm/worker-pool.ts: the control block and mailbox layout both
 * sides read, and the thread's whole program (WORKER_SOURCE), which runs one instance of the core over the
 * shared memory in a region of its own and evaluates the tasks the main thread places in its mailbox.
 */

/** Words per task in a mailbox: RangeTask's fields in order, spec and specWords 0 for evaluateRange. */
export const TASK_WORDS = 9;
/**
 * Words per task's result in a mailbox: n, total, a group task's block address in the worker's heap,
 * and the task's time in microseconds.
 */
export const OUT_WORDS = 4;

/** The result a worker reports for a task that trapped (its instance is re-made). */
export const TASK_TRAPPED = -100;

/** The TLSF root's bytes at the start of a worker's region (heapConfine's first 2048 bytes). */
export const ROOT_BYTES = 2048;

/**
 * A worker's state word (control[STATE]) and the mailbox it reads: the main thread writes a job into
 * the mailbox (in the core's shared memory), sets JOB and notifies; the worker, asleep in Atomics.wait,
 * runs it, writes the results after the tasks, sets DONE and notifies; the main thread, in
 * Atomics.waitAsync, reads them and sets IDLE. Measured here, a round trip this way costs about 6 us
 * of CPU against about 20 through a MessagePort (structured clone, a message event each side).
 */
export const STATE = 0;
export const MAILBOX = 1;
export const COUNT = 2;
/**
 * Set to 1 by the worker once its instance is made (starting a thread and instantiating the module
 * take tens of ms, 170 at 10M): until every worker has, a query that does not need the threads runs
 * on the calling thread rather than wait for them (CorePool.ready). close() sets it to 2.
 */
export const READY = 3;
export const IDLE = 0;
export const JOB = 1;
export const DONE = 2;
export const CLOSE = 3;

// The worker's whole program: CommonJS, run with eval so no file path has to resolve from src/ or dist/.
export const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { module, memory } = workerData;
const control = new Int32Array(workerData.control);
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
Atomics.store(control, ${READY}, 1);
Atomics.notify(control, ${READY});
// Group blocks of the last job: the main thread copies them out of this instance's heap before the next job.
let blocks = [];
// A mailbox is [newRoot, newEnd, ${TASK_WORDS} words per task, then ${OUT_WORDS} result words per task];
// a non-zero newRoot moves the heap there.
function run(words, count) {
  for (const p of blocks) ex.free(p);
  blocks = [];
  if (words[0] !== 0) { root = words[0]; end = words[1]; instantiate(); }
  const outAt = 2 + count * ${TASK_WORDS};
  for (let t = 0; t < count; t++) {
    const i = 2 + t * ${TASK_WORDS};
    const o = outAt + t * ${OUT_WORDS};
    let n;
    let block = 0;
    const t0 = performance.now();
    try {
      if (words[i + 7] !== 0) {
        n = ex.groupRange(words[i], words[i + 1], words[i + 2], words[i + 7], words[i + 8], words[i + 5], words[i + 6]);
        if (n >= 0) { block = ex.groupResult() >>> 0; blocks.push(block); }
      } else {
        n = ex.evaluateRange(words[i], words[i + 1], words[i + 2], words[i + 3], words[i + 4], words[i + 5], words[i + 6]);
      }
    } catch (e) {
      n = ${TASK_TRAPPED};
      instantiate();
      // the group blocks written before the trap were in the old heap: those tasks run again too
      for (let u = 0; u < t; u++) if (words[outAt + u * ${OUT_WORDS} + 2] !== 0) words[outAt + u * ${OUT_WORDS}] = ${TASK_TRAPPED};
      blocks = [];
    }
    words[o] = n;
    words[o + 1] = n >= 0 ? ex.lastTotal() : 0;
    words[o + 2] = block;
    words[o + 3] = Math.round((performance.now() - t0) * 1000);
  }
}
for (;;) {
  const s = Atomics.load(control, ${STATE});
  if (s === ${CLOSE}) break;
  if (s !== ${JOB}) { Atomics.wait(control, ${STATE}, s); continue; }
  const count = control[${COUNT}];
  run(new Uint32Array(memory.buffer, control[${MAILBOX}] >>> 0, 2 + count * ${TASK_WORDS + OUT_WORDS}), count);
  Atomics.store(control, ${STATE}, ${DONE});
  Atomics.notify(control, ${STATE});
}
`;
