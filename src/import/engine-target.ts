/** The import target inside this process: the embedded engine over a data directory (no server). */
import { openEngine, newSession, type Engine } from '../engine/index.js';
import type { PreparedRows } from '../engine/row-load.js';
import { SearchError } from '../util/errors.js';
import { dataDirHolder } from '../store/data-dir.js';
import { setBuildRunner } from '../engine/background/build-job.js';
import { nodeBuildThreads, type BuildThread } from '../engine/background/build-thread.js';
import { bulkStatement, columnsOf, type BulkOutcome, type ImportDoc, type ImportTarget, type RowBatch, type TargetColumn } from './target.js';
import { phase, threadsCpu } from '../util/phase-trace.js';

export class EngineTarget implements ImportTarget {
  readonly where: string;
  readonly #session = newSession();
  /** Bulk-load holds by table (merges wait until close: see Engine.holdMerges). */
  readonly #holds = new Map<string, () => Promise<void>>();
  /** The batch prepared last and its row count (the batch after the one committing, as an import reads ahead). */
  #latest?: { prepared: PreparedRows; rows: number };
  /** The last batch committed started no checkpoint pass (the next was about to commit). */
  #skipped = false;
  private constructor(private readonly engine: Engine, dataDir: string, private readonly builder: BuildThread | null) {
    this.where = `data directory ${dataDir}`;
  }

  /**
   * Opens the data directory; refuses while another process holds it (its lock names a live
   * process): two processes writing one store would each miss the other's writes.
   */
  static async open(dataDir: string): Promise<EngineTarget> {
    const holder = dataDirHolder(dataDir);
    if (holder !== undefined) {
      throw new SearchError('BAD_SETTING', `data directory ${dataDir} is in use by a running server (pid ${holder.pid}): stop it, or import through it with --url`);
    }
    // the build thread loads its code and core while the engine opens and the first rows are read
    const builder = nodeBuildThreads();
    builder?.warm();
    let engine: Engine;
    try {
      // one query thread: an import has no queries; its batches' segments are built on a thread of their own
      engine = await openEngine({ dataDir, threads: 1 });
      phase('engine open');
    } catch (e) {
      await builder?.close();
      throw e;
    }
    setBuildRunner(builder?.run ?? null, builder?.prime ?? null);
    return new EngineTarget(engine, dataDir, builder);
  }

  async sql(statement: string): Promise<string | undefined> {
    const [r] = await this.engine.execute(statement, this.#session);
    if (r?.kind === 'error') throw new SearchError('BAD_VALUE', r.message);
    return r?.kind === 'ok' ? r.warning : undefined;
  }

  async describe(table: string): Promise<TargetColumn[] | undefined> {
    const [r] = await this.engine.execute(`DESCRIBE ${table}`, this.#session);
    if (!r || r.kind !== 'rows') return undefined;
    return columnsOf(r.rows as unknown[][]);
  }

  async tid(table: string): Promise<string | undefined> {
    const [r] = await this.engine.execute(`SHOW TABLE ${table} STATUS LIKE 'tid'`, this.#session);
    return r?.kind === 'rows' ? r.rows.map((row) => String(row[1]))[0] : undefined;
  }

  async bulk(table: string, docs: ImportDoc[], replace = false): Promise<BulkOutcome> {
    this.#hold(table);
    const lines = docs.map((d) => ({ kind: 'json' as const, value: bulkStatement(table, d, replace) }));
    const reply = await this.engine.json!.bulk(lines);
    if (reply.outcome === 'ok') return { ok: true };
    return { ok: false, failedIndex: reply.currentLine - 1, error: reply.error };
  }

  async loadRows(table: string, batch: RowBatch, replace = false): Promise<BulkOutcome> {
    return (await this.prepareRows(table, batch, replace)).commit();
  }

  async prepareRows(table: string, batch: RowBatch, replace = false): Promise<{ commit(): Promise<BulkOutcome> }> {
    this.#hold(table);
    const prepared = await this.engine.prepareRows!(table, batch, replace);
    const rows = batch.rows.length;
    const mine = { prepared, rows };
    this.#latest = mine;
    return {
      commit: async () => {
        phase('commit start');
        const r = await prepared.commit();
        phase('committed');
        // the batch's segment written to its file now, while the next batch builds: left to close, the
        // checkpoint wrote every segment of the load (80 MB of gcide, serialized, checksummed, fsynced)
        // after the last build, the load's tail; each pass writes only the segments new since the last
        // (a pass logs its own failure; close() runs one again and waits for it). Not when the next
        // batch is built already, or is a short one (a load's last): the pass holds the table's lock,
        // so that batch's commit would wait for it (60-120 ms of gcide's tail, most in writing and
        // syncing the file) where its build takes 10; the next pass, or close's, takes both.
        // Never twice in a row: builds outrunning commits would otherwise leave every segment to close.
        // So which pass writes a segment, and its file's name (seg-<seq>-<pass>-<place>), moves with
        // timing; its bytes and place in the table do not (test/unit/bench/lib/segment-files.test.ts).
        const next = this.#latest;
        const soon = !this.#skipped && next && next !== mine && (next.prepared.ready() || next.rows * 4 <= rows);
        if (r.ok) this.#skipped = !!soon;
        if (r.ok && !soon) this.engine.checkpointNow?.().catch(() => {});
        return r.ok ? { ok: true } : r;
      },
    };
  }

  prime(table: string, columns: string[], rows: string[][]): void {
    this.engine.primeRows?.(table, columns, rows);
  }

  /** A bulk load: each batch one segment, merged once at the end rather than again at every level. */
  #hold(table: string): void {
    if (!this.#holds.has(table)) this.#holds.set(table, this.engine.holdMerges!(table));
  }

  async close(): Promise<void> {
    try {
      phase('close: release holds');
      for (const release of this.#holds.values()) await release();
    } finally {
      phase('close: builder');
      threadsCpu();
      setBuildRunner(null);
      // the build thread's end (its isolate and heap torn down on its own thread: 30-90 ms of wall in
      // traced gcide imports, the thread idle meanwhile) overlaps the engine's close instead of coming
      // before it: both were the import's tail, after its last build. Nothing of the engine's close
      // needs the thread: no build runner is installed any more.
      const builderClosed = this.builder?.close();
      try {
        phase('close: engine');
        await this.engine.close();
      } finally {
        await builderClosed;
      }
    }
  }
}
