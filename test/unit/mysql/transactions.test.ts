import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type MysqlFixture } from './real-engine.js';

let fx: MysqlFixture;
let a: mysql.Connection;
let b: mysql.Connection;
const connect = () => mysql.createConnection({ host: '127.0.0.1', port: fx.port, user: 'root' });
const ids = async (c: mysql.Connection, table = 'tx') => {
  const [rows] = await c.query(`SELECT id FROM ${table} ORDER BY id ASC`);
  return (rows as Array<{ id: number }>).map((r) => r.id);
};

beforeAll(async () => {
  fx = await startFixture();
  a = await connect();
  b = await connect();
  await a.query('CREATE TABLE tx (title text, n uint)');
  await a.query('CREATE TABLE other (title text)');
});
afterAll(async () => {
  await a?.end();
  await b?.end();
  await fx?.stop();
});

describe('transactions over the MySQL protocol', () => {
  it('buffers writes until COMMIT, invisible to other connections meanwhile', async () => {
    await a.query('BEGIN');
    const [res] = await a.query("INSERT INTO tx (id, title, n) VALUES (1, 'one', 1), (2, 'two', 2)");
    expect(res).toMatchObject({ affectedRows: 2 });
    expect(await ids(b)).toEqual([]);
    expect(await ids(a)).toEqual([]); // reads see committed data only, as in Manticore
    await a.query('COMMIT');
    expect(await ids(b)).toEqual([1, 2]);
  });

  it('drops buffered writes on ROLLBACK', async () => {
    await a.query('START TRANSACTION');
    await a.query("INSERT INTO tx (id, title) VALUES (3, 'three')");
    await a.query('DELETE FROM tx WHERE id = 1');
    await a.query('ROLLBACK');
    expect(await ids(b)).toEqual([1, 2]);
  });

  it('applies inserts, replaces and deletes together with autocommit=0', async () => {
    await a.query('SET autocommit=0');
    await a.query("INSERT INTO tx (id, title) VALUES (4, 'four')");
    await a.query("REPLACE INTO tx (id, title, n) VALUES (2, 'two again', 20)");
    await a.query('DELETE FROM tx WHERE id = 1');
    expect(await ids(b)).toEqual([1, 2]);
    await a.query('COMMIT');
    expect(await ids(b)).toEqual([2, 4]);
    const [rows] = await b.query('SELECT n FROM tx WHERE id = 2');
    expect(rows).toEqual([{ n: 20 }]);
    // still autocommit=0: the next write opens a new transaction
    await a.query("INSERT INTO tx (id, title) VALUES (5, 'five')");
    expect(await ids(b)).toEqual([2, 4]);
    await a.query('SET autocommit=1'); // commits the open transaction
    expect(await ids(b)).toEqual([2, 4, 5]);
  });

  it('keeps a transaction to one table', async () => {
    await a.query('BEGIN');
    await a.query("INSERT INTO tx (id, title) VALUES (6, 'six')");
    await expect(a.query("INSERT INTO other (id, title) VALUES (1, 'x')")).rejects.toMatchObject({
      errno: 1064, sqlMessage: "current txn is working with another table ('tx')",
    });
    await a.query('ROLLBACK');
    expect(await ids(b)).toEqual([2, 4, 5]);
  });

  it('fails the whole COMMIT on a duplicate id, applying nothing', async () => {
    await a.query('BEGIN');
    await a.query("INSERT INTO tx (id, title) VALUES (7, 'seven')");
    await a.query("INSERT INTO tx (id, title) VALUES (2, 'dup')");
    await expect(a.query('COMMIT')).rejects.toMatchObject({ sqlMessage: "duplicate id '2'" });
    expect(await ids(b)).toEqual([2, 4, 5]);
  });

  it('leaves autocommit off when SET autocommit=1 is refused by its commit', async () => {
    await a.query('SET autocommit=0');
    await a.query("INSERT INTO tx (id, title) VALUES (8, 'eight')");
    await a.query("INSERT INTO tx (id, title) VALUES (2, 'dup')");
    await expect(a.query('SET autocommit=1')).rejects.toMatchObject({ sqlMessage: "duplicate id '2'" });
    const [vars] = await a.query("SHOW VARIABLES LIKE 'autocommit'");
    expect(vars).toEqual([{ Variable_name: 'autocommit', Value: '0' }]);
    expect(await ids(b)).toEqual([2, 4, 5]);
    await a.query('SET autocommit=1');
    expect(await ids(b)).toEqual([2, 4, 5]);
  });

  it('discards the transaction of a client that disconnects', async () => {
    const c = await connect();
    await c.query('BEGIN');
    await c.query("INSERT INTO tx (id, title) VALUES (8, 'eight')");
    await c.end();
    expect(await ids(b)).toEqual([2, 4, 5]);
    // and the same id can be written by another session
    await b.query("INSERT INTO tx (id, title) VALUES (8, 'eight')");
    expect(await ids(a)).toEqual([2, 4, 5, 8]);
  });
});
