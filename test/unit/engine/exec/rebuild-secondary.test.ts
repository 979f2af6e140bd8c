// ALTER TABLE t REBUILD SECONDARY (searchd's ddl.y; CLT bugs/rebuild-secondary-after-optimize): quarry
// keeps no secondary indexes, so there is nothing to rebuild and the statement answers OK on a local
// table, as Manticore does. Before, it was a P03 syntax error at REBUILD.
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('rebuild-secondary', async (t) => {
  await t.exec('create table r (tag int)');
  await t.exec('insert into r (id, tag) values (1, 1), (2, 2)');
});

describe('ALTER TABLE ... REBUILD SECONDARY', () => {
  it('OK on a table, its rows unchanged; an unknown table is an error', async () => {
    expect(JSON.stringify(await t.exec('alter table r rebuild secondary'))).toContain('"ok"');
    expect(await t.rows('select id, tag from r where tag = 2')).toEqual([[2n, 2]]);
    expect(JSON.stringify(await t.exec('alter table nosuch rebuild secondary'))).toContain('table nosuch: unknown local table in ALTER request');
  });
});
