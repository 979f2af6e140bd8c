/**
 * Physical backup of a data directory: checkpoint folders copied file by file, the lmdb environment
 * copied by lmdb itself from one read transaction (a consistent snapshot while writers go on).
 * Store.backup holds checkpoints and garbage collection still while this runs.
 */
import { copyFile, mkdir, open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { RootDatabase } from 'lmdb';
import { SearchError } from '../util/errors.js';
import { FORMAT_FILE } from './data-dir.js';
import { fsyncDir } from './durable-fs.js';

async function fsyncFile(path: string): Promise<void> {
  const h = await open(path, 'r+');
  try {
    await h.sync();
  } finally {
    await h.close();
  }
}

/** Copies the files of `from` (a generation folder: manifest and segments) into `to`, fsynced. */
async function copyFolder(from: string, to: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(from);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return; // no checkpoint yet: the ops hold it all
    throw e;
  }
  await mkdir(to, { recursive: true });
  for (const name of names) {
    if (name.endsWith('.tmp')) continue; // a manifest swap in progress is never part of a checkpoint
    await copyFile(join(from, name), join(to, name));
    await fsyncFile(join(to, name));
  }
  await fsyncDir(to);
}

/**
 * Writes `destDir` (created; must not exist or be empty) as a data directory: `tables/<dir>` for each
 * of `genDirs` under `tablesDir`, then `store/` as an lmdb snapshot of `env`, then the format stamp
 * of `dataDir` (so the copy opens as a data directory of this format).
 */
export async function copyStore(
  dataDir: string, tablesDir: string, genDirs: string[], env: RootDatabase, destDir: string,
): Promise<void> {
  await checkEmptyTarget(destDir);
  const destTables = join(destDir, 'tables');
  await mkdir(destTables, { recursive: true });
  for (const dir of genDirs) await copyFolder(join(tablesDir, dir), join(destTables, dir));
  await fsyncDir(destTables);
  const destStore = join(destDir, 'store');
  await mkdir(destStore);
  await env.backup(destStore, false);
  for (const name of await readdir(destStore)) await fsyncFile(join(destStore, name));
  await fsyncDir(destStore);
  await copyFile(join(dataDir, FORMAT_FILE), join(destDir, FORMAT_FILE)).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'ENOENT') throw e;
  });
  await fsyncDir(destDir);
}

/** A backup or restore never writes over files: the target folder must be new or empty. */
export async function checkEmptyTarget(dir: string): Promise<void> {
  try {
    if (!(await stat(dir)).isDirectory()) throw new SearchError('BAD_VALUE', `'${dir}' is not a directory`);
    if ((await readdir(dir)).length > 0) throw new SearchError('BAD_VALUE', `'${dir}' is not empty`);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}
