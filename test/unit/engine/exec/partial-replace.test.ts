// REPLACE INTO t SET col=value WHERE id=N: Manticore's partial replace (manual REPLACE.md, done by Buddy's
// Replace plugin): the SET values over the stored document, a missing document made from the SET values
// alone; any other WHERE is searchd's own parse error; a text field that is not stored is refused.
import { expect, it } from 'vitest';
import { newSession, type Result } from '../../../../src/engine/index.js';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const session = newSession();
const t = useTempEngine('partial-replace', async () => {
  await sql('CREATE TABLE p (title TEXT, price FLOAT, n INT, tags MULTI, j JSON, s STRING)');
  await sql(`INSERT INTO p (id, title, price, n, tags, j, s) VALUES (55, 'old text', 3, 7, (3,1), '{"a":1}', 'str')`);
});

async function sql(text: string): Promise<Result> {
  const out = await t.engine.execute(text, session);
  return out[out.length - 1]!;
}
async function rowsOf(text: string): Promise<unknown[][]> {
  const r = await sql(text);
  if (r.kind !== 'rows') throw new Error(JSON.stringify(r));
  return r.rows;
}

it('keeps every column not SET, the full-text field still searchable', async () => {
  expect(await sql('REPLACE INTO p SET price=10, n=8 WHERE id = 55')).toMatchObject({ kind: 'ok', affected: 1 });
  expect(await rowsOf('SELECT id, title, price, n, tags, j, s FROM p')).toEqual([[55n, 'old text', 10, 8, [1n, 3n], '{"a":1}', 'str']]);
  expect(await rowsOf("SELECT id FROM p WHERE MATCH('old')")).toEqual([[55n]]);
  expect(await sql("Replace Into p Set title='new words', tags=(9) WHERE id=55;")).toMatchObject({ kind: 'ok' });
  expect(await rowsOf("SELECT id, n, tags FROM p WHERE MATCH('new')")).toEqual([[55n, 8, [9n]]]);
  expect(await rowsOf("SELECT id FROM p WHERE MATCH('old')")).toEqual([]);
});

it('makes a missing document from the SET values alone', async () => {
  await sql('REPLACE INTO p SET price=2.5 WHERE id = 56');
  expect(await rowsOf('SELECT id, title, price, n FROM p WHERE id = 56')).toEqual([[56n, '', 2.5, 0]]);
});

it('answers any other WHERE with searchd parse error, and refuses what Buddy refuses', async () => {
  expect(await sql('REPLACE INTO p SET price=10 WHERE n = 7')).toMatchObject({
    kind: 'error', message: "P01: syntax error, unexpected SET, expecting VALUES near 'SET price=10 WHERE n = 7'",
  });
  expect(await sql('REPLACE INTO p SET price=10 WHERE id = 55 AND n = 7')).toMatchObject({ kind: 'error', message: expect.stringContaining('unexpected SET, expecting VALUES') });
  expect(await sql('REPLACE INTO p SET nope=1 WHERE id = 55')).toMatchObject({ kind: 'error', message: "unknown column: 'nope'" });
  expect(await sql('REPLACE INTO q SET a=1 WHERE id = 1')).toMatchObject({ kind: 'error', message: "no such table 'q'" });
  await sql('CREATE TABLE r (title TEXT indexed, n INT)');
  expect(await sql("REPLACE INTO r SET n=1 WHERE id = 1")).toMatchObject({
    kind: 'error', message: "Field title doesn't have stored property. Replace query can't be performed",
  });
  // the document is untouched by the refused statements
  expect(await rowsOf('SELECT price, n FROM p WHERE id = 55')).toEqual([[3, 7]]);
});
