/**
 * Recently read documents of one table, decoded, as Manticore's docstore cache keeps recently read
 * document blocks (`docstore_cache_size`, 16m by default): a result page's documents are read again by
 * the next query that finds them, and the lmdb read, checksum and decode of a gcide document cost
 * about 3.5 us each (70 us of a 20-hit `/search`, a fifth of its main-thread time).
 *
 * Validity: the cache is stamped with the table's generation and last sequence number, which every
 * committed write (put, update, delete) moves and TRUNCATE/DROP replace; a read under another stamp
 * empties it first. So a read sees exactly what the store holds, at the cost of one lmdb read of the
 * sequence record per page. Documents are frozen: they are shared by every page that reads them.
 */
import type { StoredDoc } from './types.js';

/** Bytes of stored records a table's cache holds at most (Manticore's `docstore_cache_size` default). */
export const DOC_CACHE_BYTES = 16 * 1024 * 1024;

interface Entry { doc: StoredDoc; bytes: number }

export class DocCache {
  #gen = -1;
  #seq = -1n;
  #bytes = 0;
  /** In insertion order: the oldest entries go first when the bytes exceed the bound. */
  readonly #docs = new Map<bigint, Entry>();

  constructor(readonly maxBytes = DOC_CACHE_BYTES) {}

  /** Readies the cache for reads of generation `gen` at sequence `seq`: emptied unless it holds exactly those. */
  stamp(gen: number, seq: bigint): void {
    if (gen === this.#gen && seq === this.#seq) return;
    this.#docs.clear();
    this.#bytes = 0;
    this.#gen = gen;
    this.#seq = seq;
  }

  get(docId: bigint): StoredDoc | undefined {
    return this.#docs.get(docId)?.doc;
  }

  /** Keeps `doc` (its stored record `bytes` long), dropping the oldest entries past the bound; returns it frozen. */
  add(docId: bigint, doc: StoredDoc, bytes: number): StoredDoc {
    Object.freeze(doc);
    if (bytes > this.maxBytes) return doc;
    this.#docs.set(docId, { doc, bytes });
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
