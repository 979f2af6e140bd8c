// The query's weight floor (assembly/rank/floor.ts): a segment or range starts pruning from the k-th
// weight the query's earlier segments and ranges kept. Nothing a client sees changes: random queries
// over a table of two segments holding the same texts (weights tie across segments, where the newer
// segment's row comes first) give the exhaustive answers on one thread and several; and a segment whose
// rows all weigh less than what an earlier one kept is counted without scoring any of them.
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { setExhaustiveEvaluation } from '../../../src/wasm/plan-encoder.js';
import { setQueryThreads } from '../../../src/index/parallel/query-threads.js';
import { sharedCore } from '../../../src/wasm/core.js';
import { THREADS, prunedAndExhaustive, useParallelEngine, type Sql } from '../index/parallel/parallel-engine.js';
import { Rng } from '../../fuzz/rng.js';

const VOCAB = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
const random = new Rng(11);
const rand = () => random.next();
const skewed = () => VOCAB[Math.floor(VOCAB.length * rand() * rand())];
const words = (n: number) => Array.from({ length: n }, skewed).join(' ');

/** Rows per segment of `m` (several row ranges each on THREADS threads: rangeRows' 4096 and up). */
const ROWS = 9000;

async function insert(sql: Sql, table: string, rows: string[]): Promise<void> {
  const [r] = await sql(`INSERT INTO ${table} (id, title, body) VALUES ${rows.join(',')}`);
  if (r.kind === 'error') throw new Error(r.message);
}

const { sql, answer } = useParallelEngine('quarry-floor-', async (sql) => {
  for (const t of ['m', 'h']) {
    const [r] = await sql(`CREATE TABLE ${t} (title text, body text)`);
    if (r.kind === 'error') throw new Error(r.message);
  }
  // m: two segments of the same texts (ties across them), so the second's rows compete with the first's
  const texts = Array.from({ length: ROWS }, () => [words(1 + Math.floor(rand() * 4)), words(3 + Math.floor(rand() * 20))]);
  for (let seg = 0; seg < 2; seg++) await insert(sql, 'm', texts.map(([t, b], i) => `(${seg * ROWS + i + 1}, '${t}', '${b}')`));
  // h: a heavy segment (alpha in both fields, often), then a light one (alpha once in the body only)
  await insert(sql, 'h', Array.from({ length: 400 }, (_, i) => `(${i + 1}, 'alpha alpha ${words(2)}', 'alpha alpha alpha ${words(5)}')`));
  await insert(sql, 'h', Array.from({ length: 300 }, (_, i) => `(${1000 + i}, '${words(2).replace(/alpha/g, 'golf')}', 'alpha ${words(5).replace(/alpha/g, 'golf')}')`));
});

/** The answer (rows and SHOW META) with pruning and with the exhaustive evaluation. */
const both = (q: string) => prunedAndExhaustive(answer, q);

const word = fc.constantFrom(...VOCAB);
const distinct = (min: number, max: number) => fc.uniqueArray(word, { minLength: min, maxLength: max });
const query = fc.record({
  match: fc.oneof(
    word, distinct(2, 3).map((ws) => ws.join(' | ')), distinct(2, 3).map((ws) => ws.join(' ')),
    distinct(2, 3).map((ws) => `"${ws.join(' ')}"`), fc.tuple(word, word).map(([a, b]) => `${a} -${b}`),
  ),
  ranker: fc.constantFrom('', '', 'bm25', 'sph04'),
  weights: fc.option(fc.tuple(fc.integer({ min: -2, max: 6 }), fc.integer({ min: -2, max: 6 }))),
  filter: fc.constantFrom('', '', ' AND id > 4000'),
  limit: fc.constantFrom('LIMIT 1', 'LIMIT 5', 'LIMIT 20', 'LIMIT 3, 7', 'LIMIT 200'),
}).map(({ match, ranker, weights, filter, limit }) => {
  const options = [ranker && `ranker=${ranker}`, weights && `field_weights=(title=${weights[0]}, body=${weights[1]})`].filter(Boolean);
  return `SELECT id, weight() FROM m WHERE MATCH('${match}')${filter} ${limit}${options.length ? ` OPTION ${options.join(', ')}` : ''}`;
});

describe('the query weight floor across segments', () => {
  afterAll(() => setExhaustiveEvaluation(false));

  it('counts a later segment whose rows all weigh less than the k kept before without scoring one', async () => {
    await setQueryThreads(1);
    expect(await segments('h')).toBe(2);
    const q = "SELECT id, weight() FROM h WHERE MATCH('alpha') LIMIT 3";
    const [pruned, full] = await both(q);
    expect(pruned).toEqual(full);
    await answer(q);
    // the light segment is evaluated last: all 300 of its rows pruned (without the floor its first 3 are scored)
    expect(sharedCore().exports.lastPruned()).toBe(300);
  }, 60_000);

  for (const threads of [1, THREADS]) {
    it(`gives the exhaustive answers over segments whose weights tie, on ${threads} thread(s)`, async () => {
      await setQueryThreads(threads);
      expect(await segments('m')).toBe(2);
      await fc.assert(fc.asyncProperty(query, async (q) => {
        const [pruned, full] = await both(q);
        expect(pruned, q).toEqual(full);
      }), { numRuns: 150 });
    }, 300_000);
  }
});

/** The table's segments (SHOW TABLE STATUS ram_chunk_segments_count). */
async function segments(table: string): Promise<number> {
  const [r] = await sql(`SHOW TABLE ${table} STATUS`);
  if (r.kind !== 'rows') throw new Error('no status');
  const row = r.rows.find((x) => String(x[0]) === 'ram_chunk_segments_count');
  return Number(row?.[1]);
}
