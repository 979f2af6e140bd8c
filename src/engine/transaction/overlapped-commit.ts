/**
 * The overlapped commit of new rows, shared by a lone INSERT (Table.write) and a group-commit round
 * (transaction-group.ts): the store's commit is queued first (Store.writeTogether, which lmdb's write
 * thread makes and fsyncs) and the segment built while it runs, instead of the build and then the
 * commit one after the other (a 1000-row INSERT's build is about 12 ms, the commit's wait about 6).
 * The rare index failure (the core out of memory) then comes after the rows are durable: once the
 * commit settled, the rows of every call that became durable are deleted again, durably, before the
 * error is answered, so nothing of the write is left (a crash in between leaves an unacknowledged
 * write applied, as any crash before the answer may).
 */
import type { PreparedBatch, RtIndex } from '../../index/rt-index.js';
import type { DocInput } from '../../index/types.js';
import type { TableStore, WriteOp } from '../durability/table-store.js';

/** The segment of an overlapped commit: built, or the error its build threw. */
export type Built = { batch: PreparedBatch } | { error: unknown };

/** A commit in flight: each call's store write, and the segment built meanwhile. */
export interface Overlapped {
  writes: Promise<unknown>[];
  built: Built;
}

/**
 * Queues `calls` (each its own store write, one commit for all) and builds the segment of `inputs`
 * while lmdb commits; `inputs` may be a batch already built (a REPLACE's, built before the commit:
 * its rows may overwrite stored documents), which is freed if the store refuses the calls. Throws,
 * with nothing queued, only when the store refuses the calls at once (closed, table gone).
 */
export function startOverlapped(store: TableStore, index: RtIndex, calls: WriteOp[][], inputs: DocInput[] | PreparedBatch): Overlapped {
  let writes: Promise<unknown>[];
  try {
    writes = store.writeTogether(calls);
  } catch (e) {
    if (!Array.isArray(inputs)) index.discardBatch(inputs);
    throw e;
  }
  if (!Array.isArray(inputs)) return { writes, built: { batch: inputs } };
  try {
    return { writes, built: { batch: index.prepareBatch(inputs) } };
  } catch (e) {
    return { writes, built: { error: e } };
  }
}

/**
 * One event-loop turn. lmdb-js starts writing a commit queued outside a transaction from a setImmediate
 * callback (lmdb/write.js: enqueuedCommit = setImmediate(startWriting)), so a segment built synchronously
 * right after the queueing holds the whole commit back until the build ends: measured with a 1000-document
 * gcide round and 30 ms of main-thread work after it, 4.8 ms of a 6.2 ms commit were still to wait;
 * after one turn first, 0.1 ms.
 */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * startOverlapped for a write of new rows whose segment is built here (`inputs`), with one event-loop turn
 * between the queueing and the build, so that lmdb's write thread commits while the build runs (nextTurn).
 * The store writes get a handler before the turn (a rejection is read by the caller's allSettled after it,
 * never reported unhandled meanwhile).
 */
export async function startOverlappedAfterTurn(store: TableStore, index: RtIndex, calls: WriteOp[][], inputs: DocInput[]): Promise<Overlapped> {
  const writes = store.writeTogether(calls);
  for (const w of writes) w.catch(() => undefined);
  await nextTurn();
  try {
    return { writes, built: { batch: index.prepareBatch(inputs) } };
  } catch (e) {
    return { writes, built: { error: e } };
  }
}

/**
 * Once the commit settled (`outcomes`, one per call): the built batch; or, when the build failed, the
 * rows of the calls whose write became durable deleted again and the build's error thrown (also when
 * the delete fails: the statement fails for the index, whatever its undo met).
 */
export async function builtOrUndone(store: TableStore, calls: WriteOp[][], { built }: Overlapped, outcomes: PromiseSettledResult<unknown>[]): Promise<PreparedBatch> {
  if ('batch' in built) return built.batch;
  const stored = calls.flatMap((ops, k) => (outcomes[k]!.status === 'fulfilled' ? ops.map((o) => o.docId) : []));
  if (stored.length) await store.write(stored.map((docId) => ({ op: 'delete' as const, docId }))).catch(() => undefined);
  throw built.error;
}
