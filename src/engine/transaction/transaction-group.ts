/**
 * Group commit for INSERT/REPLACE: statements that arrive while a round commits wait in a per-table
 * queue and are committed together in the next round, each as its own store write inside one shared
 * lmdb commit (one fsync), then applied to the index as one batch. The store makes the commit on the
 * protocol thread (Store.writeTogether: no thread hand-over), so the statements that arrive during its
 * fsync are read in the next event-loop turn and form the next round; a round is issued one turn after
 * it was asked for, so that every statement read in that turn joins it. Each statement is acknowledged
 * only after the commit holding it is durable and applied, as in Table.write; one that fails leaves
 * nothing stored or visible.
 */
import type { DocInput } from '../../index/types.js';
import type { PreparedBatch } from '../../index/rt-index.js';
import { SearchError } from '../../util/errors.js';
import type { StoredDoc } from '../durability/table-store.js';
import type { Table } from '../table.js';

/**
 * Rounds of one table issued and not yet settled at once. With the store's synchronous commit a round
 * has settled before the next is issued; a store whose commit resolves later (one on another thread)
 * gets one round committing and the next queued behind it, never more: a third would only split the
 * statements waiting behind the second into a commit (an fsync) of their own.
 */
export const ROUNDS_IN_FLIGHT = 2;

/** One INSERT/REPLACE statement's rows, validated and prepared (Table.prepare), ids assigned. */
export interface GroupedPut {
  ids: bigint[];
  docs: StoredDoc[];
  inputs: DocInput[];
  replace: boolean;
}

interface Waiter {
  /** Prepares the statement again when the table's schema or text settings changed since. */
  build(): GroupedPut;
  /** What `put` was prepared with. */
  schema: Table['schema'];
  pipeline: Table['pipeline'];
  index: Table['index'];
  put: GroupedPut;
  /** Indexes of the rows kept: the last row of each id (REPLACE of one id twice: the last wins). */
  keep: number[];
  resolve(rows: number): void;
  reject(err: unknown): void;
}

/** A table's rounds while it holds the table's mutex for them. */
interface Pipeline {
  queue: Waiter[];
  /** Rounds issued and not yet settled. */
  inFlight: number;
  /** Ids written by rounds in flight (with their count): an INSERT of one waits until they settle. */
  claimed: Map<bigint, number>;
  /** Those INSERTs, back at the head of the queue when a round settles. */
  held: Waiter[];
  /** The settling of the rounds in flight, chained: their segments become visible in issue order. */
  settled: Promise<void>;
  /** Set once the mutex is held; resolving it hands the mutex on. */
  release?: () => void;
  issueQueued: boolean;
}

const pipelines = new WeakMap<Table, Pipeline>();

/**
 * Commits the statement `build` prepares (called now, outside the table's mutex, and again in the
 * round if an ALTER or reconfigure changed the table meanwhile) durably, sharing the commit with
 * other statements queued at the same time; resolves with the statement's row count. A validation
 * error or duplicate id (INSERT) fails this statement only.
 */
export function commitGrouped(table: Table, build: () => GroupedPut): Promise<number> {
  if (table.store.carrying?.()) {
    // a replicated op being applied: its commit must carry the stream sequence (Store.alongside), and a
    // shared round is issued from another statement's async context, so it commits on its own
    return table.mutex.run(() => {
      const put = build();
      return table.write(put.ids, put.docs, put.inputs, put.replace);
    });
  }
  const { schema, pipeline, index } = table;
  return new Promise<number>((resolve, reject) => {
    const put = build(); // a throw here rejects this statement alone
    enqueue(table, [{ build, schema, pipeline, index, put, keep: lastOfEachId(put.ids), resolve, reject }]);
  });
}

function lastOfEachId(ids: bigint[]): number[] {
  const last = new Map<bigint, number>();
  ids.forEach((id, i) => last.set(id, i));
  return [...last.values()].sort((a, b) => a - b);
}

/** Adds statements to the table's pipeline, starting one (it waits for the mutex) if none runs. */
function enqueue(table: Table, waiters: Waiter[]): void {
  const running = pipelines.get(table);
  if (running) {
    running.queue.push(...waiters);
    schedule(table, running);
    return;
  }
  const p: Pipeline = { queue: waiters, inFlight: 0, claimed: new Map(), held: [], settled: Promise.resolve(), issueQueued: false };
  pipelines.set(table, p);
  void table.mutex.run(() => new Promise<void>((release) => {
    p.release = release;
    schedule(table, p);
  }));
}

/**
 * Issues the next round when a slot is free, one event-loop turn after it was asked for (statements
 * read in that turn join it), or ends the pipeline when nothing is queued or in flight. Another
 * user of the table's mutex waiting (a DELETE, a checkpoint) stops new rounds: those in flight
 * settle, the mutex passes on, and what is still queued follows in a new pipeline behind it.
 */
function schedule(table: Table, p: Pipeline): void {
  if (!p.release || p.issueQueued) return;
  const yielding = table.mutex.waiting > 0;
  if (p.queue.length && p.inFlight < ROUNDS_IN_FLIGHT && !yielding) {
    p.issueQueued = true;
    setImmediate(() => {
      p.issueQueued = false;
      issueRound(table, p);
      schedule(table, p);
    });
    return;
  }
  if (p.inFlight) return;
  pipelines.delete(table);
  p.release();
  if (p.queue.length) enqueue(table, p.queue);
}

/** Forms a round of the queued statements that can go now, builds its segment and queues its commit. */
function issueRound(table: Table, p: Pipeline): void {
  const round = admitted(table, p);
  if (!round.length) return;
  const rowsOf: number[][] = [];
  const inputs: DocInput[] = [];
  for (const w of round) rowsOf.push(w.keep.map((i) => inputs.push(w.put.inputs[i]) - 1));
  let batch: PreparedBatch;
  try {
    // the index's fallible half first: a round the index cannot take fails before anything is durable
    batch = table.index.prepareBatch(inputs);
  } catch (e) {
    for (const w of round) w.reject(e);
    return;
  }
  let writes: Promise<unknown>[];
  try {
    writes = table.store.writeTogether(round.map((w) => w.keep.map((i) => ({ op: 'put' as const, docId: w.put.ids[i], doc: w.put.docs[i] }))));
  } catch (e) {
    table.index.discardBatch(batch); // the store refused the whole round (closed, table gone)
    for (const w of round) w.reject(e);
    return;
  }
  const outcomes = Promise.allSettled(writes);
  const ids = round.flatMap((w) => w.keep.map((i) => w.put.ids[i]));
  for (const id of ids) p.claimed.set(id, (p.claimed.get(id) ?? 0) + 1);
  p.inFlight++;
  p.settled = p.settled.then(async () => {
    try {
      settleRound(table, round, batch, rowsOf, await outcomes);
    } catch (e) {
      for (const w of round) w.reject(e); // settles only the waiters not yet settled
    }
    for (const id of ids) {
      const n = p.claimed.get(id)! - 1;
      if (n) p.claimed.set(id, n);
      else p.claimed.delete(id);
    }
    p.inFlight--;
    p.queue.unshift(...p.held.splice(0, p.held.length));
    schedule(table, p);
  });
}

/**
 * Takes from the queue, in arrival order, the statements that can join a round now: those passing
 * the duplicate check fail now if they fail it; an INSERT of an id that a round in flight writes
 * stays queued until that round settles (had it failed, the INSERT must succeed).
 */
function admitted(table: Table, p: Pipeline): Waiter[] {
  const claimed = new Set<bigint>();
  const round = p.queue.splice(0, p.queue.length).filter((w) => {
    if (!refreshed(table, w)) return false;
    const { ids, replace } = w.put;
    if (!replace) {
      if (ids.some((id) => p.claimed.has(id))) {
        p.held.push(w);
        return false;
      }
      const seen = new Set<bigint>();
      for (const id of ids) {
        if (seen.has(id) || claimed.has(id) || table.index.has(id)) {
          w.reject(new SearchError('DUPLICATE_ID', `duplicate id '${id}'`));
          return false;
        }
        seen.add(id);
      }
    }
    for (const i of w.keep) claimed.add(ids[i]);
    return true;
  });
  return round;
}

/** Re-prepares a statement prepared before a schema, settings or index change; false if it now fails. */
function refreshed(table: Table, w: Waiter): boolean {
  if (w.schema === table.schema && w.pipeline === table.pipeline && w.index === table.index) return true;
  try {
    w.put = w.build();
    w.keep = lastOfEachId(w.put.ids);
    return true;
  } catch (e) {
    w.reject(e);
    return false;
  }
}

/**
 * A round's end, once its commit settled: the segment is made visible with the rows of any statement
 * whose write failed withheld, so each statement ends stored, searchable and acknowledged, or failed
 * with nothing of it stored or shown. A later statement's copy of an id follows an earlier one's in
 * the segment and replaces it when both stand.
 */
function settleRound(table: Table, round: Waiter[], batch: PreparedBatch, rowsOf: number[][], outcomes: PromiseSettledResult<unknown>[]): void {
  const stored = outcomes.map((o) => o.status === 'fulfilled');
  if (!stored.some(Boolean)) {
    table.index.discardBatch(batch);
  } else {
    table.index.withholdRows(batch, round.flatMap((_, k) => (stored[k] ? [] : rowsOf[k]!)));
    const written = new Set(round.flatMap((w, k) => (stored[k] ? w.keep.map((i) => w.put.ids[i]) : [])));
    table.index.applyBatch(batch, [...written].filter((id) => table.index.has(id)));
  }
  round.forEach((w, k) => {
    const o = outcomes[k]!;
    if (o.status === 'fulfilled') w.resolve(w.put.ids.length);
    else w.reject(o.reason);
  });
}
