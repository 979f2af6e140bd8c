/** `quarry` command line: parse flags, serve until SIGTERM/SIGINT, exit 0 after a clean shutdown. */
import { existsSync, readFileSync } from 'node:fs';
import { asSearchError } from '../util/errors.js';
import { parseCliArgs, USAGE } from './cli-args.js';
import { loadOpenEngine } from './engine-loader.js';
import { startImportBuildThread } from '../engine/background/early-build-worker.js';
import { loadCachedBundle } from './cached-bundle.js';
// the server's modules are loaded only for `serve`: `quarry import` and the other commands skip them (~0.1 s CPU)
import type { RunningServer } from './server.js';

const EXIT_OK = 0;
const EXIT_FAILURE = 1;
const EXIT_USAGE = 2;
/** After a shutdown, how long stray handles may keep the process alive before it exits anyway. */
const EXIT_GRACE_MS = 2_000;

/** Exits with `code` once output is flushed; forces it if some handle keeps the loop alive. */
export function exitSoon(code: number): void {
  process.exitCode = code;
  setTimeout(() => process.exit(code), EXIT_GRACE_MS).unref();
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** Stops on the first SIGTERM/SIGINT; a second one while stopping exits at once. */
function stopOnSignals(server: RunningServer): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(EXIT_FAILURE);
    stopping = true;
    console.log(`quarry: ${signal}, shutting down`);
    server.stop().then(
      () => exitSoon(EXIT_OK),
      (e: unknown) => {
        console.error(`quarry: shutdown failed: ${asSearchError(e).message}`);
        exitSoon(EXIT_FAILURE);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

/**
 * SIGUSR1 and SIGHUP leave the server serving. Without a listener Node opens its inspector on
 * 127.0.0.1:9229 at SIGUSR1 (a debugger any local user could attach to; logrotate sends USR1, as README
 * says to) and exits at SIGHUP, which scripts and Sphinx's `indexer --rotate` send searchd to rotate.
 * SIGUSR1 reopens the log files when there are any (logs.ts adds that listener); SIGHUP is only logged:
 * quarry's tables are swapped by `quarry indexer --rotate` through the server.
 */
function keepServingOnSignals(server: () => RunningServer | undefined): void {
  process.on('SIGUSR1', () => {});
  process.on('SIGHUP', () => {
    const line = 'quarry: SIGHUP: nothing to rotate (quarry indexer --rotate swaps tables through the server); still serving';
    console.log(line);
    server()?.logs.info(line);
  });
}

/** `quarry export`: writes the folder and prints what it holds. */
async function exportCommand(dataDir: string, table: string, outDir: string): Promise<number> {
  try {
    const { exportTable } = await import('../engine/export/export-table.js');
    const res = await exportTable(dataDir, table, outDir);
    const files = Object.entries(res.files).map(([f, n]) => `${f} ${n} bytes`).join(', ');
    console.log(`quarry: exported table ${res.table} (${res.rows} documents) to ${outDir}: ${files}`);
    return EXIT_OK;
  } catch (e) {
    console.error(`quarry: ${asSearchError(e).message}`);
    return EXIT_FAILURE;
  }
}

/**
 * `quarry import`'s module: the one-file bundle `npm run build` makes of it (dist/src/import), whose
 * load takes ~70 ms of CPU where the ~130 modules it holds take ~200 ms, a twentieth of importing the
 * 126k gcide entries; CommonJS, for V8's code cache (cached-bundle.ts: compiled once, not every run);
 * the modules themselves when there is no bundle (a tsc-only build). `save` writes the cache once
 * the command is done.
 */
async function loadImportCommand(): Promise<{ command: typeof import('../import/import-command.js'); save(): void }> {
  const bundle = new URL('../import/import-command.bundle.cjs', import.meta.url);
  if (existsSync(bundle)) {
    const loaded = loadCachedBundle<typeof import('../import/import-command.js')>(bundle);
    return { command: loaded.exports, save: loaded.save };
  }
  return { command: await import('../import/import-command.js'), save: () => {} };
}

/**
 * Ends the process at once with `code` when nothing is left to write to stdout or stderr, else
 * resolves with it (exitSoon then waits for the output). For `quarry import`, whose table is closed
 * and durable by now: a natural exit tears down the heap of the load (hundreds of MB) first, which
 * process.exit skips (gcide, load 16, alternated 4 times: the end of `closed` to the process gone
 * 153-286 -> 88-147 ms).
 */
function exitNowWhenFlushed(code: number): number {
  if (process.stdout.writableLength === 0 && process.stderr.writableLength === 0) process.exit(code);
  return code;
}

/** Runs the command line; resolves with the exit code for commands that end by themselves. */
export async function main(argv: string[]): Promise<number | undefined> {
  // import and indexer have flags of their own (src/import/, src/indexer/)
  if (argv[0] === 'import') {
    // started already when bin/quarry.js ran this (it starts the thread before loading this module)
    startImportBuildThread(argv, new URL('../import/build-worker.js', import.meta.url));
    const { command, save } = await loadImportCommand();
    const code = await command.importCommand(argv.slice(1));
    // the cache holds what this run compiled: only a run that imported rows warms the load path worth keeping
    // (a --help or a failed run would leave a cache of the startup alone, read by every later run)
    if (code === 0 && !argv.includes('--help')) save();
    return exitNowWhenFlushed(code);
  }
  if (argv[0] === 'indexer') return (await import('../indexer/indexer-command.js')).indexerCommand(argv.slice(1));
  if (argv[0] === 'backup') return (await import('./backup-command.js')).backupCommand(argv.slice(1));
  if (argv[0] === 'restore') return (await import('./backup-command.js')).restoreCommand(argv.slice(1));
  let args;
  try {
    args = parseCliArgs(argv);
  } catch (e) {
    console.error(`quarry: ${asSearchError(e).message}\n${USAGE}`);
    return EXIT_USAGE;
  }
  if (args.command === 'help') {
    console.log(USAGE);
    return EXIT_OK;
  }
  if (args.command === 'version') {
    console.log(`quarry ${version()}`);
    return EXIT_OK;
  }
  if (args.command === 'export') return exportCommand(args.dataDir!, args.table!, args.outDir!);
  // A stray rejection is logged, never fatal: one failed request must not stop the server. lmdb-js
  // leaves one internal promise of a failed commit unhandled; the write it failed already got the error.
  process.on('unhandledRejection', (reason) => {
    if ((reason as { commitError?: unknown } | null)?.commitError) return;
    console.error('quarry: unhandled rejection:', reason);
  });
  try {
    // The engine module is loaded only after flags and config are known good.
    // before the start, which can take long (a table's replay): a logrotate SIGUSR1 or a SIGHUP meanwhile
    // would otherwise open the inspector or end the process
    let running: RunningServer | undefined;
    keepServingOnSignals(() => running);
    const { startServer } = await import('./server.js');
    const server = await startServer(args, async (opts) => (await loadOpenEngine())(opts));
    running = server;
    stopOnSignals(server);
    console.log(server.readyLine);
    server.logs.info(server.readyLine);
    return undefined;
  } catch (e) {
    console.error(`quarry: ${asSearchError(e).message}`);
    return EXIT_FAILURE;
  }
}
