/**
 * Ownership and format of a data directory, checked before anything in it is opened or changed.
 *
 * - `quarry.lock` names the process that serves the directory (the one mechanism: `quarry import` and
 *   `quarry indexer` ask dataDirHolder; the server's pid file, searchd's `pid_file`, is only written). lmdb's own lock file (store/lock.mdb)
 *   only coordinates readers and writers of the lmdb environment across processes: two servers on
 *   one directory would both open it happily, each with its own in-memory index, checkpoints and
 *   clean-up of the other's files. So a second server is refused with the first one's pid. A lock
 *   left by a process that died (kill -9) is taken over: its pid is gone, or now belongs to a process
 *   that started later (the start time is recorded beside the pid, so pid reuse is not mistaken).
 * - `quarry-format.json` stamps the layout version. A directory stamped with another version is
 *   refused untouched rather than misread or "repaired".
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { SearchError } from '../util/errors.js';
import { fsyncDirSync } from './durable-fs.js';

/**
 * The data directory's layout (store/, tables/NAME.GEN/, manifests, segment files, record checksums);
 * bump on change. 0: the unstamped layout before checksums; 1: CRC-32 on records, segments, manifests.
 */
export const DATA_FORMAT_VERSION = 1;
export const FORMAT_FILE = 'quarry-format.json';
export const LOCK_FILE = 'quarry.lock';

interface LockInfo { pid: number; host: string; started: string }

/** The process's start time as the kernel reports it (/proc/PID/stat field 22), '' where unknown. */
function startTimeOf(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}

/** True when `pid` is a running process (a zombie, dead but not yet reaped, is not). */
function isAlive(pid: number): boolean {
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

/** Whether the lock's owner still runs (same host only: another host's lock is always honoured). */
function held(info: LockInfo): boolean {
  if (info.host !== hostname()) return true;
  if (!Number.isInteger(info.pid) || !isAlive(info.pid)) return false;
  const started = startTimeOf(info.pid);
  return !info.started || !started || started === info.started;
}

function readLock(path: string): LockInfo | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LockInfo;
  } catch {
    return undefined; // vanished, or half-written by a process that died while writing it
  }
}

/** Creates the lock file; false if one exists. */
function tryCreate(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
  try {
    const info: LockInfo = { pid: process.pid, host: hostname(), started: startTimeOf(process.pid) };
    writeSync(fd, JSON.stringify(info) + '\n');
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * The other process that holds `dir` (its lock names a live process: a server, an import, an
 * indexer), or undefined. `quarry import --data` and `quarry indexer` ask this before opening a
 * directory: the lock is the one record of who serves a directory (the pid file is only an output).
 */
export function dataDirHolder(dir: string): { pid: number; host: string } | undefined {
  const info = readLock(join(dir, LOCK_FILE));
  if (!info || !held(info) || (info.pid === process.pid && info.host === hostname())) return undefined;
  return { pid: info.pid, host: info.host };
}

/** Takes the directory's lock or throws naming the process that holds it; returns its release. */
export function lockDataDir(dir: string): () => void {
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; !tryCreate(path); attempt++) {
    const info = readLock(path);
    if (info && held(info)) {
      const who = info.pid === process.pid ? 'this process' : `process ${info.pid}${info.host !== hostname() ? ` on ${info.host}` : ''}`;
      throw new SearchError('BAD_SETTING', `data directory ${dir} is in use by another quarry (${who}; lock file ${LOCK_FILE})`);
    }
    if (attempt > 0) throw new SearchError('BAD_SETTING', `data directory ${dir}: cannot take the lock file ${LOCK_FILE}`);
    try {
      unlinkSync(path); // stale: its process is gone
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
  return () => {
    try {
      if (readLock(path)?.pid === process.pid) unlinkSync(path);
    } catch {
      // already gone
    }
  };
}

/**
 * Checks the format stamp, writing it into a new directory; throws, touching nothing, when the
 * directory has another format (an unstamped one that holds a store is format 0). Read-only: only checks.
 */
export function checkDataFormat(dir: string, readOnly = false): void {
  const path = join(dir, FORMAT_FILE);
  if (existsSync(path)) {
    let format: unknown;
    let writer: unknown;
    try {
      ({ format, writer } = JSON.parse(readFileSync(path, 'utf8')) as { format?: unknown; writer?: unknown });
    } catch {
      throw new SearchError('BAD_SETTING', `data directory ${dir}: unreadable ${FORMAT_FILE}; refusing to open it`);
    }
    if (format !== DATA_FORMAT_VERSION) {
      const by = typeof writer === 'string' ? ` (written by ${writer})` : '';
      throw new SearchError('BAD_SETTING', `data directory ${dir} has data format ${String(format)}${by}; this quarry reads format ${DATA_FORMAT_VERSION}. Use the quarry version that wrote it, or export and re-import the data`);
    }
    return;
  }
  if (readOnly) throw new SearchError('BAD_SETTING', `data directory ${dir} holds no quarry data (no ${FORMAT_FILE})`);
  if (existsSync(join(dir, 'store'))) {
    throw new SearchError('BAD_SETTING', `data directory ${dir} has data format 0 (no ${FORMAT_FILE}: written before records carried checksums); this quarry reads format ${DATA_FORMAT_VERSION}. Use the quarry version that wrote it, or export and re-import the data`);
  }
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, JSON.stringify({ format: DATA_FORMAT_VERSION, writer: `quarry ${packageVersion()}` }) + '\n');
  } finally {
    closeSync(fd);
  }
  fsyncDirSync(dir);
}

function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/**
 * Takes `dir` for a store: creates it, takes its lock, checks (or writes) its format stamp, creates
 * `tables/`. The lock and the stamp come first: nothing is created or cleaned up in a directory another
 * server owns or another version wrote. Read-only: no lock, nothing created, only the stamp checked.
 * Returns the lock's release (also called here if the format check fails).
 */
export function claimDataDir(dir: string, readOnly: boolean): () => void {
  if (!readOnly) mkdirSync(dir, { recursive: true });
  const unlock = readOnly ? () => undefined : lockDataDir(dir);
  try {
    checkDataFormat(dir, readOnly);
    if (!readOnly) mkdirSync(join(dir, 'tables'), { recursive: true });
  } catch (e) {
    unlock();
    throw e;
  }
  return unlock;
}
