/**
 * Recently read documents of one table, decoded, as Manticore's docstore cache keeps recently read
 * document blocks (`docstore_cache_size`, 16m by default): a result page's documents are read again by
 * the next query that finds them, and the lmdb read, checksum and decode of a gcide document cost
 * about 3.5 us each (70 us of a 20-hit `/search`, a fifth of its main-thread time).
 *
 * Validity: the cache is stamped with the table's generation, which TRUNCATE/DROP replace, and the
 * store's write version (doc-writes.ts), which every write call and round moves when it settles, before
 * its caller goes on; a read under another stamp empties it first. So a read sees every write whose
 * promise resolved, as the store's own reads do (a write still in flight may or may not be seen, as
 * there), with no lmdb read at all for a page whose documents are all cached (lmdb-js renews its read
 * transaction at the first read of each event-loop turn). Documents are frozen: every page shares them.
 */
import type { StoredDoc } from './types.js';

/** Bytes of stored records a table's cache holds at most (Manticore's `docstore_cache_size` default). */
export const DOC_CACHE_BYTES = 16 * 1024 * 1024;

interface Entry { doc: StoredDoc; bytes: number }

export class DocCache {
  #gen = -1;
  #version = -1;
  #bytes = 0;
  /**
   * In insertion order: the oldest entries go first when the bytes exceed the bound. Keyed by cacheKey:
   * a Map's look-up of a BigInt key hashes its digits, about 10x a number key's (80 vs 8 ns measured).
   */
  readonly #docs = new Map<number | bigint, Entry>();

  constructor(readonly maxBytes = DOC_CACHE_BYTES) {}

  /** Readies the cache for reads of generation `gen` at write version `version`: emptied unless it holds exactly those. */
  stamp(gen: number, version: number): void {
    if (gen === this.#gen && version === this.#version) return;
    this.#docs.clear();
    this.#bytes = 0;
    this.#gen = gen;
    this.#version = version;
  }

  get(docId: bigint): StoredDoc | undefined {
    return this.#docs.get(cacheKey(docId))?.doc;
  }

  /** Keeps `doc` (its stored record `bytes` long), dropping the oldest entries past the bound; returns it frozen. */
  add(docId: bigint, doc: StoredDoc, bytes: number): StoredDoc {
    Object.freeze(doc);
    if (bytes > this.maxBytes) return doc;
    this.#docs.set(cacheKey(docId), { doc, bytes });
    this.#bytes += bytes;
    for (const [id, e] of this.#docs) {
      if (this.#bytes <= this.maxBytes) break;
      this.#docs.delete(id);
      this.#bytes -= e.bytes;
    }
    return doc;
  }

  /** Documents held (for tests and memory figures). */
  get size(): number {
    return this.#docs.size;
  }
}

/** An id within 2^53 as its number, any other as itself: one key per id, and no two ids share one. */
function cacheKey(docId: bigint): number | bigint {
  const n = Number(docId);
  return Number.isSafeInteger(n) ? n : docId;
}
