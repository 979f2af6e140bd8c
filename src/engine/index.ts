/** The engine: open a data directory, run SphinxQL, get results in the one result model. */
import { collationName } from '../util/collation.js';
import { metrics } from '../metrics/metrics.js';
import { commandOf, kindOf, searchSummaryOf, tableOf } from '../metrics/statement-kind.js';
import { metaAfterError, metaBeforeStatement } from './exec/last-meta.js';
import { availableParallelism } from 'node:os';
import { Store } from '../store/index.js';
import { closeQueryPools, releaseIdleQueryPools, setQueryMemory, setQueryThreads } from '../index/parallel/query-threads.js';
import { sharedCore } from '../wasm/core.js';
import { parseSql } from '../sql/parse-sql.js';
import type { Statement } from '../sql/ast.js';
import { ParseCache } from './parse-cache.js';
import { deepFreeze } from '../util/deep-freeze.js';
import { asSearchError, SearchError } from '../util/errors.js';
import { Catalog } from './catalog.js';
import { exportOpenTable, type ExportSummary } from './export/export-table.js';
import { installNodeHost } from './node-host.js';
import { configureSnippetFiles } from './snippets/snippet-files.js';
import { CHECKPOINT_INTERVAL_MS, Checkpointer } from './durability/checkpointer.js';
import { collectGarbage, IdleCollector } from './background/idle-gc.js';
import { releaseCoreFieldScanners } from '../wasm/field-scanner.js';
import type { ConfigTable } from './exec/exec-ddl.js';
import type { Table } from './table.js';
import { executeStatement, type ExecContext } from './exec/executor.js';
import { IdGenerator } from './id-generator.js';
import { DistributedTables } from './distributed/dist-registry.js';
import { createJsonApi, type JsonApi } from './json/json-api.js';
import type { Engine, EngineOptions } from './engine.js';
import type { Result } from './result.js';
import { closeAllPools } from './distributed/agent-pools.js';
import { startHaPings } from './distributed/agent-ping.js';
import { configureHa, haOverrides } from './distributed/ha-settings.js';
import { defaultSettings } from './server-vars.js';
import type { Session } from './session.js';
import { logError } from '../util/server-log.js';
import { phase } from '../util/phase-trace.js';
import { prepareRows, primeRows, type PreparedRows, type RowBatch, type RowLoadOutcome } from './row-load.js';
import { CLUSTERS_META_KEY, storedClusterOf } from './replication-hook.js';

export type { Engine, EngineOptions } from './engine.js';
export type { Result, RowsResult, OkResult, ErrorResult, ResultColumn, Cell, CellKind, SearchMeta } from './result.js';
export { newSession, type Session } from './session.js';
export type { ConfigTable } from './exec/exec-ddl.js';
export type * from './json/json-api.js';
export type { PreparedRows, RowBatch, RowLoadOutcome } from './row-load.js';

const AUTO_ID_META = 'auto_id_reserved';

export interface OpenOptions extends EngineOptions {
  /** Table sections of the config file, by lower-cased name (TRUNCATE ... WITH RECONFIGURE). */
  configTables?: Map<string, ConfigTable>;
  /** The config file's `type = distributed` sections: key -> every value (local and agent repeat). */
  configDistributed?: Map<string, Record<string, string[]>>;
  /** server_id for auto ids (bits 56-62). */
  serverId?: number;
  /** searchd snippets_file_prefix: CALL SNIPPETS load_files reads only below it (unset = off). */
  snippetsFilePrefix?: string;
  /** searchd max_threads_per_query: worker threads for load_files. */
  maxThreadsPerQuery?: number;
  /**
   * searchd threads: worker threads evaluating queries over big tables (index/parallel/query-threads.ts);
   * default os.availableParallelism(), 1 keeps every query on the protocol thread.
   */
  threads?: number;
  /**
   * Replication (src/replication/, when searchd names replication_nats): installs its hook in the
   * context once the catalog is open; closed before the store.
   */
  replicate?: (ctx: ExecContext, store: Store) => Promise<{ close(): Promise<void> }>;
  /**
   * max_query_memory: the core memory one query may take over one segment (or row range) for its
   * matches, groups and result, in bytes; past it the query fails and the core keeps serving.
   * Default DEFAULT_MAX_QUERY_MEMORY; 0: no cap but the core's own 4 GiB.
   */
  maxQueryMemory?: number;
  /** SET GLOBAL of the server's own settings (GlobalSettings.onServerSetting): the server's logs take them. */
  onServerSetting?: (name: string, value: string) => void;
  /** The server's query_log_format / log_level as they are now (SHOW VARIABLES). */
  serverSetting?: (name: string) => string | undefined;
  /** searchd collation_server: strings' collation in queries (libc_ci, libc_cs, utf8_general_ci, binary); unset or unknown: libc_ci. */
  collationServer?: string;
  /** searchd ha_ping_interval, ha_period_karma, persistent_connections_limit as written (distributed/ha-settings.ts). */
  searchdHa?: Record<string, string[]>;
  /** searchd auto_optimize (index-factory.ts): 0 no idle compaction, 1 (default), 2 twice the cutoff; this engine's tables only. */
  autoOptimize?: 0 | 1 | 2;
}

/** max_query_memory when unset: a quarter of wasm32's 4 GiB, so one query cannot starve the others. */
export const DEFAULT_MAX_QUERY_MEMORY = 1 << 30;

/** Repeated SELECT texts kept parsed (most applications send a few query shapes again and again). */
const STATEMENT_CACHE_ENTRIES = 1024;
const STATEMENT_CACHE_MAX_TEXT = 2048;

/** Text that starts with INSERT or REPLACE (anchored: only its first characters are read). */
const WRITE_VERB = /^\s*(?:insert|replace)\s/i;

/** parseSql, memoized for requests of SELECTs only (their trees are never changed by the executor). */
function parseCached(cache: ParseCache<Statement[]>, sql: string): Statement[] {
  // an INSERT or REPLACE is never kept: no hashing of its whole text (values included) for a lookup
  if (WRITE_VERB.test(sql)) return parseSql(sql);
  const hit = cache.get(sql);
  if (hit) return hit;
  const statements = parseSql(sql);
  return statements.every((s) => s.kind === 'select') ? cache.set(sql, deepFreeze(statements)) : statements;
}

class QuarryEngine implements Engine {
  #closed = false;
  readonly #parsed = new ParseCache<Statement[]>(STATEMENT_CACHE_ENTRIES, STATEMENT_CACHE_MAX_TEXT);
  readonly json: JsonApi;
  constructor(
    private readonly ctx: ExecContext, private readonly store: Store, private readonly checkpoints: Checkpointer,
    private readonly idle: { stop(): void }, private readonly replication?: { close(): Promise<void> },
    private readonly stopPings: () => void = () => undefined,
  ) {
    this.json = createJsonApi(ctx, () => {
      if (this.#closed) throw new Error('engine is closed');
    });
  }

  async execute(sql: string, session: Session): Promise<Result[]> {
    if (this.#closed) throw new Error('engine is closed');
    let statements;
    try {
      statements = parseCached(this.#parsed, sql);
    } catch (e) {
      const err = asSearchError(e);
      metrics.statementListener?.({ kind: 'parse_error', text: sql, ms: 0, error: err.message, connId: session.connId, peer: session.peer });
      metaAfterError(undefined, session, err.message);
      return [{ kind: 'error', code: err.code, message: err.message }];
    }
    const out: Result[] = [];
    for (const st of statements) {
      const cmd = commandOf(st);
      if (cmd) metrics.count(cmd, tableOf(st));
      const t0 = performance.now();
      metaBeforeStatement(st, session);
      try {
        const r = await executeStatement(this.ctx, st, session);
        const ms = performance.now() - t0;
        const first = Array.isArray(r) ? r[0] : r;
        const found = first?.kind === 'rows' ? first.meta?.totalFound ?? first.rows.length : undefined;
        metrics.observe(kindOf(st), tableOf(st), ms, found);
        metrics.statementListener?.({ kind: kindOf(st), text: st.text, ms, found, connId: session.connId, peer: session.peer, search: st.kind === 'select' ? searchSummaryOf(st) : undefined });
        if (st.kind === 'create_table' || st.kind === 'drop_table') metrics.forgetTable(st.table.toLowerCase());
        if (Array.isArray(r)) out.push(...r);
        else out.push(r);
      } catch (e) {
        const err = asSearchError(e);
        if (err.code === 'INTERNAL') logError(`internal error running '${st.text.slice(0, 200)}': ${err.message}`, e);
        metrics.statementListener?.({ kind: kindOf(st), text: st.text, ms: performance.now() - t0, error: err.message, connId: session.connId, peer: session.peer });
        metaAfterError(st, session, err.message);
        out.push({ kind: 'error', code: err.code, message: err.message });
        break;
      }
    }
    return out;
  }

  async exportTable(name: string, outDir: string): Promise<ExportSummary> {
    if (this.#closed) throw new Error('engine is closed');
    const table = this.ctx.catalog.get(name);
    if (!table) throw new SearchError('UNKNOWN_TABLE', `unknown table '${name}'`);
    // under the table's mutex: no write lands between the segments' merge and the documents' read
    return table.mutex.run(() => exportOpenTable(table, outDir));
  }

  holdMerges(name: string): () => Promise<void> {
    if (this.#closed) throw new Error('engine is closed');
    // no such (local) table: nothing to hold; the writes themselves then say why they fail
    const table = this.ctx.catalog.get(name);
    return table ? table.index.holdMerges() : async () => {};
  }

  async loadRows(name: string, batch: RowBatch, replace: boolean): Promise<RowLoadOutcome> {
    return (await this.prepareRows(name, batch, replace)).commit();
  }

  async prepareRows(name: string, batch: RowBatch, replace: boolean): Promise<PreparedRows> {
    if (this.#closed) throw new Error('engine is closed');
    // a replicated table's writes go through its cluster's stream: never around it
    if (this.ctx.replication) this.ctx.replication.guardLocal(name, undefined);
    else {
      // no replication running (a data directory opened by quarry import): membership is in the store
      const cluster = storedClusterOf(this.store.getMeta(CLUSTERS_META_KEY), name);
      if (cluster) throw new SearchError('BAD_VALUE', `table '${name.toLowerCase()}' is a part of cluster '${cluster}': load it through a server of the cluster (quarry import --url)`);
    }
    return prepareRows(this.ctx, name.toLowerCase(), batch, replace);
  }

  primeRows(name: string, columns: string[], rows: string[][]): void {
    if (!this.#closed) primeRows(this.ctx, name.toLowerCase(), columns, rows);
  }

  checkpointNow(): Promise<void> {
    if (this.#closed) throw new Error('engine is closed');
    return this.checkpoints.runOnce();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.idle.stop();
    // no compaction starts while the last checkpoint is written: it could not finish before the end
    for (const t of this.ctx.catalog.all()) t.index.stopIdleMerges();
    this.stopPings();
    closeAllPools();
    await this.replication?.close();
    await this.checkpoints.stop();
    await this.store.close();
    // the query threads' ports would keep an embedding process alive after close (they restart on
    // the next query of any engine still open)
    await closeQueryPools();
  }
}

/** Each table's last write sequence: changes with every write, CREATE and DROP (what the idle collector waits for). */
function writeMark(store: Store, tables: readonly Table[]): string {
  let mark = '';
  for (const t of tables) {
    try {
      mark += `${t.name}:${store.lastSeq(t.name)},`;
    } catch {
      mark += `${t.name}:gone,`; // dropped meanwhile
    }
  }
  return mark;
}

export async function openEngine(opts: OpenOptions): Promise<Engine> {
  installNodeHost();
  configureSnippetFiles({ prefix: opts.snippetsFilePrefix ?? '', maxThreads: opts.maxThreadsPerQuery });
  const threads = opts.threads ?? availableParallelism();
  await setQueryThreads(threads);
  await setQueryMemory(sharedCore(), opts.maxQueryMemory ?? DEFAULT_MAX_QUERY_MEMORY);
  configureHa(haOverrides(opts.searchdHa ?? {}, 'searchd'));
  const store = Store.open(opts.dataDir);
  const catalog = Catalog.open(store, opts.autoOptimize);
  // A table declared in the config file is created on first start (later changes need RECONFIGURE).
  for (const [name, section] of opts.configTables ?? []) {
    if (!catalog.has(name)) await catalog.create({ ...section.schema, name }, { copyFiles: false });
  }
  const ids = new IdGenerator({
    load: () => BigInt((store.getMeta(AUTO_ID_META) as string | undefined) ?? '0'),
    save: (upTo) => store.setMeta(AUTO_ID_META, upTo.toString()),
  }, opts.serverId ?? 0);
  const dist = DistributedTables.open(store, opts.configDistributed ?? new Map(), (n) => catalog.has(n));
  catalog.reserved = (n) => dist.has(n);
  const settings = defaultSettings();
  if (opts.collationServer !== undefined) {
    // searchd warns of an unknown name and keeps its default
    const name = collationName(opts.collationServer);
    if (name) settings.collation_server = name;
    else console.warn(`quarry: warning: Unknown collation: '${opts.collationServer}'`);
  }
  if (opts.onServerSetting) settings.onServerSetting = opts.onServerSetting;
  if (opts.serverSetting) settings.serverSetting = opts.serverSetting;
  const ctx: ExecContext = { catalog, ids, settings, config: opts.configTables ?? new Map(), dist };
  // garbage of loads, merges and checkpoints collected once the process is idle (background/idle-gc.ts),
  // of queries once it has been idle longer; the query threads with it, and the field scanner's core memory
  // at the first follow-up (5 s later): dropped at the first collection, a pause of 2-7 s between bursts of
  // writes (a client's batches, the insert bench's phases) made the next burst's seal scan its words into a
  // new token cache and stem each again (a 2,000-row seal of words seen before: ~50 ms of CPU against ~30)
  const idle = new IdleCollector(undefined, (followUp) => {
    phase(followUp ? 'idle collection (follow-up)' : 'idle collection');
    if (followUp) releaseCoreFieldScanners();
    void releaseIdleQueryPools();
    collectGarbage();
  }, () => writeMark(store, catalog.all()));
  idle.start();
  // lmdb's mapped pages released once idle after any work, queries included (reads of stored text map
  // the document records): the environment reopened in one synchronous step (Store.releaseMappedPages)
  const unmap = new IdleCollector(undefined, () => { phase('idle unmap'); store.releaseMappedPages(); });
  unmap.start();
  const stopIdle = { stop: () => { idle.stop(); unmap.stop(); } };
  const checkpoints = new Checkpointer(store, () => catalog.all(), () => idle.noteWork());
  for (const [name, seq] of catalog.covered) checkpoints.noteCovered(name, seq);
  ctx.checkpointNow = () => checkpoints.runFresh();
  checkpoints.start(Number(process.env.QUARRY_CHECKPOINT_MS) || CHECKPOINT_INTERVAL_MS);
  let replication: { close(): Promise<void> } | undefined;
  try {
    replication = await opts.replicate?.(ctx, store);
  } catch (e) {
    stopIdle.stop();
    await checkpoints.stop();
    await store.close();
    throw e;
  }
  // ha_ping_interval: the mirrors of mirrored agents are pinged while idle (distributed/agent-ping.ts)
  const stopPings = startHaPings(() => dist.names().map((n) => dist.get(n)!));
  return new QuarryEngine(ctx, store, checkpoints, stopIdle, replication, stopPings);
}
