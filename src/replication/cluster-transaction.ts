/**
 * BEGIN ... COMMIT (or autocommit=0) over a cluster table: the session's INSERT/REPLACE/DELETE
 * statements are kept as typed and sent at COMMIT as one op, which every node applies as one
 * transaction. As in Manticore, a transaction writes one table; its errors (a duplicate id...) come
 * at COMMIT, from the apply every node runs alike.
 */
import type { Session } from '../engine/session.js';
import { SearchError } from '../util/errors.js';

export interface PendingClusterTx {
  cluster: string;
  table: string;
  /** Statement texts in order, with the ids the writer generated for each. */
  statements: { sql: string; ids: string[] }[];
}

export class ClusterTransactions {
  /** Per connection; a session that ends drops its open transaction, as ROLLBACK. */
  readonly #open = new WeakMap<Session, PendingClusterTx>();

  /** Buffers one statement of `session`'s transaction on cluster table `cluster:table`. */
  add(session: Session, cluster: string, table: string, sql: string, ids: string[]): void {
    const localTable = session.transaction?.table?.name;
    const tx = this.#open.get(session);
    const other = tx && (tx.cluster !== cluster || tx.table !== table) ? this.tableOf(session) : localTable;
    if (other) throw new SearchError('QUERY_ERROR', `current txn is working with another table ('${other}')`);
    if (tx) tx.statements.push({ sql, ids });
    else this.#open.set(session, { cluster, table, statements: [{ sql, ids }] });
  }

  /** True when the session has buffered cluster writes (a local write then belongs to another table). */
  has(session: Session): boolean { return this.#open.has(session); }

  /** `cluster:table` of the session's open transaction, for the error naming it. */
  tableOf(session: Session): string {
    const tx = this.#open.get(session);
    return tx ? `${tx.cluster}:${tx.table}` : '';
  }

  /** Removes and returns the session's open transaction (COMMIT); undefined when none. */
  take(session: Session): PendingClusterTx | undefined {
    const tx = this.#open.get(session);
    this.#open.delete(session);
    return tx;
  }
}
