// SHOW TABLE t INDEXES [LIKE]: searchd lists each attribute's secondary index over the table's disk
// chunks (CLT bugs/rebuild-secondary-after-optimize.rec). quarry builds none, so the list has searchd's
// columns and no rows; a missing table is searchd's error. It was a syntax error (expecting STATUS or SETTINGS; now INDEXES or SETTINGS or STATUS after a name, as bison lists them).
import { expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('show-table-indexes', async (t) => {
  await t.exec('CREATE TABLE t (title TEXT, tag INT)');
  await t.exec("INSERT INTO t (id, title, tag) VALUES (1, 'a', 2)");
});

it('answers with the columns searchd names and no index', async () => {
  for (const sql of ['SHOW TABLE t INDEXES', "SHOW TABLE t INDEXES LIKE 'ta%'"]) {
    const r = await t.last(sql);
    expect(r.kind === 'rows' && [r.columns.map((c) => c.name), r.rows]).toEqual([['Name', 'Type', 'Enabled', 'Percent'], []]);
  }
});

it('refuses a table that does not exist', async () => {
  const r = await t.last('SHOW TABLE nosuch INDEXES');
  expect(r).toMatchObject({ kind: 'error', message: 'SHOW TABLE INDEXES requires an existing table' });
});
