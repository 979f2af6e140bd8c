/**
 * A data source of `quarry indexer`: the events it streams. The schema comes first (declared in the
 * config, or read from the stream for xmlpipe2 and from the result columns for SQL), then rows whose
 * first value is the document id, then, for xmlpipe2, kill-list ids.
 */
import type { SourceColumn } from './source-schema.js';

export interface SourceRow {
  /** Line of the stream (pipes) or row number (SQL), for error messages. */
  line: number;
  /** The id, then one value per schema column, as text. */
  values: string[];
}

export type SourceEvent =
  | { kind: 'schema'; columns: SourceColumn[] }
  | { kind: 'rows'; rows: SourceRow[] }
  | { kind: 'killlist'; ids: string[] }
  /** A row the source could not read (bad CSV quoting, a bad xmlpipe2 document). */
  | { kind: 'bad'; line: number; error: string };

export interface RowSource {
  events(): AsyncGenerator<SourceEvent>;
  /** Bytes read from the command's output so far (0 for SQL). */
  bytesRead(): number;
  /**
   * The share of the source read, 0..1, where a source knows it without a byte count: a ranged SQL
   * query's steps done over its id range (a progress bar and ETA as a file's bytes give one).
   */
  done?(): number | undefined;
}
