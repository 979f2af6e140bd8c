// SELECT LAST_INSERT_ID(): the ids the session's last INSERT/REPLACE wrote, comma-separated (generated
// ids too), as Manticore's session variable. Before it was 'unsupported function LAST_INSERT_ID()'.
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('last-insert-id', async (t) => {
  await t.exec('create table l (title text, n int)');
});

describe('LAST_INSERT_ID()', () => {
  // searchd's GetLastInsertId: '0' before any insert (was '' here)
  it('0 before any insert, then the last INSERT or REPLACE ids; other statements keep it', async () => {
    expect(await t.rows('select last_insert_id(), @@session.last_insert_id')).toEqual([['0', '0']]);
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
  // searchd answers @@session.last_insert_id from the same GetLastInsertId (it was NULL here)
  it('@@session.last_insert_id is the same value', async () => {
    await t.exec("insert into l (id, title) values (12, 'y'), (13, 'z')");
    expect(await t.rows('select @@session.last_insert_id, last_insert_id()')).toEqual([['12,13', '12,13']]);
  });
});
