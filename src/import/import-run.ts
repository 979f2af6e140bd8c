/**
 * One `quarry import`: reads each input in turn, turns its records into documents, creates the table
 * on the first batch when it is missing, and loads batches through a BatchLoader while progress is
 * shown. Stops at the first bad line unless skipErrors; stops cleanly when `interrupted()` turns true.
 */
import { openInput, type ImportInput } from './input.js';
import { BatchLoader, docSender, rowSender, type BadLine, type LineDoc, type PreparedBatch } from './batch-loader.js';
import { cellsOrError, inferKinds, kindsOfColumns, objectDoc, type ColumnKind } from './doc-builder.js';
import type { RowCell } from '../engine/row-load.js';
import { Progress } from './progress.js';
import { readRecords, formatOfName, type ImportFormat, type InputRecord } from './record-reader.js';
import { autoSchemaOfRows, autoSchemaStatement } from './table-setup.js';
import type { ImportDoc, ImportTarget } from './target.js';
import { phase } from '../util/phase-trace.js';

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

/**
 * A failure that is not a bad line (the server went away, a read or disk error) with how far the import
 * got: the documents acknowledged before it stay, and the user needs their count to resume.
 */
export class ImportFailure extends Error {
  constructor(cause: unknown, readonly imported: number, readonly file: string) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
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
  /** A batch was flushed: the first batch's rows are no longer primed (#prime). */
  #flushed = false;
  /** The batch being sent, resolving false when a bad line in it stopped the import. */
  #inflight?: Promise<{ ok: boolean; error?: unknown }>;

  constructor(
    private readonly target: ImportTarget,
    private readonly opts: ImportOptions,
    private readonly progress: Progress,
    private readonly interrupted: () => boolean,
    private readonly log: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
  ) {
    this.#loader = new BatchLoader(opts.skipErrors, (b) => this.#reportBad(b));
  }

  #reportBad(b: BadLine): void {
    if (this.#shown++ >= SHOWN_BAD_LINES) return;
    this.progress.done();
    this.log(`quarry import: ${this.#file}: line ${b.line}: ${b.error}${this.opts.skipErrors ? ' (skipped)' : ''}`);
  }

  async run(): Promise<ImportSummary> {
    let failed = false;
    let failure: unknown;
    try {
      await this.#runFiles();
    } catch (e) {
      failed = true;
      failure = e;
    } finally {
      await this.#inflight; // settles, never rejects: a batch still on its way when a read failed
    }
    if (failed) throw new ImportFailure(failure, this.#loader.imported, this.#file);
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

  async #runFiles(): Promise<void> {
    for (const file of this.opts.files) {
      this.#file = file === '-' ? 'stdin' : file;
      const input = await openInput(file);
      const format = this.opts.format ?? formatOfName(file) ?? (file === '-' ? 'jsonl' : undefined);
      if (!format) throw new Error(`${file}: cannot tell the format from the name: use --format jsonl|csv|tsv`);
      const goOn = await this.#runFile(input, format);
      this.#bytesBefore += input.totalBytes ?? input.bytesRead();
      if (!goOn) break;
    }
  }

  /** False when the import must stop (bad line, interrupt). */
  async #runFile(input: ImportInput, format: ImportFormat): Promise<boolean> {
    let header: string[] | undefined = format === 'jsonl' ? [] : this.opts.noHeader ? this.opts.columns : undefined;
    const pending: InputRecord[] = [];
    // the input is read 1 MiB ahead of the batches sent: the share shown done (bar, percent, bytes,
    // ETA) is the bytes read scaled by the lines sent over the lines read, else it ran ahead of the
    // documents and the ETA jumped up and down with each chunk
    let linesRead = 0;
    this.#lastLine = 0;
    const state = () => ({
      docs: this.#loader.imported,
      bytes: this.#bytesBefore + (linesRead > 0 ? Math.round(input.bytesRead() * Math.min(1, this.#lastLine / linesRead)) : 0),
      totalBytes: this.#totalBytes(input),
    });
    const batch = Math.max(1, this.opts.batch);
    for await (const records of readRecords(input.chunks, format)) {
      if (records.length > 0) linesRead = records[records.length - 1]!.line;
      if (this.#loader.imported === 0 && pending.length === 0) phase('records');
      let i = 0;
      // the header row: the first with values (an unreadable one before it is a bad line all the same)
      for (; header === undefined && i < records.length; i++) {
        const rec = records[i]!;
        if ('values' in rec) header = rec.values.map((v) => v.trim());
        else pending.push(rec);
      }
      // the rest a run at a time, up to a full batch: no await or test per record
      for (;;) {
        if (pending.length >= batch) {
          if (!(await this.#flush(pending.splice(0), header ?? []))) return false;
          this.progress.update(state());
        }
        if (i >= records.length) break;
        const end = Math.min(records.length, i + batch - pending.length);
        for (; i < end; i++) pending.push(records[i]!);
      }
      this.#prime(pending, header);
      this.progress.update(state());
      if (this.interrupted()) break;
    }
    const ok = (await this.#flush(pending.splice(0), header ?? [])) && (await this.drained());
    this.progress.update(state());
    return ok && !this.interrupted();
  }

  /** Rows of `pending` not primed yet. */
  #primedRows = 0;

  /**
   * While the first batch is read, its rows read so far go to the target as a hint (the engine's build
   * thread tokenizes them meanwhile, so the first build, which meets most of the words new, starts
   * warm); later batches are read while the one before builds.
   */
  #prime(pending: InputRecord[], header: string[] | undefined): void {
    if (this.#flushed || !this.target.prime || !header?.length || pending.length <= this.#primedRows) return;
    const rows: string[][] = [];
    for (let i = this.#primedRows; i < pending.length; i++) {
      const rec = pending[i]!;
      if ('values' in rec) rows.push(rec.values);
    }
    this.#primedRows = pending.length;
    if (rows.length > 0) this.target.prime(this.opts.table, header, rows);
  }

  #totalBytes(input: ImportInput): number | undefined {
    // an ETA only for a single sized input, or sized ones in turn (the rest are unknown then)
    return input.totalBytes === undefined ? undefined : this.#bytesBefore + input.totalBytes;
  }

  /** Builds and sends one batch; false when a bad line stops the import. */
  async #flush(records: InputRecord[], header: string[]): Promise<boolean> {
    if (records.length === 0) return true;
    phase(`flush ${records.length}`);
    this.#flushed = true;
    this.#lastLine = records[records.length - 1]!.line;
    if (!this.#kinds) await this.#resolveKinds(records, header);
    // a file is one format: JSON Lines objects go as documents, CSV/TSV rows as rows of literals
    if (header.length === 0) return this.#flushDocs(records);
    const lower = header.map((h) => h.toLowerCase());
    const rows: LineDoc<RowCell[]>[] = [];
    for (let from = 0; ;) {
      const bad = literalRowsInto(rows, records, from, header, this.#kinds!, lower);
      if (!bad) break;
      if (!(await this.#rejectAfter(rows, { line: bad.line, error: bad.error }, header))) return false;
      from = bad.at + 1;
    }
    // the records go now, not when this call returns: #send waits for the batch before to be written,
    // and a parameter of a suspended async function stays reachable (25k record objects a gcide batch
    // promoted to the old generation for nothing; their value arrays are the rows, kept by `rows`)
    records.length = 0;
    return this.#send(rows, header);
  }

  async #flushDocs(records: InputRecord[]): Promise<boolean> {
    const docs: LineDoc[] = [];
    for (const rec of records) {
      const built = 'error' in rec ? { ok: false as const, error: rec.error }
        : 'object' in rec ? objectDoc(rec.object) : { ok: false as const, error: 'a row where a JSON object was expected' };
      if (built.ok) {
        docs.push({ line: rec.line, doc: built.doc });
        continue;
      }
      if (!(await this.#rejectAfter(docs, { line: rec.line, error: built.error }))) return false;
    }
    return this.#send(docs);
  }

  /**
   * A line that could not be built: skipped (true), or the import stops at it (false) once the lines
   * before it are loaded; one of those may be refused by the target, and then the import stops at
   * that earlier line and this one is not named (it was, before the earlier one: two errors for one stop).
   */
  async #rejectAfter(before: LineDoc<ImportDoc>[] | LineDoc<RowCell[]>[], bad: BadLine, header?: string[]): Promise<boolean> {
    if (this.opts.skipErrors) return this.#loader.reject(bad);
    if ((await this.#send(before, header)) && (await this.drained())) this.#loader.reject(bad);
    return false;
  }

  /**
   * Starts sending one batch (documents, or rows under `header`) and returns while it is on its way,
   * so the next batch is read and built meanwhile; one batch at a time is in flight, so a rejected
   * line still stops the import before anything after it is sent. False when the batch before
   * this one stopped the import (this one is then not sent).
   */
  async #send(items: LineDoc<ImportDoc>[] | LineDoc<RowCell[]>[], header?: string[]): Promise<boolean> {
    // rows are prepared (checked, their segment built on the engine's build thread) while the batch
    // before is written; nothing of them is written until it is acknowledged
    const prepared = this.#tableReady && header && items.length ? this.#prepare(items as LineDoc<RowCell[]>[], header) : undefined;
    if (!(await this.drained())) return false;
    if (items.length === 0) return true;
    if (!this.#tableReady) {
      if (!(await this.target.describe(this.opts.table))) {
        const first = items as LineDoc<unknown>[];
        await this.target.sql(header ? autoSchemaOfRows(this.opts.table, header, first.map((d) => d.doc as RowCell[]))
          : autoSchemaStatement(this.opts.table, first.map((d) => d.doc as ImportDoc)));
        this.#createdTable = true;
      }
      this.#tableReady = true;
    }
    phase('send');
    const sending = header
      ? this.#loader.send(items as LineDoc<RowCell[]>[], rowSender(this.target, this.opts.table, header, this.opts.replace, prepared))
      : this.#loader.send(items as LineDoc<ImportDoc>[], docSender(this.target, this.opts.table, this.opts.replace));
    // settled into a value at once: a failure is thrown where it is awaited, never unhandled meanwhile
    this.#inflight = sending.then((ok) => ({ ok }), (error: unknown) => ({ ok: false, error }));
    return true;
  }

  /** The target's early half of loading `rows`, if it has one (the engine's). */
  #prepare(rows: LineDoc<RowCell[]>[], header: string[]): PreparedBatch | undefined {
    if (!this.target.prepareRows) return undefined;
    const p = this.target.prepareRows(this.opts.table, { columns: header, rows: rows.map((d) => d.doc) }, this.opts.replace);
    p.catch(() => {}); // a failure is thrown where the first send awaits it; a batch never sent drops it
    return p;
  }

  /** Waits for the batch in flight; false when it stopped the import (a failed send throws here). */
  async drained(): Promise<boolean> {
    const inflight = this.#inflight;
    this.#inflight = undefined;
    if (!inflight) return true;
    const r = await inflight;
    phase('drained');
    if ('error' in r) throw r.error;
    return r.ok;
  }

  /** Column kinds: the table's when it exists, else the first batch's values say. */
  async #resolveKinds(records: InputRecord[], header: string[]): Promise<void> {
    const columns = await this.target.describe(this.opts.table);
    if (columns) this.#kinds = kindsOfColumns(columns);
    else this.#kinds = inferKinds(header, records.flatMap((r) => ('values' in r ? [r.values] : [])));
  }
}

/**
 * The rows of `records` from `from` on under `header` (cellsOrError, each converted in place) pushed to `rows` with
 * their lines, up to the first that is no row: that one as a bad line with its index, or undefined when
 * every one is a row. The batch's loop in a plain function of its own: inside the async #flush, V8
 * compiled it 8 times in one gcide import (an on-stack replacement per batch, deopts of the inlined rows).
 */
function literalRowsInto(rows: LineDoc<RowCell[]>[], records: InputRecord[], from: number, header: string[],
  kinds: Map<string, ColumnKind>, lower: string[]): (BadLine & { at: number }) | undefined {
  for (let i = from; i < records.length; i++) {
    const rec = records[i]!;
    const row = 'values' in rec ? cellsOrError(header, rec.values, kinds, lower) : 'error' in rec ? rec.error : 'a JSON object where rows were expected';
    if (typeof row === 'string') return { at: i, line: rec.line, error: row };
    rows.push({ line: rec.line, doc: row });
  }
  return undefined;
}
