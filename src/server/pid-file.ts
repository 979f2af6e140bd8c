/**
 * The server's pid file in its data directory (`<data>/searchd.pid`, as Sphinx's `pid_file`): written
 * when the server is up, removed when it stops. `quarry import --data` refuses a directory a live
 * server holds, and `quarry indexer` finds the server to rotate tables in through it.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const PID_FILE = 'searchd.pid';

export function pidFilePath(dataDir: string): string {
  return join(dataDir, PID_FILE);
}

/** True when `pid` is a running process (a zombie, dead but not yet reaped, is not). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // /proc/<pid>/stat: "pid (comm) state ..."; comm may hold spaces and parentheses
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no /proc: trust kill(0)
  }
}

/** The pid of the live server holding `dataDir`, or undefined (no pid file, or a stale one). */
export function runningServerPid(dataDir: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(pidFilePath(dataDir), 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number.parseInt(text.trim(), 10);
  if (!(pid > 0) || pid === process.pid) return undefined;
  return processAlive(pid) ? pid : undefined;
}

export function writePidFile(dataDir: string): void {
  writeFileSync(pidFilePath(dataDir), `${process.pid}\n`);
}

/** Removes the pid file if it is still this process's. */
export function removePidFile(dataDir: string): void {
  try {
    if (Number.parseInt(readFileSync(pidFilePath(dataDir), 'utf8'), 10) === process.pid) rmSync(pidFilePath(dataDir));
  } catch { /* already gone */ }
}
