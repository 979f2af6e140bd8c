/**
 * The overlapped commit of new rows, shared by a lone INSERT (Table.write) and a group-commit round
 * (transaction-group.ts): the store's commit is queued first (Store.writeTogether, which lmdb's write
 * thread makes and fsyncs) and the segment built while it runs, instead of the build and then the
 * commit one after the other (a 1000-row INSERT's build is about 12 ms, the commit's wait about 6).
 * The rare index failure (the core out of memory) then comes after the rows are durable: once the
 * commit settled, the rows of every call that became durable are deleted again, durably, before the
 * error is answered, so nothing of the write is left (a crash in between leaves an unacknowledged
 * write applied, as any crash before the answer may). lmdb-js starts writing a queued commit only
 * in a later event-loop turn, so a segment is built one turn after the queueing (see AFTER_TURN_ROWS).
 */
import { TAIL_BATCH_ROWS } from '../../index/ram-tail.js';
import type { PreparedBatch, RtIndex } from '../../index/rt-index.js';
import type { DocInput } from '../../index/types.js';
import type { TableStore, WriteOp } from '../durability/table-store.js';

/** The segment of an overlapped commit: built, or the error its build threw. */
export type Built = { batch: PreparedBatch } | { error: unknown };

/** A commit in flight: each call's store write, and the segment built meanwhile (now, or after a turn). */
export interface Overlapped {
  writes: Promise<unknown>[];
  built: Built | Promise<Built>;
}

/**
 * Rows from which the segment is built one event-loop turn after the commit was queued. lmdb-js starts
 * writing a commit queued outside a transaction from a setImmediate callback (lmdb/write.js:
 * enqueuedCommit = setImmediate(startWriting)), so a build run synchronously right after the queueing
 * held the whole commit back until the build ended: a 1000-document gcide round with 30 ms of
 * main-thread work after it still had 4.8 of its 6.2 ms commit to wait; with one turn first, 0.1 ms.
 * A batch the RAM tail takes (TAIL_BATCH_ROWS or fewer rows, ram-tail.ts) builds no segment now and
 * keeps the old order: single-row INSERT rounds are unchanged.
 */
export const AFTER_TURN_ROWS = TAIL_BATCH_ROWS + 1;

function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function buildOf(index: RtIndex, inputs: DocInput[]): Built {
  try {
    return { batch: index.prepareBatch(inputs) };
  } catch (e) {
    return { error: e };
  }
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
  if (inputs.length < AFTER_TURN_ROWS) return { writes, built: buildOf(index, inputs) };
  // a write that fails during the turn is the caller's to read (its allSettled), not an unhandled rejection
  for (const w of writes) w.catch(() => undefined);
  return { writes, built: nextTurn().then(() => buildOf(index, inputs)) };
}

/**
 * Once the commit settled (`outcomes`, one per call): the built batch; or, when the build failed, the
 * rows of the calls whose write became durable deleted again and the build's error thrown (also when
 * the delete fails: the statement fails for the index, whatever its undo met).
 */
export async function builtOrUndone(store: TableStore, calls: WriteOp[][], overlapped: Overlapped, outcomes: PromiseSettledResult<unknown>[]): Promise<PreparedBatch> {
  const built = await overlapped.built;
  if ('batch' in built) return built.batch;
  const stored = calls.flatMap((ops, k) => (outcomes[k]!.status === 'fulfilled' ? ops.map((o) => o.docId) : []));
  if (stored.length) await store.write(stored.map((docId) => ({ op: 'delete' as const, docId }))).catch(() => undefined);
  throw built.error;
}
