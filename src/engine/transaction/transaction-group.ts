/**
 * Group commit for INSERT/REPLACE: statements that arrive while a commit is being fsynced wait in a
 * per-table queue and are committed together in the next round, each as its own store write inside
 * one shared lmdb commit (one fsync), then applied to the index as one batch. Each statement is
 * acknowledged only after the commit holding it is durable and applied, as in Table.write; one that
 * fails leaves nothing stored or visible.
 */
import type { DocInput } from '../../index/types.js';
import type { PreparedBatch } from '../../index/rt-index.js';
import { SearchError } from '../../util/errors.js';
import type { StoredDoc } from '../durability/table-store.js';
import type { Table } from '../table.js';

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

/** Waiting statements per table; a table has a queue only while a commit round runs for it. */
const queues = new WeakMap<Table, Waiter[]>();

/**
 * Commits the statement `build` prepares (called now, outside the table's mutex, and again in the
 * round if an ALTER or reconfigure changed the table meanwhile) durably, sharing the commit with
 * other statements queued at the same time; resolves with the statement's row count. A validation
 * error or duplicate id (INSERT) fails this statement only.
 */
export function commitGrouped(table: Table, build: () => GroupedPut): Promise<number> {
  const { schema, pipeline, index } = table;
  return new Promise<number>((resolve, reject) => {
    const put = build(); // a throw here rejects this statement alone
    const waiter: Waiter = { build, schema, pipeline, index, put, keep: lastOfEachId(put.ids), resolve, reject };
    const queue = queues.get(table);
    if (queue) {
      queue.push(waiter);
      return;
    }
    const fresh = [waiter];
    queues.set(table, fresh);
    void table.mutex.run(() => drain(table, fresh));
  });
}

function lastOfEachId(ids: bigint[]): number[] {
  const last = new Map<bigint, number>();
  ids.forEach((id, i) => last.set(id, i));
  return [...last.values()].sort((a, b) => a - b);
}

/** Runs commit rounds under the table's mutex until no statement is waiting. */
async function drain(table: Table, queue: Waiter[]): Promise<void> {
  for (;;) {
    // checked and removed in one turn: a statement arriving later starts a new queue
    if (!queue.length) {
      queues.delete(table);
      return;
    }
    const round = queue.splice(0, queue.length);
    try {
      await commitRound(table, admitted(table, round));
    } catch (e) {
      for (const w of round) w.reject(e); // settles only the waiters not yet settled
    }
  }
}

/** The round's statements that pass the duplicate check, in arrival order; the others fail now. */
function admitted(table: Table, round: Waiter[]): Waiter[] {
  const claimed = new Set<bigint>();
  return round.filter((w) => {
    if (!refreshed(table, w)) return false;
    const { ids, replace } = w.put;
    if (!replace) {
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
 * One commit round. The index's fallible half comes first: every statement's kept rows built as one
 * segment (Table.write's order), so a round the index cannot take fails before anything is durable.
 * Then every statement's store write is issued in the same turn (lmdb commits them together), and the
 * segment is made visible with the rows of any statement whose write failed withheld: each statement
 * ends stored and searchable and acknowledged, or failed with nothing of it stored or shown. A later
 * statement's copy of an id follows an earlier one's in the segment and replaces it when both stand.
 */
async function commitRound(table: Table, round: Waiter[]): Promise<void> {
  const rowsOf: number[][] = [];
  const inputs: DocInput[] = [];
  for (const w of round) rowsOf.push(w.keep.map((i) => inputs.push(w.put.inputs[i]) - 1));
  let batch: PreparedBatch;
  try {
    batch = table.index.prepareBatch(inputs);
  } catch (e) {
    for (const w of round) w.reject(e);
    return;
  }
  const writes = round.map((w) => table.store.write(w.keep.map((i) => ({ op: 'put' as const, docId: w.put.ids[i], doc: w.put.docs[i] }))));
  const outcomes = await Promise.allSettled(writes);
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
