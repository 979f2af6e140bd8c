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

export interface FieldScanner {
  /** The field's tokens, or null when the text needs the TS tokenizer. */
  scan(text: string): FieldScan | null;
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
