// LOCK TABLES over the real protocols (searchd.cpp HandleMysqlLockTables, ~ClientSession_c): a MySQL
// connection's read lock refuses other connections' writes until the connection ends; /sql cannot lock.
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startQuarry, type QuarryProcess } from './mysql-server.js';

let q: QuarryProcess;
beforeAll(async () => {
  q = await startQuarry();
  await q.sql('CREATE TABLE t (title TEXT)');
});
afterAll(async () => { await q?.stop(); });

const connect = () => mysql.createConnection({ host: '127.0.0.1', port: q.mysqlPort, user: 'root' });

it('a lock held by a MySQL connection refuses writes until that connection closes', async () => {
  const locker = await connect();
  const writer = await connect();
  try {
    await locker.query('LOCK TABLES t READ');
    await expect(writer.query("INSERT INTO t (id, title) VALUES (1, 'a')")).rejects.toThrow("table 't' is locked");
    expect(await q.sql("INSERT INTO t (id, title) VALUES (1, 'a')")).toMatchObject({ error: "table 't' is locked" });
    await locker.end();
    // the server sees the close a moment after the client's end(): the write succeeds once it has
    let done = false;
    for (let i = 0; i < 200 && !done; i++) {
      done = await writer.query("INSERT INTO t (id, title) VALUES (1, 'a')").then(() => true, () => false);
      if (!done) await new Promise((r) => setTimeout(r, 10));
    }
    expect(done).toBe(true);
  } finally {
    await writer.end();
    await locker.end().catch(() => undefined);
  }
});

it('/sql cannot lock: searchd\'s MySQL-only error', async () => {
  expect(await q.sql('LOCK TABLES t READ')).toMatchObject({ error: 'Locking works only for mysql session.' });
});
