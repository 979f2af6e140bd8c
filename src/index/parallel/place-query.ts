/**
 * Where a prepared query runs, as handOver (query-threads.ts) decides from its shape's learnt time
 * (cost-model.ts), with the time it took taught back to that shape: the one step a search and a
 * grouping share (rt-index.ts searchAsync, groupAllAsync).
 */
import type { Core } from '../../wasm/core.js';
import type { CorePool } from '../../wasm/worker-pool.js';
import type { SearchRequest } from '../types.js';
import { searchCost, type PreparedSearch } from '../search.js';
import { handOver, poolLoad, takeQueryPool } from './query-threads.js';
import { estimateCost, recordCost, shapeOf, timed } from './cost-model.js';

/**
 * Where the last query placeQuery placed ran and what it was expected and measured to cost: read by
 * bench/engine/engine.bench.ts --slow, to tell a slow query's own cost from a pause (a query run here or
 * whole on one thread while its shape's time says spread, threads' time far under its wall time).
 */
export interface Placement { where: 'inline' | 'spread' | 'whole'; asked: 'inline' | 'spread' | 'whole'; estimateMs: number; evalMs: number }
let last: Placement = { where: 'inline', asked: 'inline', estimateMs: 0, evalMs: 0 };

export function lastPlacement(): Readonly<Placement> {
  return last;
}

/**
 * Runs `p` `inline` on this thread or on the `threads` of `core`'s pool (whole: with `threads: 1` in
 * the request, so one thread takes it); `what` names the query's kind for its shape. The pool starts
 * only when a query would go to it, and until its threads are up such queries run here (takeQueryPool).
 */
export function placeQuery<T>(
  core: Core, p: PreparedSearch, req: SearchRequest, what: string,
  inline: () => T, threads: (pool: CorePool, req: SearchRequest, learn: (ms: number) => void) => Promise<T>,
): T | Promise<T> {
  const cost = searchCost(p);
  const shape = shapeOf(what, p.keywords.length);
  const estimateMs = estimateCost(shape, cost);
  const where = handOver(cost, estimateMs, poolLoad(core));
  const pool = where === 'inline' ? null : takeQueryPool(core);
  const placed: Placement = { where: pool ? where : 'inline', asked: where, estimateMs, evalMs: 0 };
  last = placed;
  const learn = (ms: number) => {
    placed.evalMs = ms;
    recordCost(shape, cost, ms);
  };
  if (!pool) return timed(learn, inline);
  return threads(pool, where === 'whole' ? { ...req, threads: 1 } : req, learn);
}
