/**
 * Sends documents to a target in `/bulk` batches and accounts for them. A batch is one transaction;
 * when the target rejects one document the batch wrote nothing, so the documents before it are sent
 * again, and then the bad one is skipped (`skipErrors`) or the load stops there. Whatever was
 * acknowledged before stays.
 */
import type { RowCell } from '../engine/row-load.js';
import type { BulkOutcome, ImportDoc, ImportTarget } from './target.js';

/** One document and where it came from (a line number, a source row), for error messages. */
export interface LineDoc<T = ImportDoc> {
  line: number;
  doc: T;
}

/** Sends one batch of items as one transaction. */
export type BatchSender<T> = (items: T[]) => Promise<BulkOutcome>;

/** JSON documents to `table` as `/bulk` runs. */
export function docSender(target: ImportTarget, table: string, replace: boolean): BatchSender<ImportDoc> {
  return (docs) => target.bulk(table, docs, replace);
}

/** A batch's rows already prepared by the target (ImportTarget.prepareRows): the first send commits them. */
export type PreparedBatch = Promise<{ commit(): Promise<BulkOutcome> }>;

/**
 * Rows of literals under `columns` to `table` (the engine's direct load, or `/bulk` lines). With
 * `prepared`, the first send is of the rows it was prepared from and commits it; a resend after a
 * rejected row loads the rest afresh.
 */
export function rowSender(target: ImportTarget, table: string, columns: string[], replace: boolean, prepared?: PreparedBatch): BatchSender<RowCell[]> {
  let first = prepared;
  return (rows) => {
    const p = first;
    first = undefined;
    return p ? p.then((b) => b.commit()) : target.loadRows(table, { columns, rows }, replace);
  };
}

export interface BadLine { line: number; error: string }

export class BatchLoader {
  /** Documents the target acknowledged. */
  imported = 0;
  /** Bad lines skipped (skipErrors) or the one that stopped the load. */
  readonly bad: BadLine[] = [];
  /** Set when a bad line stopped the load. */
  stoppedAt?: BadLine;

  constructor(
    private readonly skipErrors: boolean,
    private readonly onBad: (b: BadLine) => void,
  ) {}

  /** A line that could not even be read into a document; false when the load must stop. */
  reject(b: BadLine): boolean {
    this.bad.push(b);
    this.onBad(b);
    if (!this.skipErrors) this.stoppedAt = b;
    return this.skipErrors;
  }

  /** Sends `docs` in order; false when a rejected document stopped the load. */
  async send<T>(docs: LineDoc<T>[], sender: BatchSender<T>): Promise<boolean> {
    let rest = docs;
    while (rest.length > 0) {
      const r = await sender(rest.map((d) => d.doc));
      if (r.ok) {
        this.imported += rest.length;
        return true;
      }
      const i = Math.min(Math.max(r.failedIndex, 0), rest.length - 1);
      const failed = rest[i]!;
      if (!this.skipErrors) {
        // what precedes the bad line is still loaded (the batch it was in wrote nothing), and the bad
        // line is named once that is done: when the target refuses one of those too (a table dropped
        // during the import refuses every line), the load stops there and only that line is named
        if (i > 0 && !(await this.send(rest.slice(0, i), sender))) return false;
        return this.reject({ line: failed.line, error: r.error });
      }
      this.reject({ line: failed.line, error: r.error });
      rest = [...rest.slice(0, i), ...rest.slice(i + 1)];
    }
    return true;
  }
}
