/**
 * searchd's `pid_file`: the server's pid written there once it serves, removed when it stops, for
 * scripts and service managers (`kill $(cat searchd.pid)`). Without the setting it is
 * `<data>/searchd.pid`. quarry itself never reads it: who holds a data directory is the store's lock
 * (store/data-dir.ts dataDirHolder), which also survives a kill -9 and pid reuse.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const PID_FILE = 'searchd.pid';

/** The pid file's path: the config's `pid_file`, else `<data>/searchd.pid`. */
export function pidFilePath(dataDir: string, configured?: string): string {
  return configured ?? join(dataDir, PID_FILE);
}

export function writePidFile(path: string): void {
  writeFileSync(path, `${process.pid}\n`);
}

/** Removes the pid file if it is still this process's. */
export function removePidFile(path: string): void {
  try {
    if (Number.parseInt(readFileSync(path, 'utf8'), 10) === process.pid) rmSync(path);
  } catch { /* already gone */ }
}
