/**
 * Per-session transactions on one RT table (BEGIN / autocommit=0): INSERT, REPLACE and DELETE are
 * validated when issued and buffered in the session, then applied at COMMIT as one durable store
 * write and one index update, or dropped on ROLLBACK and when the session ends.
 */
import type { DocInput } from '../../index/types.js';
import type { TableSchema } from '../../schema/types.js';
import { SearchError } from '../../util/errors.js';
import type { Catalog } from '../catalog.js';
import type { Session } from '../session.js';
import type { StoredDoc, WriteOp } from '../durability/table-store.js';
import type { Table } from '../table.js';

export type PendingWrite =
  | { kind: 'put'; ids: bigint[]; docs: StoredDoc[]; inputs: DocInput[]; replace: boolean }
  | { kind: 'delete'; ids: bigint[] };

export interface Transaction {
  /** The one table this transaction writes to, fixed by its first write. */
  table?: Table;
  /** The table's schema at the first write; a changed schema makes COMMIT fail. */
  schema?: TableSchema;
  writes: PendingWrite[];
  /** SAVEPOINT name -> how many writes were buffered then (ROLLBACK TO drops the later ones). */
  savepoints?: Map<string, number>;
}

export function inTransaction(session: Session): boolean {
  return session.transaction !== undefined;
}

/** Writes of this session are buffered: an open transaction, or autocommit off. */
export function buffersWrites(session: Session): boolean {
  return session.transaction !== undefined || !session.autocommit;
}

/** The session's transaction bound to `table`, opened on first use; one table per transaction. */
export function transactionFor(session: Session, table: Table): Transaction {
  const tx = (session.transaction ??= { writes: [] });
  if (!tx.table) {
    tx.table = table;
    tx.schema = table.schema;
  } else if (tx.table !== table) {
    throw new SearchError('QUERY_ERROR', `current txn is working with another table ('${tx.table.name}')`);
  }
  return tx;
}

export function rollback(session: Session): void {
  // written only when open: every connection's close rolls back, and the store into a field no statement
  // had written yet re-typed it, deoptimizing executeLocal and sessionStatus ('code dependencies') at the
  // close of a server's first connection
  if (session.transaction !== undefined) session.transaction = undefined;
}

/**
 * SAVEPOINT / ROLLBACK TO / RELEASE SAVEPOINT, as MySQL: outside a transaction there is nothing to mark
 * (accepted, as autocommit has nothing to undo); rolling back to an unknown name is MySQL's error 1305.
 */
export function savepoint(session: Session, action: 'set' | 'rollback' | 'release', name: string): void {
  const tx = session.transaction;
  const marks = tx?.savepoints;
  if (action === 'set') {
    if (tx) (tx.savepoints ??= new Map()).set(name, tx.writes.length);
    return;
  }
  const at = marks?.get(name);
  if (at === undefined) {
    if (!tx) return;
    throw new SearchError('QUERY_ERROR', `SAVEPOINT ${name} does not exist`);
  }
  if (action === 'release') { marks!.delete(name); return; }
  tx!.writes.length = at;
  for (const [n, count] of marks!) if (count > at) marks!.delete(n);
}

type Final = { doc: StoredDoc; input: DocInput } | null;

/** The last state of each touched id; INSERT of an id that exists at that point is an error. */
function finalStates(table: Table, writes: PendingWrite[]): Map<bigint, Final> {
  const final = new Map<bigint, Final>();
  const exists = (id: bigint) => (final.has(id) ? final.get(id) !== null : table.index.has(id));
  for (const w of writes) {
    if (w.kind === 'delete') {
      for (const id of w.ids) final.set(id, null);
      continue;
    }
    w.ids.forEach((id, i) => {
      if (!w.replace && exists(id)) throw new SearchError('DUPLICATE_ID', `duplicate id '${id}'`);
      final.set(id, { doc: w.docs[i]!, input: w.inputs[i]! });
    });
  }
  return final;
}

async function apply(table: Table, writes: PendingWrite[]): Promise<number> {
  const final = finalStates(table, writes);
  const ops: WriteOp[] = [];
  const gone: bigint[] = [];
  const added: DocInput[] = [];
  for (const [docId, state] of final) {
    const live = table.index.has(docId);
    if (live) gone.push(docId);
    if (state) {
      ops.push({ op: 'put', docId, doc: state.doc });
      added.push(state.input);
    } else if (live) {
      ops.push({ op: 'delete', docId });
    }
  }
  if (ops.length === 0) return 0;
  // the index's fallible half before the commit: a transaction the index cannot take leaves nothing
  const batch = table.index.prepareBatch(added);
  try {
    await table.store.write(ops);
  } catch (e) {
    table.index.discardBatch(batch);
    throw e;
  }
  table.index.applyBatch(batch, gone);
  return ops.length;
}

/**
 * Applies the session's buffered writes atomically and closes the transaction (also when the commit
 * fails: Manticore discards a transaction whose commit failed). Returns the documents changed.
 */
export async function commit(session: Session, catalog: Catalog): Promise<number> {
  const tx = session.transaction;
  session.transaction = undefined;
  if (!tx?.table || tx.writes.length === 0) return 0;
  const table = tx.table;
  if (catalog.get(table.name) !== table) {
    throw new SearchError('QUERY_ERROR', `current txn is working with changed table '${table.name}', restart session`);
  }
  return table.mutex.run(async () => {
    if (table.schema !== tx.schema) {
      throw new SearchError('QUERY_ERROR', `current txn is working with table's another schema ('${table.name}'), restart session`);
    }
    return apply(table, tx.writes);
  });
}
