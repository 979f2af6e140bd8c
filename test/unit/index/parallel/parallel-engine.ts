// The engine the worker-thread tests share: a temporary data directory, the parallel threshold lowered
// to the size of a test table, and the helpers comparing a threaded answer with the one-thread answer.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'lossless-json';
import { afterAll, beforeAll } from 'vitest';
import { searchJsonText } from '../../../../src/http/render-search.js';
import { newSession, openEngine, type Engine, type JsonValue, type Result } from '../../../../src/engine/index.js';
import { queryPool, setBusyProbe, setParallelMinCost, setQueryThreads, setSpareCoreProbe } from '../../../../src/index/parallel/query-threads.js';
import { sharedCore } from '../../../../src/wasm/core.js';
import { setExhaustiveEvaluation } from '../../../../src/wasm/plan-encoder.js';
import type { ThreadSpawner } from '../../../../src/wasm/worker-pool.js';

/** Threads of the query pool in these tests. */
export const THREADS = 3;

/** Tables of a few thousand rows here: queries of this cost go to the threads (the default is for real sizes). */
export const TEST_MIN_COST = 20_000;

export type Sql = (text: string) => Promise<Result[]>;

export interface ParallelEngine {
  sql: Sql;
  /** Every result set of a statement and the SHOW META after it, without the timing. */
  answer(select: string): Promise<unknown>;
  /** A `/search` body's answer as the HTTP API renders it, without `took`. */
  search(body: unknown): Promise<Record<string, unknown>>;
  /** Tasks each worker ran so far (the pool of THREADS workers; going to 1 thread keeps it idle). */
  tasksRun(): Promise<number[]>;
}

/**
 * Opens an engine in a temporary directory before the file's tests (threshold TEST_MIN_COST, then
 * `load` fills its tables) and closes it after them, back to one thread and the default threshold.
 */
export function useParallelEngine(prefix: string, load: (sql: Sql) => Promise<void>): ParallelEngine {
  let dir: string;
  let engine: Engine;
  const session = newSession();
  const sql: Sql = (text) => engine.execute(text, session);

  beforeAll(async () => {
    setParallelMinCost(TEST_MIN_COST);
    // this thread is never taken for saturated here (a test that wants it installs its own probe)
    setBusyProbe(() => false);
    dir = mkdtempSync(join(tmpdir(), prefix));
    engine = await openEngine({ dataDir: dir, threads: 1 });
    await load(sql);
  }, 120_000);

  afterAll(async () => {
    setParallelMinCost(undefined);
    setBusyProbe(null);
    setSpareCoreProbe(null);
    await setQueryThreads(1);
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  return {
    sql,
    async answer(select) {
      const out = await sql(`${select}; SHOW META`);
      return out.map((r) => (r.kind === 'rows' ? { ...r, meta: { ...r.meta, timeMs: 0 }, rows: r.rows.filter((row) => row[0] !== 'time') } : r));
    },
    async search(body) {
      const r = await engine.json!.search(parse(JSON.stringify(body)) as JsonValue, session);
      const { took: _took, ...rest } = JSON.parse(searchJsonText(r)) as Record<string, unknown>;
      return rest;
    },
    async tasksRun() {
      await setQueryThreads(THREADS);
      return queryPool(sharedCore())?.taskCounts() ?? [];
    },
  };
}

/** A thread spawner whose threads cannot start: each one's 'error' event fires as soon as it is listened to. */
export const failingSpawner: ThreadSpawner = () => ({
  on: (event: 'error', fn: (e: unknown) => void) => { if (event === 'error') queueMicrotask(() => fn(new Error('cannot start'))); },
  ref: () => {},
  unref: () => {},
  terminate: async () => 0,
});

/** `q`'s answer (rows and SHOW META) with pruning, then with the exhaustive evaluation: the pruning tests' pair. */
export async function prunedAndExhaustive(answer: (q: string) => Promise<unknown>, q: string): Promise<[unknown, unknown]> {
  const pruned = await answer(q);
  setExhaustiveEvaluation(true);
  try {
    return [pruned, await answer(q)];
  } finally {
    setExhaustiveEvaluation(false);
  }
}
