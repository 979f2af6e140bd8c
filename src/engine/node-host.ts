/**
 * Node's file access for the layers that also run in a page (src/text, src/wasm import no Node
 * built-ins): the WASM core from build/*.wasm, the files text settings name, the worker threads
 * queries run on and the thread segment merges run on. Installed by
 * openEngine and by any Node entry that uses those layers without an engine (tests, benches).
 */
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { setFieldScannerFactory } from '../text/field-scanner.js';
import { setTextFiles, type TextFiles } from '../text/text-files.js';
import { setCoreSource, type WasmBuild } from '../wasm/core-module.js';
import { coreFieldScanners } from '../wasm/field-scanner.js';
import { setThreadSpawner, type CoreThread } from '../wasm/worker-pool.js';
import { setMergeRunnerFactory } from '../index/parallel/merge-job.js';
import { setBusyProbe, setSpareCoreProbe } from '../index/parallel/query-threads.js';
import { nodeMergeThreads } from './background/merge-thread.js';
import { indexTrace } from '../index/index-trace.js';
import { phase, tracing } from '../util/phase-trace.js';

export const nodeTextFiles: TextFiles = {
  exists: (path) => existsSync(path),
  read: (path) => readFileSync(path, 'utf8'),
  list: (dir) => readdirSync(dir),
  // the package's share/ (built-in stopword lists), found beside package.json
  get shareDir() {
    return shareDir();
  },
};

let share: string | undefined;

function shareDir(): string | undefined {
  if (share === undefined) {
    try {
      share = join(packageRoot(), 'share');
    } catch {
      return undefined;
    }
  }
  return share;
}

/** Walks up from this file to the directory holding package.json and build/ (src/ or dist/src/). */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'build'))) return dir;
    dir = dirname(dir);
  }
  throw new Error('quarry: cannot find the package root holding build/*.wasm');
}

/** The event loop's utilization over the last window, re-read at most this often. */
const BUSY_WINDOW_MS = 20;
/**
 * Above this share of the window busy, the thread is saturated. One client waiting for each answer
 * leaves the loop idle for its round trip (measured: about 0.7 busy); clients queued behind each
 * other leave it no idle time.
 */
const BUSY_UTILIZATION = 0.9;

/** A probe saying whether this thread's event loop was saturated over the last window. */
export function eventLoopBusyProbe(): () => boolean {
  let last = performance.eventLoopUtilization();
  let at = performance.now();
  let busy = false;
  return () => {
    const now = performance.now();
    if (now - at >= BUSY_WINDOW_MS) {
      const cur = performance.eventLoopUtilization();
      busy = performance.eventLoopUtilization(cur, last).utilization > BUSY_UTILIZATION;
      last = cur;
      at = now;
    }
    return busy;
  };
}

/** The machine's idle CPU re-read at most this often (/proc/stat counts 10 ms ticks: 20 per window on 2 cores). */
const IDLE_WINDOW_MS = 100;
/**
 * Idle CPU, in cores, from which the machine has a core to spare for a hand-over. Below it every core
 * is busy (the protocol thread, another client's query on a worker, the clients or other processes on
 * the same cores): a query handed over then runs on a core shared with them, not in parallel, and only
 * adds its hand-over and the protocol thread's preemptions (measured: the protocol thread was
 * preempted 30% more often with whole-query offload at 8 and 64 clients).
 */
const SPARE_CORE = 0.5;

/** Idle and total ticks of every CPU so far (the `cpu` line of /proc/stat), or null where there is none. */
export type CpuTicks = () => { idle: number; total: number } | null;

/** /proc/stat's first line read through one open descriptor (about 4 us a read); null off Linux. */
export function procStatTicks(): CpuTicks {
  let fd: number;
  try {
    fd = openSync('/proc/stat', 'r');
  } catch {
    return () => null;
  }
  const buf = Buffer.alloc(256);
  let open = true;
  return () => {
    if (!open) return null;
    let n: number;
    try {
      n = readSync(fd, buf, 0, buf.length, 0);
    } catch {
      // closed once: a second closeSync of the descriptor would throw (EBADF) from the query path
      open = false;
      closeSync(fd);
      return null;
    }
    // cpu  user nice system idle iowait irq softirq steal (guest time is already in user)
    const f = buf.toString('latin1', 0, n).split('\n', 1)[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    if (f.length < 8 || f.some((x) => !Number.isFinite(x))) return null;
    return { idle: f[3]! + f[4]!, total: f.reduce((a, b) => a + b, 0) };
  };
}

/**
 * A probe saying whether the machine had a core to spare over the last window (idle CPU of at least
 * SPARE_CORE cores). Where the ticks cannot be read it says yes: the hand-over policy is then the
 * event-loop probe's alone.
 */
export function spareCoreProbe(ticks: CpuTicks = procStatTicks(), cores = availableParallelism()): () => boolean {
  let last = ticks();
  let at = performance.now();
  let spare = true;
  return () => {
    const now = performance.now();
    if (now - at >= IDLE_WINDOW_MS) {
      const cur = ticks();
      if (cur && last && cur.total > last.total) spare = ((cur.idle - last.idle) / (cur.total - last.total)) * cores >= SPARE_CORE;
      else spare = true;
      last = cur;
      at = now;
    }
    return spare;
  };
}

/** Path of a build of the core. */
export function coreFile(build: WasmBuild): string {
  return join(packageRoot(), 'build', `${build}.wasm`);
}

let installed = false;

/** Installs Node's file access (once; later calls are no-ops). */
export function installNodeHost(): void {
  if (installed) return;
  installed = true;
  setTextFiles(nodeTextFiles);
  setCoreSource((build) => readFileSync(coreFile(build)));
  setFieldScannerFactory(coreFieldScanners);
  setThreadSpawner((source, workerData) => {
    const w = new Worker(source, { eval: true, workerData });
    w.unref(); // an idle query thread never keeps the process alive
    return w as unknown as CoreThread;
  });
  setMergeRunnerFactory(nodeMergeThreads());
  if (tracing) indexTrace.mark = phase;
  setBusyProbe(eventLoopBusyProbe());
  setSpareCoreProbe(spareCoreProbe());
}
