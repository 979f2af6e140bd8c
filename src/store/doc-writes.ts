/**
 * The store's write half for documents: Store.write (one call, its own transaction, with commit
 * riders) and Store.writeTogether (the group commit of concurrent INSERTs: a round is durable once
 * its record is in the write log, one flush, written by libuv's pool while the event loop goes on;
 * lmdb gets logged rounds later, many to a commit: logged-rounds.ts). Sequence numbers of a write() are assigned inside
 * its transaction; those of a writeTogether round when its writes are queued, which is why the writes
 * and catalog changes of one table run in a chain (serial): a round is queued only once everything
 * before it on the table has committed, so the sequence it reads is the last one, and no TRUNCATE or
 * DROP can end the generation between that read and its commit.
 */
import { lastSeqOf, type CatalogEntry } from './catalog.js';
import type { CommitRiders } from './commit-riders.js';
import { checkWriteSpace, commitQueued, type StoreDbs } from './lmdb-env.js';
import { applyRound, type LoggedRounds } from './write-log/logged-rounds.js';
import type { WriteOp } from './types.js';
import { mapPacked } from '../util/packed-map.js';
import { applyBatch, batchBytes, blindStates, prepareBatch, roundPuts, type PreparedBatch } from './write-batch.js';

/** What the writes need of the Store: its databases, riders and catalog lookups. */
export interface WriteContext {
  dbs: StoreDbs;
  riders: CommitRiders;
  /** Rounds logged and not yet durable in lmdb, and the write log (logged.log). */
  logged: LoggedRounds;
  /** The cached catalog entry (throws `missing` when the table is unknown). */
  entry(name: string, missing?: string): CatalogEntry;
  /** The cached entry, or undefined. */
  cached(name: string): CatalogEntry | undefined;
  /** Inside a write transaction: the committed-so-far entry. */
  entryInTxn(name: string, missing: string): CatalogEntry;
  checkOpen(): void;
}

/** A round queued and not yet committed: its generation, last sequence, and the chain's end it made. */
interface OpenRound { gen: number; last: bigint; settled: () => Promise<unknown> | undefined }

/** A call of writeTogether that passed its checks (else the error it failed with). */
interface Planned { batch: PreparedBatch; states: Map<bigint, Buffer | null>; seq: bigint }

function isPlanned(p: unknown): p is Planned {
  return typeof p === 'object' && p !== null && 'batch' in p;
}

/**
 * A round within this long of the one before goes through the write log (one flush to acknowledge,
 * lmdb's two shared with the other rounds of its apply); a round after a quiet spell commits to lmdb
 * directly, as lmdb would flush twice for it alone anyway (the log would make that three).
 */
export const LOG_AFTER_MS = 50;
/**
 * A round of more bytes commits to lmdb directly: one flush acknowledges it either way, and through the
 * log its bytes are written twice. 50k dict-gcide documents as 1000-row /bulk bodies (about 320 kB a
 * round), all through the log, load average 30: 6,588 / 5,270 -> 5,249 / 4,403 docs/s, other threads'
 * CPU 24 -> 29 ms per 1000 (load-ab, alternated). Single-row rounds of 16 clients hold about 5 kB.
 */
export const LOG_MAX_BYTES = 64 << 10;

export class DocWrites {
  /** When the last round was queued (performance.now()). */
  #lastRoundAt = -Infinity;
  /** Per table: the settling of its last write, round or catalog change (never rejects). */
  readonly #tails = new Map<string, Promise<unknown>>();
  /**
   * Per table: the last round queued and not yet committed, with the chain's end it made (`settled`).
   * A round called while the chain still ends there is queued at once, not after that commit: lmdb
   * commits the two in order, the second while the protocol thread answers the first (pipelining).
   */
  readonly #open = new Map<string, OpenRound>();
  /**
   * Per generation: the last sequence a writeTogether round committed, so the next round takes it
   * from memory instead of reading the sequence record (an lmdb read, which after each commit renews
   * lmdb-js's read transaction) once per round, and because lmdb's record is behind the rounds logged
   * and not yet applied. Set only once a round is durable in the log, kept when one failed; cleared for
   * its table by every write() and catalog change (which drain the logged rounds and write the record
   * themselves), so an entry is never behind what is committed. Generation numbers are never reused.
   */
  readonly #committed = new Map<number, bigint>();

  /**
   * Moves when a write or round settles, before the caller's continuation runs: a read after a write
   * resolved sees a version read before it did not (doc-cache.ts), without an lmdb read per check.
   */
  version = 0;

  constructor(readonly ctx: WriteContext) {}

  /** See Store.write: commits once the table's writes before it did. */
  async write(name: string, ops: WriteOp[]): Promise<bigint> {
    const { ctx } = this;
    const absent = `table '${name}' absent`;
    ctx.entry(name, absent);
    if (ops.length === 0) return this.#after(name, () => this.lastSeq(ctx.entry(name)));
    const prepared = prepareBatch(ops);
    ctx.checkOpen();
    // logged rounds reach lmdb first: this write reads and numbers after them
    return this.#after(name, () => ctx.logged.afterApplied(() => this.#uncached(name, () => ctx.riders.commit(ctx.dbs, () => {
      const cached = ctx.cached(name);
      let gen = cached?.gen ?? 0;
      let last = cached ? lastSeqOf(ctx.dbs, gen) : undefined;
      if (last === undefined) {
        // the cached generation ended (TRUNCATE/DROP committed just before): use the live one
        gen = ctx.entryInTxn(name, absent).gen;
        last = lastSeqOf(ctx.dbs, gen)!;
      }
      return applyBatch(ctx.dbs, gen, last, prepared);
    }, batchBytes(prepared)).finally(() => { this.version++; }))));
  }

  /** See Store.writeTogether. */
  writeTogether(name: string, calls: WriteOp[][]): Promise<bigint>[] {
    const { ctx } = this;
    const absent = `table '${name}' absent`;
    ctx.entry(name, absent);
    ctx.checkOpen();
    // packed in every tier (util/packed-map.ts): its map is the same whether this code is optimized or not
    const planned = mapPacked(calls, (ops) => {
      try {
        const batch = prepareBatch(ops);
        return { batch, states: blindStates(batch), seq: 0n };
      } catch (err) {
        return err;
      }
    });
    /** Queues the round's records after sequence `last`; `settled` is the chain's end the round makes. */
    const queueRound = (gen: number, last: bigint, settled: () => Promise<unknown> | undefined): Promise<void> | undefined => {
      const queue: Planned[] = [];
      for (const p of planned) {
        if (!isPlanned(p)) continue;
        if (p.batch.ops.length) queue.push(p);
        p.seq = last += BigInt(p.batch.ops.length);
      }
      if (!queue.length) return undefined;
      const logged = roundPuts(gen, last, queue);
      const now = performance.now();
      // rounds logged and not yet in lmdb, or being logged (LoggedRounds.busy): this
      // one goes behind them (lmdb must get rounds in order, or a later round's documents and sequence
      // record would be overwritten by an earlier one's apply)
      const viaLog = ctx.logged.busy() || (now - this.#lastRoundAt < LOG_AFTER_MS && logged.bytes <= LOG_MAX_BYTES);
      this.#lastRoundAt = now;
      const commit = viaLog
        ? (async () => {
          checkWriteSpace(ctx.dbs, logged.bytes);
          await ctx.logged.append(logged);
        })()
        : commitQueued(ctx.dbs, () => applyRound(ctx.dbs, logged.round), logged.bytes);
      // the first reaction to the commit, so before any caller's
      void commit.then(() => { this.version++; }, () => { this.version++; });
      const open: OpenRound = { gen, last, settled };
      this.#open.set(name, open);
      const end = last;
      // a failed round leaves the entry as it was: lmdb may be behind the rounds logged before it
      // (only forward: a round straight to lmdb may settle after a logged one queued behind it)
      void commit.then(() => { if ((this.#committed.get(gen) ?? -1n) < end) this.#committed.set(gen, end); }, () => undefined)
        .then(() => { if (this.#open.get(name) === open) this.#open.delete(name); });
      return commit;
    };
    const open = this.#open.get(name);
    let round: Promise<unknown>;
    if (open && this.#tails.get(name) === open.settled()) {
      // the chain ends with a round still committing: this one is queued now, behind it in lmdb's
      // order, with the sequence numbers after its own (a failed round leaves a gap, harmless: ops are
      // read by range, never counted)
      const prev = open.settled()!;
      let mine: Promise<unknown> | undefined;
      const commit = queueRound(open.gen, open.last, () => mine) ?? Promise.resolve();
      round = this.#track(name, Promise.allSettled([prev, commit]).then(() => commit));
      mine = this.#tails.get(name);
    } else {
      let mine: Promise<unknown> | undefined;
      round = this.#after(name, () => {
        // a round called before close() still commits: close waits for it (idle)
        const e = ctx.entry(name, absent);
        return queueRound(e.gen, this.lastSeq(e), () => mine);
      });
      mine = this.#tails.get(name);
    }
    return mapPacked(planned, (p) => (isPlanned(p) ? round.then(() => p.seq) : Promise.reject(p)));
  }

  /** Runs `fn` (a catalog change of the table) once the table's writes before it settled; later ones wait for it. */
  serial<T>(name: string, fn: () => Promise<T>): Promise<T> {
    return this.#after(name, () => this.ctx.logged.afterApplied(() => this.#uncached(name, fn)));
  }

  /** Resolves once every write and round started so far has settled. */
  async idle(): Promise<void> {
    while (this.#tails.size) await Promise.all(this.#tails.values());
  }

  /** The entry's last assigned sequence number (its base one before any write). */
  lastSeq(e: CatalogEntry): bigint {
    return this.#committed.get(e.gen) ?? lastSeqOf(this.ctx.dbs, e.gen) ?? e.baseSeq;
  }

  /**
   * Runs `fn`, a commit of table `name` that writes sequence records itself, with the table's entries
   * in #committed (its generation before and after) cleared before and after. Other tables' entries
   * stay: their logged rounds may not be in lmdb yet, whose sequence record is then behind.
   */
  async #uncached<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const before = this.ctx.cached(name)?.gen;
    if (before !== undefined) this.#committed.delete(before);
    try {
      return await fn();
    } finally {
      if (before !== undefined) this.#committed.delete(before);
      const after = this.ctx.cached(name)?.gen;
      if (after !== undefined) this.#committed.delete(after);
    }
  }

  /** Runs `fn` after the table's chain settles and makes it the chain's new end. */
  #after<T>(name: string, fn: () => T | Promise<T>): Promise<T> {
    const tail = this.#tails.get(name);
    return this.#track(name, tail ? tail.then(fn) : (async () => fn())());
  }

  /** Makes `p` the end of the table's chain (the chain itself never rejects), dropped once settled. */
  #track<T>(name: string, p: Promise<T>): Promise<T> {
    const settled = p.then(() => undefined, () => undefined);
    this.#tails.set(name, settled);
    void settled.then(() => {
      if (this.#tails.get(name) === settled) this.#tails.delete(name);
    });
    return p;
  }
}
