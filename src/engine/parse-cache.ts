/**
 * Bounded memo of pure parses by their text: a repeated statement or MATCH query skips the SQL parser,
 * the query-string parser and normalization (together about a third of a cheap query's CPU on the
 * protocol thread). Cached parses are deep-frozen, so code that would change a shared parse throws
 * instead of corrupting the next query that reads it.
 */
import { deepFreeze } from '../util/deep-freeze.js';

/**
 * About `capacity` entries of keys up to `maxKeyLength` characters, the least recently used dropped
 * first, in two generations (a hit in the older one moves it to the newer; when the newer holds half
 * the capacity it becomes the older and the older is dropped): no Map delete per hit, whose holes made
 * V8 rehash the table.
 */
export class ParseCache<V> {
  #young = new Map<string, V>();
  #old = new Map<string, V>();

  constructor(readonly capacity: number, readonly maxKeyLength: number) {}

  get size(): number { return this.#young.size + this.#old.size; }

  get(key: string): V | undefined {
    // a key set() never keeps is not looked up: hashing it (a CALL SNIPPETS statement carries its
    // documents, up to 16k characters are hashed) would cost as much as its parse's lexing
    if (key.length > this.maxKeyLength) return undefined;
    const v = this.#young.get(key);
    if (v !== undefined) return v;
    const o = this.#old.get(key);
    if (o !== undefined) this.#keep(key, o);
    return o;
  }

  /**
   * Stores `value` (returned) unless the key is too long to be worth keeping. The caller deep-freezes
   * the parse it holds (deepFreeze), not the live objects an entry may point at to validate a hit.
   */
  set(key: string, value: V): V {
    if (key.length <= this.maxKeyLength) this.#keep(key, value);
    return value;
  }

  #keep(key: string, value: V): void {
    if (this.#young.size >= Math.max(1, this.capacity >> 1)) {
      this.#old = this.#young;
      this.#young = new Map();
    }
    this.#young.set(key, value);
  }

  clear(): void {
    this.#young.clear();
    this.#old.clear();
  }
}

/** What a table-dependent parse was computed from: a hit from before an ALTER that replaced any is stale. */
interface TableEntry<V> { value: V; pipeline: unknown; fields: unknown; schema: unknown }

/** The parts of a table a full-text parse reads (src/engine/table.ts's Table has them). */
export interface ParsedAgainst { pipeline: unknown; schema: unknown; index: { schema: { fields: unknown } } }

/**
 * Parses that depend on a table's text settings (MATCH texts, /search query trees), per table: an
 * entry is used only while the table keeps the pipeline, fields and schema it was computed with.
 */
export class TableParseCache<V> {
  readonly #caches = new WeakMap<ParsedAgainst, ParseCache<TableEntry<V>>>();

  constructor(readonly capacity: number, readonly maxKeyLength: number) {}

  /** The cached value for `key`, else compute()'s (deep-frozen and kept; a throw is not kept). */
  get(table: ParsedAgainst, key: string, compute: () => V): V {
    let cache = this.#caches.get(table);
    if (!cache) this.#caches.set(table, (cache = new ParseCache(this.capacity, this.maxKeyLength)));
    const hit = cache.get(key);
    const { pipeline, schema } = table;
    const fields = table.index.schema.fields;
    if (hit && hit.pipeline === pipeline && hit.fields === fields && hit.schema === schema) return hit.value;
    const value = deepFreeze(compute());
    cache.set(key, { value, pipeline, fields, schema });
    return value;
  }
}
