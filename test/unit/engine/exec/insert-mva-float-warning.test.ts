// searchd's INSERT of a float into an MVA (searchd.cpp AttributeConverter_c::CheckMVA; test/test_400's
// `create table t(t text, m multi)` + `insert into t values (1,'text',(5.5,4.4,5.5))`): the row is stored,
// each value truncated and then kept once (m = 4,5), with the warning `MVA attribute 2 at row 0:
// inserting float value` in SHOW WARNINGS and SHOW META. quarry stored 4,5,5 without a word.
import { expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('insert-mva-float', async (t) => {
  await t.exec('CREATE TABLE t (t TEXT, m MULTI)');
});

const WARNING = 'MVA attribute 2 at row 0: inserting float value';

it('stores the truncated values once each and warns as searchd', async () => {
  const [r] = await t.exec("INSERT INTO t VALUES (1, 'text', (5.5, 4.4, 5.5))");
  expect(r).toMatchObject({ kind: 'ok', affected: 1, warning: WARNING });
  expect(await t.rows('SHOW WARNINGS')).toEqual([['warning', '1000', WARNING]]);
  expect((await t.rows('SHOW META')).slice(0, 4)).toEqual([['warning', WARNING], ['total', '0'], ['total_found', '0'], ['total_relation', 'eq']]);
  expect(await t.rows('SELECT m FROM t')).toEqual([[[4n, 5n]]]);
});

// past the recorded case the number follows searchd's schema: attributes appended in declared order
// (schema.cpp AddAttr), the blob locator second (indexcheck.cpp: "second attribute in schema should be ...")
it('names the last row and attribute that had one; integers alone warn nothing and repeat once', async () => {
  await t.exec('CREATE TABLE u (a INT, m MULTI, j JSON, n MULTI64)');
  const [r] = await t.exec('INSERT INTO u (id, m, n) VALUES (1, (1.5), (1)), (2, (1), (2.5)), (3, (1), (2))');
  expect(r).toMatchObject({ warning: 'MVA attribute 5 at row 1: inserting float value' });
  const [plain] = await t.exec('INSERT INTO u (id, m) VALUES (4, (3, 3, 1))');
  expect(plain).not.toHaveProperty('warning');
  expect(await t.rows('SHOW WARNINGS')).toEqual([]);
  expect(await t.rows('SELECT m FROM u WHERE id = 4')).toEqual([[[1n, 3n]]]);
});

// searchd converts a transaction's INSERT when the statement runs (AddDocument into the session's
// accumulator): the warning is the statement's, before COMMIT; quarry's buffered INSERT gave none
it('warns inside a transaction at the INSERT, as outside', async () => {
  await t.exec('CREATE TABLE tx (t TEXT, m MULTI, j JSON)');
  await t.exec('BEGIN');
  const [r] = await t.exec("INSERT INTO tx VALUES (1, 'a', (2.5, 1), '{bad')");
  // the JSON attribute comes after the MVA in the schema: its message is appended (String2JsonPack's '%s; %s')
  const both = "MVA attribute 2 at row 0: inserting float value; P10: syntax error, unexpected $end, expecting ':' near 'bad'";
  expect(r).toMatchObject({ kind: 'ok', affected: 1, warning: both });
  expect(await t.rows('SHOW WARNINGS')).toEqual([['warning', '1000', both]]);
  const [j] = await t.exec("INSERT INTO tx (id, j) VALUES (2, '[1,]')");
  expect(j).toMatchObject({ warning: "P10: syntax error, unexpected ']' near '(null)'" });
  await t.exec('COMMIT');
  expect(await t.rows('SELECT id, m, j FROM tx ORDER BY id ASC')).toEqual([[1n, [1n, 2n], null], [2n, [], null]]);
});
