/** `quarry indexer` flags, Sphinx's indexer's where they overlap. */
import { SearchError } from '../util/errors.js';
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
  --rotate        build through the running server (its pid file in the data directory, or --url)
                  and swap while it keeps answering; without it a served data directory is refused
  --data DIR      data directory (default: searchd.data_dir of the config, else ./data)
  --url URL       the server's HTTP address (default: the config's http listen line)
  --batch N       documents per request (default ${DEFAULT_BATCH})
  --skip-errors   report bad rows and go on; default: the table's build stops at the first
  --quiet         no progress output`;

const fail = (m: string): never => { throw new SearchError('BAD_SETTING', m); };

export function parseIndexerArgs(argv: string[]): IndexerArgs {
  const a: IndexerArgs = { configPath: DEFAULT_CONFIG, all: false, tables: [], rotate: false, batch: DEFAULT_BATCH, skipErrors: false, quiet: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('-')) { a.tables.push(arg.toLowerCase()); continue; }
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg : arg.slice(0, eq);
    const value = (): string => {
      const v = eq < 0 ? argv[++i] : arg.slice(eq + 1);
      if (v === undefined || v === '') fail(`option '${name}' needs a value`);
      return v!;
    };
    switch (name) {
      case '--help': case '-h': return { ...a, help: true };
      case '--config': case '-c': a.configPath = value(); break;
      case '--all': a.all = true; break;
      case '--rotate': a.rotate = true; break;
      case '--data': a.dataDir = value(); break;
      case '--url': a.url = value(); break;
      case '--batch': {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 1) fail('--batch needs a positive integer');
        a.batch = n;
        break;
      }
      case '--skip-errors': a.skipErrors = true; break;
      case '--quiet': a.quiet = true; break;
      default: fail(`unknown option '${name}'`);
    }
  }
  if (a.all === (a.tables.length > 0)) fail('name the tables to build, or --all');
  return a;
}
