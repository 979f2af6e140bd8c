/**
 * `quarry indexer`: reads the config, picks the tables, chooses where to write (the data directory in
 * process, or a running server with --rotate) and builds each table in turn (table-build.ts).
 */
import { readConfigFile, type ConfigSection, type ManticoreConfig } from '../server/config-parser.js';
import { dataDirHolder } from '../store/data-dir.js';
import { resolveServeOptions } from '../server/serve-options.js';
import { formatAddress } from '../server/listen.js';
import { asSearchError } from '../util/errors.js';
import { EngineTarget } from '../import/engine-target.js';
import { HttpTarget } from '../import/http-target.js';
import { EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, interruptFlag } from '../import/import-command.js';
import { grouped, Progress, progressMode } from '../import/progress.js';
import type { ImportTarget } from '../import/target.js';
import { INDEXER_USAGE, parseIndexerArgs, type IndexerArgs } from './indexer-args.js';
import { buildTable, BuildInterrupted } from './table-build.js';

interface PlainTable { name: string; section: ConfigSection; sources: [string, ConfigSection][] }

/** The config's tables with `source` lines (plain tables), each with its sources in order. */
export function plainTables(config: ManticoreConfig): Map<string, PlainTable> {
  const out = new Map<string, PlainTable>();
  for (const [name, section] of config.tables) {
    const names = section.get('source');
    if (!names?.length) continue;
    const sources = names.map((n): [string, ConfigSection] => {
      const s = config.sources.get(n.trim());
      if (!s) throw new Error(`table '${name}': unknown source '${n.trim()}'`);
      return [n.trim(), s];
    });
    out.set(name.toLowerCase(), { name: name.toLowerCase(), section, sources });
  }
  return out;
}

function pickTables(args: IndexerArgs, config: ManticoreConfig): PlainTable[] {
  const plain = plainTables(config);
  if (args.all) {
    if (plain.size === 0) throw new Error('the config has no table with a source');
    return [...plain.values()];
  }
  return args.tables.map((t) => {
    const p = plain.get(t);
    if (p) return p;
    throw new Error(config.tables.has(t) ? `table '${t}' has no source: only plain tables are built` : `no table '${t}' in the config`);
  });
}

/** A running server is written to only with --rotate; otherwise the data directory in process. */
async function openTarget(args: IndexerArgs, config: ManticoreConfig): Promise<ImportTarget> {
  const options = resolveServeOptions({ command: 'serve', dataDir: args.dataDir, configPath: args.configPath }, config);
  const pid = dataDirHolder(options.dataDir)?.pid;
  if (args.url || pid !== undefined) {
    const where = args.url ? args.url : `the server (pid ${pid}) serving ${options.dataDir}`;
    if (!args.rotate) throw new Error(`${where} is live: add --rotate to build through it and swap the tables in`);
    return new HttpTarget(args.url ?? `http://${formatAddress(options.http.host === '0.0.0.0' ? '127.0.0.1' : options.http.host, options.http.port)}`);
  }
  return EngineTarget.open(options.dataDir);
}

export async function indexerCommand(argv: string[]): Promise<number> {
  let args: IndexerArgs;
  try {
    args = parseIndexerArgs(argv);
  } catch (e) {
    console.error(`quarry indexer: ${asSearchError(e).message}\n${INDEXER_USAGE}`);
    return EXIT_USAGE;
  }
  if (args.help) {
    console.log(INDEXER_USAGE);
    return EXIT_OK;
  }
  let target: ImportTarget | undefined;
  let failed = 0;
  const sig = interruptFlag();
  try {
    const config = await readConfigFile(args.configPath);
    const tables = pickTables(args, config);
    target = await openTarget(args, config);
    const log = (l: string) => console.error(l);
    for (const t of tables) {
      // Ctrl-C after the table before had read its last rows: that one was swapped in, this one is not built
      if (sig.interrupted()) {
        console.error(`quarry indexer: interrupted before table ${t.name}; it and the tables after it were not built`);
        return EXIT_INTERRUPTED;
      }
      const progress = new Progress(progressMode(args.quiet), `indexing ${t.name}`);
      try {
        const r = await buildTable(target, t.name, t.section, t.sources, progress, { batch: args.batch, skipErrors: args.skipErrors, log, interrupted: sig.interrupted });
        const secs = progress.elapsedMs() / 1000;
        const extra = [args.skipErrors ? `${grouped(r.skipped)} bad rows skipped` : '', r.killed ? `${grouped(r.killed)} kill-list ids applied` : ''].filter(Boolean);
        if (!args.quiet) {
          console.error(`quarry indexer: table ${t.name}: ${grouped(r.docs)} documents in ${secs.toFixed(1)} s, ${grouped(secs > 0 ? r.docs / secs : 0)} docs/s${extra.length ? '; ' + extra.join('; ') : ''} (${target.where})`);
        }
      } catch (e) {
        failed++;
        console.error(`quarry indexer: table ${t.name}: ${asSearchError(e).message}`);
        if (e instanceof BuildInterrupted) return EXIT_INTERRUPTED;
      }
    }
    return failed ? EXIT_FAILED : EXIT_OK;
  } catch (e) {
    console.error(`quarry indexer: ${asSearchError(e).message}`);
    return EXIT_FAILED;
  } finally {
    sig.dispose();
    await target?.close();
  }
}
