/** What a table needs of the store of record, bound to one table name. */
import type { AttrValue } from '../../index/types.js';

/** Every column's value: text fields as strings (stored or not, so the index can be rebuilt). */
export type StoredDoc = Record<string, AttrValue>;

export type WriteOp =
  | { op: 'put'; docId: bigint; doc: StoredDoc }
  | { op: 'delete'; docId: bigint }
  | { op: 'update'; docId: bigint; values: Record<string, AttrValue> };

export interface TableStore {
  /** One atomic, durable transaction; resolves after commit. */
  write(ops: WriteOp[]): Promise<unknown>;
  /**
   * Several calls of puts and deletes in one commit made at once (Store.writeTogether): a promise per
   * call, each all or nothing.
   */
  writeTogether(calls: WriteOp[][]): Promise<unknown>[];
  /** Whether the caller's writes must carry a value in their own commits (Store.alongside). */
  carrying?(): boolean;
  getDocs(ids: bigint[]): (StoredDoc | undefined)[];
}
