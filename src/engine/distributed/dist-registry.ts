/**
 * The distributed tables a node serves: those created with CREATE TABLE ... type='distributed' (kept in
 * the store's meta, so they survive a restart) and those of the config file's `type = distributed`
 * sections (re-read at each start, as Manticore's plain mode). Their names share one namespace with
 * the RT tables of the catalog.
 */
import { SearchError } from '../../util/errors.js';
import { closeTablePool } from './agent-pools.js';
import { distributedDef, type DistributedDef } from './dist-def.js';

const META_KEY = 'distributed_tables';

/** What the registry needs of the store: its small key-value meta. */
export interface MetaStore {
  getMeta(key: string): unknown;
  setMeta(key: string, value: unknown): Promise<void>;
}

export type DistOptions = Record<string, string[]>;

export class DistributedTables {
  readonly #defs = new Map<string, DistributedDef>();
  readonly #saved = new Map<string, DistOptions>();
  readonly #fromConfig = new Set<string>();

  constructor(private readonly meta: MetaStore) {}

  /**
   * The stored definitions, then the config's. Locals are not re-checked here: a local dropped since
   * makes queries fail with its name rather than the table vanish.
   */
  static open(meta: MetaStore, config: Map<string, DistOptions>, isLocal: (n: string) => boolean): DistributedTables {
    const reg = new DistributedTables(meta);
    const raw = meta.getMeta(META_KEY);
    const saved = (typeof raw === 'string' ? JSON.parse(raw) : {}) as Record<string, DistOptions>;
    for (const [name, opts] of Object.entries(saved)) {
      reg.#saved.set(name, opts);
      reg.#defs.set(name, distributedDef(name, opts, () => true));
    }
    for (const [name, opts] of config) {
      const key = name.toLowerCase();
      try {
        reg.#defs.set(key, distributedDef(key, opts, isLocal));
        reg.#fromConfig.add(key);
      } catch (e) {
        // Manticore skips a bad section with a warning and serves the rest
        console.warn(`quarry: table '${key}': ${(e as Error).message}, SKIPPED`);
      }
    }
    return reg;
  }

  get(name: string): DistributedDef | undefined {
    return this.#defs.get(name.toLowerCase());
  }

  has(name: string): boolean {
    return this.#defs.has(name.toLowerCase());
  }

  names(): string[] {
    return [...this.#defs.keys()].sort();
  }

  async create(name: string, opts: DistOptions, isLocal: (n: string) => boolean): Promise<void> {
    const key = name.toLowerCase();
    const def = distributedDef(key, opts, isLocal);
    this.#defs.set(key, def);
    this.#saved.set(key, opts);
    closeTablePool(key); // a replaced definition may name other agents
    await this.#persist();
  }

  /** ALTER TABLE d local=... agent=...: the new options replace the whole definition (Buddy's ALTER of a distributed table). */
  async replace(name: string, opts: DistOptions, isLocal: (n: string) => boolean): Promise<void> {
    const key = name.toLowerCase();
    if (this.#fromConfig.has(key)) throw new SearchError('QUERY_ERROR', `table '${key}' is defined in the config file: change it there`);
    await this.create(key, opts, isLocal);
  }

  async drop(name: string): Promise<void> {
    const key = name.toLowerCase();
    if (this.#fromConfig.has(key)) throw new SearchError('QUERY_ERROR', `table '${key}' is defined in the config file: remove it there`);
    this.#defs.delete(key);
    this.#saved.delete(key);
    closeTablePool(key);
    await this.#persist();
  }

  async #persist(): Promise<void> {
    await this.meta.setMeta(META_KEY, JSON.stringify(Object.fromEntries(this.#saved)));
  }
}
