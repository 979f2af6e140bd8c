/**
 * The store's catalog changes: CREATE, ALTER, DROP, TRUNCATE and ATTACH ... WITH TRUNCATE, each one
 * catalog transaction (Store's txn: in the table's chain of writes, the cached entry refreshed from
 * the commit). The ones that end a generation run under the table's lock, never while a backup copies
 * files, and start garbage collection of the old generation afterwards.
 */
import { existsSync, renameSync } from 'node:fs';
import type { TableSchema } from '../schema/types.js';
import { SearchError } from '../util/errors.js';
import { allocGen, beginGeneration, encodeEntry, endGeneration, freezeSchema, tableKey, type CatalogEntry } from './catalog.js';
import { fsyncDirSync } from './durable-fs.js';
import type { StoreDbs } from './lmdb-env.js';
import { encodeValue } from './values/value-codec.js';

/** What the catalog changes need of the Store. */
export interface CatalogHost {
  /** The databases (read at each use: releaseMappedPages replaces them). */
  readonly dbs: StoreDbs;
  readonly tablesDir: string;
  /** Runs a catalog change of `name` in one transaction, then refreshes the cached entry. */
  txn(name: string, fn: () => void): Promise<void>;
  /** Runs `fn` under the tables' locks (taken in order), once no backup is copying files. */
  exclusive<T>(names: string[], fn: () => Promise<T>): Promise<T>;
  /** The cached catalog entry (throws when the table is unknown). */
  entry(name: string): CatalogEntry;
  /** Inside a write transaction: the committed-so-far entry. */
  entryInTxn(name: string, missing: string): CatalogEntry;
  /** Drops the cached entry of a table the catalog no longer holds. */
  forget(name: string): void;
  lastSeqOf(e: CatalogEntry): bigint;
  genDir(name: string, gen: number): string;
  collectGarbage(): void;
}

export async function createTable(h: CatalogHost, schema: TableSchema): Promise<void> {
  const name = tableKey(schema.name);
  const frozen = freezeSchema(schema, name);
  await h.txn(name, () => {
    if (h.dbs.catalog.doesExist(name)) {
      throw new SearchError('TABLE_EXISTS', `table '${name}': CREATE TABLE failed: table '${name}' already exists`);
    }
    beginGeneration(h.dbs, name, { schema: frozen, gen: allocGen(h.dbs), baseSeq: 0n });
  });
}

/** Replaces the schema; documents are left as they are (the engine rewrites them if it must). */
export async function alterTable(h: CatalogHost, schema: TableSchema): Promise<void> {
  const name = tableKey(schema.name);
  const frozen = freezeSchema(schema, name);
  await h.txn(name, () => {
    const e = h.entryInTxn(name, `unknown local table '${name}'`);
    h.dbs.catalog.putSync(name, encodeValue({ ...e, schema: frozen }));
  });
}

/** Removes the table: catalog entry, docs, ops and segment files. */
export async function dropTable(h: CatalogHost, name: string): Promise<void> {
  const key = tableKey(name);
  await h.exclusive([key], () => h.txn(key, () => {
    const e = h.entryInTxn(key, `DROP TABLE failed: unknown table '${key}'`);
    endGeneration(h.dbs, key, e.gen);
    h.dbs.catalog.removeSync(key);
  }));
  h.collectGarbage();
}

/** See Store.truncate. */
export async function truncateTable(h: CatalogHost, name: string, newSchema?: TableSchema): Promise<void> {
  const key = tableKey(name);
  const frozen = newSchema && freezeSchema(newSchema, key);
  await h.exclusive([key], () => h.txn(key, () => {
    const e = h.entryInTxn(key, `unknown local table '${key}'`);
    const baseSeq = h.lastSeqOf(e);
    endGeneration(h.dbs, key, e.gen);
    const schema = frozen ?? e.schema;
    beginGeneration(h.dbs, key, { schema, gen: allocGen(h.dbs), baseSeq });
  }));
  h.collectGarbage();
}

/**
 * ALTER TABLE t RENAME new: the catalog entry moves to the new name in one transaction (same
 * generation, so documents, ops and sequence stay where they are); the segment folder is renamed
 * after the commit. A crash between the two leaves the folder under the old name: Store.open finds it
 * by its generation and moves it (adoptGenDirs), so the checkpoint is kept either way.
 */
export async function renameTable(h: CatalogHost, from: string, to: string): Promise<void> {
  const f = tableKey(from);
  const t = tableKey(to);
  await h.exclusive([f, t], async () => {
    const gen = h.entry(f).gen;
    await h.txn(t, () => {
      if (h.dbs.catalog.doesExist(t)) throw new SearchError('TABLE_EXISTS', `Destination table ${t} already exists`);
      const src = h.entryInTxn(f, `Source table ${f} not exists`);
      h.dbs.catalog.putSync(t, encodeEntry({ ...src, schema: { ...src.schema, name: t } }));
      h.dbs.catalog.removeSync(f);
    });
    h.forget(f);
    const old = h.genDir(f, gen);
    if (existsSync(old)) {
      renameSync(old, h.genDir(t, gen));
      fsyncDirSync(h.tablesDir);
    }
  });
}

/** See Store.replaceTable. */
export async function replaceTable(h: CatalogHost, target: string, source: string): Promise<void> {
  const t = tableKey(target);
  const s = tableKey(source);
  await h.exclusive([s, t], async () => {
    const se = h.entry(s);
    h.entry(t);
    const from = h.genDir(s, se.gen);
    if (existsSync(from)) {
      renameSync(from, h.genDir(t, se.gen));
      fsyncDirSync(h.tablesDir);
    }
    await h.txn(t, () => {
      const src = h.entryInTxn(s, `unknown local table '${s}'`);
      const old = h.entryInTxn(t, `unknown local table '${t}'`);
      endGeneration(h.dbs, t, old.gen);
      h.dbs.catalog.putSync(t, encodeEntry({ ...src, schema: { ...src.schema, name: t } }));
      h.dbs.catalog.removeSync(s);
    });
    h.forget(s);
  });
  h.collectGarbage();
}
