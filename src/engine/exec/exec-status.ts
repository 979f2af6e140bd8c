/** SHOW STATUS, SHOW TABLE t STATUS, SHOW THREADS and SHOW PROCESSLIST from the process's counters. */
import { COMMANDS, metrics, type Activity } from '../../metrics/metrics.js';
import { WINDOW_STATS, type LatencyWindow } from '../../metrics/latency-window.js';
import { rows, stringColumns, type RowsResult } from '../result.js';
import type { Table } from '../table.js';

function windowRows(prefix: string, w: LatencyWindow): string[][] {
  return WINDOW_STATS.map((s) => [`${prefix}_stats_ms_${s}`, w.text(s)]);
}

/** Manticore's SHOW STATUS counters that a single quarry node has. */
export function statusRows(version: string): string[][] {
  const m = metrics;
  const avg = m.queries ? m.queryWallMs / 1000 / m.queries : 0;
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const distAvg = (ms: number) => seconds(ms / Math.max(1, m.distQueries));
  const working = m.activities().filter((a) => a.info).length;
  return [
    ['uptime', String(m.uptimeSeconds())],
    ['connections', String(m.connections)],
    ['maxed_out', String(m.maxedOut)],
    ['version', version],
    ['mysql_version', version],
    ...COMMANDS.map((c) => [`command_${c}`, String(m.commands.get(c) ?? 0)]),
    ...windowRows('insert_replace', m.windows.insert_replace),
    ...windowRows('search', m.windows.search),
    ...windowRows('update', m.windows.update),
    ['queries', String(m.queries)],
    ['dist_queries', String(m.distQueries)],
    ['workers_total', '1'],
    ['workers_active', String(working)],
    ['workers_clients', String(m.activities().length)],
    ['query_wall', (m.queryWallMs / 1000).toFixed(3)],
    ['query_cpu', 'OFF'],
    ['dist_wall', seconds(m.distWallMs)],
    ['dist_local', seconds(m.distLocalMs)],
    ['dist_wait', seconds(m.distWaitMs)],
    ['avg_query_wall', avg.toFixed(3)],
    ['avg_query_cpu', 'OFF'],
    ['avg_dist_wall', distAvg(m.distWallMs)],
    ['avg_dist_local', distAvg(m.distLocalMs)],
    ['avg_dist_wait', distAvg(m.distWaitMs)],
  ];
}

/** `{"queries":N, "avg":..., ...}` over one window, as SHOW TABLE STATUS prints query_time_*. */
function queryTime(w: LatencyWindow | undefined, i: number): string {
  if (!w) return '{"queries":0, "avg":"-", "min":"-", "max":"-", "pct95":"-", "pct99":"-"}';
  const n = w.countText().split(' ')[i]!;
  const part = (s: (typeof WINDOW_STATS)[number]) => {
    const v = w.text(s).split(' ')[i]!;
    return v === 'N/A' ? '"-"' : v;
  };
  return `{"queries":${n}, "avg":${part('avg')}, "min":${part('min')}, "max":${part('max')}, "pct95":${part('pct95')}, "pct99":${part('pct99')}}`;
}

/** SHOW TABLE t STATUS; `tid` is the table's last write sequence (Manticore's last transaction id). */
export function tableStatusRows(t: Table, diskBytes: number, tid: bigint): string[][] {
  const segs = t.index.segments;
  const killed = segs.reduce((n, g) => n + g.rows - g.live, 0);
  const totalRows = segs.reduce((n, g) => n + g.rows, 0);
  const ramBytes = segs.reduce((n, g) => n + g.blobLen, 0);
  const w = metrics.tableSearch.get(t.name);
  const cmds = metrics.tableCommands.get(t.name);
  return [
    ['index_type', 'rt'],
    ['indexed_documents', String(t.index.count())],
    ['indexed_bytes', String(ramBytes)],
    ['ram_bytes', String(ramBytes)],
    ['disk_bytes', String(diskBytes)],
    ['killed_documents', String(killed)],
    ['killed_rate', `${(totalRows ? (100 * killed) / totalRows : 0).toFixed(2)}%`],
    ['ram_chunk_segments_count', String(segs.length)],
    ['disk_chunks', '0'],
    ['tid', String(tid)],
    ['locked', '0'],
    ['query_time_1min', queryTime(w, 0)],
    ['query_time_5min', queryTime(w, 1)],
    ['query_time_15min', queryTime(w, 2)],
    ...['search', 'excerpt', 'update', 'keywords', 'status', 'delete', 'insert', 'replace', 'commit', 'suggest', 'callpq', 'getfield']
      .map((c) => [`command_${c}`, String(cmds?.get(c as never) ?? 0)]),
  ];
}

/** Units of searchd's `%t` timespan, largest first: one rounded number with the largest unit it reaches. */
const SPAN_UNITS: [number, string][] = [[604_800e6, 'w'], [86_400e6, 'd'], [3_600e6, 'h'], [60e6, 'm'], [1e6, 's'], [1e3, 'ms'], [1, 'us']];

/** A duration in microseconds as searchd's `%t` prints it ("2s", "15ms", "300us"). */
export function timespan(us: number): string {
  const [unit, suffix] = SPAN_UNITS.find(([u]) => us >= u) ?? SPAN_UNITS[SPAN_UNITS.length - 1]!;
  return `${Math.round(us / unit)}${suffix}`;
}

/** searchd's "This/prev job time": the running job's time so far, else the previous one's with " (prev)". */
function jobTime(a: Activity, now: number): string {
  return a.info ? timespan((now - a.startedAt) * 1000) : `${timespan(a.prevMs * 1000)} (prev)`;
}

/** SHOW THREADS' OPTION format / columns as searchd reads them (HandleShowThreads). */
export interface ThreadsOptions {
  /** format=all: searchd adds the Chain column (and its idle system threads, which quarry has not). */
  all?: boolean;
  /** columns=N: Info cut to N characters; searchd clamps a negative N to 0. */
  columns?: number;
}

/**
 * searchd's Chain: the task names stacked on the thread, each with a trailing space; a client
 * connection is "Conn ", and a search running on it adds "Query " (search_handler.cpp).
 */
function chain(a: Activity): string {
  return /^\s*select\b/i.test(a.info) ? 'Conn Query ' : 'Conn ';
}

/** One row per open connection: one event loop serves them all, so a "thread" here is a connection. */
export function threadsResult(opts: ThreadsOptions = {}): RowsResult {
  const now = Date.now();
  // searchd's columns and types (HandleShowThreads); "CPU activity" only exists under --cpustats, which quarry has not
  const columns = [{ name: 'TID', kind: 'uint' as const }, ...stringColumns('Name', 'Proto', 'State', 'Connection from'),
    { name: 'ConnID', kind: 'bigint' as const }, ...stringColumns('This/prev job time'), { name: 'Jobs done', kind: 'uint' as const },
    ...stringColumns('Thread status', ...(opts.all ? ['Chain'] : []), 'Info')];
  const info = (a: Activity) => (opts.columns === undefined ? a.info : a.info.slice(0, Math.max(0, opts.columns)));
  return rows(columns, metrics.activities().map((a) => [process.pid, 'work_0', a.proto, a.info ? 'query' : 'net_idle', a.from,
    BigInt(a.connId), jobTime(a, now), a.jobsDone, a.info ? 'working' : 'idling', ...(opts.all ? [chain(a)] : []), info(a)]));
}

/** MySQL's Info without FULL: the statement's first 100 characters. */
const PROCESSLIST_INFO_CHARS = 100;

/** MySQL's SHOW [FULL] PROCESSLIST columns over the same list. */
export function processlistResult(full = false): RowsResult {
  const now = Date.now();
  return rows(stringColumns('Id', 'User', 'Host', 'db', 'Command', 'Time', 'State', 'Info'),
    metrics.activities().map((a) => [String(a.connId), 'root', a.from, 'Manticore', a.info ? 'Query' : 'Sleep',
      String(Math.floor((now - a.startedAt) / 1000)), a.info ? 'executing' : '', full ? a.info : a.info.slice(0, PROCESSLIST_INFO_CHARS)]));
}
