/** What `serve` runs with: command-line flags first, then the config's searchd section, then defaults. */
import { DEFAULT_MAX_BODY_BYTES } from '../http/app.js';
import { DEFAULT_IDLE_TIMEOUT_MS } from '../mysql/connection.js';
import { parseDuration, parseSize, type CliArgs } from './cli-args.js';
import { DEFAULT_CLIENT_TIMEOUT_MS } from './http-limits.js';
import { SearchError } from '../util/errors.js';
import { lastValue, type ManticoreConfig } from './config-parser.js';
import { parseHostPort, parseListenDirective, type ListenAddress } from './listen.js';

export const DEFAULT_DATA_DIR = './data';
export const DEFAULT_HTTP = '127.0.0.1:9308';
export const DEFAULT_MYSQL = '127.0.0.1:9306';
/**
 * max_connections when the config sets none: open connections per listener. Manticore's default is
 * 0 (unlimited: its fixed pool of worker threads queues the queries); quarry serves every open
 * connection from one event loop, so it sheds past this instead of running into the process's file
 * descriptor limit (Node raises the soft limit to the hard one, commonly 4096 or more) with
 * uncontrolled accept errors. `max_connections = 0` is Manticore's unlimited.
 */
export const DEFAULT_MAX_CONNECTIONS = 4096;

export interface ServeOptions {
  dataDir: string;
  http: ListenAddress;
  mysql: ListenAddress;
  /** The binary API listener; undefined: not served. */
  agent?: ListenAddress;
  configPath?: string;
  maxBodyBytes: number;
  /** searchd max_connections, per listener (DEFAULT_MAX_CONNECTIONS unless set; undefined: no limit, `max_connections = 0`). */
  maxConnections?: number;
  /** searchd client_timeout: a request must arrive whole within it. */
  clientTimeoutMs: number;
  /** searchd sphinxql_timeout: an idle MySQL client is dropped after it. */
  sphinxqlTimeoutMs: number;
  /** searchd max_query_memory (quarry's own): core memory one query may take per segment; undefined: the engine's default. */
  maxQueryMemory?: number;
}

/** The first `listen` directive of a protocol in the searchd section. */
function configListen(config: ManticoreConfig | undefined, proto: 'http' | 'mysql' | 'sphinx'): ListenAddress | undefined {
  for (const spec of config?.searchd.get('listen') ?? []) {
    const address = parseListenDirective(spec);
    if (address.proto === proto) return address;
  }
  return undefined;
}

function positive(setting: string, value: number): number {
  if (!(Number.isInteger(value) && value > 0)) throw new SearchError('BAD_SETTING', `${setting} must be a positive number`);
  return value;
}

/** max_query_memory: a size (`256M`), 0 for no cap, below wasm32's 4 GiB. */
function queryMemory(text: string): number {
  const bytes = parseSize(text);
  if (!(Number.isInteger(bytes) && bytes >= 0 && bytes < 2 ** 32)) throw new SearchError('BAD_SETTING', 'max_query_memory must be a size below 4G (0: no cap)');
  return bytes;
}

export function resolveServeOptions(args: CliArgs, config?: ManticoreConfig): ServeOptions {
  const maxPacket = lastValue(config?.searchd, 'max_packet_size');
  const maxConnections = lastValue(config?.searchd, 'max_connections');
  const clientTimeout = lastValue(config?.searchd, 'client_timeout');
  const sphinxqlTimeout = lastValue(config?.searchd, 'sphinxql_timeout');
  const maxQueryMemory = lastValue(config?.searchd, 'max_query_memory');
  return {
    dataDir: args.dataDir ?? lastValue(config?.searchd, 'data_dir') ?? DEFAULT_DATA_DIR,
    http: args.http ? parseHostPort(args.http, 'http') : configListen(config, 'http') ?? parseHostPort(DEFAULT_HTTP, 'http'),
    mysql: args.mysql
      ? parseHostPort(args.mysql, 'mysql')
      : configListen(config, 'mysql') ?? parseHostPort(DEFAULT_MYSQL, 'mysql'),
    agent: args.agent ? parseHostPort(args.agent, 'sphinx') : configListen(config, 'sphinx'),
    configPath: args.configPath,
    maxBodyBytes: args.maxBodyBytes ?? (maxPacket ? parseSize(maxPacket) : DEFAULT_MAX_BODY_BYTES),
    maxConnections: maxConnections === undefined ? DEFAULT_MAX_CONNECTIONS : Number(maxConnections) === 0 ? undefined : positive('max_connections', Number(maxConnections)),
    clientTimeoutMs: clientTimeout ? positive('client_timeout', parseDuration(clientTimeout)) : DEFAULT_CLIENT_TIMEOUT_MS,
    sphinxqlTimeoutMs: sphinxqlTimeout ? positive('sphinxql_timeout', parseDuration(sphinxqlTimeout)) : DEFAULT_IDLE_TIMEOUT_MS,
    ...(maxQueryMemory === undefined ? {} : { maxQueryMemory: queryMemory(maxQueryMemory) }),
  };
}
