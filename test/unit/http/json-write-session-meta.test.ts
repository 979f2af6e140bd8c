// searchd keeps one session per HTTP connection and runs /insert, /replace, /update, /delete and each /bulk
// line through its SQL writers (sphHandleMysqlInsert / Update / Delete): each starts the session's meta
// afresh (FreezeLastMeta), and an insert whose JSON value its grammar refuses leaves the P10 warning there,
// so `/sql?mode=raw` SHOW WARNINGS / SHOW META on the same connection show it, as after an SQL INSERT.
// An array of numbers into an MVA warns over SQL only (ParseJsonInsertSource drops the float flag).
// quarry's JSON writes left the connection's session as it was. The routes here are the ones both HTTP
// servers call with the connection's session.
import { expect, it } from 'vitest';
import { newSession, type Session } from '../../../src/engine/index.js';
import { bulkReply, WRITE_OPS, writeReply } from '../../../src/http/json-routes.js';
import { useTempEngine } from '../../helpers/temp-engine.js';

const t = useTempEngine('json-write-meta', async (e) => {
  await e.exec('CREATE TABLE t (title TEXT, j JSON, m MULTI)');
  await e.exec("INSERT INTO t (id, title) VALUES (1, 'apple')");
});

const BAD = "P10: syntax error, unexpected $end, expecting ':' near 'bad'";

const write = (path: string, body: string, session: Session) => writeReply(t.engine.json!, WRITE_OPS.get(path)!, body, undefined, session);

async function rows(sql: string, session: Session): Promise<unknown[][]> {
  const out = await t.engine.execute(sql, session);
  return (out[out.length - 1] as { rows: unknown[][] }).rows;
}

it("/insert and /replace leave a JSON value's warning for the connection's SHOW WARNINGS and SHOW META", async () => {
  const conn = newSession(undefined, undefined, true);
  const r = await write('/insert', '{"table":"t","id":2,"doc":{"title":"x","j":"{bad"}}', conn);
  expect(r.status).toBe(200);
  expect(await rows('SHOW WARNINGS', conn)).toEqual([['warning', '1000', BAD]]);
  expect((await rows('SHOW META', conn)).slice(0, 2)).toEqual([['warning', BAD], ['total', '0']]);
  await write('/replace', '{"table":"t","id":2,"doc":{"title":"y","j":"{bad"}}', conn);
  expect(await rows('SHOW WARNINGS', conn)).toEqual([['warning', '1000', BAD]]);
  // another connection's session is untouched
  expect(await rows('SHOW WARNINGS', newSession(undefined, undefined, true))).toEqual([]);
});

it('a JSON write without a warning empties the meta of the search before it; a body that does not parse leaves it', async () => {
  const conn = newSession(undefined, undefined, true);
  await rows("SELECT * FROM t WHERE MATCH('apple')", conn);
  await write('/insert', '{"table":"t",', conn);
  expect(await rows('SHOW META', conn)).toContainEqual(['keyword[0]', 'apple']);
  await write('/update', '{"table":"t","id":1,"doc":{"m":[1,2]}}', conn);
  expect(await rows('SHOW META', conn)).not.toContainEqual(['keyword[0]', 'apple']);
  await write('/insert', '{"table":"t","id":3,"doc":{"j":"{bad"}}', conn);
  await write('/delete', '{"table":"t","id":3}', conn);
  expect(await rows('SHOW WARNINGS', conn)).toEqual([]);
  // numbers with a fraction into an MVA: stored truncated, no warning over JSON
  await write('/insert', '{"table":"t","id":4,"doc":{"m":[1.5,2]}}', conn);
  expect(await rows('SHOW WARNINGS', conn)).toEqual([]);
  expect(await rows('SELECT m FROM t WHERE id = 4', conn)).toEqual([[[1n, 2n]]]);
});

it("/bulk keeps the last statement line's warning", async () => {
  const conn = newSession(undefined, undefined, true);
  const ndjson = (...lines: string[]) => bulkReply(t.engine.json!, 'application/x-ndjson', `${lines.join('\n')}\n`, conn);
  await ndjson('{"insert":{"table":"t","id":5,"doc":{"j":"{bad"}}}', '{"insert":{"table":"t","id":6,"doc":{"j":"{\\"a\\":1}"}}}');
  expect(await rows('SHOW WARNINGS', conn)).toEqual([]);
  await ndjson('{"insert":{"table":"t","id":7,"doc":{"j":"{\\"a\\":1}"}}}', '{"replace":{"table":"t","id":8,"doc":{"j":"{bad"}}}');
  expect(await rows('SHOW WARNINGS', conn)).toEqual([['warning', '1000', BAD]]);
  expect(await rows('SELECT id, j FROM t WHERE id IN (5, 6, 7, 8) ORDER BY id ASC', conn)).toEqual([[5n, null], [6n, '{"a":1}'], [7n, '{"a":1}'], [8n, null]]);
});
