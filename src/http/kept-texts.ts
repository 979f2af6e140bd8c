/**
 * The JSON bytes of stored documents' texts, kept per document between replies (render-search.ts), in
 * a byte budget: the least recently used documents' bytes are dropped first, in two generations of up
 * to half the budget each (as engine/parse-cache.ts keeps parses: no Map delete per hit). A document is
 * held while its bytes are, so the budget also bounds the documents kept beyond the store's cache.
 */

/**
 * A hit's whole `_source` object body as JSON bytes: valid for a row whose columns have the signature
 * `columns` and whose cells (the id's aside) are `cells`, compared with Object.is.
 */
export interface KeptSource { readonly columns: string; readonly cells: readonly unknown[]; readonly json: Buffer }

/** A document's texts and their JSON bytes, alternately, its `_source` (at most one), and the bytes' total. */
export interface Kept { readonly doc: object; texts: Array<string | Buffer>; source?: KeptSource; bytes: number }

/**
 * What a kept `_source` costs beyond its bytes and the texts it replaces (its record, its cells array, the
 * Buffer object). Only a document that had long texts kept gets one (render-search.ts), so a budget of
 * documents with short texts holds no more records than before.
 */
export const SOURCE_OVERHEAD_BYTES = 96;

/**
 * Bytes of rendered texts kept at most: half the store's document cache (DOC_CACHE_BYTES, 16 MiB), so
 * the hot half of a full cache renders from kept bytes (measured: a full document cache's texts kept
 * whole cost some 20 MiB of PSS beside it).
 */
export const KEPT_TEXT_BYTES = 8 * 1024 * 1024;

export class KeptTexts {
  #young = new Map<object, Kept>();
  #old = new Map<object, Kept>();
  #youngBytes = 0;

  constructor(readonly maxBytes = KEPT_TEXT_BYTES) {}

  /**
   * What is kept for `doc`, now the most recently used; a new empty one (held only once add() puts
   * bytes in it, so documents without long texts hold nothing) when there is none.
   */
  of(doc: object): Kept {
    const young = this.#young.get(doc);
    if (young !== undefined) return young;
    const old = this.#old.get(doc);
    if (old === undefined) return { doc, texts: [], source: undefined, bytes: 0 };
    this.#young.set(doc, old);
    this.#grew(old.bytes);
    return old;
  }

  /** Keeps `text`'s JSON `bytes` with `kept` (an of() result of the same render). */
  add(kept: Kept, text: string, bytes: Buffer): void {
    kept.texts.push(text, bytes);
    kept.bytes += bytes.length;
    if (!this.#young.has(kept.doc)) this.#young.set(kept.doc, kept);
    this.#grew(bytes.length);
  }

  /**
   * Keeps a whole `_source` with `kept` (an of() result of the same render) in place of the one it had
   * and of its texts (the `_source` holds their bytes).
   */
  addSource(kept: Kept, source: KeptSource): void {
    const before = kept.bytes;
    kept.bytes = source.json.length + SOURCE_OVERHEAD_BYTES;
    kept.texts = [];
    kept.source = source;
    if (!this.#young.has(kept.doc)) this.#young.set(kept.doc, kept);
    // what the record holds more than before: a `_source` holds its texts' bytes, so it is mostly its keys
    if (kept.bytes > before) this.#grew(kept.bytes - before);
  }

  #grew(bytes: number): void {
    this.#youngBytes += bytes;
    if (this.#youngBytes <= this.maxBytes >> 1) return;
    this.#old = this.#young;
    this.#young = new Map();
    this.#youngBytes = 0;
  }

  /** Bytes held at most now (both generations; for tests and memory figures). */
  get heldBytes(): number {
    let n = 0;
    for (const k of new Set([...this.#young.values(), ...this.#old.values()])) n += k.bytes;
    return n;
  }
}
