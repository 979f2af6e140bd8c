/** Catalog records: a table's schema and its live generation; generation numbers are handed out here. */
import type { TableSchema } from '../schema/types.js';
import { SearchError } from '../util/errors.js';
import { genKey, MAX_GEN, u64Bytes, u64Of } from './keys.js';
import type { StoreDbs } from './lmdb-env.js';
import { decodeValue, encodeValue } from './values/value-codec.js';

export interface CatalogEntry {
  /** The schema as created or altered; `name` lower-cased. */
  schema: TableSchema;
  /** Generation holding the table's docs, ops, sequence record and segment directory. */
  gen: number;
  /** The table's sequence when this generation began (0, or the seq at TRUNCATE). */
  baseSeq: bigint;
}

const NEXT_GEN = 'nextGen';

/** Table names are case-insensitive: the store keys and reports them lower-cased. */
export function tableKey(name: string): string {
  return name.toLowerCase();
}

/**
 * A deep copy of `schema` named `name`, made at call time: later changes by the caller cannot
 * reach the transaction, and a value the codec refuses fails before anything is written.
 */
export function freezeSchema(schema: TableSchema, name: string): TableSchema {
  return decodeValue(encodeValue({ ...schema, name })) as TableSchema;
}

export function encodeEntry(e: CatalogEntry): Buffer {
  return encodeValue(e);
}

export function decodeEntry(buf: Buffer): CatalogEntry {
  return decodeValue(buf) as CatalogEntry;
}

/** Every catalog entry, by lower-cased name (read at open). */
export function readCatalog(dbs: StoreDbs): Map<string, CatalogEntry> {
  const out = new Map<string, CatalogEntry>();
  for (const { value } of dbs.catalog.getRange()) {
    // the entry's own name, not the key: lmdb's key encoding reads a NUL followed by certain bytes as
    // an array separator, so a name stored by an older version (before names were checked) came back
    // as an array; the same string still finds the same key for later writes
    const entry = decodeEntry(value);
    out.set(tableKey(entry.schema.name), entry);
  }
  return out;
}

/** Inside a write transaction: a generation number never used before. */
export function allocGen(dbs: StoreDbs): number {
  const raw = dbs.sys.get(NEXT_GEN);
  const gen = raw ? raw.readUInt32BE(0) : 1;
  if (gen > MAX_GEN) throw new SearchError('INTERNAL', 'store: table generations exhausted');
  dbs.sys.putSync(NEXT_GEN, genKey(gen + 1));
  return gen;
}

/** Inside a write transaction: starts generation `gen` at sequence `seq` and records the entry. */
export function beginGeneration(dbs: StoreDbs, name: string, entry: CatalogEntry): void {
  dbs.seq.putSync(genKey(entry.gen), u64Bytes(entry.baseSeq));
  dbs.catalog.putSync(name, encodeEntry(entry));
}

/** Directory (under the tables dir) of a generation's segment files and manifest. */
export function genDirName(name: string, gen: number): string {
  // encodeURIComponent throws on a lone surrogate: such a name (refused at CREATE now, but perhaps
  // stored by an older version) must not stop the store from opening
  return `${encodeURIComponent(name.replace(/\p{Surrogate}/gu, '\ufffd'))}.${gen}`;
}

/** Inside a write transaction: marks `gen` dead; its rows and directory are collected later. */
export function endGeneration(dbs: StoreDbs, name: string, gen: number): void {
  dbs.seq.removeSync(genKey(gen));
  dbs.dead.putSync(gen, Buffer.from(genDirName(name, gen)));
}

/** The last sequence assigned in a live generation; undefined once it is dead. */
export function lastSeqOf(dbs: StoreDbs, gen: number): bigint | undefined {
  const raw = dbs.seq.get(genKey(gen));
  return raw ? u64Of(raw) : undefined;
}
