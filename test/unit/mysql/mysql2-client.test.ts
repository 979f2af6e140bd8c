import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type MysqlFixture } from './real-engine.js';

let fx: MysqlFixture;
let conn: mysql.Connection;
beforeAll(async () => {
  fx = await startFixture();
  conn = await mysql.createConnection({ host: '127.0.0.1', port: fx.port, user: 'root', multipleStatements: true });
});
afterAll(async () => {
  await conn?.end();
  await fx?.stop();
});

describe('mysql2 against the listener', () => {
  it('answers what clients send on connect', async () => {
    const [rows] = await conn.query('select @@version_comment limit 1');
    expect(rows).toEqual([{ '@@version_comment': expect.stringContaining('quarry') }]);
    const [db] = await conn.query('SELECT DATABASE(), USER()');
    // function names come back lower-cased, as Manticore prints select-list expressions
    expect(db).toEqual([{ 'database()': 'Manticore', 'user()': expect.any(String) }]);
  });

  it('creates, inserts and selects with typed columns', async () => {
    await conn.query('CREATE TABLE t (title text, price float, n uint, big bigint, tags multi, j json)');
    const [res] = await conn.query(`INSERT INTO t (id, title, price, n, big, tags, j) VALUES (1, 'hello world', 1.5, 7, 9000000000, (3,1,2), '{"a":1}'), (2, 'other', 2, 8, 1, (), '[]')`);
    expect(res).toMatchObject({ affectedRows: 2, insertId: 2 });
    const [rows, fields] = await conn.query('SELECT id, title, price, n, big, tags, j FROM t WHERE MATCH(\'hello\')');
    expect(rows).toEqual([{ id: 1, title: 'hello world', price: 1.5, n: 7, big: 9000000000, tags: '1,2,3', j: '{"a":1}' }]);
    expect((fields as mysql.FieldPacket[]).map((f) => f.columnType)).toEqual([8, 254, 4, 3, 8, 254, 254]);
  });

  it('sends floats as six-decimal text', async () => {
    const [rows] = await conn.query({ sql: 'SELECT price FROM t WHERE id=1', typeCast: (field, next) => (field.type === 'FLOAT' ? field.string() : next()) });
    expect(rows).toEqual([{ price: '1.500000' }]);
  });

  it('returns ERR 1064 / 42000 with the engine message', async () => {
    await expect(conn.query('SELEKT * FROM t')).rejects.toMatchObject({ errno: 1064, sqlState: '42000', sqlMessage: expect.stringContaining('syntax error') });
    await expect(conn.query('SELECT * FROM nosuch')).rejects.toMatchObject({ errno: 1064, sqlMessage: "unknown local table(s) 'nosuch' in search request" });
    const [rows] = await conn.query('SELECT 1');
    expect(rows).toEqual([{ 1: 1 }]);
  });

  it('returns several results for a multi-statement query', async () => {
    const [results] = await conn.query("SELECT id FROM t WHERE MATCH('other'); SHOW META");
    const [first, meta] = results as unknown as [Array<{ id: number }>, Array<{ Variable_name: string; Value: string }>];
    expect(first).toEqual([{ id: 2 }]);
    expect(meta.find((r) => r.Variable_name === 'total')?.Value).toBe('1');
  });

  it('runs parameterised statements through execute', async () => {
    const [ins] = await conn.execute('INSERT INTO t (id, title, price, n) VALUES (?, ?, ?, ?)', [10, "it's quoted", 2.25, 5]);
    expect(ins).toMatchObject({ affectedRows: 1 });
    const [rows] = await conn.execute('SELECT id, title, price, n, big FROM t WHERE id = ?', [10]);
    expect(rows).toEqual([{ id: 10, title: "it's quoted", price: 2.25, n: 5, big: 0 }]);
    const [none] = await conn.execute('SELECT id FROM t WHERE id = ?', [999]);
    expect(none).toEqual([]);
  });

  it('answers ping and keeps the connection usable', async () => {
    await conn.ping();
    const [rows] = await conn.query('SELECT id FROM t WHERE id=1');
    expect(rows).toEqual([{ id: 1 }]);
  });

  it('reports the transaction state in the status flags', async () => {
    const [begin] = await conn.query('BEGIN');
    expect((begin as mysql.ResultSetHeader).serverStatus & 1).toBe(1);
    const [done] = await conn.query('COMMIT');
    expect((done as mysql.ResultSetHeader).serverStatus & 1).toBe(0);
    expect((done as mysql.ResultSetHeader).serverStatus & 2).toBe(2);
  });
});

describe('mysql2 execute with NULLs', () => {
  it('decodes NULL cells of binary rows', async () => {
    await conn.query('CREATE TABLE nj (title text, j json)');
    await conn.query("INSERT INTO nj (id, title, j) VALUES (1, 'a', NULL), (2, 'b', '{\"x\":1}')");
    const [rows] = await conn.execute('SELECT id, j FROM nj WHERE id > ? ORDER BY id ASC', [0]);
    expect(rows).toEqual([{ id: 1, j: null }, { id: 2, j: '{"x":1}' }]);
  });
});
