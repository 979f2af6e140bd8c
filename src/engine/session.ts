/** Per-connection state: what SHOW META / SHOW WARNINGS read, and an open transaction. */
import type { SearchMeta } from './result.js';
import type { Table } from './table.js';
import type { Transaction } from './transaction/transaction.js';
import type { CollationName } from '../util/collation.js';

export interface Session {
  /** Meta of the last SELECT on this connection (SHOW META). */
  lastMeta?: SearchMeta;
  /** Warning of the last statement (SHOW WARNINGS). */
  lastWarning?: string;
  /** autocommit=0 or BEGIN: writes buffered until COMMIT (the MySQL-protocol issue). */
  autocommit: boolean;
  /** The open transaction (BEGIN, or a write with autocommit off): buffered writes, see transaction/transaction.ts. */
  transaction?: Transaction;
  /** The current database name clients ask for with SELECT DATABASE(). */
  database: string;
  /** SET SQL_QUOTE_SHOW_CREATE=1 (mysqldump): SHOW CREATE TABLE backquotes names. */
  quoteShowCreate?: boolean;
  /** SET collation_connection: this session's string collation; unset, the server's collation_server. */
  collation?: CollationName;
  /** Tables this connection's LOCK TABLES read-locked, until UNLOCK TABLES or its end (exec/table-locks.ts). */
  lockedTables?: Table[];
  /** Ids written by this connection's last INSERT/REPLACE (SELECT LAST_INSERT_ID() joins them when asked). */
  lastInsertIds?: readonly bigint[];
  /** The client connection's id and address, for the query log. */
  connId?: number;
  peer?: string;
  /** An HTTP connection's session: LOCK TABLES is searchd's `Locking works only for mysql session.` */
  http?: boolean;
}

/**
 * A session with every field present, in one order, whatever the connection does later: V8 gives all
 * sessions one map (hidden class) for life. Fields added on first use (lastInsertIds at a connection's
 * first INSERT, connId and peer after creation) made a new connection's session another map than the
 * ones the hot path was optimized for: executeLocal deoptimized ('wrong map' at session.collation) each
 * time a burst of new connections arrived (--trace-deopt under insert-ab --phases 1).
 */
export function newSession(connId?: number, peer?: string, http = false): Session {
  return {
    lastMeta: undefined, lastWarning: undefined, autocommit: true, transaction: undefined, database: 'Manticore',
    quoteShowCreate: undefined, collation: undefined, lockedTables: undefined, lastInsertIds: undefined, connId, peer, http,
  };
}
