/**
 * LOCK TABLES t READ as searchd 29 keeps it (searchd.cpp HandleMysqlLockTables / UnlockTables,
 * coroutine.cpp ReadTableLock_c): a read lock is a count on the table; while it is above zero every
 * INSERT, REPLACE, UPDATE, DELETE and TRUNCATE of the table fails at once (no waiting), from any session
 * and any protocol, the locking session's own included; SELECTs and DDL go on. A session's locks go with
 * UNLOCK TABLES, its next LOCK TABLES (which first releases them) and the end of its connection. Only
 * MySQL sessions lock: over HTTP both statements are searchd's `Locking works only for mysql session.`
 */
import type { LockTablesStatement } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import type { Catalog } from '../catalog.js';
import { ok, type OkResult } from '../result.js';
import type { Session } from '../session.js';
import type { Table } from '../table.js';

/** INSERT and REPLACE's error (searchd.cpp HandleMysqlInsert). */
export function lockedForInsert(name: string): SearchError {
  return new SearchError('QUERY_ERROR', `table '${name}' is locked`);
}

/** UPDATE and DELETE's error, a per-table failure (searchd.cpp's dFails: `table t: table is locked`). */
export function lockedForChange(name: string): SearchError {
  return new SearchError('QUERY_ERROR', `table ${name}: table is locked`);
}

/** A write buffered in a transaction is checked when the statement runs, as searchd's INSERT and DELETE are. */
export function checkLockedWrite(catalog: Catalog, name: string, verb: 'insert' | 'delete'): void {
  const table = catalog.get(name);
  if (table?.readLocks) throw verb === 'insert' ? lockedForInsert(table.name) : lockedForChange(table.name);
}

/** TRUNCATE's error (searchd.cpp HandleMysqlTruncate). */
export function checkTruncatable(table: Table | undefined): void {
  if (table?.readLocks) throw new SearchError('QUERY_ERROR', 'table is locked');
}

function mysqlOnly(session: Session): void {
  if (session.http) throw new SearchError('QUERY_ERROR', 'Locking works only for mysql session.');
}

/**
 * LOCK TABLES: the session's earlier locks released first, then each READ table read-locked in turn (a
 * missing one stops there, the ones before it stay locked, as searchd). WRITE tables are not locked nor
 * looked up, only warned about (searchd: `Write lock is not implemented.`), so a mysqldump replay's
 * `LOCK TABLES t WRITE; INSERT ...` writes. A write in flight holds the table's mutex: the lock waits
 * for it, as searchd's WaitRead waits for running writes.
 */
export async function lockTables(catalog: Catalog, st: LockTablesStatement, session: Session): Promise<OkResult> {
  mysqlOnly(session);
  releaseTableLocks(session);
  const held: Table[] = [];
  session.lockedTables = held;
  for (const name of st.read) {
    const table = catalog.get(name);
    if (!table) throw new SearchError('UNKNOWN_TABLE', `Table ${name} absent, or not suitable for lock`);
    await table.mutex.run(async () => { table.readLocks++; });
    held.push(table);
  }
  if (!st.write) return ok(0);
  session.lastWarning = 'Write lock is not implemented.';
  return ok(0, { warning: session.lastWarning });
}

export function unlockTables(session: Session): OkResult {
  mysqlOnly(session);
  releaseTableLocks(session);
  return ok(0);
}

/** Drops the session's read locks (UNLOCK TABLES, a new LOCK TABLES, the connection's end). */
export function releaseTableLocks(session: Session): void {
  const held = session.lockedTables;
  if (!held) return;
  session.lockedTables = undefined;
  for (const t of held) if (t.readLocks > 0) t.readLocks--;
}
