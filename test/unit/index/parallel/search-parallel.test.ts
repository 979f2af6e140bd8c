// Queries on worker threads: a big table's query is spread over several threads, and every answer
// (ids, weights, order, totals, SHOW META) is the one the protocol thread alone gives, for random
// queries over every operator, with filters, sorting, rankers, deletes, updates and inserts mixed in.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { releaseIdleQueryPools, saturatedMinCost, setBusyProbe, setQueryThreads, setSpareCoreProbe } from '../../../../src/index/parallel/query-threads.js';
import { Core } from '../../../../src/wasm/core.js';
import { estimateCost, resetCostModel, shapeOf } from '../../../../src/index/parallel/cost-model.js';
import { setThreadSpawner, threadSpawner } from '../../../../src/wasm/worker-pool.js';
import { RtIndex } from '../../../../src/index/rt-index.js';
import type { DocInput, SearchRequest } from '../../../../src/index/types.js';
import { failingSpawner, TEST_MIN_COST, THREADS, useParallelEngine } from './parallel-engine.js';

const VOCAB = ['apple', 'banana', 'cherry', 'dates', 'elder', 'figs', 'grape', 'honey', 'iris', 'juniper', 'kiwi', 'lemon'];

let nextId = 1;

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = rng(42);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
// a skewed vocabulary: early words are frequent, so AND/phrase queries still match many rows
const skewed = () => VOCAB[Math.floor(VOCAB.length * rand() * rand())];
const words = (n: number) => Array.from({ length: n }, skewed).join(' ');

async function insertRows(n: number): Promise<void> {
  const rows: string[] = [];
  for (let i = 0; i < n; i++) {
    const body = `${words(4)}. ${words(5)}${rand() < 0.3 ? ` <h1>${words(2)}</h1>` : ''} ${words(6)}`;
    rows.push(`(${nextId++}, '${words(3 + Math.floor(rand() * 4))}', '${body}', ${Math.floor(rand() * 100)}, ${(rand() * 10).toFixed(2)}, '${pick(['x', 'y', 'z'])}')`);
  }
  const [r] = await sql(`INSERT INTO t (id, title, body, gid, price, tag) VALUES ${rows.join(',')}`);
  if (r.kind === 'error') throw new Error(r.message);
}

const { sql, answer, tasksRun } = useParallelEngine('quarry-parallel-', async (sql) => {
  const [r] = await sql("CREATE TABLE t (title text, body text, gid int, price float, tag string) min_prefix_len='2' index_exact_words='1' index_sp='1' html_strip='1' index_zones='h1'");
  if (r.kind === 'error') throw new Error(r.message);
  for (let b = 0; b < 12; b++) await insertRows(1000);
});

describe('queries on worker threads', () => {
  it('spreads one query over more than one thread when the table is big enough', async () => {
    await sql('OPTIMIZE TABLE t');
    await setQueryThreads(THREADS);
    await answer("SELECT id FROM t WHERE MATCH('apple')"); // starts the pool
    const before = await tasksRun();
    const r = await answer("SELECT id, weight() FROM t WHERE MATCH('apple | banana') LIMIT 5");
    const after = await tasksRun();
    expect(after.length).toBe(THREADS);
    const busy = after.filter((n, i) => n > before[i]).length;
    expect(busy).toBeGreaterThan(1);
    await setQueryThreads(1);
    expect(await answer("SELECT id, weight() FROM t WHERE MATCH('apple | banana') LIMIT 5")).toEqual(r);
  });

  it('OPTION threads caps the threads of one query; concurrent queries run on different threads', async () => {
    const q = "SELECT id, weight() FROM t WHERE MATCH('apple | banana') LIMIT 5";
    const all = await answer(q);
    const before = await tasksRun();
    expect(await answer(`${q} OPTION threads=1`)).toEqual(all);
    const mid = await tasksRun();
    expect(mid.filter((n, i) => n > before[i]).length).toBe(1);
    // two clients at once, each query on one thread: both threads work
    const [a, b] = await Promise.all([answer(`${q} OPTION threads=1`), answer(`${q} OPTION threads=1`)]);
    const after = await tasksRun();
    expect(after.filter((n, i) => n > mid[i]).length).toBe(2);
    expect([a, b]).toEqual([all, all]);
    await setQueryThreads(1);
  });

  it('releases idle threads (the engine does once the process is idle) and starts them again for the next query', async () => {
    const q = "SELECT id, weight() FROM t WHERE MATCH('apple | banana') LIMIT 5";
    const all = await answer(q);
    expect((await tasksRun()).some((n) => n > 0)).toBe(true);
    await releaseIdleQueryPools();
    expect(await tasksRun()).toEqual(new Array(THREADS).fill(0)); // a fresh pool: the old threads ended
    expect(await answer(q)).toEqual(all);
    expect((await tasksRun()).filter((n) => n > 0).length).toBeGreaterThan(1);
    // a release while queries run keeps their pool busy or sends them elsewhere: same answers
    const racing = await Promise.all([answer(q), releaseIdleQueryPools().then(() => answer(q)), answer(q)]);
    expect(racing).toEqual([all, all, all]);
    await setQueryThreads(1);
  });

  it('learns the time of a query the threads ran from their own measure of it', async () => {
    const q = "SELECT id, weight() FROM t WHERE MATCH('apple | banana') LIMIT 5";
    const [, meta] = await sql(`${q}; SHOW META`);
    const n = (name: string) => Number((meta as { rows: unknown[][] }).rows.find((r) => r[0] === name)?.[1] ?? 0);
    const cost = n('docs[0]') + n('hits[0]') + n('docs[1]') + n('hits[1]');
    const shape = shapeOf('or', 2);
    resetCostModel();
    const prior = estimateCost(shape, cost);
    const before = await tasksRun();
    await answer(q);
    expect((await tasksRun()).filter((c, i) => c > before[i]).length).toBeGreaterThan(1);
    // the threads' time for its ranges, not the prior from its postings
    expect(estimateCost(shape, cost)).not.toBe(prior);
    expect(estimateCost(shape, cost)).toBeGreaterThan(0);
    await setQueryThreads(1);
  });

  it('keeps a cheap query on the protocol thread', async () => {
    await sql('CREATE TABLE small (title text)');
    await sql("INSERT INTO small (id, title) VALUES (1, 'apple'), (2, 'apple banana')");
    await setQueryThreads(THREADS);
    const before = await tasksRun();
    const [r] = await sql("SELECT id FROM small WHERE MATCH('apple')");
    expect(r).toMatchObject({ kind: 'rows', rows: [[1n], [2n]] });
    expect(await tasksRun()).toEqual(before);
    await setQueryThreads(1);
  });

  /** A word of t whose cost is between saturatedMinCost() and the test's threshold for spreading. */
  async function midWord(): Promise<string> {
    const cost = async (w: string) => {
      const [, meta] = await sql(`SELECT id FROM t WHERE MATCH('${w}') LIMIT 1; SHOW META`);
      const n = (name: string) => Number((meta as { rows: unknown[][] }).rows.find((r) => r[0] === name)?.[1] ?? 0);
      return n('docs[0]') + n('hits[0]');
    };
    for (const w of VOCAB) {
      const c = await cost(w);
      if (c >= saturatedMinCost() && c < TEST_MIN_COST) return w;
    }
    return '';
  }
  const grew = (after: number[], before: number[]) => after.filter((n, i) => n > before[i]).length;
  const big = "SELECT id, weight() FROM t WHERE MATCH('apple | banana') LIMIT 5";

  it('sends a cheaper query, and a big one, whole to one idle thread while the protocol thread is saturated and a core is spare', async () => {
    const word = await midWord();
    expect(word).not.toBe('');
    const q = `SELECT id, weight() FROM t WHERE MATCH('${word}') ORDER BY id DESC LIMIT 7`;
    const tiny = "SELECT id, weight() FROM small WHERE MATCH('apple')";
    const inline = [await answer(q), await answer(tiny)];
    const before = await tasksRun();
    setBusyProbe(() => true);
    setSpareCoreProbe(() => true);
    try {
      expect(await answer(q)).toEqual(inline[0]);
      const after = await tasksRun();
      expect(grew(after, before)).toBe(1);
      // a query cheaper than the hand-over stays here
      expect(await answer(tiny)).toEqual(inline[1]);
      expect(await tasksRun()).toEqual(after);
      // a big query goes whole to one thread too: cut, each range would cost a wake-up on a busy machine
      await answer(big);
      expect(grew(await tasksRun(), after)).toBe(1);
    } finally {
      setBusyProbe(() => false);
      setSpareCoreProbe(null);
      await setQueryThreads(1);
    }
  });

  it('keeps a cheaper query here and sends a big one whole to one thread when every core is busy', async () => {
    const word = await midWord();
    const q = `SELECT id, weight() FROM t WHERE MATCH('${word}') ORDER BY id DESC LIMIT 7`;
    const inline = [await answer(q), await answer(big)];
    const before = await tasksRun();
    setBusyProbe(() => true);
    setSpareCoreProbe(() => false);
    try {
      expect(await answer(q)).toEqual(inline[0]);
      expect(await tasksRun()).toEqual(before);
      expect(await answer(big)).toEqual(inline[1]);
      expect(grew(await tasksRun(), before)).toBe(1);
    } finally {
      setBusyProbe(() => false);
      setSpareCoreProbe(null);
      await setQueryThreads(1);
    }
  });

  it('finishes a query whose segments a merge replaced and a delete changed while it ran', async () => {
    const idx = new RtIndex({ fields: ['title'], attrs: [] }, { autoMerge: false });
    const doc = (id: number, w: string): DocInput => ({ docId: BigInt(id), fields: [{ terms: [w], positions: [1], length: 1 }], attrs: [] });
    for (let b = 0; b < 4; b++) idx.addBatch(Array.from({ length: 10_000 }, (_, i) => doc(b * 10_000 + i + 1, i % 3 ? 'apple' : 'kiwi')));
    const req: SearchRequest = { query: { kind: 'term', text: 'kiwi' }, ranker: 'bm25', fieldWeights: {}, filters: [], sort: [], offset: 0, limit: 10, maxMatches: 1000 };
    const expected = idx.search(req);
    const before = (await tasksRun()).reduce((a, b) => a + b, 0);
    const sizes = idx.segments.map((seg) => seg.blobLen);
    const running = idx.searchAsync(req);
    idx.delete([1n, 4n]);
    idx.optimize(); // frees the four segments the running query reads: only once it is done
    // allocations the size of the replaced blobs would take their memory, were it freed: scribble on them
    const scribbles = sizes.map((n) => idx.core.alloc(n));
    for (const [i, p] of scribbles.entries()) idx.core.u8.fill(0xff, p, p + sizes[i]);
    const got = await running;
    expect((await tasksRun()).reduce((a, b) => a + b, 0)).toBeGreaterThan(before); // it did run on the threads
    for (const p of scribbles) idx.core.free(p);
    await setQueryThreads(1);
    expect(got).toEqual(expected);
    expect(idx.search(req).totalFound).toBe(expected.totalFound - 2);
  });

  it('answers on the protocol thread when the query threads cannot start', async () => {
    const real = threadSpawner();
    setThreadSpawner(failingSpawner);
    try {
      const idx = new RtIndex({ fields: ['title'], attrs: [] }, { core: new Core(), autoMerge: false });
      idx.addBatch(Array.from({ length: 30_000 }, (_, i) => ({ docId: BigInt(i + 1), fields: [{ terms: ['kiwi'], positions: [1], length: 1 }], attrs: [] })));
      const req: SearchRequest = { query: { kind: 'term', text: 'kiwi' }, ranker: 'bm25', fieldWeights: {}, filters: [], sort: [], offset: 0, limit: 10, maxMatches: 1000 };
      const expected = idx.search(req);
      await setQueryThreads(THREADS);
      expect(await idx.searchAsync(req)).toEqual(expected); // the failed batches re-run here
      expect(await idx.searchAsync(req)).toEqual(expected); // the dead pool is skipped
    } finally {
      setThreadSpawner(real);
      await setQueryThreads(1);
    }
  });

  const term = fc.constantFrom(...VOCAB.slice(0, 8));
  const modified = fc.tuple(term, fc.constantFrom('', '=', '^', '', '*', '$')).map(([w, m]) =>
    (m === '*' ? `${w.slice(0, 3)}*` : m === '$' ? `${w}$` : `${m}${w}`));
  const match: fc.Arbitrary<string> = fc.oneof(
    modified,
    fc.tuple(modified, modified).map(([a, b]) => `${a} ${b}`),
    fc.tuple(term, term).map(([a, b]) => `${a} | ${b}`),
    fc.tuple(term, term).map(([a, b]) => `${a} -${b}`),
    fc.tuple(term, term).map(([a, b]) => `"${a} ${b}"`),
    fc.tuple(term, term, fc.integer({ min: 1, max: 5 })).map(([a, b, n]) => `"${a} ${b}"~${n}`),
    fc.tuple(term, term, term, fc.integer({ min: 1, max: 3 })).map(([a, b, c, n]) => `"${a} ${b} ${c}"/${n}`),
    fc.tuple(term, term).map(([a, b]) => `${a} << ${b}`),
    fc.tuple(term, term, fc.integer({ min: 1, max: 6 })).map(([a, b, n]) => `${a} NEAR/${n} ${b}`),
    fc.tuple(term, term, fc.integer({ min: 1, max: 6 })).map(([a, b, n]) => `${a} NOTNEAR/${n} ${b}`),
    fc.tuple(term, term).map(([a, b]) => `${a} MAYBE ${b}`),
    fc.tuple(term, term).map(([a, b]) => `${a} SENTENCE ${b}`),
    fc.tuple(term, term).map(([a, b]) => `${a} PARAGRAPH ${b}`),
    term.map((a) => `ZONE:(h1) ${a}`),
    fc.tuple(term, term).map(([a, b]) => `@title ${a} @body ${b}`),
    fc.tuple(term, fc.integer({ min: 1, max: 4 })).map(([a, n]) => `@body[${n}] ${a}`),
    fc.tuple(term, term, term).map(([a, b, c]) => `(${a} | ${b}) -${c}`),
  );
  const ranker = fc.constantFrom('', ' OPTION ranker=bm25', ' OPTION ranker=sph04', ' OPTION ranker=wordcount', ' OPTION ranker=proximity',
    ' OPTION ranker=matchany', ' OPTION ranker=fieldmask', ' OPTION ranker=none', " OPTION ranker=expr('sum(lcs*user_weight)*1000+bm25')");
  const filter = fc.constantFrom('', ' AND gid > 40', ' AND price < 5', " AND tag = 'x'", ' AND gid BETWEEN 10 AND 60');
  const order = fc.constantFrom('', ' ORDER BY gid DESC', ' ORDER BY price ASC, id DESC', ' ORDER BY weight() ASC', ' ORDER BY tag ASC', ' ORDER BY RAND()');
  // ORDER BY RAND() with a seed, so that both runs order alike
  const seeded = (o: string, r: string) => (!o.includes('RAND') ? r : r ? `${r}, rand_seed=9` : ' OPTION rand_seed=9');
  const limit = fc.tuple(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 1, max: 40 })).map(([o, n]) => ` LIMIT ${o},${n}`);
  const select = fc.oneof(
    { weight: 5, arbitrary: fc.tuple(match, filter, order, limit, ranker).map(([m, f, o, l, r]) => `SELECT id, weight(), gid FROM t WHERE MATCH('${m}')${f}${o}${l}${seeded(o, r)}`) },
    { weight: 1, arbitrary: fc.tuple(filter, order, limit).map(([f, o, l]) => `SELECT id, gid, price FROM t WHERE id > 0${f}${o}${l}${seeded(o, '')}`) },
  );
  const ids = fc.array(fc.integer({ min: 1, max: 12_500 }), { minLength: 1, maxLength: 40 }).map((xs) => xs.join(','));
  const action = fc.oneof(
    { weight: 6, arbitrary: select.map((q) => ({ kind: 'select' as const, q })) },
    { weight: 1, arbitrary: ids.map((x) => ({ kind: 'write' as const, q: `DELETE FROM t WHERE id IN (${x})` })) },
    { weight: 1, arbitrary: fc.tuple(ids, fc.integer({ min: 0, max: 99 })).map(([x, g]) => ({ kind: 'write' as const, q: `UPDATE t SET gid=${g}, price=${g / 10} WHERE id IN (${x})` })) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 300 }).map((n) => ({ kind: 'insert' as const, n })) },
  );

  it('answers exactly as one thread does (random queries, every operator, writes mixed in)', async () => {
    let spread = 0;
    let selects = 0;
    await fc.assert(fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 8 }), async (actions) => {
      for (const a of actions) {
        if (a.kind === 'insert') { await insertRows(a.n); continue; }
        if (a.kind === 'write') { await sql(a.q); continue; }
        await setQueryThreads(1);
        const one = await answer(a.q);
        const before = await tasksRun();
        const many = await answer(a.q);
        expect(many, a.q).toEqual(one);
        selects++;
        if ((await tasksRun()).filter((n, i) => n > before[i]).length > 1) spread++;
      }
    }), { numRuns: 40 });
    // most queries of this table are worth spreading; the others ran on the protocol thread both times
    expect(spread).toBeGreaterThan(selects / 4);
  }, 300_000);
});
