// Grouping on the query worker threads: a big table's GROUP BY / FACET spreads over several threads
// (row ranges of a segment when its sums allow, whole segments otherwise) and every answer (groups,
// aggregates, representative rows, GROUP_CONCAT order, SHOW META) is the one the protocol thread alone
// gives, for random groupings, filters and matches, also after UPDATEs of the grouped columns.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { setBusyProbe, setQueryThreads } from '../../../../src/index/parallel/query-threads.js';
import { setThreadSpawner, threadSpawner } from '../../../../src/wasm/worker-pool.js';
import { failingSpawner, THREADS, useParallelEngine } from './parallel-engine.js';

const WORDS = ['apple', 'banana', 'cherry', 'dates'];

let seed = 7;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

/** Prices over many magnitudes: their double sums round, so the order of additions shows. */
const price = (): string => (rand() * [0.001, 100, 1e8][Math.floor(rand() * 3)]!).toPrecision(6);

/** The answer with THREADS threads, checked equal to the one-thread answer. */
async function bothWays(select: string): Promise<unknown> {
  await setQueryThreads(THREADS);
  const threaded = await answer(select);
  await setQueryThreads(1);
  expect(threaded, select).toEqual(await answer(select));
  return threaded;
}

// a table of 32k rows: its full scans go to the threads with the threshold lowered to 20k
const { sql, answer, search, tasksRun } = useParallelEngine('quarry-group-parallel-', async (sql) => {
  await sql('CREATE TABLE g (title text, cat uint, brand string, price float, qty uint, big bigint, tags multi)');
  let id = 1;
  for (let b = 0; b < 8; b++) {
    const rows = Array.from({ length: 4000 }, () => {
      const title = `${pick(WORDS)} ${pick(WORDS)}`;
      const tags = [1, 2, 3, 4].filter(() => rand() < 0.4);
      return `(${id++}, '${title}', ${Math.floor(rand() * 30)}, '${pick(['a', 'b', 'c', 'd', 'e'])}', ${price()}, ${Math.floor(rand() * 50)}, ${Math.floor(rand() * 7) - 3}, (${tags.join(',')}))`;
    });
    const [r] = await sql(`INSERT INTO g (id, title, cat, brand, price, qty, big, tags) VALUES ${rows.join(',')}`);
    if (r!.kind === 'error') throw new Error(r!.message);
  }
});

describe('grouping on worker threads', () => {
  it('spreads a GROUP BY over more than one thread, also over the ranges of one segment', async () => {
    const q = 'SELECT cat, COUNT(*), SUM(qty), MIN(price), MAX(big) FROM g GROUP BY cat ORDER BY cat ASC LIMIT 100';
    await bothWays(q); // starts the pool
    for (const optimized of [false, true]) {
      if (optimized) await sql('OPTIMIZE TABLE g');
      const before = await tasksRun();
      await bothWays(q);
      const after = await tasksRun();
      expect(after.filter((n, i) => n > before[i]!).length, `optimized ${optimized}`).toBeGreaterThan(1);
    }
  });

  it('runs a big GROUP BY whole on one thread while the protocol thread is saturated, as a search', async () => {
    const q = 'SELECT brand, COUNT(*), SUM(price) FROM g GROUP BY brand ORDER BY brand ASC LIMIT 10';
    const expected = await bothWays(q);
    await setQueryThreads(THREADS);
    setBusyProbe(() => true);
    try {
      const before = await tasksRun();
      expect(await answer(q)).toEqual(expected);
      expect((await tasksRun()).filter((n, i) => n > before[i]!).length).toBe(1);
    } finally {
      setBusyProbe(() => false);
      await setQueryThreads(1);
    }
  });

  it('runs /search aggs on the threads too, the aggregations of one scope in one pass', async () => {
    const body = {
      table: 'g', size: 0, query: { match: { title: 'apple' } },
      aggs: {
        cats: { terms: { field: 'cat', size: 40 } }, brands: { terms: { field: 'brand' } }, avg_qty: { avg: { field: 'qty' } },
        prices: { histogram: { field: 'price', interval: 1000 } }, tags: { terms: { field: 'tags' }, sort: [{ _key: 'asc' }] },
      },
    };
    await setQueryThreads(THREADS);
    const before = await tasksRun();
    const threaded = await search(body);
    const after = await tasksRun();
    expect(after.filter((n, i) => n > before[i]!).length).toBeGreaterThan(1);
    await setQueryThreads(1);
    expect(threaded).toEqual(await search(body));
    expect(Object.keys(threaded.aggregations as object)).toEqual(['cats', 'brands', 'avg_qty', 'prices', 'tags']);
  });

  const key = fc.constantFrom('cat', 'brand', 'tags', 'big', 'cat, brand', 'qty');
  const aggs = fc.subarray(['SUM(qty)', 'SUM(price)', 'AVG(qty)', 'AVG(price)', 'MIN(price)', 'MAX(qty)', 'SUM(big)', 'COUNT(DISTINCT brand)', 'GROUP_CONCAT(id)', 'SUM(qty*2)'], { minLength: 1, maxLength: 4 });
  const where = fc.constantFrom('', "MATCH('apple')", "MATCH('apple | banana')", 'qty > 10', "MATCH('cherry') AND price < 50");
  const within = fc.constantFrom('', ' WITHIN GROUP ORDER BY price DESC', ' WITHIN GROUP ORDER BY brand ASC', ' WITHIN GROUP ORDER BY weight() DESC');

  it('answers random groupings exactly as the protocol thread alone does', async () => {
    await fc.assert(fc.asyncProperty(key, aggs, where, within, fc.boolean(), fc.boolean(), async (k, as, w, wi, groupN, facet) => {
      const aggList = as.filter((a) => !(facet && a.startsWith('COUNT(DISTINCT')));
      const select = `SELECT ${k}, id, COUNT(*)${aggList.map((a) => `, ${a}`).join('')} FROM g${w ? ` WHERE ${w}` : ''} GROUP${groupN ? ' 2' : ''} BY ${k}${wi} ORDER BY COUNT(*) DESC, ${k.split(',')[0]} ASC LIMIT 15`;
      const q = facet ? `${select} FACET brand ORDER BY COUNT(*) DESC FACET cat, brand BY cat, brand LIMIT 5` : select;
      await bothWays(q);
    }), { numRuns: 25 });
  }, 240_000);

  it('a string or MVA column updated between queries is grouped by its new values', async () => {
    const q = 'SELECT brand, COUNT(*), SUM(qty) FROM g GROUP BY brand ORDER BY brand ASC';
    const before = await bothWays(q);
    await sql("UPDATE g SET brand = 'zz' WHERE cat = 3");
    const after = await bothWays(q);
    expect(after).not.toEqual(before);
    expect(JSON.stringify(after, (_, v) => (typeof v === 'bigint' ? String(v) : v))).toContain('"zz"');
  });

  it('answers on the protocol thread when the query threads cannot start', async () => {
    const q = 'SELECT cat, COUNT(*), SUM(qty) FROM g GROUP BY cat ORDER BY cat ASC LIMIT 100';
    await setQueryThreads(1);
    const expected = await answer(q);
    const real = threadSpawner();
    await setQueryThreads(1);
    const { closeQueryPools } = await import('../../../../src/index/parallel/query-threads.js');
    await closeQueryPools();
    setThreadSpawner(failingSpawner);
    try {
      await setQueryThreads(THREADS);
      expect(await answer(q)).toEqual(expected); // the failed batches run again here
      expect(await answer(q)).toEqual(expected); // the dead pool is skipped
    } finally {
      await setQueryThreads(1);
      await closeQueryPools();
      setThreadSpawner(real);
    }
  });
});
