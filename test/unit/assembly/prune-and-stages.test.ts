// An AND of common words counting its rows past the top-K (assembly/plan/bounded-runs.ts andRows) over a
// corpus shaped as the engine bench's synthetic one (Zipf-drawn words, long bodies): most rows hold every
// word, many of them several times, so each row goes through the bound's stages (tf, the steps' pairs,
// the steps' hits), and where the pairs' stage seldom cuts, its rows go straight to the hits' stage
// (andRows stepsCut); a row's hits are found from the tfs before it until a block is read often
// (postings/cursor.ts cursorPositions). The answers (rows, weights, totals, SHOW META) are the exhaustive
// evaluation's, on one thread and on several (ranges of one segment), with deletes.
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { setExhaustiveEvaluation } from '../../../src/wasm/plan-encoder.js';
import { setQueryThreads } from '../../../src/index/parallel/query-threads.js';
import { sharedCore } from '../../../src/wasm/core.js';
import { THREADS, prunedAndExhaustive, useParallelEngine } from '../index/parallel/parallel-engine.js';
import { Rng } from '../../fuzz/rng.js';

const VOCAB = Array.from({ length: 40 }, (_, i) => `w${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`);

const random = new Rng(22);
// Zipf over the vocabulary, as bench/engine/engine.bench.ts draws its synthetic words
const cdf: number[] = [];
let sum = 0;
for (let i = 0; i < VOCAB.length; i++) cdf.push((sum += 1 / (i + 1)));
const draw = () => {
  const x = random.next() * sum;
  return VOCAB[cdf.findIndex((c) => c >= x)];
};
const text = (n: number) => Array.from({ length: n }, draw).join(' ');

const { sql, answer } = useParallelEngine('quarry-prune-and-', async (sql) => {
  const [r] = await sql("CREATE TABLE z (title text, body text)");
  if (r.kind === 'error') throw new Error(r.message);
  let id = 1;
  for (let b = 0; b < 3; b++) {
    const rows = Array.from({ length: 1500 }, () => `(${id++}, '${text(3 + Math.floor(random.next() * 6))}', '${text(20 + Math.floor(random.next() * 50))}')`);
    const [ins] = await sql(`INSERT INTO z (id, title, body) VALUES ${rows.join(',')}`);
    if (ins.kind === 'error') throw new Error(ins.message);
  }
  // one segment (a merge running between the pruned and the exhaustive answer would change the keyword
  // statistics under them), then deletes in it; several threads take ranges of it
  const [opt] = await sql('OPTIMIZE TABLE z OPTION sync=1');
  if (opt.kind === 'error') throw new Error(opt.message);
  const gone = Array.from({ length: 200 }, () => 1 + Math.floor(random.next() * (id - 1)));
  await sql(`DELETE FROM z WHERE id IN (${gone.join(',')})`);
});

const both = (q: string) => prunedAndExhaustive(answer, q);

describe('an AND of common words counted past the top-K', () => {
  afterAll(() => setExhaustiveEvaluation(false));

  it('prunes most rows of three common words, a word repeated or not, with the exhaustive answers', async () => {
    await setQueryThreads(1);
    // high mid high, as the bench's AND-3 class ("see others see", "obs sides see")
    for (const q of [`${VOCAB[0]} ${VOCAB[6]} ${VOCAB[0]}`, `${VOCAB[1]} ${VOCAB[8]} ${VOCAB[0]}`, `${VOCAB[2]} ${VOCAB[5]} ${VOCAB[3]}`]) {
      const select = `SELECT id, weight() FROM z WHERE MATCH('${q}') LIMIT 20`;
      const [pruned, full] = await both(select);
      expect(pruned, select).toEqual(full);
      await answer(select);
      expect(sharedCore().exports.lastPruned(), select).toBeGreaterThan(100);
    }
  }, 120_000);

  for (const threads of [1, THREADS]) {
    it(`gives the exhaustive answers for ANDs of two to four common words on ${threads} thread(s)`, async () => {
      await setQueryThreads(threads);
      const common = fc.constantFrom(...VOCAB.slice(0, 12));
      const and = fc.record({
        ws: fc.array(common, { minLength: 2, maxLength: 4 }),
        weights: fc.option(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 }))),
        ranker: fc.constantFrom('', '', 'bm25'),
        limit: fc.constantFrom('LIMIT 1', 'LIMIT 5', 'LIMIT 20', 'LIMIT 3, 12'),
      }).map(({ ws, weights, ranker, limit }) => {
        const options = [ranker && `ranker=${ranker}`, weights && `field_weights=(title=${weights[0]}, body=${weights[1]})`].filter(Boolean);
        return `SELECT id, weight() FROM z WHERE MATCH('${ws.join(' ')}') ${limit}${options.length ? ` OPTION ${options.join(', ')}` : ''}`;
      });
      await fc.assert(fc.asyncProperty(and, async (q) => {
        const [pruned, full] = await both(q);
        expect(pruned, q).toEqual(full);
      }), { numRuns: 60 });
    }, 300_000);
  }
});
