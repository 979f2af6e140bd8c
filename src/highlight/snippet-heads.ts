/**
 * The starts of fields that show only their start (JSON highlight: a field no leaf of the query can
 * match in, on a page whose hits are elsewhere), kept per text between requests. Such a start is the
 * text's first pieces up to the limit (renderStart), which depend on the text and the table's
 * tokenizer only, never on the query: a document that comes back on later pages (its stored text is
 * the same string object while the store's document cache holds it) skips the core scan of its head,
 * measured as a third of the highlighting of an `@title` page of 100k gcide (the bodies' heads).
 * Kept in a byte budget, in two generations of up to half of it each (as http/kept-texts.ts).
 */
import type { TextPipeline } from '../text/text-pipeline.js';
import { P_END, P_START, PIECE_WORDS } from './snippet-stream.js';

/** A field's start: its first pieces, through the first that ends past `crossCp` codepoints. */
export interface FieldHead {
  /** PIECE_WORDS per piece, as Pieces.data. */
  pieces: Int32Array;
  /** Codepoints the pieces cover: any limit below it is crossed within them (Infinity: the whole field). */
  crossCp: number;
  /** UTF-8 length of the whole text. */
  docBytes: number;
  /**
   * The start as rendered (renderStart) for `startLimit` codepoints and separator `startSep`, kept by the
   * builder (snippetStart): a start met again costs no walk of its pieces and no slices of its text.
   */
  start?: string;
  startLimit?: number;
  startSep?: string;
}

/** Bytes of kept starts at most (their pieces, and the texts they keep alive beyond the document cache). */
export const FIELD_HEAD_BYTES = 2 * 1024 * 1024;

class HeadCache {
  #young = new Map<string, FieldHead>();
  #old = new Map<string, FieldHead>();
  #youngBytes = 0;

  constructor(readonly maxBytes: number) {}

  get(text: string): FieldHead | undefined {
    const young = this.#young.get(text);
    if (young !== undefined) return young;
    const old = this.#old.get(text);
    if (old !== undefined) this.#keep(text, old);
    return old;
  }

  #keep(text: string, head: FieldHead): void {
    this.#young.set(text, head);
    this.#youngBytes += head.pieces.byteLength + 2 * text.length;
    if (this.#youngBytes <= this.maxBytes >> 1) return;
    this.#old = this.#young;
    this.#young = new Map();
    this.#youngBytes = 0;
  }

  set(text: string, head: FieldHead): void {
    this.#keep(text, head);
  }
}

/** Per tokenizer (a table's pipeline or its highlight variant): the pieces are the tokenizer's. */
const caches = new WeakMap<TextPipeline, HeadCache>();

let enabled = true;

/** Turns keeping starts on or off (tests compare outputs with and without). */
export function setFieldHeads(on: boolean): void {
  enabled = on;
}

/** The kept start of `text` under `pipeline` that covers `limit` codepoints, if any. */
export function keptHead(pipeline: TextPipeline, text: string, limit: number): FieldHead | undefined {
  if (!enabled) return undefined;
  const head = caches.get(pipeline)?.get(text);
  return head && head.crossCp > limit ? head : undefined;
}

/**
 * Keeps the start of `text` from a stream's first `n` pieces (`data`, surrogate-free up to where they
 * are kept): through the first piece whose end passes `limit` codepoints, or all of them when `whole`
 * (the whole field was scanned) and none does. A head scan whose pieces never pass it keeps nothing.
 */
export function keepHead(pipeline: TextPipeline, text: string, data: Int32Array, n: number, limit: number, whole: boolean, docBytes: number): void {
  if (!enabled) return;
  let cp = 0;
  let k = 0;
  for (; k < n && cp <= limit; k++) cp += data[k * PIECE_WORDS + P_END]! - data[k * PIECE_WORDS + P_START]!;
  if (cp <= limit && !whole) return;
  const crossCp = cp > limit ? cp : Infinity;
  let cache = caches.get(pipeline);
  if (!cache) caches.set(pipeline, (cache = new HeadCache(FIELD_HEAD_BYTES)));
  cache.set(text, { pieces: data.slice(0, k * PIECE_WORDS), crossCp, docBytes });
}
