/**
 * BACKUP and `quarry backup` / `quarry restore`: a backup is a folder `backup-YYYYMMDDHHMMSS` inside
 * the target directory (as Manticore names them) that is itself a data directory: `quarry serve
 * --data` opens it, and `quarry restore` copies it into place.
 */
import { cp, mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Store } from '../../store/index.js';
import { checkEmptyTarget } from '../../store/index.js';
import { SearchError } from '../../util/errors.js';

function backupError(message: string): SearchError {
  return new SearchError('QUERY_ERROR', `BACKUP failed: ${message}`);
}

async function isDir(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `backup-20221004171839` from the local time, with `-2`, `-3`... when that name is taken. */
async function freshName(dir: string, now: Date): Promise<string> {
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  for (let i = 1; ; i++) {
    const path = join(dir, i === 1 ? `backup-${stamp}` : `backup-${stamp}-${i}`);
    try {
      await mkdir(path);
      return path;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw backupError(`cannot create '${path}': ${(e as Error).message}`);
    }
  }
}

/**
 * Checks the request and creates the backup's folder; returns its path. `toDir` must exist (as in
 * Manticore), every name in `tables` must be a table.
 */
export async function prepareBackup(store: Store, toDir: string, tables: string[]): Promise<string> {
  const known = new Set(store.tables().map((t) => t.name));
  const missing = tables.filter((t) => !known.has(t));
  if (missing.length) throw backupError(`unknown table(s): ${missing.join(', ')}`);
  // resolve('') is the server's working directory: `BACKUP TO ''` wrote a backup there
  if (toDir.trim() === '') throw backupError('backup directory is empty');
  const dir = resolve(toDir);
  if (!(await isDir(dir))) throw backupError(`backup directory '${toDir}' does not exist or is not a directory`);
  return freshName(dir, new Date());
}

/**
 * Copies the store into `dest` (from prepareBackup); with `tables`, the copy keeps only those. A copy
 * that fails part way (disk full, a path too long) is removed: a `backup-*` folder is whole or absent,
 * never half a data directory a later restore would take for a backup.
 */
export async function runBackup(store: Store, dest: string, tables: string[]): Promise<void> {
  try {
    await copyInto(store, dest, tables);
  } catch (e) {
    await rm(dest, { recursive: true, force: true }).catch(() => {});
    throw backupError(`${(e as Error).message} (the partial copy '${dest}' was removed)`);
  }
}

async function copyInto(store: Store, dest: string, tables: string[]): Promise<void> {
  await store.backup(dest);
  if (tables.length === 0) return;
  const keep = new Set(tables);
  const copy = Store.open(dest);
  try {
    for (const t of copy.tables()) if (!keep.has(t.name)) await copy.dropTable(t.name);
  } finally {
    await copy.close();
  }
}

/** `quarry restore`: copies backup folder `from` into `dataDir`, which must be new or empty. */
export async function restoreBackup(from: string, dataDir: string): Promise<string[]> {
  if (!(await isDir(join(from, 'store')))) {
    throw new SearchError('BAD_VALUE', `'${from}' is not a quarry backup (no store/ folder in it)`);
  }
  await checkEmptyTarget(dataDir);
  const existed = await isDir(dataDir);
  try {
    await cp(from, dataDir, { recursive: true, errorOnExist: true, force: false });
  } catch (e) {
    // a copy cut short (disk full) is undone: the directory is as it was (empty or absent), not half
    // a data directory a server would open
    if (!existed) await rm(dataDir, { recursive: true, force: true }).catch(() => {});
    else for (const name of await readdir(dataDir).catch(() => [])) await rm(join(dataDir, name), { recursive: true, force: true }).catch(() => {});
    throw new SearchError('BAD_VALUE', `restore into '${dataDir}' failed: ${(e as Error).message} (what was copied was removed)`);
  }
  // opening checks what was copied (catalog, manifests) before the user starts a server on it
  const store = Store.open(dataDir);
  const names = store.tables().map((t) => t.name);
  await store.close();
  return names;
}
