/**
 * Node's file access for the layers that also run in a page (src/text, src/wasm import no Node
 * built-ins): the WASM core from build/*.wasm, the files text settings name, the worker threads
 * queries run on and the thread segment merges run on. Installed by
 * openEngine and by any Node entry that uses those layers without an engine (tests, benches).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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
import { setBusyProbe } from '../index/parallel/query-threads.js';
import { nodeMergeThreads } from './background/merge-thread.js';

export const nodeTextFiles: TextFiles = {
  exists: (path) => existsSync(path),
  read: (path) => readFileSync(path, 'utf8'),
  list: (dir) => readdirSync(dir),
};

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
  setBusyProbe(eventLoopBusyProbe());
}
