/** `quarry indexer` flags, Sphinx's indexer's where they overlap. */
import { cliFail as fail, cliWords, positiveInt } from '../server/cli-options.js';
import { DEFAULT_BATCH } from '../import/import-args.js';

export interface IndexerArgs {
  configPath: string;
  all: boolean;
  tables: string[];
  rotate: boolean;
  dataDir?: string;
  url?: string;
  batch: number;
  skipErrors: boolean;
  quiet: boolean;
  help?: boolean;
}

/** Manticore's default config path, as its indexer uses. */
export const DEFAULT_CONFIG = '/etc/manticoresearch/manticore.conf';

export const INDEXER_USAGE = `usage: quarry indexer [--config FILE] [--all | NAME...] [--rotate] [options]

Builds the config's plain tables from their sources (tsvpipe, csvpipe, xmlpipe2, mysql) into tables
quarry serves. Each is built beside the live one and swapped in at the end in one step
(ATTACH TABLE ... WITH TRUNCATE): queries see the old table or the new one, never a part.

options:
  --config FILE   config file (default ${DEFAULT_CONFIG})
  --all           every table with a source
  --rotate        build through the running server (the process the data directory's lock file,
                  quarry.lock, names, or --url) and swap while it keeps answering; without it a
                  served data directory is refused
  --data DIR      data directory (default: searchd.data_dir of the config, else ./data)
  --url URL       the server's HTTP address (default: the config's http listen line)
  --batch N       documents per request (default ${DEFAULT_BATCH})
  --skip-errors   report bad rows and go on; default: the table's build stops at the first
  --quiet         no progress output`;

export function parseIndexerArgs(argv: string[]): IndexerArgs {
  const a: IndexerArgs = { configPath: DEFAULT_CONFIG, all: false, tables: [], rotate: false, batch: DEFAULT_BATCH, skipErrors: false, quiet: false };
  for (const w of cliWords(argv, (arg) => !arg.startsWith('-'))) {
    if ('positional' in w) { a.tables.push(w.positional.toLowerCase()); continue; }
    const { name, value } = w;
    switch (name) {
      case '--help': case '-h': return { ...a, help: true };
      case '--config': case '-c': a.configPath = value(); break;
      case '--all': a.all = true; break;
      case '--rotate': a.rotate = true; break;
      case '--data': a.dataDir = value(); break;
      case '--url': a.url = value(); break;
      case '--batch': a.batch = positiveInt(name, value()); break;
      case '--skip-errors': a.skipErrors = true; break;
      case '--quiet': a.quiet = true; break;
      default: fail(`unknown option '${name}'`);
    }
  }
  if (a.all === (a.tables.length > 0)) fail('name the tables to build, or --all');
  return a;
}
