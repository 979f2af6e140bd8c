/** The composition root: open the engine, start the listeners, and stop them all in order. */
import { mkdir } from 'node:fs/promises';
import { openLogs, type ServerLogs } from './logs.js';
import type { Engine } from '../engine/engine.js';
import type { CliArgs } from './cli-args.js';
import { SearchError } from '../util/errors.js';
import { lastValue, readConfigFile, type ManticoreConfig } from './config-parser.js';
import { configTables } from './config-tables.js';
import { startHttpListener, type HttpListener } from './http-listener.js';
import { startMysqlListener, type MysqlListener } from '../mysql/mysql-listener.js';
import { formatAddress } from './listen.js';
import { startAgentListener, type AgentListener } from '../agent/agent-listener.js';
import { pidFilePath, removePidFile, writePidFile } from './pid-file.js';
import { resolveServeOptions, type ServeOptions } from './serve-options.js';
import type { OpenEngine, ServerEngineOptions } from './engine-loader.js';
import { replicationOf } from './replication-option.js';
import { isLoopback, loadTlsContext } from './tls-options.js';

const BIND_REASONS: Record<string, string> = {
  EADDRINUSE: 'address already in use',
  EACCES: 'permission denied',
  EADDRNOTAVAIL: 'cannot assign requested address',
};

/**
 * A listener that cannot bind, in searchd's words (`bind() failed on ADDR: reason`) plus which listener
 * and the flag that moves it: Node's own text (`listen EADDRINUSE: address already in use ADDR`) named
 * neither, and `npm start` beside a searchd on 9308/9306 is a new user's first run. Other errors pass.
 */
function bindFailure(e: unknown, what: string, flag: string, address: { host: string; port: number }): unknown {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  const reason = code === undefined ? undefined : BIND_REASONS[code];
  if (reason === undefined) return e;
  const way = code === 'EADDRINUSE' ? 'stop what holds the port, or give' : 'give';
  return new SearchError('BAD_SETTING', `bind() failed on ${formatAddress(address.host, address.port)}: ${reason} ` +
    `(the ${what} listener: ${way} --${flag} HOST:PORT; port 0 picks a free one)`);
}

export interface RunningServer {
  options: ServeOptions;
  http: HttpListener;
  mysql: MysqlListener;
  agent?: AgentListener;
  /** The one line printed when every listener accepts connections. */
  readyLine: string;
  /** searchd log and query_log (server/logs.ts). */
  logs: ServerLogs;
  /** Closes the listeners, then the engine; safe to call more than once. */
  stop(): Promise<void>;
}

export async function loadConfig(path: string): Promise<ManticoreConfig> {
  return readConfigFile(path);
}

/** searchd's ha_ping_interval, ha_period_karma and persistent_connections_limit as written; undefined when none is. */
function haSettingsOf(config: ManticoreConfig | undefined): Record<string, string[]> | undefined {
  const set = ['ha_ping_interval', 'ha_period_karma', 'persistent_connections_limit'].flatMap((k) => {
    const v = lastValue(config?.searchd, k);
    return v === undefined ? [] : [[k, [v]] as [string, string[]]];
  });
  return set.length ? Object.fromEntries(set) : undefined;
}

/** searchd auto_optimize (src/engine/index-factory.ts): 0, 1 or 2; unset is 1; anything else refuses to start. */
export function autoOptimizeOf(config: ManticoreConfig | undefined): 0 | 1 | 2 | undefined {
  const v = lastValue(config?.searchd, 'auto_optimize')?.trim();
  if (v === undefined) return undefined;
  if (v === '0' || v === '1' || v === '2') return Number(v) as 0 | 1 | 2;
  throw new SearchError('BAD_SETTING', `auto_optimize must be 0, 1 or 2 (got '${v}')`);
}

/** Starts serving; on a listener failure the engine is closed again before the error propagates. */
export async function startServer(args: CliArgs, openEngine: OpenEngine): Promise<RunningServer> {
  const config = args.configPath ? await loadConfig(args.configPath) : undefined;
  const options = resolveServeOptions(args, config);
  const tables = config ? configTables(config) : undefined;
  if (tables?.skipped.length) console.warn(`quarry: only RT tables are created from the config; ignoring ${tables.skipped.join(', ')} (plain tables are built by quarry indexer)`);
  const tls = await loadTlsContext(config?.searchd);
  for (const a of tls ? [] : [options.http, options.mysql]) {
    if (!isLoopback(a.host)) console.warn(`quarry: warning: ${a.proto} listens on ${formatAddress(a.host, a.port)} without TLS (set ssl_cert and ssl_key)`);
  }
  await mkdir(options.dataDir, { recursive: true });
  const logs = openLogs(config);
  const threads = lastValue(config?.searchd, 'max_threads_per_query');
  const queryThreads = lastValue(config?.searchd, 'threads');
  const serverId = lastValue(config?.searchd, 'server_id');
  const replication = replicationOf(config, options);
  const engine: Engine = await openEngine({
    dataDir: options.dataDir,
    configPath: options.configPath,
    configTables: tables?.tables,
    configDistributed: tables?.distributed,
    // CALL SNIPPETS load_files stays off unless the config names a directory for it.
    snippetsFilePrefix: lastValue(config?.searchd, 'snippets_file_prefix'),
    maxThreadsPerQuery: threads === undefined ? undefined : Number(threads),
    threads: queryThreads === undefined ? undefined : Number(queryThreads),
    serverId: serverId === undefined ? undefined : Number(serverId),
    replicate: replication as ServerEngineOptions['replicate'],
    maxQueryMemory: options.maxQueryMemory,
    onServerSetting: (name, value) => logs.setting(name, value),
    serverSetting: (name) => logs.settingValue(name),
    searchdHa: haSettingsOf(config),
    autoOptimize: autoOptimizeOf(config),
    collationServer: lastValue(config?.searchd, 'collation_server'),
  });
  let http: HttpListener;
  try {
    http = await startHttpListener(engine, options.http, {
      maxBodyBytes: options.maxBodyBytes, tls, maxConnections: options.maxConnections, clientTimeoutMs: options.clientTimeoutMs,
    });
  } catch (e) {
    await engine.close();
    throw bindFailure(e, 'HTTP', 'http', options.http);
  }
  let mysql: MysqlListener;
  try {
    // max_packet_size bounds a MySQL request as it bounds an HTTP body.
    mysql = await startMysqlListener(engine, {
      host: options.mysql.host, port: options.mysql.port, maxPacketBytes: options.maxBodyBytes, tls,
      maxConnections: options.maxConnections, packetTimeoutMs: options.clientTimeoutMs, idleTimeoutMs: options.sphinxqlTimeoutMs,
    });
  } catch (e) {
    await http.close();
    await engine.close();
    throw bindFailure(e, 'MySQL', 'mysql', options.mysql);
  }
  let agent: AgentListener | undefined;
  try {
    if (options.agent) {
      agent = await startAgentListener(engine, { host: options.agent.host, port: options.agent.port, maxPacketBytes: options.maxBodyBytes });
    }
  } catch (e) {
    await Promise.all([http.close(), mysql.close()]);
    await engine.close();
    throw options.agent ? bindFailure(e, 'binary API', 'agent', options.agent) : e;
  }
  let stopping: Promise<void> | undefined;
  const pidFile = pidFilePath(options.dataDir, lastValue(config?.searchd, 'pid_file'));
  writePidFile(pidFile);
  return {
    options,
    http,
    mysql,
    agent,
    logs,
    readyLine: `quarry listening http=${formatAddress(http.host, http.port)} mysql=${formatAddress(mysql.host, mysql.port)}` +
      `${agent ? ` agent=${formatAddress(agent.host, agent.port)}` : ''} data=${options.dataDir}`,
    stop: () => (stopping ??= Promise.all([http.close(), mysql.close(), agent?.close()]).then(() => engine.close()).finally(() => {
      removePidFile(pidFile);
      logs.info('shutdown complete');
      logs.close();
    })),
  };
}
