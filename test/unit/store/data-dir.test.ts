// The data directory's lock file and format stamp, with real files and real processes.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimDataDir, DATA_FORMAT_VERSION, FORMAT_FILE, LOCK_FILE } from '../../../src/store/data-dir.js';
import { Store } from '../../../src/store/store.js';

let dir: string;
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'quarry-datadir-')); });
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The pid of a process that has exited. */
function deadPid(): number {
  return Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).toString());
}

describe('data directory lock', () => {
  it('refuses a second store on a directory in use, and frees it on close', async () => {
    const a = Store.open(dir);
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    expect(() => Store.open(dir)).toThrow(`data directory ${dir} is in use by another quarry (this process; lock file ${LOCK_FILE})`);
    await a.close();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    await Store.open(dir).close();
  });

  it('names another live process that holds it', () => {
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: process.ppid, host: hostname(), started: '' }));
    expect(() => Store.open(dir)).toThrow(`in use by another quarry (process ${process.ppid}; lock file ${LOCK_FILE})`);
    expect(readdirSync(dir).sort()).toEqual([LOCK_FILE]); // nothing opened or created
  });

  it('takes over a lock left by a process that died, or whose pid now belongs to a later process', async () => {
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: deadPid(), host: hostname(), started: '1' }));
    await Store.open(dir).close();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: process.ppid, host: hostname(), started: 'not-its-start-time' }));
    await Store.open(dir).close();
    writeFileSync(join(dir, LOCK_FILE), '{"pid": 12'); // half-written by a process killed while writing it
    await Store.open(dir).close();
  });
});

describe('read-only opening (quarry export)', () => {
  it('reads beside the store that holds the lock, and writes nothing', async () => {
    const owner = Store.open(dir);
    await owner.createTable({ name: 't', columns: [{ name: 'title', type: 'text', indexed: true, stored: true }], settings: {} });
    await owner.write('t', [{ op: 'put', docId: 1n, doc: { title: 'one' } }]);
    const reader = Store.open(dir, { readOnly: true });
    expect(reader.getDoc('t', 1n)).toEqual({ title: 'one' });
    await expect(reader.write('t', [{ op: 'put', docId: 2n, doc: { title: 'two' } }])).rejects.toThrow();
    await reader.close();
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid); // still the owner's
    await owner.close();
  });

  it('refuses a directory without quarry data rather than creating any', () => {
    expect(() => Store.open(dir, { readOnly: true })).toThrow(`data directory ${dir} holds no quarry data (no ${FORMAT_FILE})`);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('data format stamp', () => {
  it('stamps a new directory and opens it again', async () => {
    await Store.open(dir).close();
    expect(JSON.parse(readFileSync(join(dir, FORMAT_FILE), 'utf8'))).toMatchObject({ format: DATA_FORMAT_VERSION });
    await Store.open(dir).close();
  });

  it('refuses a directory of another format without touching it', () => {
    writeFileSync(join(dir, FORMAT_FILE), JSON.stringify({ format: DATA_FORMAT_VERSION + 1, writer: 'quarry 9.0.0' }));
    expect(() => Store.open(dir)).toThrow(
      `data directory ${dir} has data format ${DATA_FORMAT_VERSION + 1} (written by quarry 9.0.0); this quarry reads format ${DATA_FORMAT_VERSION}`);
    expect(readdirSync(dir)).toEqual([FORMAT_FILE]);
    writeFileSync(join(dir, FORMAT_FILE), 'garbage');
    expect(() => Store.open(dir)).toThrow(`unreadable ${FORMAT_FILE}`);
    expect(readdirSync(dir)).toEqual([FORMAT_FILE]);
  });
});

describe('claimDataDir', () => {
  it('creates, locks and stamps the directory with tables/, and releases the lock when the format is wrong', () => {
    const sub = join(dir, 'new');
    const release = claimDataDir(sub, false);
    expect(readdirSync(sub).sort()).toEqual([LOCK_FILE, FORMAT_FILE, 'tables'].sort());
    release();
    expect(existsSync(join(sub, LOCK_FILE))).toBe(false);
    writeFileSync(join(sub, FORMAT_FILE), JSON.stringify({ format: DATA_FORMAT_VERSION + 1 }));
    expect(() => claimDataDir(sub, false)).toThrow(/has data format/);
    expect(existsSync(join(sub, LOCK_FILE))).toBe(false);
  });
});
