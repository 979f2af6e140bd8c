/** Opens the store's lmdb environment and its named databases with durable settings; runs write transactions. */
import { statfsSync } from 'node:fs';
import { open, type Database, type RootDatabase } from 'lmdb';
import { SearchError } from '../util/errors.js';

/**
 * Durability: every commit fsyncs data and meta pages before its promise resolves (lmdb's default;
 * noSync/noMetaSync stay off). `overlappingSync` is turned off: with it, lmdb-js makes a commit
 * visible before the flush and documents only `db.flushed` as the durability point; without it
 * the commit promise itself is the durability point (classic LMDB). Measured here the two write at
 * the same rate (about 1,600 fsynced commits/s sequentially, 150k+ puts/s when writers share commits).
 * `commitDelay` stays 0: writes queued in the same event turn already share one commit.
 *
 * Pages of 16 KiB for a new environment (an existing one keeps the size its file was made with): a
 * value over about half a page goes to overflow pages of its own, rounded up to whole pages, and each
 * page keeps some slack, so with 4 KiB pages 100k dict-gcide documents (32.3 MB of records) took
 * 42.2 MB (1,357 overflow pages, 8,870 leaves); with 16 KiB, 36.9 MB (25 overflow pages); with 32 KiB,
 * 35.9 MB. A commit writes whole pages, so a single-row one writes a 16 KiB leaf where it wrote 4;
 * reads map 64 KiB or more around a page anyway (see Store.releaseMappedPages).
 */
export const LMDB_OPTIONS = {
  overlappingSync: false,
  noSync: false,
  noMetaSync: false,
  commitDelay: 0,
  maxDbs: 16,
  pageSize: 16384,
} as const;

export interface StoreDbs {
  env: RootDatabase;
  /** The environment's directory, whose filesystem's free space is checked before each commit. */
  path: string;
  /** doc key -> encoded StoredDoc. */
  docs: Database<Buffer, Buffer>;
  /** op key (the last seq of a write call) -> that call's op record (op-codec.ts). */
  ops: Database<Buffer, Buffer>;
  /** gen key -> last seq assigned in that generation (u64 BE); present iff the generation is live. */
  seq: Database<Buffer, Buffer>;
  /** lower-cased table name -> encoded CatalogEntry. */
  catalog: Database<Buffer, string>;
  /** user key -> encoded value (getMeta/setMeta). */
  meta: Database<Buffer, string>;
  /** store-internal counters (the next generation number). */
  sys: Database<Buffer, string>;
  /** dead generation -> marker: ranges and files still to be collected. */
  dead: Database<Buffer, number>;
}

export function openDbs(path: string, readOnly = false): StoreDbs {
  const env = open({ path, ...LMDB_OPTIONS, readOnly });
  const binary = { encoding: 'binary', keyEncoding: 'binary' } as const;
  const named = { encoding: 'binary' } as const;
  return {
    env,
    path,
    docs: env.openDB<Buffer, Buffer>('docs', binary),
    ops: env.openDB<Buffer, Buffer>('ops', binary),
    seq: env.openDB<Buffer, Buffer>('seq', binary),
    catalog: env.openDB<Buffer, string>('catalog', named),
    meta: env.openDB<Buffer, string>('meta', named),
    sys: env.openDB<Buffer, string>('sys', named),
    dead: env.openDB<Buffer, number>('dead', { encoding: 'binary', keyEncoding: 'uint32' }),
  };
}

/**
 * The value at `key` as a short-lived view (lmdb-js reuses one buffer for these reads): decode it
 * before the next read. About twice as fast as `get`, which copies.
 */
export function readView(db: Database<Buffer, Buffer>, key: Buffer): Buffer | undefined {
  const b = db.getBinaryFast(key);
  // the reused buffer can be longer than the value; lastSize is the value's length
  return b && b.subarray(0, (db as unknown as { lastSize: number }).lastSize);
}

/**
 * Runs `fn` as one all-or-nothing write transaction and resolves once it is durable. lmdb-js runs
 * the callbacks queued in one event turn inside one shared commit; a plain `transaction` callback
 * that throws keeps the writes it made before throwing, in a commit other writers share (a
 * half-applied write). Each callback here is a child transaction: a throw aborts its writes only.
 * A commit that fails (disk full, I/O error) rejects with a STORAGE_ERROR that says why. `docBytes`
 * is set for a document write (the bytes it stores): see checkSpace.
 */
export async function commitTxn<T>(dbs: StoreDbs, fn: () => T, docBytes?: number): Promise<T> {
  checkSpace(dbs, docBytes === undefined ? SMALL_RESERVE_BYTES : WRITE_RESERVE_BYTES, docBytes ?? 0);
  inFlight.set(dbs.env, (inFlight.get(dbs.env) ?? 0) + 1);
  try {
    return await dbs.env.childTransaction(fn);
  } catch (e) {
    throw await commitFailure(e);
  } finally {
    inFlight.set(dbs.env, inFlight.get(dbs.env)! - 1);
  }
}

/** Asynchronous write transactions begun and not settled, per environment: a reopen waits for none. */
const inFlight = new WeakMap<RootDatabase, number>();

/**
 * The environment closed and opened again in one synchronous step, which unmaps every page the process
 * touched through its map (clean page cache that counts as the process's memory: a read through the map
 * maps 64-170 KiB around its page, so reads of stored text end with the document records mapped whole,
 * ~460 MiB at 1M documents). Nothing changes on disk. Undefined (nothing done) while an asynchronous
 * write transaction is in flight; the caller must also hold off its own multi-transaction work (garbage
 * collection, prunes, backups), which would go on with the closed handles.
 *
 * Synchronous because a read that lands while lmdb-js closes renews the closing environment's read
 * transaction, whose queued reset then throws from a timer ('Attempt to reset an invalid read txn') and
 * kills the process: the asynchronous reopen of session 6 did that. lmdb-js's close() ends at once
 * unless it waits for writes (it waits on its last write promise even when that has settled) or for
 * asynchronous reads (the store makes none): with every write settled, checked above, its wait is
 * skipped, and the close has ended before this returns (else this throws rather than go on).
 */
export function reopenDbs(dbs: StoreDbs, path: string): StoreDbs | undefined {
  if ((inFlight.get(dbs.env) ?? 0) > 0) return undefined;
  const env = dbs.env as unknown as { _endWrites?: () => unknown; status?: string };
  env._endWrites = () => undefined;
  void dbs.env.close();
  if (env.status !== 'closed') throw new Error('store: the lmdb environment did not close synchronously');
  return openDbs(path);
}

/**
 * Queues the writes `fn` makes (db.put and db.remove, which lmdb-js encodes into its write queue on
 * this thread; no reads, no throws) as one batch, which lmdb's write thread applies in one transaction
 * and commits and fsyncs; resolves once durable. The event loop goes on meanwhile (no callback runs
 * inside the transaction, so two thread hand-overs a commit: queue, then resolve), and writes queued
 * later commit after it. A failed commit (disk full, I/O error) rejects with a STORAGE_ERROR saying why,
 * with nothing of the batch stored.
 */
export async function commitQueued(dbs: StoreDbs, fn: () => void, docBytes: number): Promise<void> {
  checkSpace(dbs, WRITE_RESERVE_BYTES, docBytes);
  inFlight.set(dbs.env, (inFlight.get(dbs.env) ?? 0) + 1);
  try {
    await dbs.env.batch(fn);
  } catch (e) {
    throw await commitFailure(e);
  } finally {
    inFlight.set(dbs.env, inFlight.get(dbs.env)! - 1);
  }
}

/**
 * lmdb must never see a full disk: lmdb-js 3.5 corrupts its native heap when a commit fails with ENOSPC
 * (with 4 KiB pages, which data directories made before 16 KiB pages keep, the process aborts:
 * `malloc(): invalid next size`, which no JavaScript handler can catch; scripts/lmdb-enospc-repro.mjs).
 * So a commit is refused, before lmdb sees it, while the data directory's filesystem has less free
 * than a reserve plus twice the bytes it writes (pages are written whole, copy-on-write). Document
 * writes keep the larger reserve, so the small commits that follow a full disk (catalog changes, the
 * checkpoint's op pruning, garbage collection, which give space back) still fit.
 */
const WRITE_RESERVE_BYTES = 1 << 20;
const SMALL_RESERVE_BYTES = 256 << 10;

/**
 * A group-commit round's space check may answer from the last statfs this long after it (ms), while that
 * answer, less what the rounds since took, stays SPACE_SLACK_BYTES above what the round needs; nearer a
 * full disk every round asks again. A statfs is a syscall with a path walk on the protocol thread in the
 * chain of rounds (session 20, ins20c: 3.8 us quiet, 11 us a round under load in a profile of 16 sessions'
 * single-row INSERTs; about 700 rounds a second). Only the rounds' check (the write log's, whose write fails
 * cleanly on a full disk anyway) answers so: every lmdb commit still asks afresh (commitQueued), since lmdb
 * must never meet a full disk, and another process filling 64 MiB within 100 ms is what a check just before
 * the commit could not stop either.
 */
const SPACE_FRESH_MS = 100;
const SPACE_SLACK_BYTES = 64 << 20;
/** Per environment: free bytes at its last statfs less the rounds' needs since, and when that statfs ran. */
const knownFree = new WeakMap<StoreDbs, { free: number; at: number }>();

/** checkSpace for a document write of `bytes` that goes to the write log first (then to lmdb: twice the pages). */
export function checkWriteSpace(dbs: StoreDbs, bytes: number): void {
  const now = performance.now();
  const known = knownFree.get(dbs);
  if (known && now - known.at < SPACE_FRESH_MS && known.free - (WRITE_RESERVE_BYTES + 2 * bytes) >= SPACE_SLACK_BYTES) {
    known.free -= 2 * bytes;
    return;
  }
  const free = checkSpace(dbs, WRITE_RESERVE_BYTES, bytes);
  if (free === undefined) knownFree.delete(dbs);
  else knownFree.set(dbs, { free: free - 2 * bytes, at: now });
}

/** Throws when the data directory has less free than `reserve` plus twice `bytes`; the free bytes (undefined: unknown). */
function checkSpace(dbs: StoreDbs, reserve: number, bytes: number): number | undefined {
  let free: number;
  try {
    const fs = statfsSync(dbs.path);
    free = fs.bavail * fs.bsize;
  } catch {
    return undefined; // no answer about space (the directory gone): the commit reports what lmdb says
  }
  const need = reserve + 2 * bytes;
  if (free >= need) return free;
  throw new SearchError('STORAGE_ERROR',
    `write failed: no space left on device in the data directory (${free} bytes free, this write needs ${need}); nothing of this write was stored`);
}

/** lmdb-js's 'Commit failed' error carries the cause in a promise (rejected now or soon after). */
async function commitFailure(e: unknown): Promise<unknown> {
  const pending = (e as { commitError?: Promise<unknown> } | null)?.commitError;
  if (!(pending instanceof Promise)) return e; // thrown by the callback itself
  const cause = await Promise.race([
    pending.then(() => undefined, (c: unknown) => c),
    new Promise<undefined>((r) => setTimeout(r, 50, undefined)),
  ]);
  return new SearchError('STORAGE_ERROR', `write failed: ${storageReason(cause)}; nothing of this write was stored`, { cause });
}

/** lmdb reports a full disk as ENOSPC (28) or, when flushing the data file, as EIO (5). */
function storageReason(cause: unknown): string {
  const code = (cause as { code?: unknown } | undefined)?.code;
  if (code === 28 || code === 'ENOSPC' || code === 5 || code === 'EIO') return 'no space left on device (or I/O error) in the data directory';
  return cause instanceof Error ? cause.message.replace(/:.*$/, '') : 'the store could not commit';
}
