// SELECT LAST_INSERT_ID(): the ids the session's last INSERT/REPLACE wrote, comma-separated (generated
// ids too), as Manticore's session variable. Before it was 'unsupported function LAST_INSERT_ID()'.
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('last-insert-id', async (t) => {
  await t.exec('create table l (title text, n int)');
});

describe('LAST_INSERT_ID()', () => {
  it('empty before any insert, then the last INSERT or REPLACE ids; other statements keep it', async () => {
    expect(await t.rows('select last_insert_id()')).toEqual([['']]);
    await t.exec("insert into l (id, title) values (5, 'a'), (7, 'b')");
    expect(await t.rows('select last_insert_id()')).toEqual([['5,7']]);
    await t.exec('update l set n = 1 where id = 5');
    await t.exec("replace into l (id, title) values (9, 'c')");
    expect(await t.rows('select last_insert_id()')).toEqual([['9']]);
    await t.exec("insert into l (title) values ('generated')");
    const [[gen]] = await t.rows('select last_insert_id()') as string[][];
    expect(await t.rows(`select title from l where id = ${gen}`)).toEqual([['generated']]);
  });
  it('inside a transaction too', async () => {
    await t.exec('begin');
    await t.exec("insert into l (id, title) values (11, 'x')");
    await t.exec('commit');
    expect(await t.rows('select last_insert_id()')).toEqual([['11']]);
  });
});
