// Where placeQuery runs a query while its table's thread pool is not up: the first query that would go
// to the threads starts them and runs on this thread meanwhile (starting them takes tens of ms, the whole
// first query's time at 10M); once they are up the same query goes to them, with the same answer.
import { afterAll, describe, expect, it } from 'vitest';
import { Core } from '../../../../src/wasm/core.js';
import { CorePool } from '../../../../src/wasm/worker-pool.js';
import { RtIndex } from '../../../../src/index/rt-index.js';
import { prepareSearch, releaseSearch, searchCost } from '../../../../src/index/search.js';
import { closeQueryPools, MIN_HANDOVER_COST, poolLoad, queryPool, setBusyProbe, setQueryThreads, SPREAD_MS } from '../../../../src/index/parallel/query-threads.js';
import { recordCost, resetCostModel, shapeOf } from '../../../../src/index/parallel/cost-model.js';
import type { DocInput, IndexSchema, SearchRequest } from '../../../../src/index/types.js';

const schema: IndexSchema = { fields: ['title'], attrs: [] };
const doc = (id: number): DocInput => ({ docId: BigInt(id), fields: [{ terms: ['a', id % 3 ? 'b' : 'c'], positions: [1, 2], length: 2 }], attrs: [] });
const req: SearchRequest = {
  query: { kind: 'term', text: 'a' }, ranker: 'none', fieldWeights: {}, filters: [], sort: [], offset: 0, limit: 20, maxMatches: 1000,
};
const tasks = (pool: CorePool) => pool.taskCounts().reduce((a, b) => a + b, 0);

describe('placeQuery before the pool is up', () => {
  afterAll(async () => {
    setBusyProbe(null);
    await setQueryThreads(1);
    await closeQueryPools();
    resetCostModel();
  });

  it('runs the first query that would spread on this thread, then on the threads once they are up', async () => {
    const core = new Core();
    const idx = new RtIndex(schema, { core, autoMerge: false });
    idx.addBatch(Array.from({ length: 20_000 }, (_, i) => doc(i + 1)));
    // the shape has been learnt to take 50 ms: handOver spreads it (a table opened after others ran)
    const p = prepareSearch(schema, [...idx.segments], idx.count(), req);
    const cost = searchCost(p);
    releaseSearch(p);
    expect(cost).toBeGreaterThanOrEqual(MIN_HANDOVER_COST);
    recordCost(shapeOf('term', 1), cost, 50 * SPREAD_MS);
    setBusyProbe(() => false);
    await setQueryThreads(2);
    expect(poolLoad(core)).not.toBeInstanceOf(CorePool); // nothing started yet

    const first = await idx.searchAsync(req);
    const pool = queryPool(core)!;
    expect(pool).toBeInstanceOf(CorePool); // the query started it...
    expect(tasks(pool)).toBe(0); // ...and did not wait for it: no thread ran a task
    expect(first).toEqual(idx.search(req));

    await pool.whenReady();
    expect(pool.ready).toBe(true);
    const second = await idx.searchAsync(req);
    expect(tasks(pool)).toBeGreaterThan(1); // spread over the threads now
    expect(second).toEqual(first);
    idx.truncate();
  });

  it('starts no thread for a table whose queries all stay on this thread', async () => {
    const core = new Core();
    const idx = new RtIndex(schema, { core, autoMerge: false });
    idx.addBatch(Array.from({ length: 100 }, (_, i) => doc(i + 1)));
    await setQueryThreads(2);
    expect(await idx.searchAsync(req)).toEqual(idx.search(req));
    expect(poolLoad(core)).not.toBeInstanceOf(CorePool);
    idx.truncate();
  });
});
