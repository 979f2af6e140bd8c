/**
 * The store of record: table catalog, documents, op log and meta in one lmdb environment
 * (`<dataDir>/store`), checkpointed segment files under `<dataDir>/tables/<name>.<gen>/`.
 *
 * Guarantees:
 * - A write, catalog change or setMeta resolves only after its lmdb transaction committed and was
 *   fsynced (see lmdb-env.ts); a group-commit round (writeTogether) once its record is in the write
 *   log (`<dataDir>/write-log`, flushed), lmdb getting it later with other rounds (logged-rounds.ts)
 *   and, after a crash, at the next open. A write call is all-or-nothing, and concurrent calls may
 *   share one commit. Each op gets the table's next sequence number; sequences never go back, TRUNCATE included.
 * - TRUNCATE and DROP switch the table to a fresh generation (or none) in one small transaction:
 *   docs, ops, sequence record, checkpoint and schema swap together; the old generation's rows and
 *   files are garbage-collected afterwards in the background (and again after a crash, at open).
 * - Checkpoints are incremental: saveCheckpoint writes only new segment files (fsynced), swaps the
 *   manifest atomically (temp file, fsync, rename, fsync dir), then deletes files no longer listed.
 *   Recovery = loadCheckpoint + opsSince(lastSeq). pruneOps never removes ops a checkpoint lacks.
 * Reads are synchronous and see every write whose promise has resolved.
 */
import { join } from 'node:path';
import type { TableSchema } from '../schema/types.js';
import { SearchError } from '../util/errors.js';
import { genDirName, tableKey, type CatalogEntry } from './catalog.js';
import { CatalogCache } from './catalog-cache.js';
import { alterTable, createTable, dropTable, renameTable, replaceTable, truncateTable, type CatalogHost } from './catalog-changes.js';
import { copyStore } from './backup.js';
import { LOG_RESET_BYTES, LoggedRounds } from './write-log/logged-rounds.js';
import { WRITE_LOG_FILE } from './write-log/write-log.js';
import { removeUnlisted } from './checkpoint.js';
import { claimDataDir } from './data-dir.js';
import { CommitRiders } from './commit-riders.js';
import { DocCache } from './doc-cache.js';
import { hasDoc, liveDocs, logTail, readDoc } from './doc-reads.js';
import { DocWrites } from './doc-writes.js';
import { adoptGenDirs, GarbageCollector, sweepTablesDir } from './gc.js';
import { openDbs, reopenDbs, type StoreDbs } from './lmdb-env.js';
import { checkStoreFile, markCleanClose } from './lmdb-check.js';
import { MaintenanceQueue } from './maintenance-queue.js';
import { getMeta, setMeta, updateMeta } from './meta.js';
import { TableCheckpoints } from './table-checkpoints.js';
import type { Checkpoint, LoggedOp, SegmentEntry, StoredDoc, StoreOptions, WriteOp } from './types.js';

/** Ops (or rows) deleted per transaction by pruneOps and garbage collection. */
export const DEFAULT_DELETE_CHUNK = 10_000;

export class Store {
  readonly dataDir: string;
  /** Replaced by releaseMappedPages: read it at each use, never keep it across an await. */
  #dbs: StoreDbs;
  readonly #tablesDir: string;
  readonly #opts: Required<StoreOptions>;
  readonly #catalog: CatalogCache;
  /** Serializes checkpoint, prune, truncate and drop per table; holds them while a backup copies files. */
  readonly #queue = new MaintenanceQueue();
  readonly #gc: GarbageCollector;
  #closed = false;
  readonly #riders = new CommitRiders();
  readonly #writes: DocWrites;
  /** Group-commit rounds in the write log and not yet in lmdb. */
  readonly #logged: LoggedRounds;
  readonly #host: CatalogHost;
  readonly #checkpoints: TableCheckpoints;

  readonly #unlock: () => void;
  /** Per table (lower-cased name): the documents result pages read recently (doc-cache.ts). */
  readonly #docCaches = new Map<string, DocCache>();

  private constructor(dataDir: string, opts: StoreOptions) {
    this.dataDir = dataDir;
    this.#tablesDir = join(dataDir, 'tables');
    this.#opts = { deleteChunk: DEFAULT_DELETE_CHUNK, manifestSwapDelayMs: 0, logResetBytes: LOG_RESET_BYTES, readOnly: false, ...opts };
    const readOnly = this.#opts.readOnly;
    this.#unlock = claimDataDir(dataDir, readOnly);
    const store = this;
    try {
      checkStoreFile(join(dataDir, 'store'), readOnly); // lmdb keeps no page checksums: lmdb-check.ts
      this.#dbs = openDbs(join(dataDir, 'store'), readOnly);
      this.#catalog = new CatalogCache(() => store.#dbs);
      // rounds a crash left in the log and not in lmdb: applied now (or, read-only, read from memory)
      const live = new Set([...this.#catalog.values()].map((e) => e.gen));
      this.#logged = LoggedRounds.open(join(dataDir, WRITE_LOG_FILE), () => store.#dbs, live, readOnly, this.#opts.logResetBytes);
    } catch (e) {
      this.#unlock();
      throw e;
    }
    this.#gc = new GarbageCollector(() => store.#dbs, this.#tablesDir, this.#opts.deleteChunk);
    this.#writes = new DocWrites({
      // read at each use: releaseMappedPages replaces the databases
      get dbs() { return store.#dbs; },
      riders: this.#riders,
      logged: this.#logged,
      entry: (name, missing) => this.#catalog.entry(name, missing),
      cached: (name) => this.#catalog.get(name),
      entryInTxn: (name, missing) => this.#catalog.entryInTxn(name, missing),
      checkOpen: () => this.#checkOpen(),
    });
    this.#host = {
      get dbs() { return store.#dbs; },
      tablesDir: this.#tablesDir,
      txn: (name, fn) => this.#txn(name, fn),
      exclusive: (names, fn) => this.#queue.runAll(names, fn),
      entry: (name) => this.#catalog.entry(name),
      entryInTxn: (name, missing) => this.#catalog.entryInTxn(name, missing),
      forget: (name) => { this.#catalog.delete(name); this.#docCaches.delete(name); },
      lastSeqOf: (e) => this.#lastSeqOf(e),
      genDir: (name, gen) => this.#genDir(name, gen),
      collectGarbage: () => this.#gc.start(),
    };
    this.#checkpoints = new TableCheckpoints({
      get dbs() { return store.#dbs; },
      queue: this.#queue,
      readOnly,
      deleteChunk: this.#opts.deleteChunk,
      manifestSwapDelayMs: this.#opts.manifestSwapDelayMs,
      checkOpen: () => this.#checkOpen(),
      entry: (name) => this.#catalog.entry(name),
      lastSeqOf: (e) => this.#lastSeqOf(e),
      genDir: (name, gen) => this.#genDir(name, gen),
    });
  }

  /** Opened read-only (export, backup): nothing may be written under the data directory. */
  get readOnly(): boolean {
    return this.#opts.readOnly;
  }

  /** Opens (creating if needed) the store in `dataDir` and cleans up after any earlier crash (not when read-only). */
  static open(dataDir: string, opts: StoreOptions = {}): Store {
    const store = new Store(dataDir, opts);
    if (store.#opts.readOnly) return store;
    adoptGenDirs(store.#tablesDir, new Map([...store.#catalog].map(([name, e]) => [e.gen, genDirName(name, e.gen)])));
    const live = new Set<string>();
    for (const [name, e] of store.#catalog) {
      const dir = genDirName(name, e.gen);
      live.add(dir);
      const m = removeUnlisted(join(store.#tablesDir, dir));
      if (m) store.#checkpoints.remember(e.gen, m);
    }
    sweepTablesDir(store.#tablesDir, live);
    store.#gc.start();
    return store;
  }

  // ---- catalog ----

  tables(): TableSchema[] {
    return [...this.#catalog.values()].map((e) => e.schema);
  }

  getTable(name: string): TableSchema | undefined {
    return this.#catalog.get(tableKey(name))?.schema;
  }

  createTable(schema: TableSchema): Promise<void> {
    return createTable(this.#host, schema);
  }

  /** Replaces the schema; documents are left as they are (the engine rewrites them if it must). */
  alterTable(schema: TableSchema): Promise<void> {
    return alterTable(this.#host, schema);
  }

  /** Removes the table: catalog entry, docs, ops and segment files. */
  dropTable(name: string): Promise<void> {
    return dropTable(this.#host, name);
  }

  /**
   * Empties the table in one atomic step: docs, ops and checkpoint go, the schema becomes
   * `newSchema` if given (TRUNCATE ... WITH RECONFIGURE). The sequence continues where it was.
   */
  truncate(name: string, newSchema?: TableSchema): Promise<void> {
    return truncateTable(this.#host, name, newSchema);
  }

  /** ALTER TABLE RENAME: `from`'s entry, documents and checkpoint become `to`'s (catalog-changes.ts). */
  renameTable(from: string, to: string): Promise<void> {
    return renameTable(this.#host, from, to);
  }

  /**
   * ATTACH ... WITH TRUNCATE: `target` becomes what `source` holds (documents, ops, checkpoint,
   * schema, under source's generation) and `source` disappears, in one catalog transaction; target's
   * old generation is collected afterwards. Source's segment folder is renamed to target's name first:
   * a crash before the commit leaves target as it was and source without its checkpoint, which the
   * indexer that built it drops and rebuilds.
   */
  replaceTable(target: string, source: string): Promise<void> {
    return replaceTable(this.#host, target, source);
  }

  // ---- writes ----

  /**
   * Applies `ops` in order as one atomic, durable transaction; resolves with the last sequence
   * number assigned (the current one when `ops` is empty). Values are encoded at call time.
   */
  write(table: string, ops: WriteOp[]): Promise<bigint> {
    return this.#writes.write(tableKey(table), ops);
  }

  /**
   * Several write calls of puts and deletes committed together as one record of the write log (libuv's
   * pool writes and flushes it while this thread goes on; lmdb gets it later with other rounds,
   * logged-rounds.ts), or after a quiet spell as one lmdb commit (doc-writes.ts LOG_AFTER_MS): the
   * group commit of concurrent INSERTs. Nothing in it reads the store. Returns a promise per call: the call's last
   * sequence number once the commit is durable, or its error. A call with a bad value or an op that
   * must read (insert, update) fails alone, before the commit; a failed commit fails every call in it,
   * with nothing stored. Each call gets its own op record and sequence numbers. Rounds, write() calls
   * and catalog changes of one table commit in the order they were called (doc-writes.ts).
   */
  writeTogether(table: string, calls: WriteOp[][]): Promise<bigint>[] {
    return this.#writes.writeTogether(tableKey(table), calls);
  }

  /** The table's last assigned sequence number. */
  lastSeq(table: string): bigint {
    const e = this.#catalog.entry(tableKey(table));
    return this.#lastSeqOf(e);
  }

  // ---- reads ----

  getDoc(table: string, docId: bigint): StoredDoc | undefined {
    return readDoc(this.#dbs, this.#logged, this.#catalog.entry(tableKey(table)).gen, table, docId);
  }

  /** A result page's documents, in order, through the table's cache (doc-cache.ts): frozen, shared, never modified. */
  getDocs(table: string, docIds: bigint[]): (StoredDoc | undefined)[] {
    const key = tableKey(table);
    const e = this.#catalog.entry(key);
    const cache = this.#docCaches.get(key) ?? new DocCache();
    this.#docCaches.set(key, cache);
    cache.stamp(e.gen, this.#writes.version);
    return docIds.map((id) => readDoc(this.#dbs, this.#logged, e.gen, table, id, cache));
  }

  hasDoc(table: string, docId: bigint): boolean {
    return hasDoc(this.#dbs, this.#logged, this.#catalog.entry(tableKey(table)).gen, docId);
  }

  /** Every live document in docId order (signed), for rebuilding an index. */
  docs(table: string): Iterable<[bigint, StoredDoc]> {
    return liveDocs(this.#dbs, this.#logged, this.#catalog.entry(tableKey(table)).gen, table);
  }

  /** Logged ops with seq > `seq`, in order: the tail to re-apply over a checkpoint (doc-reads.ts). */
  opsSince(table: string, seq: bigint): Iterable<LoggedOp> {
    return logTail(this.#dbs, this.#logged, this.#catalog.entry(tableKey(table)).gen, table, seq);
  }

  // ---- checkpoints ----

  /**
   * Records a checkpoint covering every op up to `lastSeq`: `segments` lists, in order, all the
   * segments of the new checkpoint, new ones with their bytes, kept ones by name only.
   */
  saveCheckpoint(table: string, segments: SegmentEntry[], lastSeq: bigint): Promise<void> {
    return this.#checkpoints.save(tableKey(table), segments, lastSeq);
  }

  /** Names of the segment files the table's current checkpoint lists, in order. */
  checkpointNames(table: string): string[] {
    return this.#checkpoints.manifest(this.#catalog.entry(tableKey(table))).segments.map((s) => s.name);
  }

  /** Bytes of the segment files the table's current checkpoint lists (its size on disk). */
  checkpointBytes(table: string): number {
    return this.#checkpoints.manifest(this.#catalog.entry(tableKey(table))).segments.reduce((n, s) => n + s.size, 0);
  }

  /** The sequence the table's current checkpoint covers (SHOW TABLE STATUS' tid_saved). */
  checkpointSeq(table: string): bigint {
    return this.#checkpoints.manifest(this.#catalog.entry(tableKey(table))).lastSeq;
  }

  /** The last saved checkpoint (empty, at the generation's base sequence, if none). */
  loadCheckpoint(table: string): Checkpoint {
    return this.#checkpoints.load(tableKey(table));
  }

  /**
   * Forgets the table's checkpoint (a damaged one, found while loading it at startup, before any
   * checkpoint can run): its manifest and segment files are deleted, so the next start rebuilds the
   * index from the documents, until the next checkpoint is saved.
   */
  discardCheckpoint(table: string): void {
    this.#checkpoints.discard(tableKey(table));
  }

  /**
   * Deletes op records (one per write call) whose ops all have seq <= min(uptoSeq, checkpoint's
   * lastSeq); a record straddling that point stays until a later prune. Returns records deleted.
   */
  pruneOps(table: string, uptoSeq: bigint): Promise<number> {
    return this.#checkpoints.prune(tableKey(table), uptoSeq);
  }

  // ---- backup ----

  /**
   * Copies the whole store into `destDir` (which must not exist yet) as a data directory a Store opens:
   * each table's checkpoint files, then an lmdb snapshot (one read transaction). Writes go on meanwhile;
   * checkpoints, op pruning, TRUNCATE, DROP and ATTACH wait, so the files and the snapshot describe one
   * moment, the state a crash then would have left: every write acknowledged before the call is in it.
   */
  async backup(destDir: string): Promise<void> {
    this.#checkOpen();
    await this.#queue.exclusive(async () => {
      await this.#logged.drain(); // the snapshot holds every round acknowledged before the call
      const entries = [...this.#catalog].map(([name, e]) => genDirName(name, e.gen));
      await copyStore(this.dataDir, this.#tablesDir, entries, this.#dbs.env, destDir);
    });
  }

  // ---- meta ----

  getMeta(key: string): unknown {
    return getMeta(this.#dbs, key);
  }

  /** Stores `value` durably (undefined removes the key). */
  async setMeta(key: string, value: unknown): Promise<void> {
    this.#checkOpen();
    return setMeta(this.#dbs, key, value);
  }

  /** Atomic read-modify-write of one meta key (e.g. a counter's high-water mark); returns the new value. */
  async updateMeta<T>(key: string, fn: (old: unknown) => T): Promise<T> {
    this.#checkOpen();
    return updateMeta(this.#dbs, key, fn);
  }

  /**
   * Runs `fn`; every document write and table change it commits (in its async context) also stores
   * meta `key` = `value` in the same lmdb transaction, so the value (the stream sequence of the
   * replicated op being applied) is durable exactly when the write is, never one without the other.
   * Resolves with fn's result and how many commits carried the value; `onCommit` runs after each.
   */
  alongside<T>(key: string, value: unknown, fn: () => Promise<T>, onCommit?: (commits: number) => void): Promise<{ result: T; commits: number }> {
    return this.#riders.run(key, value, fn, onCommit);
  }

  /** Whether this async context is inside alongside(): its writes must be commits of their own. */
  carrying(): boolean {
    return this.#riders.active();
  }

  /**
   * Unmaps the pages the process touched through lmdb's map by closing and reopening the environment in
   * one synchronous step (lmdb-env.ts reopenDbs), when no write, checkpoint, prune, backup or garbage
   * collection is in flight (else it does nothing). For an idle process (src/engine/index.ts); whether
   * it reopened. Reads before and after see the same data; none can run in between.
   */
  releaseMappedPages(): boolean {
    if (this.#closed || this.#opts.readOnly || this.#queue.busy() || this.#gc.running()) return false;
    const dbs = reopenDbs(this.#dbs, join(this.dataDir, 'store'));
    if (dbs) this.#dbs = dbs;
    return dbs !== undefined;
  }

  /** Waits for checkpoints and garbage collection in progress, then closes the environment. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#queue.idle();
    await this.#writes.idle();
    await this.#gc.idle();
    await this.#logged.close();
    await this.#dbs.env.close();
    if (!this.#opts.readOnly) markCleanClose(join(this.dataDir, 'store'));
    this.#unlock();
  }

  // ---- internals ----

  #checkOpen(): void {
    if (this.#closed) throw new SearchError('INTERNAL', 'store is closed');
  }

  /** Runs a catalog change in a transaction, then refreshes the cached entry from the commit. */
  async #txn(name: string, fn: () => void): Promise<void> {
    this.#checkOpen();
    // in the table's chain of writes, the cached entry refreshed before the next write reads it
    await this.#writes.serial(name, async () => {
      try {
        await this.#riders.commit(this.#dbs, fn);
      } finally {
        const { old, now } = this.#catalog.refresh(name);
        if (old && old.gen !== now?.gen) this.#checkpoints.forget(old.gen);
        if (old?.gen !== now?.gen) this.#docCaches.delete(name); // TRUNCATE, DROP: nothing it holds is read again
      }
    });
  }

  /** The entry's last assigned sequence number (its base one before any write). */
  #lastSeqOf(e: CatalogEntry): bigint {
    return this.#writes.lastSeq(e);
  }

  /** The segment folder of `name`'s generation `gen`. */
  #genDir(name: string, gen: number): string {
    return join(this.#tablesDir, genDirName(name, gen));
  }
}
