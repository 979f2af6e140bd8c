/** `quarry import` flags. */
import { cliFail as fail, cliWords, positiveInt } from '../server/cli-options.js';
import type { ImportFormat } from './record-reader.js';

export interface ImportArgs {
  table: string;
  files: string[];
  dataDir?: string;
  url?: string;
  format?: ImportFormat;
  batch: number;
  skipErrors: boolean;
  noHeader: boolean;
  columns?: string[];
  quiet: boolean;
  replace: boolean;
  help?: boolean;
}

/**
 * Documents per `/bulk` request. Measured on 121k dict-gcide entries in process: 1,000 and 10,000 run
 * within a few percent; smaller batches pay per-transaction costs (an fsynced commit each).
 */
export const DEFAULT_BATCH = 5_000;
/**
 * Documents per batch into a data directory (--data): each batch becomes one segment, held unmerged
 * until the end of the load (bulk load), so bigger batches mean fewer segments and fewer merges.
 */
export const DEFAULT_DATA_BATCH = 25_000;

export const IMPORT_USAGE = `usage: quarry import --table NAME [--data DIR | --url http://host:9308] [options] FILE...

Loads documents into a table, creating it by auto schema when missing. FILE is a path or - (stdin);
gzip is detected by its magic bytes. The format comes from the name (.jsonl .ndjson .json .csv .tsv,
optionally .gz) unless --format says it; stdin defaults to jsonl.

options:
  --table NAME        the table to load (created when missing)
  --data DIR          write to this data directory in process (no server may hold it)
  --url URL           write through a running server's HTTP API (/bulk)
  --format F          jsonl | csv | tsv
  --batch N           documents per request (default ${DEFAULT_BATCH}; ${DEFAULT_DATA_BATCH} with --data)
  --no-header         CSV/TSV: the first row is data; name the fields with --columns
  --columns a,b,c     CSV/TSV field names (with --no-header)
  --skip-errors       report bad lines and go on (counted at the end); default: stop at the first
  --replace           REPLACE documents whose id exists instead of failing on them
  --quiet             no progress output`;

export function parseImportArgs(argv: string[]): ImportArgs {
  const a: Partial<ImportArgs> & { files: string[] } = { files: [], batch: 0, skipErrors: false, noHeader: false, quiet: false, replace: false };
  for (const w of cliWords(argv, (arg) => arg === '-' || !arg.startsWith('--'))) {
    if ('positional' in w) { a.files.push(w.positional); continue; }
    const { name, value } = w;
    switch (name) {
      case '--help': return { ...a, help: true } as ImportArgs;
      case '--table': a.table = value(); break;
      case '--data': a.dataDir = value(); break;
      case '--url': a.url = value(); break;
      case '--format': {
        const f = value().toLowerCase();
        if (f !== 'jsonl' && f !== 'csv' && f !== 'tsv') fail(`--format must be jsonl, csv or tsv, got '${f}'`);
        a.format = f as ImportFormat;
        break;
      }
      case '--batch': a.batch = positiveInt(name, value()); break;
      case '--columns': a.columns = value().split(',').map((c) => c.trim()).filter(Boolean); break;
      case '--no-header': a.noHeader = true; break;
      case '--skip-errors': a.skipErrors = true; break;
      case '--quiet': a.quiet = true; break;
      case '--replace': a.replace = true; break;
      default: fail(`unknown option '${name}'`);
    }
  }
  if (!a.table) fail('import needs --table NAME');
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(a.table!)) fail(`invalid table name '${a.table}'`);
  if (a.files.length === 0) fail('import needs at least one FILE (- for stdin)');
  if ((a.dataDir === undefined) === (a.url === undefined)) fail('import needs one of --data DIR or --url URL');
  if (!a.batch) a.batch = a.dataDir !== undefined ? DEFAULT_DATA_BATCH : DEFAULT_BATCH;
  if (a.noHeader && !a.columns?.length) fail('--no-header needs --columns a,b,c');
  if (a.columns && !a.noHeader) fail('--columns goes with --no-header');
  if (a.files.filter((f) => f === '-').length > 1) fail('stdin (-) can be read once');
  return a as ImportArgs;
}
