/**
 * How many worker threads evaluate queries (searchd `threads`), and the pool per core instance.
 * 1 (or less) keeps every query on the calling thread, as before worker threads existed; the pool
 * starts on the first query that needs it.
 */
import { CorePool, threadsAvailable } from '../wasm/worker-pool.js';
import type { Core } from '../wasm/core.js';

/**
 * The searchCost (postings a query decodes, or rows a full scan visits) from which a query goes to
 * the worker threads: below, the hand-over (about 0.1 ms) costs more than it saves.
 */
export const PARALLEL_MIN_COST = 20_000;

let threads = 1;
const pools = new Map<Core, CorePool>();

/**
 * Sets the thread count for queries started from now on. Pools of another size close; going to 1
 * keeps an idle pool (its threads hold no reference that keeps the process alive).
 */
export async function setQueryThreads(n: number): Promise<void> {
  threads = Math.max(1, Math.trunc(n) || 1);
  if (threads > 1 && [...pools.values()].some((p) => p.threads !== threads)) await closeQueryPools();
}

export function queryThreads(): number {
  return threads;
}

/** The pool evaluating queries over `core`, or null when queries run on the calling thread. */
export function queryPool(core: Core): CorePool | null {
  if (threads <= 1 || !threadsAvailable() || !core.shared) return null;
  let pool = pools.get(core);
  if (pool && !pool.alive) return null; // its threads died: queries stay on the calling thread
  if (!pool) {
    pool = new CorePool(core, threads);
    pools.set(core, pool);
  }
  return pool;
}

export async function closeQueryPools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.close()));
}
