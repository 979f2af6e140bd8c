// OPTION cutoff as searchd 29 reads it (sphinxsort.cpp ApplyImplicitCutoff, sphinx.cpp MatchExtended and
// Fullscan): N > 0 stops matching at the N-th match found in row order and sorts only those; a full scan
// stopped so reports total_relation gte, a full-text search eq; 0 turns off the implicit cutoff of an
// unsorted full scan; below -1 is an error; a grouping groups the first N matches. quarry refused every cutoff but 0 and kept the implicit cutoff
// under cutoff=0.
import { expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('option-cutoff', async (t) => {
  await t.exec('CREATE TABLE t (title TEXT, a INT)');
  await t.exec("INSERT INTO t (id, title, a) VALUES (1, 'red fox', 5), (2, 'red dog', 9), (3, 'red cat', 1), (4, 'blue fox', 7), (5, 'red owl', 3)");
});

const meta = async () => Object.fromEntries((await t.rows('SHOW META')).map((r) => [r[0], r[1]]));

it('a full scan stops at the N-th row: those N sorted, total_found N, total_relation gte', async () => {
  expect(await t.rows('SELECT id FROM t ORDER BY a DESC OPTION cutoff=3')).toEqual([[2n], [1n], [3n]]);
  expect(await meta()).toMatchObject({ total: '3', total_found: '3', total_relation: 'gte' });
});

it('a full-text search stops at the N-th match: total_found N, total_relation eq', async () => {
  expect(await t.rows("SELECT id FROM t WHERE MATCH('red') ORDER BY a ASC OPTION cutoff=2")).toEqual([[1n], [2n]]);
  expect(await meta()).toMatchObject({ total: '2', total_found: '2', total_relation: 'eq' });
});

it('a filter counts only the rows it keeps; fewer matches than N are all found, eq', async () => {
  expect(await t.rows('SELECT id FROM t WHERE a > 4 OPTION cutoff=2')).toEqual([[1n], [2n]]);
  expect(await t.rows('SELECT id FROM t WHERE a > 4 OPTION cutoff=10')).toEqual([[1n], [2n], [4n]]);
  expect(await meta()).toMatchObject({ total_found: '3', total_relation: 'eq' });
});

it('cutoff=0 turns off the implicit cutoff of an unsorted full scan: the exact total, eq', async () => {
  await t.rows('SELECT id FROM t LIMIT 2');
  expect(await meta()).toMatchObject({ total_found: '2', total_relation: 'gte' });
  await t.rows('SELECT id FROM t LIMIT 2 OPTION cutoff=0');
  expect(await meta()).toMatchObject({ total_found: '5', total_relation: 'eq' });
});

it('COUNT(*) of a plain full scan is precalculated, whatever the cutoff; with a filter it counts N', async () => {
  expect(await t.rows('SELECT COUNT(*) FROM t OPTION cutoff=2')).toEqual([[5n]]);
  expect(await t.rows('SELECT COUNT(*) FROM t WHERE a > 2 OPTION cutoff=2')).toEqual([[2n]]);
});

it('below -1 is searchd\'s error; -1 is the default', async () => {
  const [r] = await t.exec('SELECT id FROM t OPTION cutoff=-2');
  expect(r).toMatchObject({ kind: 'error', message: expect.stringContaining('cutoff out of bounds (cutoff=-2)') });
  expect(await t.rows('SELECT id FROM t LIMIT 1 OPTION cutoff=-1')).toEqual([[1n]]);
});

it('a grouping or FACET with cutoff=N groups only the first N matches (was refused; grouping-cutoff.test.ts)', async () => {
  for (const sql of ['SELECT a, COUNT(*) FROM t GROUP BY a OPTION cutoff=2', 'SELECT id FROM t OPTION cutoff=2 FACET a']) {
    const out = await t.exec(sql);
    expect(out.some((r) => r.kind === 'error')).toBe(false);
    // rows 1 and 2 (a = 5 and 9) alone
    const last = out.at(-1)!;
    expect(last.kind === 'rows' && last.rows.map((r) => r[0]).sort()).toEqual([5, 9]);
  }
});
