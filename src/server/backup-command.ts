/**
 * `quarry backup (--data DIR | --url URL) --to DIR [--tables a,b]` and `quarry restore --from DIR
 * --data DIR`. With --url the running server makes the backup (BACKUP ... TO, consistent while it
 * keeps serving writes); with --data the data directory is opened here, so no server may be using it.
 */
import { resolve } from 'node:path';
import { asSearchError, SearchError } from '../util/errors.js';
import { cliFail, cliWords } from './cli-options.js';

export const BACKUP_USAGE = `usage: quarry backup (--data DIR | --url http://host:9308) --to DIR [--tables a,b]
       quarry restore --from BACKUP_DIR --data DIR

backup writes DIR/backup-YYYYMMDDHHMMSS, a data directory that quarry serve --data opens.
  --url URL      ask a running server (SQL BACKUP; writes go on meanwhile)
  --data DIR     copy a data directory no server is using
  --to DIR       existing directory that receives the backup folder
  --tables LIST  comma-separated tables (default: all)
restore copies a backup folder into --data DIR, which must not exist or be empty.`;

type Flags = Record<string, string>;

function parseFlags(argv: string[], allowed: string[]): Flags {
  const out: Flags = {};
  for (const word of cliWords(argv, () => false)) {
    if ('positional' in word) continue;
    if (!allowed.includes(word.name)) cliFail(`unknown option '${word.name}'`);
    out[word.name.slice(2)] = word.value();
  }
  return out;
}

/** A path as a single-quoted SphinxQL string. */
function sqlString(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

async function backupOverHttp(url: string, to: string, tables: string[]): Promise<string> {
  const { HttpTarget } = await import('../import/http-target.js');
  const target = new HttpTarget(url);
  const list = tables.length ? ` TABLES ${tables.map((t) => `\`${t}\``).join(', ')}` : '';
  const rows = await target.rows(`BACKUP${list} TO ${sqlString(resolve(to))}`);
  return String(rows[0]?.Path ?? '');
}

async function backupDataDir(dataDir: string, to: string, tables: string[]): Promise<string> {
  const { Store } = await import('../store/index.js');
  const { checkDataFormat } = await import('../store/data-dir.js');
  const { prepareBackup, runBackup } = await import('../engine/backup/backup.js');
  // only check first: opening would create a mistyped directory and back up its emptiness
  checkDataFormat(dataDir, true);
  const store = Store.open(dataDir);
  try {
    const dest = await prepareBackup(store, to, tables);
    await runBackup(store, dest, tables);
    return dest;
  } finally {
    await store.close();
  }
}

export async function backupCommand(argv: string[]): Promise<number> {
  if (argv.includes('--help')) {
    console.log(BACKUP_USAGE);
    return 0;
  }
  try {
    const f = parseFlags(argv, ['--data', '--url', '--to', '--tables']);
    if (!f.to || (!f.data === !f.url)) throw new SearchError('BAD_SETTING', 'backup needs --to DIR and one of --data DIR or --url URL');
    const tables = f.tables ? f.tables.split(',').map((t) => t.trim().toLowerCase()).filter(Boolean) : [];
    const dest = f.url ? await backupOverHttp(f.url, f.to, tables) : await backupDataDir(f.data!, f.to, tables);
    console.log(`quarry: backup written to ${dest}`);
    return 0;
  } catch (e) {
    console.error(`quarry: ${asSearchError(e).message}`);
    return 1;
  }
}

export async function restoreCommand(argv: string[]): Promise<number> {
  if (argv.includes('--help')) {
    console.log(BACKUP_USAGE);
    return 0;
  }
  try {
    const f = parseFlags(argv, ['--from', '--data']);
    if (!f.from || !f.data) throw new SearchError('BAD_SETTING', 'restore needs --from BACKUP_DIR and --data DIR');
    const { restoreBackup } = await import('../engine/backup/backup.js');
    const tables = await restoreBackup(f.from, f.data);
    console.log(`quarry: restored ${tables.length} table(s) (${tables.join(', ') || 'none'}) into ${f.data}`);
    return 0;
  } catch (e) {
    console.error(`quarry: ${asSearchError(e).message}`);
    return 1;
  }
}
