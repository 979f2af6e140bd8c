/**
 * The store's write half for documents: Store.write (one call, its own transaction, with commit
 * riders) and Store.writeTogether (the group commit of concurrent INSERTs). Sequence numbers are
 * assigned inside the transaction from the generation's sequence record.
 */
import { lastSeqOf, type CatalogEntry } from './catalog.js';
import type { CommitRiders } from './commit-riders.js';
import { commitNow, type StoreDbs } from './lmdb-env.js';
import type { WriteOp } from './types.js';
import { applyBatch, blindStates, prepareBatch, writeRecords, type PreparedBatch } from './write-batch.js';

/** What the writes need of the Store: its databases, riders and catalog lookups. */
export interface WriteContext {
  dbs: StoreDbs;
  riders: CommitRiders;
  /** The cached catalog entry (throws `missing` when the table is unknown). */
  entry(name: string, missing?: string): CatalogEntry;
  /** The cached entry, or undefined. */
  cached(name: string): CatalogEntry | undefined;
  /** Inside a write transaction: the committed-so-far entry. */
  entryInTxn(name: string, missing: string): CatalogEntry;
  checkOpen(): void;
}

/** A call of writeTogether that passed its checks (else the error it failed with). */
function isPlanned(p: unknown): p is { batch: PreparedBatch; states: Map<bigint, Buffer | null>; seq: bigint } {
  return typeof p === 'object' && p !== null && 'batch' in p;
}

export class DocWrites {
  constructor(readonly ctx: WriteContext) {}

  /** See Store.write. */
  async write(name: string, ops: WriteOp[]): Promise<bigint> {
    const { ctx } = this;
    const absent = `table '${name}' absent`;
    ctx.entry(name, absent);
    if (ops.length === 0) return this.lastSeq(ctx.entry(name));
    const prepared = prepareBatch(ops);
    ctx.checkOpen();
    return ctx.riders.commit(ctx.dbs, () => {
      const cached = ctx.cached(name);
      let gen = cached?.gen ?? 0;
      let last = cached ? lastSeqOf(ctx.dbs, gen) : undefined;
      if (last === undefined) {
        // the cached generation ended (TRUNCATE/DROP committed just before): use the live one
        gen = ctx.entryInTxn(name, absent).gen;
        last = lastSeqOf(ctx.dbs, gen)!;
      }
      return applyBatch(ctx.dbs, gen, last, prepared);
    });
  }

  /** See Store.writeTogether. */
  writeTogether(name: string, calls: WriteOp[][]): Promise<bigint>[] {
    const { ctx } = this;
    const e = ctx.entry(name, `table '${name}' absent`);
    ctx.checkOpen();
    const planned = calls.map((ops) => {
      try {
        const batch = prepareBatch(ops);
        return { batch, states: blindStates(batch), seq: 0n };
      } catch (err) {
        return err;
      }
    });
    try {
      commitNow(ctx.dbs, () => {
        let last = this.lastSeq(e);
        for (const p of planned) {
          if (!isPlanned(p)) continue;
          if (p.batch.ops.length) last = writeRecords(ctx.dbs, e.gen, last, p.batch, p.states);
          p.seq = last;
        }
      });
    } catch (err) {
      return planned.map((p) => Promise.reject(isPlanned(p) ? err : p));
    }
    return planned.map((p) => (isPlanned(p) ? Promise.resolve(p.seq) : Promise.reject(p)));
  }

  /** The entry's last assigned sequence number (its base one before any write). */
  lastSeq(e: CatalogEntry): bigint {
    return lastSeqOf(this.ctx.dbs, e.gen) ?? e.baseSeq;
  }
}
