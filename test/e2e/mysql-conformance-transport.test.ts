// The conformance runner's MySQL transport reports the same outcomes as its /sql?mode=raw transport.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient, MysqlSqlClient, type SqlOutcome } from '../conformance/transport.js';
import { startQuarry, type QuarryProcess } from './mysql-server.js';

let q: QuarryProcess;
let overHttp: HttpClient;
let overMysql: MysqlSqlClient;
beforeAll(async () => {
  q = await startQuarry();
  overHttp = new HttpClient('127.0.0.1', q.httpPort);
  overMysql = new MysqlSqlClient('127.0.0.1', q.httpPort, q.mysqlPort);
});
afterAll(async () => {
  overHttp?.close();
  overMysql?.close();
  await q?.stop();
});

describe('MysqlSqlClient', () => {
  it('gives the outcomes HttpClient gives, for rows, OK, errors and multi-statements', async () => {
    expect(await overMysql.sql('CREATE TABLE ct (title text, price float, tags multi)')).toEqual({ kind: 'ok', affected: 0 });
    expect(await overMysql.sql("INSERT INTO ct (id, title, price, tags) VALUES (1, 'a b', 1.1, (2,1)), (2, 'b', 44.4, ())"))
      .toEqual({ kind: 'ok', affected: 2 });
    // further result sets (here SHOW META's) compared without its `time` row, a measurement
    const untimed = (o: SqlOutcome): SqlOutcome => (o.kind === 'rows' && o.more
      ? { ...o, more: o.more.map((m) => ({ ...m, rows: m.rows.filter((r) => r[0] !== 'time') })) } : o);
    const same = async (sql: string): Promise<SqlOutcome> => {
      const viaMysql = await overMysql.sql(sql);
      expect(untimed(viaMysql)).toEqual(untimed(await overHttp.sql(sql)));
      return viaMysql;
    };
    expect(await same('SELECT * FROM ct ORDER BY id ASC')).toEqual({
      kind: 'rows', columns: ['id', 'title', 'price', 'tags'], rows: [['1', 'a b', '1.100000', '1,2'], ['2', 'b', '44.400002', '']],
    });
    expect(await same("SELECT id FROM ct WHERE MATCH('b'); SHOW META")).toMatchObject({ kind: 'rows', columns: ['id'] });
    expect(await same('SELECT * FROM nope')).toEqual({ kind: 'error', error: "unknown local table(s) 'nope' in search request", errno: 1064 });
    expect(await same('SHOW TABLES')).toEqual({ kind: 'rows', columns: ['Table', 'Type'], rows: [['ct', 'rt']] });
  });
});
