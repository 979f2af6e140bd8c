// LOCK TABLES t READ as searchd 29 keeps it (searchd.cpp HandleMysqlLockTables, coroutine.cpp
// ReadTableLock_c::TryWrite; test/clt-tests/data-manipulation/test-lock-unlock-tables.rec): while a
// session holds the lock, every write to t fails at once (the locking session's own too), SELECTs go
// on; UNLOCK TABLES or a new LOCK TABLES releases it; HTTP sessions cannot lock. quarry took no lock.
import { expect, it } from 'vitest';
import { newSession, type Result } from '../../../../src/engine/index.js';
import { releaseTableLocks } from '../../../../src/engine/exec/table-locks.js';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('lock-tables-read', async (t) => {
  await t.exec('CREATE TABLE t (title TEXT, a INT)');
  await t.exec('CREATE TABLE u (title TEXT, a INT)');
  await t.exec("INSERT INTO t (id, title, a) VALUES (1, 'one', 1), (2, 'two', 2)");
});

const on = async (session: ReturnType<typeof newSession>, sql: string): Promise<Result> => (await t.engine.execute(sql, session)).at(-1)!;
const error = (r: Result): string | undefined => (r.kind === 'error' ? r.message : undefined);

it('another session\'s writes get searchd\'s errors while the lock is held, its SELECTs run; after UNLOCK they work', async () => {
  const locker = newSession();
  const other = newSession();
  expect(await on(locker, 'LOCK TABLES t READ')).toMatchObject({ kind: 'ok' });
  expect(error(await on(other, "INSERT INTO t (id, title) VALUES (3, 'x')"))).toBe("table 't' is locked");
  expect(error(await on(other, "REPLACE INTO t (id, title) VALUES (1, 'x')"))).toBe("table 't' is locked");
  expect(error(await on(other, 'UPDATE t SET a = 5 WHERE id = 1'))).toBe('table t: table is locked');
  expect(error(await on(other, 'DELETE FROM t WHERE id = 1'))).toBe('table t: table is locked');
  expect(error(await on(other, 'TRUNCATE TABLE t'))).toBe('table is locked');
  expect(await on(other, 'SELECT COUNT(*) FROM t')).toMatchObject({ kind: 'rows', rows: [[2n]] });
  expect(await on(other, "INSERT INTO u (id, title) VALUES (1, 'x')")).toMatchObject({ kind: 'ok' });
  expect(error(await on(locker, "INSERT INTO t (id, title) VALUES (4, 'own')"))).toBe("table 't' is locked");
  expect(await on(locker, 'UNLOCK TABLES')).toMatchObject({ kind: 'ok' });
  expect(await on(other, "INSERT INTO t (id, title) VALUES (3, 'x')")).toMatchObject({ kind: 'ok', affected: 1 });
});

it('a write buffered in a transaction is refused when its statement runs', async () => {
  const locker = newSession();
  const other = newSession();
  await on(locker, 'LOCK TABLES t READ');
  await on(other, 'BEGIN');
  expect(error(await on(other, "INSERT INTO t (id, title) VALUES (3, 'x')"))).toBe("table 't' is locked");
  expect(error(await on(other, 'DELETE FROM t WHERE id = 1'))).toBe('table t: table is locked');
});

it('a new LOCK TABLES releases the session\'s earlier locks; two sessions\' locks count apart', async () => {
  const a = newSession();
  const b = newSession();
  await on(a, 'LOCK TABLES t READ');
  await on(b, 'LOCK TABLES t READ');
  await on(a, 'LOCK TABLES u READ');
  expect(error(await on(newSession(), "INSERT INTO t (id, title) VALUES (3, 'x')"))).toBe("table 't' is locked");
  await on(b, 'UNLOCK TABLES');
  expect(await on(newSession(), "INSERT INTO t (id, title) VALUES (3, 'x')")).toMatchObject({ kind: 'ok' });
  expect(error(await on(newSession(), "INSERT INTO u (id, title) VALUES (3, 'x')"))).toBe("table 'u' is locked");
  releaseTableLocks(a); // what the MySQL connection's end does
  expect(await on(newSession(), "INSERT INTO u (id, title) VALUES (3, 'x')")).toMatchObject({ kind: 'ok' });
});

it('an HTTP session cannot lock or unlock (searchd: MySQL sessions only)', async () => {
  const http = newSession(undefined, undefined, true);
  expect(error(await on(http, 'LOCK TABLES t READ'))).toBe('Locking works only for mysql session.');
  expect(error(await on(http, 'UNLOCK TABLES'))).toBe('Locking works only for mysql session.');
  expect(await on(newSession(), "INSERT INTO t (id, title) VALUES (3, 'x')")).toMatchObject({ kind: 'ok' });
});

it('WRITE is only warned about: no lock, no look-up (a mysqldump replay writes under it); a missing READ table is searchd\'s error', async () => {
  const s = newSession();
  expect(await on(s, 'LOCK TABLES t WRITE, nope WRITE')).toMatchObject({ kind: 'ok', warning: 'Write lock is not implemented.' });
  expect(await on(newSession(), "INSERT INTO t (id, title) VALUES (3, 'x')")).toMatchObject({ kind: 'ok' });
  expect(error(await on(s, 'LOCK TABLES t READ, nope READ'))).toBe('Table nope absent, or not suitable for lock');
  expect(error(await on(newSession(), "INSERT INTO t (id, title) VALUES (4, 'x')"))).toBe("table 't' is locked");
});

// searchd's HandleMysqlShowLocks (clt test-lock-unlock-tables.rec): Type, Name, Lock Type, Additional Info;
// a row per table holding read locks, in name order, counting every session's lock; a second LOCK TABLES
// of the same session replaces its lock (Count: 1). quarry had no SHOW LOCKS (a P01 syntax error).
it('SHOW LOCKS lists the read-locked tables with their count', async () => {
  const a = newSession();
  const b = newSession();
  const show = async (s: ReturnType<typeof newSession>) => on(s, 'SHOW LOCKS');
  expect(await show(a)).toMatchObject({ kind: 'rows', rows: [] });
  await on(a, 'LOCK TABLES u READ, t READ');
  await on(a, 'LOCK TABLES u READ, t READ');
  const one = await show(a);
  expect(one.kind === 'rows' && one.columns.map((c) => c.name)).toEqual(['Type', 'Name', 'Lock Type', 'Additional Info']);
  expect(one).toMatchObject({ rows: [['rt', 't', 'read', 'Count: 1'], ['rt', 'u', 'read', 'Count: 1']] });
  await on(b, 'LOCK TABLES t READ');
  expect(await show(b)).toMatchObject({ rows: [['rt', 't', 'read', 'Count: 2'], ['rt', 'u', 'read', 'Count: 1']] });
  await on(a, 'UNLOCK TABLES');
  await on(b, 'UNLOCK TABLES');
  expect(await show(a)).toMatchObject({ rows: [] });
});

it('an UPDATE of a locked table is refused for the lock before its columns are looked at (searchd\'s order)', async () => {
  // CLT expected-errors/test-lock-tables-errors.rec: `SET title = ...` on a full-text field under the lock
  const locker = newSession();
  await on(locker, 'LOCK TABLES t READ');
  expect(error(await on(newSession(), "UPDATE t SET title = 'new' WHERE id = 1"))).toBe('table t: table is locked');
  expect(error(await on(locker, "UPDATE t SET title = 'new' WHERE id = 1"))).toBe('table t: table is locked');
  expect(error(await on(locker, 'UPDATE t SET nope = 1 WHERE id = 1'))).toBe('table t: table is locked');
  await on(locker, 'UNLOCK TABLES');
  expect(error(await on(locker, "UPDATE t SET title = 'new' WHERE id = 1"))).toBe("table t: attribute 'title' can not be updated (full-text field)");
});
