/** The composition root: open the engine, start the listeners, and stop them all in order. */
import { mkdir, readFile } from 'node:fs/promises';
import type { Engine } from '../engine/engine.js';
import type { CliArgs } from './cli-args.js';
import { parseConfig, type ManticoreConfig } from './config-parser.js';
import { configTables } from './config-tables.js';
import { startHttpListener, type HttpListener } from './http-listener.js';
import { formatAddress } from './listen.js';
import { resolveServeOptions, type ServeOptions } from './serve-options.js';
import type { OpenEngine } from './engine-loader.js';

export interface RunningServer {
  options: ServeOptions;
  http: HttpListener;
  /** The one line printed when every listener accepts connections. */
  readyLine: string;
  /** Closes the listeners, then the engine; safe to call more than once. */
  stop(): Promise<void>;
}

export async function loadConfig(path: string): Promise<ManticoreConfig> {
  return parseConfig(await readFile(path, 'utf8'), path);
}

/** Starts serving; on a listener failure the engine is closed again before the error propagates. */
export async function startServer(args: CliArgs, openEngine: OpenEngine): Promise<RunningServer> {
  const config = args.configPath ? await loadConfig(args.configPath) : undefined;
  const options = resolveServeOptions(args, config);
  const tables = config ? configTables(config) : undefined;
  if (tables?.skipped.length) console.warn(`quarry: only RT tables are served; ignoring ${tables.skipped.join(', ')}`);
  await mkdir(options.dataDir, { recursive: true });
  const engine: Engine = await openEngine({
    dataDir: options.dataDir,
    configPath: options.configPath,
    configTables: tables?.tables,
  });
  let http: HttpListener;
  try {
    http = await startHttpListener(engine, options.http, options.maxBodyBytes);
  } catch (e) {
    await engine.close();
    throw e;
  }
  // The MySQL listener (src/mysql/) joins here; until then --mysql is accepted and reported as off.
  let stopping: Promise<void> | undefined;
  return {
    options,
    http,
    readyLine: `quarry listening http=${formatAddress(http.host, http.port)} mysql=off data=${options.dataDir}`,
    stop: () => (stopping ??= http.close().then(() => engine.close())),
  };
}
