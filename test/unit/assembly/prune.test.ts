// Weight-bound pruning and the phrase decision (assembly/plan/prune.ts) change nothing a client sees:
// random queries over every operator, ranker, field weights, filters, sorts and limits give the same
// rows, weights, totals and SHOW META as the exhaustive evaluation (every row scored, phrases by their
// FSM), on one thread and on several, over a table with deletes and several segments.
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { setExhaustiveEvaluation } from '../../../src/wasm/plan-encoder.js';
import { setQueryThreads } from '../../../src/index/parallel/query-threads.js';
import { sharedCore } from '../../../src/wasm/core.js';
import { THREADS, prunedAndExhaustive, useParallelEngine } from '../index/parallel/parallel-engine.js';
import { Rng } from '../../fuzz/rng.js';

const VOCAB = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];

const random = new Rng(7);
const rand = () => random.next();
// skewed: the first words are in most rows (postings of many blocks), the last ones rare
const skewed = () => VOCAB[Math.floor(VOCAB.length * rand() * rand())];
const words = (n: number) => Array.from({ length: n }, skewed).join(' ');

const { sql, answer } = useParallelEngine('quarry-prune-', async (sql) => {
  const [r] = await sql("CREATE TABLE t (title text, body text, gid int) min_prefix_len='2'");
  if (r.kind === 'error') throw new Error(r.message);
  let id = 1;
  for (let b = 0; b < 8; b++) {
    const rows = Array.from({ length: 800 }, () => `(${id++}, '${words(2 + Math.floor(rand() * 5))}', '${words(5 + Math.floor(rand() * 25))}', ${Math.floor(rand() * 100)})`);
    const [ins] = await sql(`INSERT INTO t (id, title, body, gid) VALUES ${rows.join(',')}`);
    if (ins.kind === 'error') throw new Error(ins.message);
  }
  const gone = Array.from({ length: 300 }, () => 1 + Math.floor(rand() * (id - 1)));
  await sql(`DELETE FROM t WHERE id IN (${gone.join(',')})`);
  // u: the same kind of rows with none deleted, so OPTIMIZE merges by copying blocks (segment-concat.ts),
  // leaving a short block mid-term where each part's run ended, with the parts' block-max words
  await sql("CREATE TABLE u (title text, body text, gid int) min_prefix_len='2'");
  for (let b = 0; b < 5; b++) {
    const rows = Array.from({ length: 700 }, () => `(${id++}, '${words(2 + Math.floor(rand() * 5))}', '${words(5 + Math.floor(rand() * 25))}', ${Math.floor(rand() * 100)})`);
    const [ins] = await sql(`INSERT INTO u (id, title, body, gid) VALUES ${rows.join(',')}`);
    if (ins.kind === 'error') throw new Error(ins.message);
  }
  const [opt] = await sql('OPTIMIZE TABLE u OPTION sync=1');
  if (opt.kind === 'error') throw new Error(opt.message);
});

const word = fc.constantFrom(...VOCAB);
const phrase = fc.array(word, { minLength: 2, maxLength: 3 }).map((ws) => `"${ws.join(' ')}"`);
const unit = fc.oneof(
  { weight: 4, arbitrary: word },
  { weight: 2, arbitrary: phrase },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('@title', '@body', '@title[2]'), word).map(([f, w]) => `${f} ${w}`) },
  { weight: 1, arbitrary: word.map((w) => `${w.slice(0, 3)}*`) },
  { weight: 1, arbitrary: word.map((w) => `^${w}`) },
  { weight: 1, arbitrary: fc.tuple(phrase, fc.integer({ min: 1, max: 4 })).map(([p, n]) => `${p}~${n}`) },
  { weight: 1, arbitrary: fc.tuple(phrase, fc.integer({ min: 1, max: 2 })).map(([p, n]) => `${p}/${n}`) },
);
const match = fc.oneof(
  { weight: 3, arbitrary: unit },
  { weight: 3, arbitrary: fc.array(unit, { minLength: 2, maxLength: 3 }).map((us) => us.join(' | ')) },
  { weight: 3, arbitrary: fc.array(unit, { minLength: 2, maxLength: 3 }).map((us) => us.join(' ')) },
  { weight: 2, arbitrary: fc.tuple(unit, unit, unit).map(([a, b, c]) => `(${a} | ${b}) ${c}`) },
  { weight: 1, arbitrary: fc.tuple(unit, unit).map(([a, b]) => `${a} -${b}`) },
  { weight: 1, arbitrary: fc.tuple(word, word).map(([a, b]) => `${a} << ${b}`) },
  { weight: 1, arbitrary: fc.tuple(word, word).map(([a, b]) => `${a} NEAR/3 ${b}`) },
);
const select = fc.record({
  match,
  ranker: fc.constantFrom('', 'bm25', 'proximity_bm25', 'sph04', 'wordcount', 'none'),
  weights: fc.option(fc.tuple(fc.integer({ min: -2, max: 6 }), fc.integer({ min: -2, max: 6 }))),
  filter: fc.constantFrom('', ' AND gid > 40', ' AND gid IN (3, 5, 8)'),
  order: fc.constantFrom('', '', '', ' ORDER BY gid DESC', ' ORDER BY weight() DESC, id ASC'),
  limit: fc.constantFrom('LIMIT 1', 'LIMIT 5', 'LIMIT 20', 'LIMIT 3, 7', 'LIMIT 50'),
}).map(({ match, ranker, weights, filter, order, limit }) => {
  const options = [ranker && `ranker=${ranker}`, weights && `field_weights=(title=${weights[0]}, body=${weights[1]})`].filter(Boolean);
  return `SELECT id, weight() FROM t WHERE MATCH('${match}')${filter}${order} ${limit}${options.length ? ` OPTION ${options.join(', ')}` : ''}`;
});

// the shapes the pruned paths take (a term, an OR or AND of terms, a phrase; bm25 or proximity_bm25,
// ranked order, no attribute filter), which the general generator above reaches only now and then
const distinct = (min: number, max: number) => fc.uniqueArray(word, { minLength: min, maxLength: max });
const prunable = fc.record({
  match: fc.oneof(
    word, distinct(2, 3).map((ws) => ws.join(' | ')), distinct(2, 3).map((ws) => ws.join(' ')), distinct(2, 3).map((ws) => `"${ws.join(' ')}"`),
    // a repeated keyword (lcsDupes ranks it; pruned unless a phrase is in the tree)
    fc.tuple(distinct(1, 3), fc.constantFrom(' ', ' | '), fc.nat(2)).map(([ws, op, at]) => [...ws.slice(0, at), ws[0], ...ws.slice(at)].join(op)),
  ),
  ranker: fc.constantFrom('', 'bm25'),
  weights: fc.option(fc.tuple(fc.integer({ min: -2, max: 6 }), fc.integer({ min: -2, max: 6 }))),
  limit: fc.constantFrom('LIMIT 1', 'LIMIT 4', 'LIMIT 20', 'LIMIT 2, 9'),
}).map(({ match, ranker, weights, limit }) => {
  const options = [ranker && `ranker=${ranker}`, weights && `field_weights=(title=${weights[0]}, body=${weights[1]})`].filter(Boolean);
  return `SELECT id, weight() FROM t WHERE MATCH('${match}') ${limit}${options.length ? ` OPTION ${options.join(', ')}` : ''}`;
});

/** The answer (rows and SHOW META) with pruning and with the exhaustive evaluation. */
const both = (q: string) => prunedAndExhaustive(answer, q);

describe('weight-bound pruning', () => {
  afterAll(() => setExhaustiveEvaluation(false));

  it('skips the scoring of rows that cannot enter the top-K, counting them all', async () => {
    await sql('OPTIMIZE TABLE t');
    await setQueryThreads(1);
    const [pruned, full] = await both("SELECT id, weight() FROM t WHERE MATCH('alpha') LIMIT 3");
    expect(pruned).toEqual(full);
    await answer("SELECT id, weight() FROM t WHERE MATCH('alpha') LIMIT 3");
    expect(sharedCore().exports.lastPruned()).toBeGreaterThan(1000);
    await answer("SELECT id, weight() FROM t WHERE MATCH('alpha') LIMIT 3 OPTION ranker=sph04");
    expect(sharedCore().exports.lastPruned()).toBe(0);
  }, 60_000);

  /** Each query answers as the exhaustive run does, with more than `atLeast` rows pruned. */
  async function expectPruned(cases: [string, number][]): Promise<void> {
    for (const [q, atLeast] of cases) {
      const [pruned, full] = await both(q);
      expect(pruned, q).toEqual(full);
      await answer(q);
      expect(sharedCore().exports.lastPruned(), q).toBeGreaterThan(atLeast);
    }
  }

  it('counts the rows of an AND of plain terms below the K-th weight without scoring them (bounded-runs.ts)', async () => {
    await setQueryThreads(1);
    const cases: [string, number][] = [["SELECT id, weight() FROM t WHERE MATCH('alpha bravo') LIMIT 3", 500], ["SELECT id, weight() FROM t WHERE MATCH('bravo alpha charlie') LIMIT 1", 20],
      ["SELECT id, weight() FROM t WHERE MATCH('alpha bravo alpha') LIMIT 3", 4]];
    await expectPruned(cases);
  }, 60_000);

  it('counts the rows of a phrase its pair term decides from the pair alone, and bounds an AND by its pair (bounded-runs.ts guideRows, prune.ts pairedPart)', async () => {
    await setQueryThreads(1);
    // alpha and bravo are in most rows: t lists their pairs, so the phrases are just their pairs' rows
    // (pruned as many as rowBound() pruned them, the words' cursors left still) and the AND's rows off
    // the pair are bounded at one field weight a field (288 of 745 pruned without the pair, 573 with)
    const cases: [string, number][] = [["SELECT id, weight() FROM t WHERE MATCH('\"alpha bravo\"') LIMIT 3", 500],
      ["SELECT id, weight() FROM t WHERE MATCH('\"bravo alpha\"') LIMIT 20 OPTION field_weights=(title=3, body=1)", 400],
      ["SELECT id, weight() FROM t WHERE MATCH('alpha bravo') LIMIT 20 OPTION field_weights=(title=2, body=5)", 450]];
    await expectPruned(cases);
  }, 60_000);

  it('gives the exhaustive answers for phrases and ANDs of two words with their pair terms (guideRows, pairedPart)', async () => {
    await setQueryThreads(1);
    const two = fc.record({
      ws: distinct(2, 2),
      phrase: fc.boolean(),
      weights: fc.option(fc.tuple(fc.integer({ min: -2, max: 6 }), fc.integer({ min: -2, max: 6 }))),
      limit: fc.constantFrom('LIMIT 1', 'LIMIT 4', 'LIMIT 20', 'LIMIT 2, 9', 'LIMIT 100'),
      table: fc.constantFrom('t', 'u'),
    }).map(({ ws, phrase, weights, limit, table }) =>
      `SELECT id, weight() FROM ${table} WHERE MATCH('${phrase ? `"${ws.join(' ')}"` : ws.join(' ')}') ${limit}${weights ? ` OPTION field_weights=(title=${weights[0]}, body=${weights[1]})` : ''}`);
    await fc.assert(fc.asyncProperty(two, async (q) => {
      const [pruned, full] = await both(q);
      expect(pruned, q).toEqual(full);
    }), { numRuns: 200 });
  }, 300_000);

  it('gives the exhaustive answers for ANDs repeating a keyword, whose repeats read one cursor (node.ts shareRepeatCursors)', async () => {
    await setQueryThreads(1);
    // a repeat limited to a field, a position or a field's start reads its own cursor; ORs and phrases around it
    const limited = fc.constantFrom('', '', '@title ', '@body ', '@title[2] ', '^', '=');
    const repeated = fc.record({
      ws: distinct(1, 3), at: fc.nat(3), times: fc.integer({ min: 1, max: 2 }), lim: limited, around: fc.constantFrom('', ' | golf', ' "alpha bravo"', ' -hotel'),
      ranker: fc.constantFrom('', 'bm25', 'sph04', 'wordcount', 'proximity', 'expr(\'sum(lcs*user_weight)*1000+bm25\')'),
      limit: fc.constantFrom('LIMIT 1', 'LIMIT 5', 'LIMIT 20', 'LIMIT 3, 30'),
      table: fc.constantFrom('t', 'u'),
    }).map(({ ws, at, times, lim, around, ranker, limit, table }) => {
      const words = [...ws.slice(0, at), ...Array.from({ length: times }, () => `${lim}${ws[0]}`), ...ws.slice(at)];
      return `SELECT id, weight() FROM ${table} WHERE MATCH('(${words.join(' ')})${around}') ${limit}${ranker ? ` OPTION ranker=${ranker}` : ''}`;
    });
    await fc.assert(fc.asyncProperty(repeated, async (q) => {
      const [pruned, full] = await both(q);
      expect(pruned, q).toEqual(full);
    }), { numRuns: 200 });
  }, 300_000);

  it('gives the exhaustive answers for ANDs of several words bounded by their pairs, repeats too (prune.ts pairedPart steps)', async () => {
    await setQueryThreads(1);
    // the frequent words (t and u list their pairs) in any order, a word repeated or not, next to each
    // other or apart: each step of a field's LCS run is a pair's occurrence or bounded without one
    const frequent = fc.constantFrom('alpha', 'bravo', 'charlie', 'delta');
    const steps = fc.record({
      ws: fc.array(frequent, { minLength: 2, maxLength: 4 }),
      weights: fc.option(fc.tuple(fc.integer({ min: -2, max: 6 }), fc.integer({ min: -2, max: 6 }))),
      ranker: fc.constantFrom('', '', 'bm25'),
      limit: fc.constantFrom('LIMIT 1', 'LIMIT 4', 'LIMIT 20', 'LIMIT 2, 9', 'LIMIT 100'),
      table: fc.constantFrom('t', 'u'),
    }).map(({ ws, weights, ranker, limit, table }) => {
      const options = [ranker && `ranker=${ranker}`, weights && `field_weights=(title=${weights[0]}, body=${weights[1]})`].filter(Boolean);
      return `SELECT id, weight() FROM ${table} WHERE MATCH('${ws.join(' ')}') ${limit}${options.length ? ` OPTION ${options.join(', ')}` : ''}`;
    });
    // before the steps, an AND of three words was bounded by its words alone (5 and 40 rows pruned here);
    // with the steps bounded from tf alone, 2198, 1309, 28 and 62 (the first and third word's step, a
    // repeat's, by the fields both are in); from their hits (step-fields.ts) 4136, 2588, 2478, 3641
    await expectPruned([["SELECT id, weight() FROM t WHERE MATCH('alpha bravo charlie') LIMIT 20", 3500],
      ["SELECT id, weight() FROM t WHERE MATCH('bravo alpha bravo') LIMIT 20 OPTION field_weights=(title=2, body=5)", 2000],
      ["SELECT id, weight() FROM t WHERE MATCH('alpha charlie alpha') LIMIT 20", 2000],
      ["SELECT id, weight() FROM t WHERE MATCH('charlie alpha bravo') LIMIT 20 OPTION field_weights=(title=2, body=5)", 3000]]);
    await fc.assert(fc.asyncProperty(steps, async (q) => {
      const [pruned, full] = await both(q);
      expect(pruned, q).toEqual(full);
    }), { numRuns: 250 });
  }, 300_000);

  for (const threads of [1, THREADS]) {
    it(`gives the exhaustive answers on ${threads} thread(s): random queries, every operator`, async () => {
      await setQueryThreads(threads);
      await fc.assert(fc.asyncProperty(fc.oneof(select, prunable), async (q) => {
        const [pruned, full] = await both(q);
        expect(pruned, q).toEqual(full);
      }), { numRuns: 250 });
    }, 300_000);
  }

  it('gives the exhaustive answers over a segment merged by copying blocks (short blocks mid-term)', async () => {
    await setQueryThreads(1);
    await fc.assert(fc.asyncProperty(fc.oneof(select, prunable), async (q) => {
      const onU = q.replace(' FROM t ', ' FROM u ');
      const [pruned, full] = await both(onU);
      expect(pruned, onU).toEqual(full);
    }), { numRuns: 150 });
  }, 300_000);
});
