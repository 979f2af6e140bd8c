// Rows of equal weight (or equal sort keys) come back in one order whatever the segment layout, the
// thread count and the pruning: Manticore's tie rule, the document id ascending (its sorters'
// IsDocidLess). Before it, the merge put newer segments first and each segment its rows in row order,
// so a merge of segments (auto-merge or OPTIMIZE) or the ranges dealt to threads reordered ties.
// Two tables of many identical documents over several segments: one with ids ascending by row (auto
// ids: the core prunes rows whose bound equals the K-th weight) and one with shuffled ids (it may not).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { setQueryThreads } from '../../../../src/index/parallel/query-threads.js';
import { THREADS, prunedAndExhaustive, useParallelEngine, type Sql } from './parallel-engine.js';
import { Rng } from '../../../fuzz/rng.js';

const VOCAB = ['alpha', 'bravo', 'charlie', 'delta'];
const random = new Rng(21);
const rand = () => random.next();
// a few distinct documents, each many times: most matches tie with many others
const DOCS = Array.from({ length: 12 }, () => [
  Array.from({ length: 1 + Math.floor(rand() * 2) }, () => VOCAB[Math.floor(rand() * VOCAB.length)]).join(' '),
  Array.from({ length: 2 + Math.floor(rand() * 4) }, () => VOCAB[Math.floor(rand() * VOCAB.length)]).join(' '),
]);
// batches of falling sizes: segments of different levels, which the tiered merge leaves apart
const BATCHES = [6000, 3000, 1500, 700, 300];

async function load(sql: Sql, table: string, shuffled: boolean): Promise<void> {
  const [r] = await sql(`CREATE TABLE ${table} (title text, body text, gid int)`);
  if (r.kind === 'error') throw new Error(r.message);
  // shuffled: ids 1..N in a random order, each batch a mix of low and high ids
  const ids = Array.from({ length: BATCHES.reduce((a, b) => a + b) }, (_, i) => i + 1);
  if (shuffled) for (let i = ids.length - 1; i > 0; i--) { const j = Math.floor(rand() * (i + 1)); [ids[i], ids[j]] = [ids[j], ids[i]]; }
  let at = 0;
  for (const n of BATCHES) {
    const rows = ids.slice(at, (at += n)).map((id) => {
      const [title, body] = DOCS[Math.floor(rand() * DOCS.length)];
      return `(${id}, '${title}', '${body}', ${Math.floor(rand() * 4)})`;
    });
    const [w] = await sql(`INSERT INTO ${table} (id, title, body, gid) VALUES ${rows.join(',')}`);
    if (w.kind === 'error') throw new Error(w.message);
  }
}

const { sql, answer } = useParallelEngine('quarry-ties-', async (sql) => {
  await load(sql, 'a', false);
  await load(sql, 'u', true);
});

const segments = async (table: string): Promise<number> => {
  const [r] = await sql(`SHOW TABLE ${table} STATUS`);
  const row = (r as { rows: unknown[][] }).rows.find((x) => x[0] === 'ram_chunk_segments_count');
  return Number(row?.[1] ?? 0);
};

const word = fc.constantFrom(...VOCAB);
const match = fc.oneof(
  word,
  fc.tuple(word, word).map(([x, y]) => `${x} ${y}`),
  fc.tuple(word, word).map(([x, y]) => `${x} | ${y}`),
  fc.tuple(word, word).map(([x, y]) => `"${x} ${y}"`),
  fc.tuple(word, word).map(([x, y]) => `@title ${x} @body ${y}`),
);
// rankers whose weights tie a lot (none: every match weighs 1; counts of words or fields), and the default
const ranker = fc.constantFrom('', ' OPTION ranker=none', ' OPTION ranker=wordcount', ' OPTION ranker=fieldmask',
  ' OPTION ranker=matchany', ' OPTION ranker=bm25', ' OPTION ranker=proximity');
const order = fc.constantFrom('', '', ' ORDER BY weight() DESC', ' ORDER BY weight() ASC', ' ORDER BY gid DESC', ' ORDER BY gid ASC, weight() DESC');
const limit = fc.tuple(fc.integer({ min: 0, max: 30 }), fc.constantFrom(1, 5, 20, 100)).map(([o, n]) => ` LIMIT ${o},${n}`);
const select = (table: string) => fc.oneof(
  { weight: 5, arbitrary: fc.tuple(match, order, limit, ranker).map(([m, o, l, r]) => `SELECT id, weight(), gid FROM ${table} WHERE MATCH('${m}')${o}${l}${r}`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('', ' ORDER BY gid DESC'), limit).map(([o, l]) => `SELECT id, gid FROM ${table} WHERE gid < 3${o}${l}`) },
);

/**
 * The sort key's column when the page's ties must be in id order (the ranked default, or a single
 * ORDER BY key: Manticore adds the docid as the next key, SetupSortByDocID), else -1 (with two keys
 * its generic sorters end on the row id, no order to check).
 */
const tieColumn = (q: string): number => {
  if (!q.includes('MATCH(')) return -1;
  if (!q.includes('ORDER BY') || q.includes('ORDER BY weight() DESC')) return 1;
  return q.includes('ORDER BY gid DESC') ? 2 : -1;
};

/** The rows of the query's result set whose key equals the row before them have the higher id; returns how many. */
function expectIdsAscendInTies(result: unknown, q: string): number {
  const col = tieColumn(q);
  if (col < 0) return 0;
  const rows = (result as Array<{ kind: string; rows: unknown[][] }>)[0].rows;
  let ties = 0;
  for (let i = 1; i < rows.length; i++) {
    if (rows[i][col] !== rows[i - 1][col]) continue;
    expect(BigInt(rows[i - 1][0] as bigint) < BigInt(rows[i][0] as bigint), `${q}: row ${i}`).toBe(true);
    ties++;
  }
  return ties;
}

describe('rows that tie', () => {
  for (const table of ['a', 'u']) {
    it(`come back in one order on 1 and ${THREADS} threads, pruned or not, before and after a merge of the segments (${table})`, async () => {
      expect(await segments(table)).toBeGreaterThan(1);
      const queries = fc.sample(select(table), { numRuns: 60, seed: table === 'a' ? 7 : 8 });
      const before: unknown[] = [];
      let ties = 0;
      for (const q of queries) {
        await setQueryThreads(1);
        const [pruned, full] = await prunedAndExhaustive(answer, q);
        expect(pruned, q).toEqual(full);
        await setQueryThreads(THREADS);
        const [pruned3, full3] = await prunedAndExhaustive(answer, q);
        expect(pruned3, q).toEqual(full);
        expect(full3, q).toEqual(full);
        ties += expectIdsAscendInTies(full, q);
        before.push(full);
      }
      expect(ties).toBeGreaterThan(100); // the order check above was not vacuous
      await setQueryThreads(1);
      const [opt] = await sql(`OPTIMIZE TABLE ${table} OPTION sync=1`);
      expect(opt.kind).not.toBe('error');
      expect(await segments(table)).toBe(1);
      for (const [i, q] of queries.entries()) {
        await setQueryThreads(1);
        expect(await answer(q), q).toEqual(before[i]);
        await setQueryThreads(THREADS);
        expect(await answer(q), q).toEqual(before[i]);
      }
      await setQueryThreads(1);
    }, 300_000);
  }
});
