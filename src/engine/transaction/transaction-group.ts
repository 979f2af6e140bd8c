/**
 * Group commit for INSERT/REPLACE: statements that arrive while a round commits wait in a per-table
 * queue and are committed together in the next round, each as its own store write inside one shared
 * lmdb commit (one fsync), then applied to the index as one batch. lmdb's write thread makes and
 * fsyncs the commit (Store.writeTogether) while the protocol thread goes on reading, parsing and
 * preparing statements (and answering queries), so every statement that arrives during a commit
 * joins the next round; a round is issued once the statements the last round acknowledged are back
 * (their clients send the next at once) or a gather window after it was asked for (gatherMs: 1 ms, up to
 * the last round's time on a loaded machine), so that rounds hold
 * every client's statement instead of the half that was read in the first event-loop turn. One
 * round of a table is in flight at a time (MAX_IN_FLIGHT), and rounds settle (become visible, are
 * acknowledged) in the order they were issued. Session 7 measured a second round in flight under load 15-19 as
 * 1.45x the fsyncs and 0.86-0.88 ms of server CPU an INSERT against 0.71-0.77, not its throughput,
 * which MAX_IN_FLIGHT's figures give. Each statement is acknowledged only after the commit holding it
 * is durable and applied, as in Table.write; one that fails leaves nothing stored or visible.
 */
import type { DocInput } from '../../index/types.js';
import type { PreparedBatch } from '../../index/rt-index.js';
import { builtOrUndone, startOverlapped, type Overlapped } from './overlapped-commit.js';
import { SearchError } from '../../util/errors.js';
import type { StoredDoc } from '../durability/table-store.js';
import type { Table } from '../table.js';
import { gatherMs, MAX_GATHER_MS, noteRoundMs } from './gather-window.js';
import { arrival, gatherTimedOut, roundApplied, roundIssued, roundSettled, roundTracing } from '../../util/round-trace.js';

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
  keep: readonly number[];
  resolve(rows: number): void;
  reject(err: unknown): void;
  /** When it reached the group commit (QUARRY_TRACE_ROUNDS only; 0 otherwise). */
  at: number;
}

/** A table's rounds while it holds the table's mutex for them. */
interface Pipeline {
  queue: Waiter[];
  /** Rounds issued and not yet settled (at most MAX_IN_FLIGHT). */
  inFlight: number;
  /** The settling of the round issued last: each round settles after the one before it. */
  settled: Promise<void>;
  /** Ids the rounds in flight write (with how many write each): an INSERT of one waits for them. */
  claimed: Map<bigint, number>;
  /** What is queued waits for a round in flight to settle (admitted): no round is issued till then. */
  blocked: boolean;
  /** Set once the mutex is held; resolving it hands the mutex on. */
  release?: () => void;
  issueQueued: boolean;
  /**
   * Statements known to the pipeline when its last round settled (that round's, whose clients send
   * their next statement on its acknowledgement, and those queued then): the next round waits for as
   * many, up to gatherMs. 0 once a round is issued.
   */
  expected: number;
  /** While a round waits for `expected` statements: issues it as soon as that many are queued (enqueue calls it). */
  wake?: () => void;
}

const pipelines = new WeakMap<Table, Pipeline>();

/**
 * Rounds of a table in flight at once. Session 8, with each round issued one event-loop turn after it
 * was asked for (16 clients of single-row INSERTs, 4000 each, alternated, load 7.6-10): 1 in flight
 * 626 / 483 INSERTs/s, 2 in flight 809 / 580 (1.2-1.3x), 3 in flight 646 / 736; rounds held 7-8
 * statements whichever. With the gathering of GATHER_MS (gather-window.ts) one round in flight holds them all.
 * Session 23, with the write log (one O_DSYNC write a round) and a table's log writes in order: 2 in flight,
 * insert-ab --statements 2000 --phases 1, 5 alternated pairs, load 15-28: 1,077/748/1,900/764/836 against
 * 1,486/1,387/1,464/818/601 INSERTs/s, protocol thread 0.105-0.125 against 0.09-0.125 ms an INSERT: rounds
 * broke up (8.9 statements a round against 13) and each log write still carried one round.
 */
const MAX_IN_FLIGHT = 1;

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
    enqueue(table, [{ build, schema, pipeline, index, put, keep: lastOfEachId(put.ids), resolve, reject, at: arrival() }]);
  });
}

/** One shared answer for a single-row statement (most of them): no Map, iterator and sort per statement; read only. */
const ONLY_ROW: readonly number[] = Object.freeze([0]);

function lastOfEachId(ids: bigint[]): readonly number[] {
  if (ids.length === 1) return ONLY_ROW;
  const last = new Map<bigint, number>();
  ids.forEach((id, i) => last.set(id, i));
  return [...last.values()].sort((a, b) => a - b);
}

/** Adds statements to the table's pipeline, starting one (it waits for the mutex) if none runs. */
function enqueue(table: Table, waiters: Waiter[]): void {
  const running = pipelines.get(table);
  if (running) {
    running.queue.push(...waiters);
    if (running.wake) running.wake();
    else schedule(table, running);
    return;
  }
  // every field from the start, release and wake too (set later): one map for a pipeline's life, else
  // commitGrouped's inlined enqueue deoptimized ('wrong map') when 16 clients first met a running one
  const p: Pipeline = {
    queue: waiters, inFlight: 0, settled: Promise.resolve(), claimed: new Map(), blocked: false, release: undefined, issueQueued: false,
    expected: 0, wake: undefined,
  };
  pipelines.set(table, p);
  void table.mutex.run(() => new Promise<void>((release) => {
    p.release = release;
    schedule(table, p);
  }));
}

/**
 * Issues the next round when none is committing, one event-loop turn after it was asked for
 * (statements read in that turn join it) or, while fewer statements are queued than the last round
 * expects back, once they are (enqueue wakes it) or gatherMs on (also with none queued yet: the
 * pipeline keeps the mutex that long); or ends the pipeline when nothing is queued, expected or
 * committing. Another user of the table's mutex waiting (a DELETE, a checkpoint) when the round would
 * start waiting, or once it is issued, stops new rounds: the one
 * committing settles, the mutex passes on, and what is still queued follows in a new pipeline behind it.
 */
function schedule(table: Table, p: Pipeline): void {
  if (!p.release || p.issueQueued) return;
  const yielding = table.mutex.waiting > 0;
  // with nothing queued the pipeline (and the mutex) is kept a little while statements of several
  // clients are expected back (one client's next statement simply starts the next pipeline)
  if ((p.queue.length || p.expected > 1) && p.inFlight < MAX_IN_FLIGHT && !p.blocked && !yielding) {
    p.issueQueued = true;
    let timer: NodeJS.Timeout | undefined;
    /** When the gather ends (performance.now()); a statement's arrival moves it, the timer follows lazily. */
    let deadline = 0;
    const issue = () => {
      clearTimeout(timer);
      timer = undefined;
      p.wake = undefined;
      p.issueQueued = false;
      p.expected = 0;
      issueRound(table, p);
      schedule(table, p);
    };
    // one timer a gather, not one a statement: an arrival only moves the deadline, and the timer, when it
    // fires early, sleeps again for what is left (a clearTimeout and setTimeout for each of a round's 16
    // statements were ~3% of the protocol thread's samples, perf, session 29)
    const expire = () => {
      const left = deadline - performance.now();
      if (left > 0.05) {
        timer = setTimeout(expire, left);
        return;
      }
      timer = undefined;
      if (roundTracing) gatherTimedOut();
      issue();
    };
    // one turn first (statements read in this one join); then, when fewer are queued than expected,
    // the loop sleeps until enqueue brings the last one or gatherMs pass, instead of polling turn by
    // turn: a round's wait cost up to GATHER_MS of protocol-thread CPU in setImmediate turns
    setImmediate(() => {
      if (p.queue.length >= p.expected || table.mutex.waiting > 0) {
        issue();
        return;
      }
      const window = gatherMs(table);
      const start = performance.now();
      const until = start + MAX_GATHER_MS;
      deadline = start + window;
      timer = setTimeout(expire, window);
      p.wake = () => {
        if (p.queue.length < p.expected) {
          // statements still coming back: the window runs from this one's arrival (up to MAX_GATHER_MS
          // from the gather's start), so a client scheduled late is not left for a round of its own
          const now = performance.now();
          deadline = Math.max(now, Math.min(now + window, until));
          return;
        }
        // every statement expected back is here: issued now, from this statement's enqueue, not a
        // turn later (setImmediate): no other client of the round is left to read in this turn
        issue();
      };
    });
    return;
  }
  if (p.inFlight) return;
  pipelines.delete(table);
  p.release();
  if (p.queue.length) enqueue(table, p.queue);
}

/**
 * Forms a round of the queued statements that can go now, queues its commit and builds its segment.
 * A round of INSERTs alone is queued first and its segment built while lmdb's write thread commits it
 * (overlapped-commit.ts, as a lone INSERT's Table.write): the rare index failure then comes after the
 * rows are durable, and they are deleted again before the statements fail. A round with a REPLACE
 * (whose rows may overwrite stored documents) is built first, then queued.
 */
function issueRound(table: Table, p: Pipeline): void {
  const round = admitted(table, p);
  if (!round.length) return;
  // one pass over the round (it ran in baseline code, once a round: each map/flatMap was arrays and
  // closures per statement): the segment's rows, each statement's store call, the ids it claims
  const inputs: DocInput[] = [];
  const calls: { op: 'put'; docId: bigint; doc: StoredDoc }[][] = [];
  const ids: bigint[] = [];
  let replace = false;
  for (const w of round) {
    const { put, keep } = w;
    const ops: { op: 'put'; docId: bigint; doc: StoredDoc }[] = [];
    for (const i of keep) {
      inputs.push(put.inputs[i]!);
      ops.push({ op: 'put', docId: put.ids[i]!, doc: put.docs[i]! });
      ids.push(put.ids[i]!);
    }
    calls.push(ops);
    if (put.replace) replace = true;
  }
  let overlapped: Overlapped;
  try {
    overlapped = startOverlapped(table.store, table.index, calls, replace ? table.index.prepareBatch(inputs) : inputs);
  } catch (e) {
    for (const w of round) w.reject(e); // the REPLACE's build failed, or the store refused the whole round (closed, table gone)
    return;
  }
  p.inFlight++;
  const issuedAt = roundTracing ? roundIssued(round.map((w) => w.at)) : performance.now();
  claim(p, ids);
  const outcomes = Promise.allSettled(overlapped.writes);
  p.settled = p.settled.then(() => outcomes).then(async (o) => {
    noteRoundMs(table, performance.now() - issuedAt);
    if (roundTracing) roundSettled(issuedAt);
    p.expected = round.length + p.queue.length;
    try {
      // ids stay claimed until an undo is done, so no later statement's row of one of them is deleted instead
      settleRound(table, round, await builtOrUndone(table.store, calls, overlapped, o), o, replace);
    } catch (e) {
      for (const w of round) w.reject(e); // settles only the waiters not yet settled
    }
    if (roundTracing) roundApplied();
    unclaim(p, ids);
    p.inFlight--;
    p.blocked = false;
    schedule(table, p);
  });
}

/** Counts `ids`, a round's, as claimed until it settles. */
function claim(p: Pipeline, ids: bigint[]): void {
  for (const id of ids) p.claimed.set(id, (p.claimed.get(id) ?? 0) + 1);
}

function unclaim(p: Pipeline, ids: bigint[]): void {
  for (const id of ids) {
    const n = p.claimed.get(id)! - 1;
    if (n) p.claimed.set(id, n);
    else p.claimed.delete(id);
  }
}

/**
 * Takes the queue, in arrival order, as the next round, without the statements that fail now (a
 * statement a changed table no longer takes; an INSERT of an id the index holds or an earlier
 * statement of the round writes) and without those that must wait for the rounds in flight to
 * settle (an INSERT of an id one of them writes: its failure would let the INSERT in), which stay
 * queued with every later statement of one of their ids, so each id's statements keep their order.
 */
function admitted(table: Table, p: Pipeline): Waiter[] {
  const claimed = new Set<bigint>();
  const waiting = new Set<bigint>();
  const kept: Waiter[] = [];
  const round = p.queue.splice(0, p.queue.length).filter((w) => {
    if (!refreshed(table, w)) return false;
    const { ids, replace } = w.put;
    if (ids.some((id) => waiting.has(id) || (!replace && p.claimed.has(id)))) {
      for (const id of ids) waiting.add(id);
      kept.push(w);
      return false;
    }
    if (!replace) {
      // a single-row INSERT (most statements) has no ids of its own to repeat: no Set built for it
      const seen = ids.length > 1 ? new Set<bigint>() : null;
      for (const id of ids) {
        if (seen?.has(id) || claimed.has(id) || table.index.has(id)) {
          w.reject(new SearchError('DUPLICATE_ID', `duplicate id '${id}'`));
          return false;
        }
        seen?.add(id);
      }
    }
    for (const i of w.keep) claimed.add(ids[i]);
    return true;
  });
  p.queue.unshift(...kept);
  p.blocked = kept.length > 0;
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
 * the segment and replaces it when both stand. Only a round with a REPLACE can write a live id: an
 * INSERT's ids were checked absent (admitted) under the table's mutex, which the pipeline holds.
 */
function settleRound(table: Table, round: Waiter[], batch: PreparedBatch, outcomes: PromiseSettledResult<unknown>[], replace: boolean): void {
  let failed = 0;
  for (const o of outcomes) if (o.status === 'rejected') failed++;
  if (failed === round.length) {
    table.index.discardBatch(batch);
  } else {
    if (failed) table.index.withholdRows(batch, withheldRows(round, outcomes));
    table.index.applyBatch(batch, replace ? liveWritten(table, round, outcomes) : []);
  }
  for (let k = 0; k < round.length; k++) {
    const w = round[k]!;
    const o = outcomes[k]!;
    if (o.status === 'fulfilled') w.resolve(w.put.ids.length);
    else w.reject(o.reason);
  }
}

/** The segment rows (by their place in it: each statement's kept rows in turn) of the statements whose write failed. */
function withheldRows(round: Waiter[], outcomes: PromiseSettledResult<unknown>[]): number[] {
  const rows: number[] = [];
  let at = 0;
  round.forEach((w, k) => {
    if (outcomes[k]!.status === 'rejected') for (let r = 0; r < w.keep.length; r++) rows.push(at + r);
    at += w.keep.length;
  });
  return rows;
}

/** The ids the stored statements wrote that are live in the index now (a REPLACE's older rows: deleted as the segment shows). */
function liveWritten(table: Table, round: Waiter[], outcomes: PromiseSettledResult<unknown>[]): bigint[] {
  const written = new Set(round.flatMap((w, k) => (outcomes[k]!.status === 'fulfilled' ? w.keep.map((i) => w.put.ids[i]!) : [])));
  return [...written].filter((id) => table.index.has(id));
}
