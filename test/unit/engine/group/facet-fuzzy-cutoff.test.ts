// CLT buddy-plugins/test-facet-with-option-fuzzy.rec: OPTION cutoff with FACET, and FACET of a stored field.
// OPTION cutoff=N with GROUP BY or FACET: searchd stops matching at the N-th match (row order) and groups
// only those (CLT buddy-plugins/test-facet-with-option-fuzzy.rec: `... OPTION cutoff=1 FACET column2`
// counts 1); quarry refused the option with grouping before.
import { expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('grouping-cutoff', async (t) => {
  await t.exec('create table t (title text, g int)');
  // inserted one by one: row order is insertion order, ids out of order
  for (const [id, g] of [[5, 1], [3, 1], [9, 2], [1, 2], [7, 2]]) await t.exec(`insert into t (id, title, g) values (${id}, 'text here', ${g})`);
});

it('groups only the first N matches in row order, FACET and GROUP BY alike', async () => {
  const out = await t.exec("select id, g from t where match('text') order by id asc option cutoff=2 facet g order by g asc");
  expect(out.map((r) => r.kind === 'rows' ? r.rows : r)).toEqual([[[3n, 1], [5n, 1]], [[1, 2n]]]);
  expect(await t.rows('select g, count(*) from t group by g order by g asc option cutoff=3')).toEqual([[1, 2n], [2, 1n]]);
  expect(await t.rows('select count(*) from t where g = 2 option cutoff=2')).toEqual([[2n]]);
  // without cutoff every match is grouped
  expect(await t.rows('select g, count(*) from t group by g order by g asc')).toEqual([[1, 2n], [2, 3n]]);
});

it("refuses to group by a stored text field the statement selects with searchd's words (same CLT recording)", async () => {
  const message = async (sql: string) => { const r = (await t.exec(sql)).at(-1)!; return r.kind === 'error' ? r.message : 'no error'; };
  expect(await message("select id, title from t where match('text') facet title")).toBe("table t: unable to group by stored field 'title'");
  expect(await message('select title, count(*) from t group by title')).toBe("table t: unable to group by stored field 'title'");
  expect(await message('select * from t group by title')).toBe("table t: unable to group by stored field 'title'");
});
