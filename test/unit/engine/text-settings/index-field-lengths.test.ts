// index_field_lengths=1: CREATE TABLE keeps the setting and adds a `<field>_len` token-count
// attribute per full-text field (Manticore's AddFieldLens), shown by DESCRIBE and SELECT, filterable.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newSession, openEngine, type RowsResult } from '../../../../src/engine/index.js';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('field-lengths', async (t) => {
  await t.exec('create table t (title text, body text, gid int) index_field_lengths=1');
  await t.exec(`insert into t (id, title, body, gid) values (1, 'hello world', 'one two three four', 5),
    (2, 'hello', 'five', 6), (3, 'x', '', 7)`);
});

describe('index_field_lengths=1', () => {
  it('DESCRIBE lists title_len and body_len as tokencount after the attributes', async () => {
    expect(await t.rows('describe t')).toEqual([
      ['id', 'bigint', ''], ['title', 'text', 'indexed stored'], ['body', 'text', 'indexed stored'],
      ['gid', 'uint', ''], ['title_len', 'tokencount', ''], ['body_len', 'tokencount', ''],
    ]);
  });
  it('SELECT shows each field\'s token count; it filters and sorts', async () => {
    const got = (await t.rows('select id, title_len, body_len from t order by id asc')).map((r) => r.map(Number));
    expect(got).toEqual([[1, 2, 4], [2, 1, 1], [3, 1, 0]]);
    expect((await t.rows('select id from t where body_len > 0 and title_len = 1 order by id asc')).map((r) => r[0])).toEqual([2n]);
  });
  it('SHOW CREATE TABLE keeps the setting, not the generated attributes', async () => {
    const [[, text]] = await t.rows('show create table t');
    expect(text).toContain("index_field_lengths='1'");
    expect(text).not.toContain('title_len');
  });
  it('stopwords take no part in the count (Manticore counts positions that carry a word)', async () => {
    const file = join(t.dir, 'stop.txt');
    writeFileSync(file, 'the\na\n');
    await t.exec(`create table s (title text) index_field_lengths=1 stopwords='${file}'`);
    await t.exec("insert into s (id, title) values (1, 'the cat and a dog')");
    expect((await t.rows('select title_len from s')).map((r) => Number(r[0]))).toEqual([3]);
  });
  it('survives a restart: still tokencount, still filled', async () => {
    await t.engine.close();
    const engine = await openEngine({ dataDir: join(t.dir, 'data') });
    try {
      const run = async (sql: string) => ((await engine.execute(sql, newSession())).at(-1) as RowsResult).rows;
      expect((await run('describe t')).map((r) => r[1])).toEqual(['bigint', 'text', 'text', 'uint', 'tokencount', 'tokencount']);
      await engine.execute("insert into t (id, title, body) values (9, 'a b c', 'd')", newSession());
      expect((await run('select title_len, body_len from t where id = 9')).map((r) => r.map(Number))).toEqual([[3, 1]]);
    } finally {
      await engine.close();
    }
  });
  it('a column named like a generated one is an error', async () => {
    const r = JSON.stringify(await t.exec('create table u (title text, title_len int) index_field_lengths=1').catch((e: Error) => e.message));
    expect(r).toContain('attribute title_len conflicts with index_field_lengths=1; remove it');
  });
});
