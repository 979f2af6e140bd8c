/**
 * Where a prepared query runs, as handOver (query-threads.ts) decides from its shape's learnt time
 * (cost-model.ts), with the time it took taught back to that shape: the one step a search and a
 * grouping share (rt-index.ts searchAsync, groupAllAsync).
 */
import type { CorePool } from '../../wasm/worker-pool.js';
import type { SearchRequest } from '../types.js';
import { searchCost, type PreparedSearch } from '../search.js';
import { handOver } from './query-threads.js';
import { estimateCost, recordCost, shapeOf, timed } from './cost-model.js';

/**
 * Runs `p` `inline` on this thread or on the pool's `threads` (whole: with `threads: 1` in the request,
 * so one thread takes it); `what` names the query's kind for its shape.
 */
export function placeQuery<T>(
  pool: CorePool, p: PreparedSearch, req: SearchRequest, what: string,
  inline: () => T, threads: (req: SearchRequest, learn: (ms: number) => void) => Promise<T>,
): T | Promise<T> {
  const cost = searchCost(p);
  const shape = shapeOf(what, p.keywords.length);
  const learn = (ms: number) => recordCost(shape, cost, ms);
  const where = handOver(cost, estimateCost(shape, cost), pool);
  if (where === 'inline') return timed(learn, inline);
  return threads(where === 'whole' ? { ...req, threads: 1 } : req, learn);
}
