// A keyword repeated in an AND (assembly/plan/prune.ts repeatPart, repeatWeights): its occurrences'
// field parts of the weight bound sum to G(r) = max Σ_f w_f min(r, tf_f), the most its r query
// positions can add to the fields' LCS runs with tf hits on the row. Rows holding the word once in the
// title and once in the body are bounded at one field less than before (a field holding it twice and
// both fields holding it cannot both be), so an AND of it with another word counts them without
// scoring; every answer stays the exhaustive evaluation's, on one thread and several.
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { setExhaustiveEvaluation } from '../../../src/wasm/plan-encoder.js';
import { setQueryThreads } from '../../../src/index/parallel/query-threads.js';
import { sharedCore } from '../../../src/wasm/core.js';
import { THREADS, prunedAndExhaustive, useParallelEngine, type Sql } from '../index/parallel/parallel-engine.js';
import { Rng } from '../../fuzz/rng.js';

const VOCAB = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];
const random = new Rng(23);
const rand = () => random.next();
const skewed = () => VOCAB[Math.floor(VOCAB.length * rand() * rand())];
const words = (n: number) => Array.from({ length: n }, skewed).join(' ');

async function insert(sql: Sql, table: string, rows: string[]): Promise<void> {
  const [r] = await sql(`INSERT INTO ${table} (id, title, body) VALUES ${rows.join(',')}`);
  if (r.kind === 'error') throw new Error(r.message);
}

const { sql, answer } = useParallelEngine('quarry-repeats-', async (sql) => {
  // no pair terms: the AND is bounded from its words' tfs alone (prune.ts pairedPart would read the
  // rows' hits for the repeat's step and prune them anyway, at more cost)
  for (const t of ['r', 's']) {
    const [r] = await sql(`CREATE TABLE ${t} (title text, body text) bigram_index='none'`);
    if (r.kind === 'error') throw new Error(r.message);
  }
  let id = 1;
  // r: rows without the words (their idf above 0), 20 of weight 4000+ (LCS 2 in each field), then 1500
  // of weight 3000+ holding alpha in both fields and bravo thrice in the body (a higher BM25 than the
  // 20's): their bound was 1000 * (2 + 1 + 1) + BM25, above the 20th weight; it is 1000 * (2 + 0 + 1)
  await insert(sql, 'r', Array.from({ length: 3000 }, () => `(${id++}, 'zulu yankee', 'xray zulu whisky')`));
  await insert(sql, 'r', Array.from({ length: 20 }, () => `(${id++}, 'alpha bravo', 'alpha bravo')`));
  for (let b = 0; b < 3; b++) await insert(sql, 'r', Array.from({ length: 500 }, () => `(${id++}, 'alpha zulu', 'alpha bravo bravo bravo')`));
  const [opt] = await sql('OPTIMIZE TABLE r OPTION sync=1');
  if (opt.kind === 'error') throw new Error(opt.message);
  // s: random rows of a few words, repeats of a word in one field and across both
  for (let b = 0; b < 4; b++) {
    await insert(sql, 's', Array.from({ length: 700 }, () => `(${id++}, '${words(1 + Math.floor(rand() * 4))}', '${words(3 + Math.floor(rand() * 12))}')`));
  }
});

const both = (q: string) => prunedAndExhaustive(answer, q);

describe('the weight bound of a repeated keyword', () => {
  afterAll(() => setExhaustiveEvaluation(false));

  it('counts rows holding the word once in each field without scoring them', async () => {
    await setQueryThreads(1);
    for (const q of ["SELECT id, weight() FROM r WHERE MATCH('alpha bravo alpha') LIMIT 20",
      "SELECT id, weight() FROM r WHERE MATCH('alpha alpha bravo') LIMIT 5"]) {
      const [pruned, full] = await both(q);
      expect(pruned, q).toEqual(full);
      await answer(q);
      // the 1500 rows less the block or two they share with the 20 (whose bravo is in the title too)
      expect(sharedCore().exports.lastPruned(), q).toBeGreaterThan(1200);
    }
  }, 60_000);

  const word = fc.constantFrom(...VOCAB);
  const repeated = (tables: string[]) => fc.record({
    ws: fc.uniqueArray(word, { minLength: 1, maxLength: 3 }), at: fc.nat(3), times: fc.integer({ min: 1, max: 3 }),
    weights: fc.option(fc.tuple(fc.integer({ min: -2, max: 6 }), fc.integer({ min: -2, max: 6 }))),
    ranker: fc.constantFrom('', 'bm25'),
    limit: fc.constantFrom('LIMIT 1', 'LIMIT 5', 'LIMIT 20', 'LIMIT 3, 30'),
    table: fc.constantFrom(...tables),
  }).map(({ ws, at, times, weights, ranker, limit, table }) => {
    const q = [...ws.slice(0, at), ...Array.from({ length: times }, () => ws[0]), ...ws.slice(at)];
    const options = [ranker && `ranker=${ranker}`, weights && `field_weights=(title=${weights[0]}, body=${weights[1]})`].filter(Boolean);
    return `SELECT id, weight() FROM ${table} WHERE MATCH('${q.join(' ')}') ${limit}${options.length ? ` OPTION ${options.join(', ')}` : ''}`;
  });

  // s (four segments, merged by the tiered merge as the test runs) on several threads too: rows of equal
  // weight from different segments order by id whatever the layout (test/unit/index/parallel/search-ties.test.ts)
  for (const [threads, tables] of [[1, ['r', 's']], [THREADS, ['r', 's']]] as const) {
    it(`gives the exhaustive answers for ANDs repeating a word, on ${threads} thread(s)`, async () => {
      await setQueryThreads(threads);
      await fc.assert(fc.asyncProperty(repeated([...tables]), async (q) => {
        const [pruned, full] = await both(q);
        expect(pruned, q).toEqual(full);
      }), { numRuns: 200 });
    }, 300_000);
  }
});
