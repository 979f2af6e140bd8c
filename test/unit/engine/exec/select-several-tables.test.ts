// SELECT ... FROM a, b: searchd searches the listed local tables as one (CLT
// buddy-plugins/test-fuzzy-search.rec: `SELECT * FROM tbl1, name WHERE MATCH(...)`); quarry answered
// 'selecting from several tables is not supported'. Rows, totals and grouping merge as a distributed
// table of those locals merges them; a name not served is searchd's error.
import { expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('select-several', async (t) => {
  await t.exec('CREATE TABLE a (title TEXT, g INT)');
  await t.exec('CREATE TABLE b (title TEXT, g INT)');
  await t.exec("INSERT INTO a (id, title, g) VALUES (1, 'apple pie', 1), (2, 'banana', 2)");
  await t.exec("INSERT INTO b (id, title, g) VALUES (3, 'apple tart', 1), (4, 'cherry', 2)");
});

it('matches over every listed table, ordered and counted as one', async () => {
  expect(await t.rows("SELECT id, title FROM a, b WHERE MATCH('apple') ORDER BY id ASC")).toEqual([[1n, 'apple pie'], [3n, 'apple tart']]);
  expect(await t.rows('SELECT g, COUNT(*) FROM a, b GROUP BY g ORDER BY g ASC')).toEqual([[1, 2n], [2, 2n]]);
  const meta = await t.rows("SELECT id FROM a, b WHERE MATCH('apple') LIMIT 1; SHOW META LIKE 'total_found'");
  expect(meta).toEqual([['total_found', '2']]);
});

it('refuses a table it does not serve with the error of a single table', async () => {
  const r = await t.last('SELECT * FROM a, nosuch');
  expect(r).toMatchObject({ kind: 'error', message: "unknown local table(s) 'nosuch' in search request" });
});
