/**
 * Bounded memo of pure parses by their text: a repeated statement or MATCH query skips the SQL parser,
 * the query-string parser and normalization (together about a third of a cheap query's CPU on the
 * protocol thread). Cached parses are deep-frozen, so code that would change a shared parse throws
 * instead of corrupting the next query that reads it.
 */

/** Least recently used first out, `capacity` entries of keys up to `maxKeyLength` characters. */
export class ParseCache<V> {
  readonly #map = new Map<string, V>();

  constructor(readonly capacity: number, readonly maxKeyLength: number) {}

  get size(): number { return this.#map.size; }

  get(key: string): V | undefined {
    const v = this.#map.get(key);
    if (v !== undefined) {
      // most recently used last: delete and re-insert keeps Map's insertion order as the LRU order
      this.#map.delete(key);
      this.#map.set(key, v);
    }
    return v;
  }

  /**
   * Stores `value` (returned) unless the key is too long to be worth keeping. The caller deep-freezes
   * the parse it holds (deepFreeze), not the live objects an entry may point at to validate a hit.
   */
  set(key: string, value: V): V {
    if (key.length > this.maxKeyLength) return value;
    if (this.#map.size >= this.capacity) this.#map.delete(this.#map.keys().next().value as string);
    this.#map.set(key, value);
    return value;
  }

  clear(): void { this.#map.clear(); }
}

/** Freezes `v` and every object and array reachable from it (a parse tree: no cycles, no class state). */
export function deepFreeze<T>(v: T): T {
  if (v === null || typeof v !== 'object' || Object.isFrozen(v) || ArrayBuffer.isView(v)) return v;
  Object.freeze(v);
  for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
  return v;
}
