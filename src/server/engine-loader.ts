/**
 * Finds the engine factory `openEngine` in src/engine/index.ts at run time. The specifier is kept out
 * of the type checker's sight so the server builds while the engine is written beside it.
 */
import type { Engine, EngineOptions } from '../engine/engine.js';
import { SearchError } from '../util/errors.js';
import type { ConfigTableSchema } from './config-tables.js';

/** What the server hands the engine: the contract's options plus the config's RT table sections. */
export interface ServerEngineOptions extends EngineOptions {
  /** Table sections of the config file by lowercased name (src/engine/index.ts `OpenOptions`). */
  configTables?: Map<string, ConfigTableSchema>;
  /** The config's `type = distributed` sections: key -> every value. */
  configDistributed?: Map<string, Record<string, string[]>>;
  /** searchd snippets_file_prefix: where CALL SNIPPETS load_files may read (unset = load_files off). */
  snippetsFilePrefix?: string;
  /** searchd max_threads_per_query: worker threads for load_files. */
  maxThreadsPerQuery?: number;
  /** searchd threads: worker threads evaluating queries (unset = one per core). */
  threads?: number;
  /** searchd server_id: bits 56-62 of generated ids. */
  serverId?: number;
  /** Replication over NATS (searchd replication_nats): see src/engine/index.ts OpenOptions. */
  replicate?: (ctx: never, store: never) => Promise<{ close(): Promise<void> }>;
  /** searchd max_query_memory: core memory one query may take per segment (unset = the engine's default). */
  maxQueryMemory?: number;
  /** searchd ha_ping_interval, ha_period_karma, persistent_connections_limit as written. */
  searchdHa?: Record<string, string[]>;
  /** searchd auto_optimize: 0, 1 or 2 (src/engine/index-factory.ts). */
  autoOptimize?: 0 | 1 | 2;
  /** SET GLOBAL query_log_format / query_log_min_msec / log_level, for the server's logs (server/logs.ts). */
  onServerSetting?: (name: string, value: string) => void;
  /** The server's query_log_format / log_level now, for SHOW VARIABLES. */
  serverSetting?: (name: string) => string | undefined;
  /** searchd collation_server: the default string collation of queries (unset = libc_ci). */
  collationServer?: string;
}

export type OpenEngine = (opts: ServerEngineOptions) => Promise<Engine>;

/** Relative to this file's compiled location: dist/src/server -> dist/src/engine. */
const ENGINE_MODULE: string = '../engine/index.js';

export async function loadOpenEngine(specifier: string = ENGINE_MODULE): Promise<OpenEngine> {
  let mod: { openEngine?: unknown };
  try {
    mod = (await import(specifier)) as { openEngine?: unknown };
  } catch (e) {
    throw new SearchError('INTERNAL', `cannot load the engine (${specifier}): ${(e as Error).message}`, { cause: e });
  }
  if (typeof mod.openEngine !== 'function') {
    throw new SearchError('INTERNAL', `the engine module ${specifier} exports no openEngine()`);
  }
  return mod.openEngine as OpenEngine;
}
