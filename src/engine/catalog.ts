/**
 * The catalog of tables: opens each table from the store of record at startup (rebuilding its index),
 * creates, drops and truncates them. Table names are case-insensitive and kept lower-cased.
 */
import type { TableSchema } from '../schema/types.js';
import type { Store } from '../store/index.js';
import { createTextPipeline } from '../text/text-pipeline.js';
import { asSearchError, SearchError } from '../util/errors.js';
import { type AutoOptimize, createIndex, DEFAULT_AUTO_OPTIMIZE, IDLE_MERGE_CUTOFF, idleCutoffOf } from './index-factory.js';
import { indexSchemaOf, Table } from './table.js';
import { recoverIndex } from './durability/recovery.js';
import { checkTableName } from './table-name-rule.js';
import type { StoredDoc, TableStore } from './durability/table-store.js';
import { logWarning } from '../util/server-log.js';
import { copySettingFiles, materialize, removeTableFiles, tableFilesDir } from './table-files.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function tableStore(store: Store, name: string): TableStore {
  return {
    write: (ops) => store.write(name, ops),
    writeTogether: (calls) => store.writeTogether(name, calls),
    carrying: () => store.carrying(),
    getDocs: (ids) => store.getDocs(name, ids) as (StoredDoc | undefined)[],
  };
}

/** Longest table name: its folder, `NAME.GENERATION` plus temporary suffixes, must fit NAME_MAX (255). */
export const MAX_TABLE_NAME_BYTES = 200;

/** How long the index a rotation replaced stays readable for queries that started on it. */
export const RETIRED_INDEX_GRACE_MS = 30_000;

export class Catalog {
  readonly #tables = new Map<string, Table>();
  /** Sequence each table's index covered when it was loaded (what its checkpoint already holds). */
  readonly covered = new Map<string, bigint>();
  /** Tables whose stored documents failed their checks at startup: refused, with the reason, until dropped. */
  readonly #damaged = new Map<string, SearchError>();

  /** Names taken outside the catalog (distributed tables): CREATE TABLE refuses them too. */
  reserved: (name: string) => boolean = () => false;

  /** searchd's optimize_cutoff for tables without their own (SET GLOBAL optimize_cutoff). */
  #defaultCutoff = IDLE_MERGE_CUTOFF;

  /** `autoOptimize`: searchd auto_optimize for this catalog's tables (index-factory.ts), not the process's. */
  constructor(readonly store: Store, private autoOptimizeNow: AutoOptimize = DEFAULT_AUTO_OPTIMIZE) {}

  get autoOptimize(): AutoOptimize { return this.autoOptimizeNow; }
  get defaultCutoff(): number { return this.#defaultCutoff; }

  /**
   * SET GLOBAL auto_optimize / optimize_cutoff: searchd changes them for every table at once (not kept
   * across a restart, as searchd keeps no SET GLOBAL); each table's idle compaction target follows.
   */
  setOptimize(change: { autoOptimize?: AutoOptimize; cutoff?: number }): void {
    if (change.autoOptimize !== undefined) this.autoOptimizeNow = change.autoOptimize;
    if (change.cutoff !== undefined) this.#defaultCutoff = change.cutoff;
    for (const t of this.#tables.values()) t.index.setIdleMergeCutoff(idleCutoffOf(t.schema.settings, this.autoOptimizeNow, this.#defaultCutoff));
  }

  /** Opens every table the store knows, rebuilding each index from its documents. */
  static open(store: Store, autoOptimize: AutoOptimize = DEFAULT_AUTO_OPTIMIZE): Catalog {
    const catalog = new Catalog(store, autoOptimize);
    for (const schema of store.tables()) catalog.#load(schema);
    return catalog;
  }

  /** Scratch folder for a read-only store's file copies (export opens the data directory read-only). */
  #scratch: string | undefined;

  /** Where the table's copied stopwords/wordforms/exceptions files are written out (table-files.ts). */
  filesDir(name: string): string {
    if (!this.store.readOnly) return tableFilesDir(this.store.dataDir, name);
    if (this.#scratch === undefined) {
      const scratch = mkdtempSync(join(tmpdir(), 'quarry-files-'));
      process.once('exit', () => rmSync(scratch, { recursive: true, force: true }));
      this.#scratch = scratch;
    }
    return join(this.#scratch, name);
  }

  #make(stored: TableSchema): Table {
    // the copies are written out and the settings name them where they are now: every pipeline
    // (the build workers' too) reads files by path
    const schema = materialize(stored, this.filesDir(stored.name));
    const pipeline = createTextPipeline(schema.settings);
    const index = createIndex(indexSchemaOf(schema), schema.settings, this.autoOptimize, this.#defaultCutoff);
    return new Table(schema, pipeline, index, tableStore(this.store, schema.name));
  }

  #load(schema: TableSchema): void {
    let table: Table;
    try {
      table = this.#make(schema);
    } catch (e) {
      // its settings cannot be applied now, most often a stopwords/wordforms/exceptions file deleted since
      // CREATE TABLE by a table created before copies were taken (or a config-file table), which reads
      // its files where they are: refuse this table by name, not the whole data directory
      const why = asSearchError(e).message;
      const way = /file/.test(why) ? 'put the file back and restart, or DROP TABLE it' : 'DROP TABLE it';
      const refused = new SearchError('BAD_SETTING', `table '${schema.name}' is not served: ${why} (${way})`);
      logWarning(refused.message);
      this.#damaged.set(schema.name, refused);
      return;
    }
    try {
      this.covered.set(schema.name, recoverIndex(this.store, table, this.autoOptimize));
    } catch (e) {
      // its documents cannot be read back intact: serving it would serve wrong or missing rows
      const why = asSearchError(e).message;
      const refused = new SearchError('STORAGE_ERROR', `table '${schema.name}' is not served: ${why} (DROP TABLE it, or restore its data directory from a backup)`);
      logWarning(refused.message);
      this.#damaged.set(schema.name, refused);
      table.index.truncate();
      return;
    }
    this.#tables.set(schema.name, table);
  }

  /** Whether a table of that name exists, served or refused as damaged. */
  has(name: string): boolean {
    const key = name.toLowerCase();
    return this.#tables.has(key) || this.#damaged.has(key);
  }

  /** Every open table. */
  all(): Table[] {
    return [...this.#tables.values()];
  }

  /** The table, undefined if none; throws the reason for a table refused as damaged at startup. */
  get(name: string): Table | undefined {
    const key = name.toLowerCase();
    const refused = this.#damaged.get(key);
    if (refused) throw refused;
    return this.#tables.get(key);
  }

  names(): string[] {
    return [...this.#tables.keys()].sort();
  }

  /**
   * Creates a table; validates its text settings first so a bad setting creates nothing. `copyFiles`:
   * the stopwords/wordforms/exceptions files are copied into the table, as searchd's CREATE TABLE does;
   * a table declared in the config file reads them where the config says, as searchd's do.
   */
  async create(schema: TableSchema, { copyFiles = true } = {}): Promise<Table> {
    const name = schema.name.toLowerCase();
    checkTableName(name);
    // a table is a folder (and a store key): the file system limits its name
    if (Buffer.byteLength(name) > MAX_TABLE_NAME_BYTES) {
      throw new SearchError('BAD_VALUE', `table '${name.slice(0, 32)}...': CREATE TABLE failed: table name is longer than ${MAX_TABLE_NAME_BYTES} bytes`);
    }
    if (this.has(name) || this.reserved(name)) {
      throw new SearchError('TABLE_EXISTS', `table '${name}': CREATE TABLE failed: table '${name}' already exists`);
    }
    const s: TableSchema = copyFiles ? { ...schema, name } : { ...schema, name, files: undefined };
    // the settings read from the files where they are first (copies a LIKE or a replica brings written
    // out): a bad setting is refused before anything is copied
    const placed = materialize(s, this.filesDir(name));
    createTextPipeline(placed.settings);
    // searchd's CREATE TABLE copies the files into the table (CopyExternalFiles), numbered afresh
    const copied = copyFiles ? copySettingFiles({ ...placed, files: undefined }, Object.keys(s.settings)) : s;
    // one table made (its index holds core memory: a first one made to validate was never freed)
    const table = this.#make(copied);
    await this.store.createTable(copied);
    this.#tables.set(name, table);
    return table;
  }

  async drop(name: string): Promise<void> {
    const key = name.toLowerCase();
    if (this.#damaged.has(key)) {
      await this.store.dropTable(key);
      this.#damaged.delete(key);
      removeTableFiles(this.filesDir(key));
      return;
    }
    const table = this.get(name);
    if (!table) throw new SearchError('UNKNOWN_TABLE', `DROP TABLE failed: unknown table '${name.toLowerCase()}'`);
    await table.mutex.run(async () => {
      await this.store.dropTable(table.name);
      this.#tables.delete(table.name);
      table.index.truncate(); // frees its segments in the core
      removeTableFiles(this.filesDir(table.name));
    });
  }

  /**
   * ALTER TABLE from RENAME to (Manticore does it through Buddy: CREATE LIKE, ATTACH, DROP; here one
   * catalog transaction): the same documents, schema and index served under the new name, durably.
   */
  async rename(from: string, to: string): Promise<void> {
    const f = from.toLowerCase();
    const t = to.toLowerCase();
    const source = this.get(f);
    if (!source) {
      throw new SearchError(this.reserved(f) ? 'BAD_VALUE' : 'UNKNOWN_TABLE', this.reserved(f) ? `Table ${f} should be RT` : `Source table ${f} not exists`);
    }
    if (this.has(t) || this.reserved(t)) throw new SearchError('TABLE_EXISTS', `Destination table ${t} already exists`);
    checkTableName(t);
    if (Buffer.byteLength(t) > MAX_TABLE_NAME_BYTES) {
      throw new SearchError('BAD_VALUE', `table '${t.slice(0, 32)}...': ALTER TABLE RENAME failed: table name is longer than ${MAX_TABLE_NAME_BYTES} bytes`);
    }
    await source.mutex.run(async () => {
      if (this.has(t)) throw new SearchError('TABLE_EXISTS', `Destination table ${t} already exists`);
      await this.store.renameTable(f, t);
      // the copies follow the table's name (its settings name them there; the pipeline has read them)
      const placed = materialize({ ...source.schema, name: t }, this.filesDir(t));
      removeTableFiles(this.filesDir(f));
      const moved = new Table(placed, source.pipeline, source.index, tableStore(this.store, t));
      this.#tables.set(t, moved);
      this.#tables.delete(f);
      const covered = this.covered.get(f);
      if (covered !== undefined) this.covered.set(t, covered);
      this.covered.delete(f);
    });
  }

  /**
   * ATTACH TABLE source TO TABLE target WITH TRUNCATE: target's documents, schema and index become
   * source's in one step (a query sees the old table or the new one, never a mix) and source is gone.
   * How `quarry indexer --rotate` swaps a freshly built table in.
   */
  /**
   * ATTACH ... WITH TRUNCATE: `source` becomes `target` (documents and schema) in one step, under both
   * tables' mutexes. Resolves with the target's last write sequence (`tid`) as it was when replaced:
   * read in the same critical section as the swap, so no write lands between the two.
   */
  async replaceWith(targetName: string, sourceName: string): Promise<bigint> {
    const target = this.get(targetName);
    const source = this.get(sourceName);
    if (!source) throw new SearchError('UNKNOWN_TABLE', `ATTACH: unknown source table '${sourceName.toLowerCase()}'`);
    if (!target) throw new SearchError('UNKNOWN_TABLE', `ATTACH: unknown target table '${targetName.toLowerCase()}'`);
    if (source === target) throw new SearchError('BAD_VALUE', 'ATTACH: source and target are the same table');
    return source.mutex.run(() => target.mutex.run(async () => {
      const replacedTid = this.store.lastSeq(target.name);
      await this.store.replaceTable(target.name, source.name);
      removeTableFiles(this.filesDir(target.name));
      const placed = materialize({ ...source.schema, name: target.name }, this.filesDir(target.name));
      removeTableFiles(this.filesDir(source.name));
      const moved = new Table(placed, source.pipeline, source.index, tableStore(this.store, target.name));
      this.#tables.set(target.name, moved);
      this.#tables.delete(source.name);
      // a query that began on the old table may still read its index after an await: free it later
      const old = target.index;
      setTimeout(() => old.truncate(), RETIRED_INDEX_GRACE_MS).unref();
      return replacedTid;
    }));
  }

  /** Empties a table in one atomic step; with a new schema (RECONFIGURE) its settings change too. */
  async truncate(name: string, newSchema?: TableSchema): Promise<void> {
    const table = this.get(name);
    if (!table) throw new SearchError('UNKNOWN_TABLE', 'TRUNCATE RTINDEX requires an existing RT table');
    await table.mutex.run(async () => {
      const schema = newSchema ? { ...newSchema, name: table.name } : table.schema;
      const fresh = this.#make(schema);
      await this.store.truncate(table.name, newSchema ? schema : undefined);
      table.index.truncate();
      table.schema = fresh.schema;
      table.pipeline = fresh.pipeline;
      table.index = fresh.index;
    });
  }
}
