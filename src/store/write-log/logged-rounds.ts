/**
 * Group-commit rounds that are durable in the write log (write-log.ts) and not yet in lmdb: the
 * documents they wrote, which reads see before lmdb's (Store.getDoc, hasDoc, docs), and their lmdb
 * writes, applied later in one lmdb commit for many rounds (two flushes for all of them instead of
 * two a round). Once such a commit is durable, its rounds' documents are dropped here (unless a later
 * round wrote them again) and, with nothing else logged, the log starts over at offset 0.
 *
 * An apply starts APPLY_DELAY_MS after the first round it takes was logged, or at once when the rounds
 * hold APPLY_BYTES; one apply runs at a time. drain() applies everything now and waits: every store
 * operation that reads or writes lmdb in a way the rounds must precede (write(), catalog changes,
 * backup, close) drains first, so lmdb sees the writes in the order they were acknowledged.
 */
import { lastSeqOf } from '../catalog.js';
import { docIdOf } from '../keys.js';
import { commitQueued, type StoreDbs } from '../lmdb-env.js';
import { copyFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { logWarning } from '../../util/server-log.js';
import { fsyncDirSync } from '../durable-fs.js';
import { LogDb, WriteLog, type LogRound } from './write-log.js';

/**
 * How long logged rounds wait for an lmdb commit: more rounds share one commit (two flushes and ~10
 * page writes) the longer it is, and the documents they wrote stay in memory meanwhile.
 */
export const APPLY_DELAY_MS = 50;
/** Bytes of logged rounds that start an apply at once (a bound on the memory they hold). */
export const APPLY_BYTES = 8 << 20;
/**
 * Log bytes at which new rounds wait until every logged round is in lmdb and the log starts over at
 * offset 0: rounds back to back leave no moment with nothing logged to reset at, so the file grew by
 * every round's bytes (2,000 rounds of 2 kB, awaited one after another, never reset: a 4 MB file).
 */
export const LOG_RESET_BYTES = 64 << 20;
/** Delay before an apply that failed (a full disk) is tried again. */
const RETRY_MS = 1000;

/** A round logged: its record, and the documents it left (docId -> sealed record, null: deleted). */
export interface LoggedRound { round: LogRound; docs: Map<bigint, Buffer | null>; bytes: number }

export class LoggedRounds {
  /** Per generation, each document's state after the logged rounds not yet durable in lmdb. */
  readonly #docs = new Map<number, Map<bigint, Buffer | null>>();
  /** Logged rounds not yet sent to lmdb, in log order. */
  #waiting: LoggedRound[] = [];
  #waitingBytes = 0;
  #applying: Promise<void> | undefined;
  /** The rounds of the apply in flight. */
  #applyingRounds: LoggedRound[] = [];
  #timer: NodeJS.Timeout | undefined;
  #lastError: unknown;
  /** Rounds in append(): waiting for a reset or their record being written. */
  #appending = 0;
  /** The log writes of append() in flight. */
  readonly #writes = new Set<Promise<void>>();
  /** While the log is at resetBytes: settles once it started over (or its rounds failed to reach lmdb). */
  #resetWait: Promise<void> | undefined;

  constructor(
    readonly ctx: { readonly dbs: StoreDbs; readonly log: WriteLog | undefined },
    readonly resetBytes = LOG_RESET_BYTES,
  ) {}

  /**
   * Opens the data directory's write log (`path`) and applies the rounds a crash left in it that lmdb
   * lacks (replayRounds), then empties it; read-only, keeps those rounds in memory for reads instead.
   * `liveGens`: the generations of the catalog's tables.
   */
  static open(path: string, dbs: () => StoreDbs, liveGens: Set<number>, readOnly: boolean, resetBytes?: number): LoggedRounds {
    const { log, rounds, damage } = WriteLog.open(path, readOnly);
    const logged = new LoggedRounds({ get dbs() { return dbs(); }, log }, resetBytes);
    replayRounds(dbs(), logged, liveGens, rounds, readOnly);
    if (damage) {
      // the rounds before the damage are applied and served; those after it cannot be trusted (their
      // record chain is broken) and are not: said, and the file kept for inspection before it is emptied
      const kept = readOnly ? path : `${path}.damaged-${Date.now()}`;
      if (!readOnly) copyFileSync(path, kept);
      logWarning(`write log ${path} is damaged at byte ${damage.at}: ${damage.lost} whole record(s) after it were not applied, so writes acknowledged before the last stop may be missing; the log is kept as ${kept}`);
    }
    if (log) {
      log.truncate();
      fsyncDirSync(dirname(path)); // the log file's entry, if it was just made
    }
    return logged;
  }

  /** The write log (undefined for a read-only store). */
  get log(): WriteLog | undefined {
    return this.ctx.log;
  }

  /** At close: every round applied to lmdb, the log emptied and closed. */
  async close(): Promise<void> {
    const log = this.ctx.log;
    if (!log) return;
    await Promise.allSettled(this.#writes); // rounds being logged land first, then go to lmdb with the rest
    await this.drain();
    log.truncate();
    log.close();
  }

  /**
   * Writes `r`'s record to the log and, once it is durable there, adds the round. A round that finds the
   * log at resetBytes first waits for it to start over (#startOver); rounds waiting together go on in
   * call order, so a table's rounds reach the log in their order.
   */
  async append(r: LoggedRound): Promise<void> {
    const log = this.ctx.log;
    if (!log) throw new Error('store: read-only');
    this.#appending++;
    try {
      while (log.offset >= this.resetBytes) await (this.#resetWait ??= this.#startOver(log));
      const write = log.append(r.round);
      this.#writes.add(write);
      try {
        await write;
      } finally {
        this.#writes.delete(write);
      }
      this.add(r); // before any reaction to the caller's promise: reads see the round once it resolves
    } finally {
      this.#appending--;
    }
  }

  /** Whether a round is logged and not yet in lmdb, or being logged (a round must then go behind it). */
  busy(): boolean {
    return this.#appending > 0 || !this.empty();
  }

  /**
   * With new rounds held in append(): the records being written land, every logged round is applied,
   * and the log, with nothing live in it, goes back to offset 0. Rejects (failing the held rounds,
   * nothing of them stored) when the apply fails.
   */
  async #startOver(log: WriteLog): Promise<void> {
    try {
      await Promise.allSettled(this.#writes);
      await this.drain();
      if (this.empty() && log.idle()) log.reset();
    } finally {
      this.#resetWait = undefined;
    }
  }

  /** Adds a round whose record is durable in the log; its documents are read from here until applied. */
  add(r: LoggedRound): void {
    let docs = this.#docs.get(r.round.gen);
    if (!docs) this.#docs.set(r.round.gen, docs = new Map());
    for (const [id, bytes] of r.docs) docs.set(id, bytes);
    this.#waiting.push(r);
    this.#waitingBytes += r.bytes;
    if (!this.ctx.log) return; // a read-only store: kept in memory, never applied
    this.#schedule(this.#waitingBytes >= APPLY_BYTES ? 0 : APPLY_DELAY_MS);
  }

  /** A logged document's sealed record (null: deleted), or undefined when lmdb has its latest state. */
  doc(gen: number, docId: bigint): Buffer | null | undefined {
    return this.#docs.get(gen)?.get(docId);
  }

  /** The logged documents of `gen` not yet durable in lmdb (docId -> sealed record, null: deleted). */
  docsOf(gen: number): ReadonlyMap<bigint, Buffer | null> | undefined {
    const m = this.#docs.get(gen);
    return m && m.size ? m : undefined;
  }

  /**
   * The op records (op key -> sealed record) of `gen`'s rounds not yet durable in lmdb, in sequence
   * order; some may be in lmdb already (an apply just committed): the caller reads these for those keys.
   */
  opRecordsOf(gen: number): [Buffer, Buffer][] {
    const out: [Buffer, Buffer][] = [];
    for (const r of [...this.#applyingRounds, ...this.#waiting]) {
      if (r.round.gen !== gen) continue;
      for (const p of r.round.puts) if (p.db === LogDb.OPS && p.value) out.push([p.key, p.value]);
    }
    return out;
  }

  /** Whether every logged round is durable in lmdb. */
  empty(): boolean {
    return this.#docs.size === 0 && this.#waiting.length === 0 && !this.#applying;
  }

  /**
   * Applies every logged round to lmdb and waits for it (rejects when that commit fails); undefined,
   * at once, when there is none (a caller then goes on in the same turn).
   */
  drain(): Promise<void> | undefined {
    // read-only: nothing can be applied (reads see the rounds here)
    if (!this.ctx.log || (!this.#applying && !this.#waiting.length)) return undefined;
    return (async () => {
      while (this.#applying || this.#waiting.length) {
        if (!this.#applying) this.#start();
        await this.#applying;
        if (this.#lastError && this.#waiting.length) throw this.#lastError;
      }
    })();
  }

  /** Runs `fn` once every logged round is durable in lmdb: at once (same turn) when none is waiting. */
  afterApplied<T>(fn: () => T | Promise<T>): Promise<T> | T {
    const d = this.drain();
    return d ? d.then(fn) : fn();
  }

  #schedule(ms: number): void {
    if (this.#applying) return; // the apply's end schedules the next
    if (this.#timer && ms > 0) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => { this.#timer = undefined; this.#start(); }, ms);
    this.#timer.unref();
  }

  /** Sends the waiting rounds to lmdb in one commit. */
  #start(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#applying || !this.#waiting.length) return;
    const rounds = this.#waiting;
    this.#applyingRounds = rounds;
    this.#waiting = [];
    this.#waitingBytes = 0;
    const { dbs } = this.ctx;
    let bytes = 0;
    for (const r of rounds) bytes += r.bytes;
    this.#applying = commitQueued(dbs, () => {
      for (const r of rounds) applyRound(dbs, r.round);
    }, bytes).then(() => {
      this.#lastError = undefined;
      for (const r of rounds) this.#forget(r);
      const log = this.ctx.log;
      if (log && !this.#waiting.length && log.idle()) log.reset();
    }, (err: unknown) => {
      // kept (logged, so durable) and tried again later; drain() reports the failure
      this.#lastError = err;
      this.#waiting = [...rounds, ...this.#waiting];
      for (const r of rounds) this.#waitingBytes += r.bytes;
    }).finally(() => {
      this.#applying = undefined;
      this.#applyingRounds = [];
      if (this.#waiting.length) this.#schedule(this.#lastError ? RETRY_MS : this.#waitingBytes >= APPLY_BYTES ? 0 : APPLY_DELAY_MS);
    });
  }

  /** Drops a durable round's documents, where no later round wrote them again. */
  #forget(r: LoggedRound): void {
    const docs = this.#docs.get(r.round.gen);
    if (!docs) return;
    for (const [id, bytes] of r.docs) if (docs.get(id) === bytes) docs.delete(id);
    if (!docs.size) this.#docs.delete(r.round.gen);
  }
}

/**
 * At open: the rounds read from the log (in log order) that lmdb lacks, applied in one durable lmdb
 * transaction, or, for a read-only store, kept in `logged` for reads. A round is lacking when its
 * table generation is live and its last sequence number is past lmdb's record for it (a round is
 * written to lmdb in one transaction with that record, and write() and catalog changes apply every
 * logged round before they commit, so lmdb's record never passes a round it lacks).
 */
function replayRounds(dbs: StoreDbs, logged: LoggedRounds, liveGens: Set<number>, rounds: LogRound[], readOnly: boolean): number {
  const last = new Map<number, bigint>();
  const lacking: LogRound[] = [];
  for (const round of rounds) {
    if (!liveGens.has(round.gen)) continue;
    const inLmdb = last.get(round.gen) ?? lastSeqOf(dbs, round.gen) ?? -1n;
    if (round.lastSeq <= inLmdb) continue;
    lacking.push(round);
    last.set(round.gen, round.lastSeq);
  }
  if (!lacking.length) return 0;
  if (readOnly) {
    for (const round of lacking) logged.add({ round, docs: docsOf(round), bytes: 0 });
  } else {
    dbs.env.transactionSync(() => {
      for (const round of lacking) applyRound(dbs, round, true);
    });
  }
  return lacking.length;
}

/** The documents a logged round leaves (docId -> sealed record, null: deleted). */
function docsOf(round: LogRound): Map<bigint, Buffer | null> {
  const docs = new Map<bigint, Buffer | null>();
  for (const p of round.puts) if (p.db === LogDb.DOCS) docs.set(docIdOf(p.key), p.value);
  return docs;
}

/** Queues a logged round's writes into lmdb (inside commitQueued, or a write transaction when `sync`). */
export function applyRound(dbs: StoreDbs, round: LogRound, sync = false): void {
  for (const p of round.puts) {
    const db = p.db === LogDb.DOCS ? dbs.docs : p.db === LogDb.OPS ? dbs.ops : dbs.seq;
    if (sync) {
      if (p.value) db.putSync(p.key, p.value);
      else db.removeSync(p.key);
    } else {
      void (p.value ? db.put(p.key, p.value) : db.remove(p.key));
    }
  }
}
