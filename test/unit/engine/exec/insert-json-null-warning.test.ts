// searchd's INSERT of JSON its grammar refuses (searchd.cpp AttributeConverter_c::String2JsonPack with
// json_strict off, the default): the row is stored with the attribute NULL and the parser's P10 message
// is the statement's warning (OK packet, SHOW WARNINGS, SHOW META); several join with '; '; an MVA
// float warning later in the row replaces them (SetSprintf). quarry refused the row ('JSON error: ...').
import { expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('insert-json-null', async (t) => {
  await t.exec('CREATE TABLE t (title TEXT, j JSON, k JSON, m MULTI)');
});

const BAD = "P10: syntax error, unexpected $end, expecting ':' near 'bad'";

it('stores NULL and warns with the parser message', async () => {
  const [r] = await t.exec("INSERT INTO t (id, title, j) VALUES (1, 'a', '{bad')");
  expect(r).toMatchObject({ kind: 'ok', affected: 1, warning: BAD });
  expect(await t.rows('SHOW WARNINGS')).toEqual([['warning', '1000', BAD]]);
  expect((await t.rows('SHOW META')).slice(0, 2)).toEqual([['warning', BAD], ['total', '0']]);
  expect(await t.rows('SELECT id, j FROM t WHERE id = 1')).toEqual([[1n, null]]);
});

it("joins several rows' messages and lets an MVA float warning replace them", async () => {
  const [r] = await t.exec("INSERT INTO t (id, j, k) VALUES (2, '{bad', '[1,]'), (3, '{\"a\":1}', '5')");
  expect(r).toMatchObject({
    affected: 2,
    warning: `${BAD}; P10: syntax error, unexpected ']' near '(null)'; P10: syntax error, unexpected TOK_INT, expecting $end near '(null)'`,
  });
  expect(await t.rows('SELECT id, j, k FROM t WHERE id IN (2, 3) ORDER BY id ASC')).toEqual([[2n, null, null], [3n, '{"a":1}', null]]);
  const [m] = await t.exec("INSERT INTO t (id, j, m) VALUES (4, '{bad', (1.5))");
  expect(m).toMatchObject({ affected: 1, warning: 'MVA attribute 4 at row 0: inserting float value' });
});

it('keeps storing what the grammar takes, and the empty string as NULL without a warning', async () => {
  const [r] = await t.exec("INSERT INTO t (id, j, k) VALUES (5, '{a:1}', '')");
  expect(r).not.toHaveProperty('warning');
  expect(await t.rows('SELECT j, k FROM t WHERE id = 5')).toEqual([['{"a":1}', null]]);
});
