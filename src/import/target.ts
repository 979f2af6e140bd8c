/**
 * Where imported documents go: the embedded engine on a data directory (engine-target.ts) or a running
 * server's HTTP API (http-target.ts). Both take SphinxQL for the schema, JSON documents (JSON Lines)
 * and rows of literals (CSV/TSV, indexer sources): the engine loads rows directly, HTTP as `/bulk` lines.
 */
import type { JsonObject, JsonValue } from '../engine/json/json-value.js';
import type { RowBatch } from '../engine/index.js';

export type { RowBatch };

/** One document to insert; `id` undefined lets the server generate it. */
export interface ImportDoc {
  id?: JsonValue;
  doc: JsonObject;
}

/** A column as DESCRIBE lists it (`id` included). */
export interface TargetColumn {
  name: string;
  type: string;
}

export type BulkOutcome = { ok: true } | { ok: false; failedIndex: number; error: string };

export interface ImportTarget {
  /** Where it writes, for messages (`data directory ./data`, `http://127.0.0.1:9308`). */
  readonly where: string;
  /** Runs one statement; rejects with the server's error text, else resolves with its warning, if any. */
  sql(statement: string): Promise<string | undefined>;
  /** The table's columns, or undefined when it does not exist. */
  describe(table: string): Promise<TargetColumn[] | undefined>;
  /** The table's last write sequence (SHOW TABLE t STATUS `tid`), or undefined when it does not exist. */
  tid(table: string): Promise<string | undefined>;
  /**
   * Inserts `docs` as one `/bulk` run (one transaction: all or nothing). On a rejected line, says
   * which (0-based) and why; nothing of the call was written then.
   */
  bulk(table: string, docs: ImportDoc[], replace?: boolean): Promise<BulkOutcome>;
  /** Inserts (or replaces) rows as one transaction, as bulk() does; `failedIndex` is a row's. */
  loadRows(table: string, batch: RowBatch, replace?: boolean): Promise<BulkOutcome>;
  /**
   * loadRows in two halves, where the target can build a batch before writing it (the engine): the
   * rows checked and their segment started now, written by commit(). Absent: loadRows does both.
   */
  prepareRows?(table: string, batch: RowBatch, replace?: boolean): Promise<{ commit(): Promise<BulkOutcome> }>;
  /**
   * Raw values (under `columns`) of rows still being read: a hint the target may start work on; nothing
   * is loaded by it. The arrays are the import's, read during the call only: it converts them in place
   * into the rows it sends (doc-builder.ts cellsOrError).
   */
  prime?(table: string, columns: string[], rows: string[][]): void;
  close(): Promise<void>;
}

/** The `/bulk` statement of one document. */
export function bulkStatement(table: string, d: ImportDoc, replace = false): JsonObject {
  const body: JsonObject = { index: table, doc: d.doc };
  if (d.id !== undefined) body.id = d.id;
  return { [replace ? 'replace' : 'insert']: body };
}

/** Rows of DESCRIBE (Field, Type, ...) as columns. */
export function columnsOf(rows: unknown[][]): TargetColumn[] {
  return rows.map((r) => ({ name: String(r[0]), type: String(r[1]) }));
}
