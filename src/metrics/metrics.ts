/**
 * The server's counters, in one place: what SHOW STATUS, SHOW THREADS / SHOW PROCESSLIST and
 * /metrics report. One instance per process (`metrics`): protocols count connections and what each
 * one runs now, the engine counts statements by Manticore's command kinds and their times.
 */
import { LatencyWindow } from './latency-window.js';
import { TableSearchStats } from './table-search-stats.js';
import type { StatementEvent } from './query-log.js';

/** Manticore's command_* counters, in the order SHOW STATUS lists them. */
export const COMMANDS = [
  'search', 'excerpt', 'update', 'keywords', 'persist', 'status', 'flushattrs', 'sphinxql', 'ping', 'delete',
  'set', 'insert', 'replace', 'commit', 'suggest', 'json', 'callpq', 'cluster', 'getfield',
] as const;
export type Command = (typeof COMMANDS)[number];

/** One open client connection and what it runs now (SHOW THREADS, SHOW PROCESSLIST). */
export interface Activity {
  connId: number;
  proto: 'mysql' | 'http';
  from: string;
  /** The statement or request running now; '' when idle. */
  info: string;
  /** When the current (or previous) job started, ms since the epoch. */
  startedAt: number;
  /** Duration of the previous job, ms (shown while idle). */
  prevMs: number;
  jobsDone: number;
}

/** Upper bounds (seconds) of the latency histograms' buckets, Prometheus style. */
export const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class Histogram {
  readonly counts = new Array<number>(LATENCY_BUCKETS.length).fill(0);
  count = 0;
  sumSeconds = 0;

  observe(seconds: number): void {
    this.count++;
    this.sumSeconds += seconds;
    for (let i = 0; i < LATENCY_BUCKETS.length; i++) if (seconds <= LATENCY_BUCKETS[i]!) this.counts[i]!++;
  }
}

export class ServerMetrics {
  readonly startedAt = Date.now();
  /** Connections accepted since start (both listeners). */
  connections = 0;
  /** Connections refused over max_connections. */
  maxedOut = 0;
  readonly commands = new Map<Command, number>(COMMANDS.map((c) => [c, 0]));
  /** command_* per table (SHOW TABLE t STATUS). */
  readonly tableCommands = new Map<string, Map<Command, number>>();
  /** Search times and found rows per table (SHOW TABLE t STATUS query_time_*, found_rows_*). */
  readonly tableSearch = new Map<string, TableSearchStats>();
  /** Manticore's insert_replace/update_stats_ms_* windows per table (SHOW TABLE t STATUS; search's is tableSearch's times). */
  readonly tableWindows = new Map<string, { insert_replace: LatencyWindow; update: LatencyWindow }>();
  /** Search queries (SELECT over a table, JSON /search) and their total wall time. */
  queries = 0;
  queryWallMs = 0;
  /**
   * Distributed queries that asked remote agents (Manticore counts no others: searchd's
   * CalcGlobalStats), their wall time, the time their local tables took, and the agents' times added.
   */
  distQueries = 0;
  distWallMs = 0;
  distLocalMs = 0;
  distWaitMs = 0;
  /** Manticore's *_stats_ms_* windows (1, 5, 15 minutes). */
  readonly windows = { insert_replace: new LatencyWindow(), search: new LatencyWindow(), update: new LatencyWindow() };
  /** Latency histograms by statement kind and by table, for /metrics. */
  readonly byStatement = new Map<string, Histogram>();
  readonly byTable = new Map<string, Histogram>();
  /** Called after every statement (the query log listens here). */
  statementListener: ((e: StatementEvent) => void) | undefined;
  readonly #open = new Map<number, Activity>();
  /** From 1, as MySQL's thread ids and Manticore's connection ids: the handshake's id, and some clients read 0 as none. */
  #nextConnId = 1;

  count(cmd: Command, table?: string): void {
    this.commands.set(cmd, (this.commands.get(cmd) ?? 0) + 1);
    if (table) this.countTable(cmd, table);
  }

  /** A command on one table only (SHOW TABLE t STATUS counts its table's command_status, not the server's). */
  countTable(cmd: Command, table: string): void {
    let m = this.tableCommands.get(table);
    if (!m) this.tableCommands.set(table, (m = new Map()));
    m.set(cmd, (m.get(cmd) ?? 0) + 1);
  }

  /** One distributed query that reached remote agents. */
  observeDist(wallMs: number, localMs: number, waitMs: number): void {
    this.distQueries++;
    this.distWallMs += wallMs;
    this.distLocalMs += localMs;
    this.distWaitMs += waitMs;
  }

  /**
   * A finished statement: `kind` is the statement kind (select, insert, ...), `table` its table if any,
   * `found` a search's total found rows.
   */
  observe(kind: string, table: string | undefined, ms: number, found?: number): void {
    const s = ms / 1000;
    histogram(this.byStatement, kind).observe(s);
    if (table) histogram(this.byTable, table).observe(s);
    if (kind === 'select' && table) {
      this.queries++;
      this.queryWallMs += ms;
      this.windows.search.add(ms);
      let w = this.tableSearch.get(table);
      if (!w) this.tableSearch.set(table, (w = new TableSearchStats()));
      w.add(ms, found);
    } else if (kind === 'insert' || kind === 'replace') {
      this.windows.insert_replace.add(ms);
      this.#tableWindows(table)?.insert_replace.add(ms);
    } else if (kind === 'update') {
      this.windows.update.add(ms);
      this.#tableWindows(table)?.update.add(ms);
    }
  }

  #tableWindows(table: string | undefined) {
    if (!table) return undefined;
    let w = this.tableWindows.get(table);
    if (!w) this.tableWindows.set(table, (w = { insert_replace: new LatencyWindow(), update: new LatencyWindow() }));
    return w;
  }

  /** A table was created or dropped: its per-table counters start again. */
  forgetTable(table: string): void {
    this.tableCommands.delete(table);
    this.tableSearch.delete(table);
    this.tableWindows.delete(table);
    this.byTable.delete(table);
  }

  /** A connection opened: returns its id (SHOW THREADS' ConnID). */
  open(proto: Activity['proto'], from: string): number {
    const connId = this.#nextConnId++;
    this.connections++;
    this.#open.set(connId, { connId, proto, from, info: '', startedAt: Date.now(), prevMs: 0, jobsDone: 0 });
    return connId;
  }

  close(connId: number): void {
    this.#open.delete(connId);
  }

  begin(connId: number, info: string): void {
    const a = this.#open.get(connId);
    if (!a) return;
    a.info = info;
    a.startedAt = Date.now();
  }

  end(connId: number): void {
    const a = this.#open.get(connId);
    if (!a) return;
    a.prevMs = Date.now() - a.startedAt;
    a.info = '';
    a.jobsDone++;
  }

  activities(): Activity[] {
    return [...this.#open.values()];
  }

  uptimeSeconds(): number {
    return Math.floor((Date.now() - this.startedAt) / 1000);
  }
}

function histogram(m: Map<string, Histogram>, key: string): Histogram {
  let h = m.get(key);
  if (!h) m.set(key, (h = new Histogram()));
  return h;
}

/** The process's counters. */
export const metrics = new ServerMetrics();
