/**
 * A distributed table's definition (Manticore's DistributedIndex_t): local tables, remote agents (each
 * one or several mirrors), the HA strategy and the agent timeouts and retries. Built from CREATE TABLE
 * options or a config section, both given as key -> every value in order (local= and agent= repeat).
 */
import { SearchError } from '../../util/errors.js';
import { HA_KEYS, haOverrides, type HaOverrides } from './ha-settings.js';

/** One mirror: a searchd (quarry, Sphinx or Manticore) and the table list it is asked for. */
export interface Mirror {
  host: string;
  port: number;
  indexes: string;
}

/** One `agent` line: a mirror set queried as one shard (one mirror per query, picked by ha_strategy). */
export interface AgentSpec {
  mirrors: Mirror[];
  /** agent_blackhole: sent the query, never waited for (Manticore's blackhole agents). */
  blackhole: boolean;
  /** agent_persistent: queries reuse the table's pooled PERSIST connections (agent-pools.ts). */
  persistent: boolean;
  /** The line as written, for SHOW CREATE TABLE. */
  text: string;
  key: 'agent' | 'agent_persistent' | 'agent_blackhole';
}

export type HaStrategy = 'random' | 'roundrobin' | 'nodeads' | 'noerrors';

export interface DistributedDef {
  name: string;
  locals: string[];
  agents: AgentSpec[];
  haStrategy: HaStrategy;
  /** agent_connect_timeout, ms (Manticore's default 1000). */
  connectTimeoutMs: number;
  /** agent_query_timeout, ms (Manticore's default 3000). */
  queryTimeoutMs: number;
  /** agent_retry_count / mirror_retry_count: further attempts on another mirror after a failure (default 0). */
  retryCount: number;
  /** This table's ha_ping_interval, ha_period_karma, persistent_connections_limit (else the searchd values). */
  ha: HaOverrides;
}

export const AGENT_DEFAULTS = { connectTimeoutMs: 1000, queryTimeoutMs: 3000, retryCount: 0 } as const;
export const HA_STRATEGIES: readonly HaStrategy[] = ['random', 'roundrobin', 'nodeads', 'noerrors'];
/** The binary API's default port (searchd's IANA-registered 9312). */
export const DEFAULT_AGENT_PORT = 9312;

/** Keys a distributed table takes; anything else is refused, as a setting Manticore would not accept. */
export const DISTRIBUTED_KEYS = new Set([
  'type', 'local', 'agent', 'agent_persistent', 'agent_blackhole', 'ha_strategy', 'agent_connect_timeout',
  'agent_query_timeout', 'agent_retry_count', 'mirror_retry_count', 'divide_remote_ranges', ...Object.keys(HA_KEYS),
]);

function bad(table: string, message: string): SearchError {
  return new SearchError('BAD_SETTING', `table '${table}': ${message}`);
}

/**
 * `host:port:idx`, `host:port|host2:port2:idx` (mirrors sharing the trailing table list),
 * `host:port:idx1|host2:port2:idx2` (a list per mirror); a port may be left out (9312).
 */
export function parseAgent(table: string, text: string, key: AgentSpec['key']): AgentSpec {
  let spec = text.trim();
  const opts = /\[([^\]]*)\]\s*$/.exec(spec);
  if (opts) spec = spec.slice(0, opts.index).trim(); // [ha_strategy=..., conn=pconn, blackhole=1]
  const parts = spec.split('|').map((s) => s.trim());
  const mirrors: Array<Omit<Mirror, 'indexes'> & { indexes?: string }> = [];
  for (const part of parts) {
    const bits = part.split(':');
    if (bits.length < 2 || !bits[0]) throw bad(table, `invalid agent line '${text}': expected host:port:table`);
    const host = bits[0]!;
    let port = DEFAULT_AGENT_PORT;
    let rest = bits.slice(1);
    if (/^\d+$/.test(rest[0]!)) {
      port = Number(rest[0]);
      rest = rest.slice(1);
    }
    if (!(port > 0 && port < 65536)) throw bad(table, `invalid agent line '${text}': port ${port} out of range`);
    const indexes = rest.join(':').trim();
    mirrors.push(indexes ? { host, port, indexes } : { host, port });
  }
  const last = mirrors.at(-1)?.indexes;
  if (!last) throw bad(table, `invalid agent line '${text}': no remote table name`);
  for (const name of last.split(/[\s,]+/).filter(Boolean)) {
    if (!/^[A-Za-z0-9_]+$/.test(name)) throw bad(table, `invalid agent line '${text}': bad table name '${name}'`);
  }
  const options = opts ? opts[1]!.toLowerCase() : '';
  return {
    mirrors: mirrors.map((m) => ({ host: m.host, port: m.port, indexes: m.indexes ?? last })),
    blackhole: key === 'agent_blackhole' || /blackhole\s*=\s*1/.test(options),
    persistent: key === 'agent_persistent' || /conn\s*=\s*pconn/.test(options),
    text: text.trim(),
    key,
  };
}

/** `500`, `500ms`, `2s`, `1m`: a time in ms (bare numbers are ms, as Manticore's GetMsTimeMs). */
export function parseMs(table: string, key: string, value: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m)?\s*$/i.exec(value);
  if (!m) throw bad(table, `${key}='${value}': expected a time such as 500 or 2s`);
  const n = Number(m[1]);
  const unit = (m[2] ?? 'ms').toLowerCase();
  const ms = unit === 's' ? n * 1000 : unit === 'm' ? n * 60_000 : n;
  if (!(ms > 0)) throw bad(table, `${key} must be positive`);
  return Math.round(ms);
}

function positiveInt(table: string, key: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw bad(table, `${key} must be positive`);
  return n;
}

/**
 * The definition from its options. `isLocal` says whether a name is a served (non-distributed) table:
 * Manticore refuses a local that is not one (`no such local table`), and a table with neither locals
 * nor agents.
 */
export function distributedDef(name: string, options: Record<string, string[]>, isLocal: (n: string) => boolean): DistributedDef {
  const table = name.toLowerCase();
  for (const key of Object.keys(options)) {
    if (!DISTRIBUTED_KEYS.has(key)) throw new SearchError('BAD_SETTING', `error adding table '${table}': setting not allowed: ${key}='${options[key]![0]}'`);
  }
  const first = (key: string) => options[key]?.[0];
  const locals: string[] = [];
  for (const v of options.local ?? []) {
    for (const l of v.split(/[\s,]+/).filter(Boolean)) {
      if (!isLocal(l)) throw bad(table, `no such local table '${l}'`);
      locals.push(l.toLowerCase());
    }
  }
  const agents: AgentSpec[] = [];
  for (const key of ['agent', 'agent_persistent', 'agent_blackhole'] as const) {
    for (const v of options[key] ?? []) agents.push(parseAgent(table, v, key));
  }
  if (!locals.length && !agents.length) throw bad(table, 'no valid local/remote tables in distributed table');
  const ha = (first('ha_strategy') ?? 'random').toLowerCase();
  // Manticore warns and uses random for an unknown strategy; quarry refuses it, so the mistake is seen
  if (!HA_STRATEGIES.includes(ha as HaStrategy)) throw bad(table, `ha_strategy (${ha}) is unknown: use ${HA_STRATEGIES.join(', ')}`);
  const retry = first('mirror_retry_count') ?? first('agent_retry_count');
  return {
    name: table, locals, agents, haStrategy: ha as HaStrategy,
    connectTimeoutMs: first('agent_connect_timeout') ? parseMs(table, 'agent_connect_timeout', first('agent_connect_timeout')!) : AGENT_DEFAULTS.connectTimeoutMs,
    queryTimeoutMs: first('agent_query_timeout') ? parseMs(table, 'agent_query_timeout', first('agent_query_timeout')!) : AGENT_DEFAULTS.queryTimeoutMs,
    retryCount: retry !== undefined ? positiveInt(table, 'agent_retry_count', retry) : AGENT_DEFAULTS.retryCount,
    ha: haOverrides(options, `table '${table}'`),
  };
}

/** `host:port` as Manticore names a mirror in warnings and status (HostDesc_t::GetMyUrl). */
export function mirrorUrl(m: Mirror): string {
  return `${m.host}:${m.port}`;
}

function q(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** SHOW CREATE TABLE's text: the statement that makes the same table. */
export function createText(d: DistributedDef): string {
  const parts = [`CREATE TABLE ${d.name} type='distributed'`];
  for (const l of d.locals) parts.push(`local=${q(l)}`);
  for (const a of d.agents) parts.push(`${a.key}=${q(a.text)}`);
  if (d.haStrategy !== 'random') parts.push(`ha_strategy=${q(d.haStrategy)}`);
  if (d.connectTimeoutMs !== AGENT_DEFAULTS.connectTimeoutMs) parts.push(`agent_connect_timeout=${q(String(d.connectTimeoutMs))}`);
  if (d.queryTimeoutMs !== AGENT_DEFAULTS.queryTimeoutMs) parts.push(`agent_query_timeout=${q(String(d.queryTimeoutMs))}`);
  if (d.retryCount !== AGENT_DEFAULTS.retryCount) parts.push(`agent_retry_count=${q(String(d.retryCount))}`);
  if (d.ha.pingIntervalMs !== undefined) parts.push(`ha_ping_interval=${q(`${d.ha.pingIntervalMs}ms`)}`);
  if (d.ha.karmaPeriodMs !== undefined) parts.push(`ha_period_karma=${q(`${d.ha.karmaPeriodMs}ms`)}`);
  if (d.ha.poolLimit !== undefined) parts.push(`persistent_connections_limit=${q(String(d.ha.poolLimit))}`);
  return parts.join(' ');
}

/** DESCRIBE's rows (Agent, Type): locals, then each agent as remote_N or its mirrors remote_N_mirror_M. */
export function describeRows(d: DistributedDef): string[][] {
  const out: string[][] = d.locals.map((l) => [l, 'local']);
  d.agents.forEach((a, i) => {
    const kind = a.blackhole ? 'blackhole' : 'remote';
    if (a.mirrors.length === 1) out.push([`${mirrorUrl(a.mirrors[0]!)}:${a.mirrors[0]!.indexes}`, `${kind}_${i + 1}`]);
    else a.mirrors.forEach((m, j) => out.push([`${mirrorUrl(m)}:${m.indexes}`, `${kind}_${i + 1}_mirror_${j + 1}`]));
  });
  return out;
}
