/**
 * Sends documents to a target in `/bulk` batches and accounts for them. A batch is one transaction;
 * when the target rejects one document the batch wrote nothing, so the documents before it are sent
 * again, and then the bad one is skipped (`skipErrors`) or the load stops there. Whatever was
 * acknowledged before stays.
 */
import type { ImportDoc, ImportTarget } from './target.js';

export interface LineDoc {
  /** Where the document came from, for error messages (a line number, a source row). */
  line: number;
  doc: ImportDoc;
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
    private readonly target: ImportTarget,
    private readonly table: string,
    private readonly skipErrors: boolean,
    private readonly onBad: (b: BadLine) => void,
    private readonly replace = false,
  ) {}

  /** A line that could not even be read into a document; false when the load must stop. */
  reject(b: BadLine): boolean {
    this.bad.push(b);
    this.onBad(b);
    if (!this.skipErrors) this.stoppedAt = b;
    return this.skipErrors;
  }

  /** Sends `docs` in order; false when a rejected document stopped the load. */
  async send(docs: LineDoc[]): Promise<boolean> {
    let rest = docs;
    while (rest.length > 0) {
      const r = await this.target.bulk(this.table, rest.map((d) => d.doc), this.replace);
      if (r.ok) {
        this.imported += rest.length;
        return true;
      }
      const i = Math.min(Math.max(r.failedIndex, 0), rest.length - 1);
      const failed = rest[i]!;
      if (!this.reject({ line: failed.line, error: r.error })) {
        // what precedes the bad line is still loaded: the batch it was in wrote nothing
        if (i > 0) await this.send(rest.slice(0, i));
        return false;
      }
      rest = [...rest.slice(0, i), ...rest.slice(i + 1)];
    }
    return true;
  }
}
