/**
 * A whole-field scanner: the index tokenizer's plain path (fold, split, min_word_len, ignore_chars,
 * phrase_boundary) for a whole field in one call, each distinct folded token named by a small id.
 * The WASM core provides it (src/wasm/field-scanner.ts); the host installs the factory. Without one,
 * or for text it does not take (specials, blend characters, surrogates), the TS tokenizer runs.
 */
import type { CharsetTable } from './charset-table.js';

/** Words of one token record: start, end (UTF-16 offsets), id, overshort << 1 | boundary. */
export const SCAN_RECORD_WORDS = 4;

/** The tokens of one field, valid until the scanner's next scan. */
export interface FieldScan {
  count: number;
  /** SCAN_RECORD_WORDS per token. */
  records: Int32Array;
  /** Folded token text by id. */
  texts: readonly string[];
  /** Changes when ids are renumbered (the cache was emptied): memos keyed by id start over. */
  generation: number;
}

/** The tokens of fields scanned together (FieldScanner.scanFields), valid until the next scan of any kind. */
export interface FieldsScan {
  /** SCAN_RECORD_WORDS per token, the fields' one after another (offsets relative to each field). */
  records: Int32Array;
  /** Each field's token count, or -1: the field needs the TS tokenizer (it has no records). */
  counts: Int32Array;
  texts: readonly string[];
  generation: number;
}

export interface FieldScanner {
  /** The field's tokens, or null when the text needs the TS tokenizer; valid until the next scan. */
  scan(text: string): FieldScan | null;
  /**
   * Fields one after another in `text` (`lengths` UTF-16 units each) in one call, as scan() gives
   * each; null: scan them one by one. A bulk load's build thread scans its batches so.
   */
  scanFields?(text: string, lengths: Uint32Array): FieldsScan | null;
  /**
   * stem_en of the token ids [from, to) of `generation` (ids are stemmed where they are kept, no
   * string made: the host's stemmer was ~0.5 us of each distinct token of a bulk load), words shorter
   * than `minLen` code points unchanged; null: not these ids (another generation), stem them here.
   */
  stemEnIds?(from: number, to: number, generation: number, minLen: number): CoreStems | null;
}

/**
 * Stems of token ids [from, to) (FieldScanner.stemEnIds): per id, the stem's length << 8 | the length
 * of the prefix it shares with the token, or -1 (the core left it to src/text/stem-en.ts: a unit past
 * ASCII); the stems' units past those prefixes one after another in `tails`.
 */
export interface CoreStems {
  stems: Int32Array;
  tails: Uint16Array;
}

export type FieldScannerFactory = (table: CharsetTable, minWordLen: number) => FieldScanner;

let factory: FieldScannerFactory | null = null;

/** Installs (or with null removes) the scanner pipelines made from now on use. */
export function setFieldScannerFactory(f: FieldScannerFactory | null): void {
  factory = f;
}

export function fieldScannerFor(table: CharsetTable, minWordLen: number): FieldScanner | null {
  return factory ? factory(table, minWordLen) : null;
}

/** What a highlight stream of a field needs besides the text (src/highlight/snippet-scan-path.ts). */
export interface StreamRequest {
  /** The dictionary term of a folded token ('' for a stopword). */
  term(folded: string): string;
  /** Identity of the dictionary `term` reads (term numbers are kept per dictionary). */
  dictKey: object;
  /** The query's keywords: dictionary term -> keyword index (below 32); one Map per query. */
  keywords: ReadonlyMap<string, number>;
  overshortStep: number;
  stopwordStep: number;
  boundaryStep: number;
  /** The document's field slot: each keeps its packed tokens until the slot's next stream. */
  slot: number;
  /**
   * Tokens the stream needs no term of: bit i set, those whose folded form starts with letter a + i
   * (none of the query's keywords nor of the stopwords starts so, and the dictionary keeps a token's
   * first letter: PlainStreamScanner.namedLetters). They count as ordinary words, unnamed.
   */
  skipFirst?: number;
}

/** Words per piece of ScannedStream.pieces: | kind (1 word, 0 gap) | start | end | pos | open (0) |. */
export const STREAM_PIECE_WORDS = 5;
/** Words per token of ScannedStream.packed (the core picker's layout): | lengthCP | flags | keyword mask |. */
export const STREAM_TOKEN_WORDS = 3;
/** Words per keyword occurrence: | piece index | pos | keyword index |. */
export const STREAM_OCC_WORDS = 3;

/**
 * Where a stream's packed tokens lie in the scanner's core memory (until its next stream into the same
 * slot): the picker runs on that core and reads them there, no copy. `view()` is valid until that
 * memory next grows.
 */
export interface PackedHome {
  core: object;
  ptr: number;
  view(): Int32Array;
}

/** A field's highlight stream; the arrays are views of scanner memory, valid until its next call. */
export interface ScannedStream {
  nPieces: number;
  pieces: Int32Array;
  /** The packed tokens, in the request's slot. */
  home: PackedHome;
  nOcc: number;
  occ: Int32Array;
  /** Keywords present in the field, as a bit mask. */
  found: number;
  /** UTF-8 length of the text. */
  docBytes: number;
}

/** A scanner that also builds highlight streams (the core's one). */
export interface StreamScanner extends FieldScanner {
  /** The field's stream, or null when the text needs the TS tokenizer or holds the stripper's marks (the general path cuts them out). */
  stream(text: string, req: StreamRequest): ScannedStream | null;
}
