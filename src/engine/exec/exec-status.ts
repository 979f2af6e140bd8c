/** SHOW STATUS, SHOW TABLE t STATUS, SHOW THREADS and SHOW PROCESSLIST from the process's counters. */
import { COMMANDS, metrics, type Activity } from '../../metrics/metrics.js';
import { LatencyWindow, WINDOW_STATS } from '../../metrics/latency-window.js';
import { EMPTY_STATS, STAT_INTERVALS } from '../../metrics/table-search-stats.js';
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

/** A size setting as written (`128M`, `1g`, `65536`) in bytes; undefined when it is none. */
function sizeBytes(text: string | undefined): number | undefined {
  const m = /^\s*(\d+)\s*([kmg]?)\s*$/i.exec(text ?? '');
  if (!m) return undefined;
  return Number(m[1]) * ({ '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 } as Record<string, number>)[m[2]!.toLowerCase()]!;
}

/** searchd's rt_mem_limit default (128M). */
const DEFAULT_MEM_LIMIT = 128 * 1024 * 1024;

/**
 * SHOW TABLE t STATUS of an RT table: searchd's rows in its order (AddPlainIndexStatus: table_type,
 * AddDiskIndexStatus for RT, then ServedStats_c::GetIndexQueryStats). quarry's segments all live in
 * memory (the RAM chunk's segments; no disk chunks, nothing mapped), so disk_mapped* and disk_chunks
 * are 0 and ram_chunk is ram_bytes; indexed_bytes is what the segments hold, not the source text's
 * length. `tid` is the table's last write sequence; `tid_saved` the one its last checkpoint covers
 * (searchd's m_iSavedTID: what the table's own files hold, the log replayed past it at startup).
 */
export function tableStatusRows(t: Table, diskBytes: number, tid: bigint, tidSaved: bigint): string[][] {
  const segs = t.index.segments;
  const killed = segs.reduce((n, g) => n + g.rows - g.live, 0);
  const docs = t.index.count();
  const ramBytes = segs.reduce((n, g) => n + g.blobLen, 0);
  // searchd counts the request before it answers (HandleMysqlShowIndexStatus: IncCmd STATUS)
  metrics.countTable('status', t.name);
  const w = metrics.tableSearch.get(t.name) ?? EMPTY_STATS;
  const cmds = metrics.tableCommands.get(t.name);
  const memLimit = sizeBytes(t.schema.settings['rt_mem_limit']) ?? DEFAULT_MEM_LIMIT;
  // searchd: dead * 10000 / (docs + dead) printed as a fixed-point percentage (%0.2F, truncated)
  const total = docs + killed;
  const killedRate = total ? Math.floor((killed * 10000) / total) : 0;
  const windows = metrics.tableWindows.get(t.name);
  return [
    ['table_type', 'rt'],
    ['indexed_documents', String(docs)],
    ['indexed_bytes', String(ramBytes)],
    ['ram_bytes', String(ramBytes)],
    ['disk_bytes', String(diskBytes)],
    ...['disk_mapped', 'disk_mapped_cached', 'disk_mapped_doclists', 'disk_mapped_cached_doclists', 'disk_mapped_hitlists', 'disk_mapped_cached_hitlists'].map((n) => [n, '0']),
    ['killed_documents', String(killed)],
    ['killed_rate', `${(killedRate / 100).toFixed(2)}%`],
    ['ram_chunk', String(ramBytes)],
    ['ram_chunk_segments_count', String(segs.length)],
    ['disk_chunks', '0'],
    ['mem_limit', String(memLimit)],
    // the share of mem_limit the RAM chunk may fill before it is saved: searchd starts at 95%; quarry keeps no such rate
    ['mem_limit_rate', '95.00%'],
    ['ram_bytes_retired', '0'],
    ['optimizing', '0'],
    ['locked', '0'],
    ['tid', String(tid)],
    ['tid_saved', String(tidSaved)],
    ...STAT_INTERVALS.map((n, i) => [`query_time_${n}`, w.queryTime(i)]),
    ...STAT_INTERVALS.map((n, i) => [`found_rows_${n}`, w.foundRows(i)]),
    ...['search', 'excerpt', 'update', 'keywords', 'status', 'delete', 'insert', 'replace', 'commit', 'suggest', 'callpq', 'getfield', 'shard_write', 'optimize']
      .map((c) => [`command_${c}`, String(cmds?.get(c as never) ?? 0)]),
    ...windowRows('insert_replace', windows?.insert_replace ?? EMPTY_WINDOW),
    ...windowRows('search', w.times),
    ...windowRows('update', windows?.update ?? EMPTY_WINDOW),
  ];
}

const EMPTY_WINDOW = new LatencyWindow();

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
