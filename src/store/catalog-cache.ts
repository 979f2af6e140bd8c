/** The in-memory catalog: every table's committed entry by lower-cased name, read at open, refreshed after each catalog change. */
import { SearchError } from '../util/errors.js';
import { decodeEntry, readCatalog, type CatalogEntry } from './catalog.js';
import type { StoreDbs } from './lmdb-env.js';

export class CatalogCache {
  readonly #entries: Map<string, CatalogEntry>;

  /** `dbs` is called at each use: releaseMappedPages replaces the databases. */
  constructor(private readonly dbs: () => StoreDbs) {
    this.#entries = readCatalog(dbs());
  }

  get(name: string): CatalogEntry | undefined {
    return this.#entries.get(name);
  }

  delete(name: string): void {
    this.#entries.delete(name);
  }

  values(): IterableIterator<CatalogEntry> {
    return this.#entries.values();
  }

  [Symbol.iterator](): IterableIterator<[string, CatalogEntry]> {
    return this.#entries[Symbol.iterator]();
  }

  entry(name: string, missing = `unknown local table '${name}'`): CatalogEntry {
    const e = this.#entries.get(name);
    if (!e) throw new SearchError('UNKNOWN_TABLE', missing);
    return e;
  }

  /** Inside a write transaction: the committed-so-far catalog entry of `name`. */
  entryInTxn(name: string, missing: string): CatalogEntry {
    const raw = this.dbs().catalog.get(name);
    if (!raw) throw new SearchError('UNKNOWN_TABLE', missing);
    return decodeEntry(raw);
  }

  /** After a catalog change (committed or not): re-reads `name`'s entry; the cached one before and the one now. */
  refresh(name: string): { old?: CatalogEntry; now?: CatalogEntry } {
    const raw = this.dbs().catalog.get(name);
    const old = this.#entries.get(name);
    if (raw) this.#entries.set(name, decodeEntry(raw));
    else this.#entries.delete(name);
    return { old, now: this.#entries.get(name) };
  }
}
