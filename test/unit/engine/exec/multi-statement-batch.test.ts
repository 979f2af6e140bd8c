// A request of several statements answers as searchd's HandleMysqlMultiStmt: SELECTs and SHOW WARNINGS /
// STATUS / META run; a session SET is an OK packet; any other SHOW (TABLES, VARIABLES...) gives nothing.
// Recorded: clt http-interface/multi-query.rec (`select * from t limit 1;show tables` over /sql?mode=raw,
// /cli and /cli_json answers the SELECT alone). quarry answered every statement.
import { expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('multi-statement-batch', async (t) => {
  await t.exec('CREATE TABLE t (value TEXT)');
  await t.exec("INSERT INTO t (id, value) VALUES (1, 'example'), (2, 'test')");
});

it('answers the SELECT alone when SHOW TABLES follows it', async () => {
  const rs = await t.exec('select id from t order by id asc limit 1;show tables');
  expect(rs).toHaveLength(1);
  expect(rs[0]).toMatchObject({ kind: 'rows', rows: [[1n]] });
});

it('answers SHOW META, an OK packet for SET, nothing for SHOW VARIABLES', async () => {
  const rs = await t.exec("select id from t where match('test');show variables like 'autocommit';set autocommit=1;show meta");
  expect(rs.map((r) => r.kind)).toEqual(['rows', 'ok', 'rows']);
  expect(rs[2]).toMatchObject({ rows: expect.arrayContaining([['total', '1'], ['keyword[0]', 'test']]) });
});

it('a statement alone still answers', async () => {
  expect(await t.exec('show tables')).toMatchObject([{ kind: 'rows', rows: [['t', 'rt']] }]);
});
