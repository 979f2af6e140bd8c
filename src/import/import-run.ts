/**
 * One `quarry import`: reads each input in turn, turns its records into documents, creates the table
 * on the first batch when it is missing, and loads batches through a BatchLoader while progress is
 * shown. Stops at the first bad line unless skipErrors; stops cleanly when `interrupted()` turns true.
 */
import { openInput, type ImportInput } from './input.js';
import { BatchLoader, type BadLine, type LineDoc } from './batch-loader.js';
import { inferKinds, kindsOfColumns, objectDoc, rowDoc, type Built, type ColumnKind } from './doc-builder.js';
import { Progress } from './progress.js';
import { readRecords, formatOfName, type ImportFormat, type InputRecord } from './record-reader.js';
import { autoSchemaStatement } from './table-setup.js';
import type { ImportTarget } from './target.js';

export interface ImportOptions {
  table: string;
  files: string[];
  /** Forced format; else from each file's name (stdin: jsonl unless given). */
  format?: ImportFormat;
  batch: number;
  skipErrors: boolean;
  /** CSV/TSV: no header row; `columns` names the fields. */
  noHeader: boolean;
  columns?: string[];
  replace: boolean;
}

export interface ImportSummary {
  imported: number;
  skipped: number;
  createdTable: boolean;
  /** The bad line that stopped the import, if one did. */
  stoppedAt?: BadLine & { file: string };
  interrupted?: { file: string; line: number };
  elapsedMs: number;
}

/** Bad lines printed in full; after that only the count at the end. */
const SHOWN_BAD_LINES = 20;

export class ImportRun {
  readonly #loader: BatchLoader;
  #kinds?: Map<string, ColumnKind>;
  #createdTable = false;
  #tableReady = false;
  #file = '';
  #lastLine = 0;
  #shown = 0;
  #bytesBefore = 0;

  constructor(
    private readonly target: ImportTarget,
    private readonly opts: ImportOptions,
    private readonly progress: Progress,
    private readonly interrupted: () => boolean,
    private readonly log: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
  ) {
    this.#loader = new BatchLoader(target, opts.table, opts.skipErrors, (b) => this.#reportBad(b), opts.replace);
  }

  #reportBad(b: BadLine): void {
    if (this.#shown++ >= SHOWN_BAD_LINES) return;
    this.progress.done();
    this.log(`quarry import: ${this.#file}: line ${b.line}: ${b.error}${this.opts.skipErrors ? ' (skipped)' : ''}`);
  }

  async run(): Promise<ImportSummary> {
    for (const file of this.opts.files) {
      this.#file = file === '-' ? 'stdin' : file;
      const input = await openInput(file);
      const format = this.opts.format ?? formatOfName(file) ?? (file === '-' ? 'jsonl' : undefined);
      if (!format) throw new Error(`${file}: cannot tell the format from the name: use --format jsonl|csv|tsv`);
      const goOn = await this.#runFile(input, format);
      this.#bytesBefore += input.totalBytes ?? input.bytesRead();
      if (!goOn) break;
    }
    this.progress.done();
    return {
      imported: this.#loader.imported,
      skipped: this.opts.skipErrors ? this.#loader.bad.length : 0,
      createdTable: this.#createdTable,
      stoppedAt: this.#loader.stoppedAt && { ...this.#loader.stoppedAt, file: this.#file },
      interrupted: this.interrupted() ? { file: this.#file, line: this.#lastLine } : undefined,
      elapsedMs: this.progress.elapsedMs(),
    };
  }

  /** False when the import must stop (bad line, interrupt). */
  async #runFile(input: ImportInput, format: ImportFormat): Promise<boolean> {
    let header: string[] | undefined = format === 'jsonl' ? [] : this.opts.noHeader ? this.opts.columns : undefined;
    const pending: InputRecord[] = [];
    const state = () => ({ docs: this.#loader.imported, bytes: this.#bytesBefore + input.bytesRead(), totalBytes: this.#totalBytes(input) });
    for await (const records of readRecords(input.chunks, format)) {
      for (const rec of records) {
        if (header === undefined && 'values' in rec) {
          header = rec.values.map((v) => v.trim());
          continue;
        }
        pending.push(rec);
        if (pending.length >= this.opts.batch) {
          if (!(await this.#flush(pending.splice(0), header ?? []))) return false;
          this.progress.update(state());
        }
      }
      this.progress.update(state());
      if (this.interrupted()) break;
    }
    const ok = await this.#flush(pending.splice(0), header ?? []);
    this.progress.update(state());
    return ok && !this.interrupted();
  }

  #totalBytes(input: ImportInput): number | undefined {
    // an ETA only for a single sized input, or sized ones in turn (the rest are unknown then)
    return input.totalBytes === undefined ? undefined : this.#bytesBefore + input.totalBytes;
  }

  /** Builds and sends one batch; false when a bad line stops the import. */
  async #flush(records: InputRecord[], header: string[]): Promise<boolean> {
    if (records.length === 0) return true;
    this.#lastLine = records[records.length - 1]!.line;
    if (!this.#kinds) await this.#resolveKinds(records, header);
    const docs: LineDoc[] = [];
    for (const rec of records) {
      const built: Built = 'error' in rec ? { ok: false, error: rec.error }
        : 'object' in rec ? objectDoc(rec.object) : rowDoc(header, rec.values, this.#kinds!);
      if (built.ok) {
        docs.push({ line: rec.line, doc: built.doc });
        continue;
      }
      if (!this.#loader.reject({ line: rec.line, error: built.error })) {
        // the lines before the bad one are loaded; the import stops at it
        await this.#send(docs);
        return false;
      }
    }
    return this.#send(docs);
  }

  async #send(docs: LineDoc[]): Promise<boolean> {
    if (docs.length === 0) return true;
    if (!this.#tableReady) {
      if (!(await this.target.describe(this.opts.table))) {
        await this.target.sql(autoSchemaStatement(this.opts.table, docs.map((d) => d.doc)));
        this.#createdTable = true;
      }
      this.#tableReady = true;
    }
    return this.#loader.send(docs);
  }

  /** Column kinds: the table's when it exists, else the first batch's values say. */
  async #resolveKinds(records: InputRecord[], header: string[]): Promise<void> {
    const columns = await this.target.describe(this.opts.table);
    if (columns) this.#kinds = kindsOfColumns(columns);
    else this.#kinds = inferKinds(header, records.flatMap((r) => ('values' in r ? [r.values] : [])));
  }
}
