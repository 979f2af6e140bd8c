/** The engine's public contract: what protocols and the embedded API call. */
import type { JsonApi } from './json/json-api.js';
import type { Result } from './result.js';
import type { Session } from './session.js';
import type { ExportSummary } from './export/export-table.js';
import type { PreparedRows, RowBatch, RowLoadOutcome } from './row-load.js';

export interface EngineOptions {
  /** Data directory: the store of record, segment files and manifests live here. */
  dataDir: string;
  /** Optional config file in Manticore's format (table sections for TRUNCATE ... WITH RECONFIGURE). */
  configPath?: string;
}

export interface Engine {
  /**
   * Runs one or more `;`-separated SphinxQL statements. Each statement yields one Result; an
   * error in one statement yields an ErrorResult and stops the statements after it, as Manticore does.
   * Never rejects for a user error: rejections are reserved for closed engines and internal faults.
   */
  execute(sql: string, session: Session): Promise<Result[]>;
  /** The HTTP JSON API's engine side (/search, /insert, /replace, /update, /delete, /bulk). */
  readonly json?: JsonApi;
  /**
   * Writes table `name` as a static folder for a page (`quarry export`'s output: table.json and its
   * chunks, table.qimg, release.wasm, quarry-browser.js) into `outDir`, from the running engine.
   */
  exportTable?(name: string, outDir: string): Promise<ExportSummary>;
  /**
   * Starts a bulk load of table `name` (`quarry import`; none when there is no such table): its writes are not merged until the
   * returned release(), which runs the merge policy once and resolves when it has settled.
   */
  holdMerges?(name: string): () => Promise<void>;
  /**
   * Loads rows into table `name` as one write (`quarry import --data`'s direct path, row-load.ts):
   * no statement or `/bulk` line per row. A rejected row is named in the outcome; nothing of the batch
   * is written then.
   */
  loadRows?(name: string, batch: RowBatch, replace: boolean): Promise<RowLoadOutcome>;
  /** loadRows' first half: checked and built, written by commit() (a bulk load prepares the next batch meanwhile). */
  prepareRows?(name: string, batch: RowBatch, replace: boolean): Promise<PreparedRows>;
  /** Full-text values of rows a bulk load is still reading, for the build thread to tokenize meanwhile (row-load.ts primeRows). */
  primeRows?(name: string, columns: string[], rows: string[][]): void;
  /**
   * Starts a checkpoint pass now rather than at the timer's next (a bulk load after each batch: its new
   * segment is written while the next one builds, not all of them at close); resolves when it is done.
   */
  checkpointNow?(): Promise<void>;
  /** Flushes segments and closes the store; every acknowledged write is already durable. */
  close(): Promise<void>;
}
