// UPDATE of JSON paths over several rows: each row keeps its own JSON, all rows in one durable write
// (a restart shows all of them or none; replication records one sequence for it).
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';
import { openEngine } from '../../../../src/engine/index.js';
import { newSession } from '../../../../src/engine/session.js';
import { join } from 'node:path';
import { parse } from 'lossless-json';
import type { JsonValue } from '../../../../src/engine/index.js';

const t = useTempEngine('quarry-exec-write-');

describe('UPDATE of a JSON path over several rows', () => {
  it('sets the path in each row\'s own JSON, and the rows survive a restart', async () => {
    await t.exec('CREATE TABLE j (title text, meta json)');
    await t.exec(`INSERT INTO j (id, title, meta) VALUES (1, 'a', '{"k":1}'), (2, 'b', '{"k":2,"tags":[7]}'), (3, 'c', '{"k":3}')`);
    const [res] = await t.exec('UPDATE j SET meta.tags[0] = 100 WHERE id IN (1, 2)');
    expect(res).toMatchObject({ kind: 'ok', affected: 2 });
    const want = [[1n, '{"k":1,"tags":{"0":100}}'], [2n, '{"k":2,"tags":[100]}'], [3n, '{"k":3}']];
    const got = await t.rows('SELECT id, meta FROM j ORDER BY id ASC');
    expect(got).toEqual(want);
    await t.engine.close();
    const reopened = await openEngine({ dataDir: join(t.dir, 'data') });
    try {
      const [rows] = await reopened.execute('SELECT id, meta FROM j ORDER BY id ASC', newSession());
      expect(rows).toMatchObject({ kind: 'rows', rows: got });
    } finally {
      await reopened.close();
    }
  });
});

describe('UPDATE and DELETE of a missing table', () => {
  // sphHandleMysqlUpdate/Delete (src/searchd.cpp) refuse it ahead of any search, with their own message
  it('name it as Manticore\'s UPDATE/DELETE do, also inside a transaction', async () => {
    const [upd] = await t.exec('UPDATE Nope SET gid = 1 WHERE id = 1');
    expect(upd).toMatchObject({ kind: 'error', message: "unknown table 'nope' in update request" });
    const [del] = await t.exec('DELETE FROM nope WHERE id = 1');
    expect(del).toMatchObject({ kind: 'error', message: "unknown table 'nope' in delete request" });
    const session = newSession();
    await t.engine.execute('BEGIN', session);
    const [txDel] = await t.engine.execute('DELETE FROM nope WHERE id = 1', session);
    expect(txDel).toMatchObject({ kind: 'error', message: "unknown table 'nope' in delete request" });
    await t.engine.execute('ROLLBACK', session);
  });
});

describe('UPDATE of a JSON path with an integer past 2^53', () => {
  // searchd keeps a JSON integer as an int64 (sphinxjson.cpp): the value set and the rest of the document stay exact
  it('keeps the value set and the document\'s other integers exact, over SQL and /update', async () => {
    await t.exec('CREATE TABLE j (title text, meta json)');
    await t.exec(`INSERT INTO j (id, title, meta) VALUES (1, 'a', '{"m":9007199254740993}')`);
    await t.exec('UPDATE j SET meta.k = 9007199254740995 WHERE id = 1');
    expect(await t.rows('SELECT meta.k, meta.m FROM j')).toEqual([['9007199254740995', '9007199254740993']]);
    expect(await t.rows('SELECT id FROM j WHERE meta.k = 9007199254740995')).toEqual([[1n]]);
    await t.engine.json!.update(parse('{"table":"j","id":1,"doc":{"meta.n":-9223372036854775807}}') as JsonValue);
    expect(await t.rows('SELECT meta FROM j')).toEqual([['{"m":9007199254740993,"k":9007199254740995,"n":-9223372036854775807}']]);
  });
});
