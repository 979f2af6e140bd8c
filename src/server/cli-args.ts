/**
 * Command-line parsing for `quarry serve --data DIR --http HOST:PORT --mysql HOST:PORT [--config FILE]`
 * and `quarry export --data DIR --table NAME --out DIR`.
 */
import { SearchError } from '../util/errors.js';
import { cliFail as fail, cliWords } from './cli-options.js';

export interface CliArgs {
  command: 'serve' | 'export' | 'help' | 'version';
  /** Flags as given (undefined when absent, so config values and defaults can fill in). */
  dataDir?: string;
  http?: string;
  mysql?: string;
  /** The binary API listener (off unless given here or by a config `listen` line without protocol). */
  agent?: string;
  configPath?: string;
  maxBodyBytes?: number;
  /** export: the table and the folder to write. */
  table?: string;
  outDir?: string;
}

export const USAGE = `usage: quarry serve [options]
       quarry export --data DIR --table NAME --out DIR
       quarry import --table NAME [--data DIR | --url URL] FILE...   (quarry import --help)
       quarry indexer [--config FILE] [--all | NAME...] [--rotate]   (quarry indexer --help)
       quarry backup (--data DIR | --url URL) --to DIR [--tables a,b] (quarry backup --help)
       quarry restore --from BACKUP_DIR --data DIR

options:
  --data DIR          data directory (default ./data, or searchd.data_dir of the config)
  --http HOST:PORT    HTTP listener (default 127.0.0.1:9308; port 0 picks a free port)
  --mysql HOST:PORT   MySQL listener (default 127.0.0.1:9306)
  --agent HOST:PORT   binary API listener for sphinxapi clients and masters (off by default; 9312 is usual)
  --config FILE       config file in Manticore's format
  --max-body BYTES    largest HTTP request body (default 128M; K, M, G suffixes)
  --table NAME        export: the table to export
  --out DIR           export: the folder to write (a static site: table.qimg, release.wasm, quarry-browser.js)
  --help, --version`;

const VALUE_FLAGS: Record<string, keyof CliArgs> = {
  '--data': 'dataDir',
  '--http': 'http',
  '--mysql': 'mysql',
  '--agent': 'agent',
  '--config': 'configPath',
  '--max-body': 'maxBodyBytes',
  '--table': 'table',
  '--out': 'outDir',
};
const COMMANDS = new Set(['serve', 'export']);
const HELP_WORDS = new Set(['--help', '-h', 'help']);
const VERSION_WORDS = new Set(['--version', '-v', 'version']);

/** `128M`, `64k`, `1048576` as bytes (Manticore's size syntax). */
export function parseSize(text: string): number {
  const m = /^\s*(\d+)\s*([kmg]?)\s*$/i.exec(text);
  if (!m) throw new SearchError('BAD_SETTING', `invalid size '${text}'`);
  const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2]!.toLowerCase() as '' | 'k' | 'm' | 'g'];
  return Number(m[1]) * unit;
}

const TIME_UNITS: Record<string, number> = { us: 0.001, ms: 1, '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `300`, `30s`, `5m`, `500ms` as milliseconds (Manticore's time syntax: a bare number is seconds). */
export function parseDuration(text: string): number {
  const m = /^\s*(\d+)\s*(us|ms|s|m|h|d|w)?\s*$/i.exec(text);
  if (!m) throw new SearchError('BAD_SETTING', `invalid time '${text}'`);
  return Math.ceil(Number(m[1]) * TIME_UNITS[(m[2] ?? '').toLowerCase()]!);
}

/** Parses argv without the node and script entries; `--flag value` and `--flag=value` both work. */
export function parseCliArgs(argv: string[]): CliArgs {
  const args: CliArgs = { command: 'serve' };
  let sawCommand = false;
  for (const word of cliWords(argv, (arg) => !arg.startsWith('-') || HELP_WORDS.has(arg) || VERSION_WORDS.has(arg))) {
    if ('positional' in word) {
      const arg = word.positional;
      if (HELP_WORDS.has(arg)) return { command: 'help' };
      if (VERSION_WORDS.has(arg)) return { command: 'version' };
      if (sawCommand || !COMMANDS.has(arg)) fail(`unknown command '${arg}'`);
      sawCommand = true;
      args.command = arg as CliArgs['command'];
      continue;
    }
    const key = VALUE_FLAGS[word.name];
    if (!key) fail(`unknown option '${word.name}'`);
    const value = word.value();
    if (key === 'maxBodyBytes') args.maxBodyBytes = parseSize(value);
    else (args as unknown as Record<string, string>)[key] = value;
  }
  if (args.command === 'export' && (!args.dataDir || !args.table || !args.outDir)) fail('export needs --data DIR, --table NAME and --out DIR');
  if (args.command !== 'export' && (args.table || args.outDir)) fail('--table and --out are options of export');
  return args;
}
