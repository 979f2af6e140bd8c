/**
 * A full disk under the commands that copy a data directory: BACKUP (SQL) to a small tmpfs, `quarry
 * restore` into one, `quarry import --data` onto one. Each fails with a clear error naming the lack of
 * space, leaves nothing a later run would take for whole (no backup-* folder, no half restored data
 * directory, only whole import batches), and the server whose data was being copied keeps serving.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataDirRows } from '../helpers/data-dir-rows.js';
import { runQuarry } from '../helpers/run-quarry.js';
import { startServer, type ServerProcess } from '../helpers/server-process.js';
import { canMountTmpfs, mountTmpfs, TMPFS_SKIP_REASON, unmountTmpfs } from '../helpers/tmpfs.js';

const canMount = canMountTmpfs();
/** The tmpfs: far less than the table's data. */
const FS_BYTES = 1 << 20;
const ROWS = 3000;

const root = mkdtempSync(join(tmpdir(), 'quarry-full-copies-'));
let mnt: string;
let server: ServerProcess;
const data = join(root, 'data');

/** A row of ~1 kB of distinct words. */
const text = (id: number) => Array.from({ length: 120 }, (_, i) => `w${(id * 31 + i * 7) % 9973}`).join(' ');

async function count(): Promise<unknown> {
  return ((await server.sql('SELECT COUNT(*) AS c FROM t')) as { data: unknown[] }[])[0]!.data;
}

describe.skipIf(!canMount)(`a full disk under backup, restore and import${canMount ? '' : ` (skipped: ${TMPFS_SKIP_REASON})`}`, () => {
  beforeAll(async () => {
    mnt = mountTmpfs(FS_BYTES, 'quarry-full-copies-mnt-');
    server = await startServer(data);
    await server.sql('CREATE TABLE t (title text, n int)');
    for (let b = 1; b <= ROWS; b += 500) {
      const values = Array.from({ length: 500 }, (_, i) => `(${b + i}, '${text(b + i)}', ${b + i})`);
      await server.sql(`INSERT INTO t (id, title, n) VALUES ${values.join(',')}`);
    }
  }, 120_000);
  afterAll(async () => {
    if (server?.proc.exitCode === null) await server.stop();
    if (mnt) unmountTmpfs(mnt);
    rmSync(root, { recursive: true, force: true });
  });

  it('BACKUP to a full disk fails saying so, removes its partial copy, and the server serves and writes on', async () => {
    const res = await server.sql(`BACKUP TO ${mnt}`);
    expect(res).toEqual({ error: expect.stringMatching(/^BACKUP failed: .*(ENOSPC|no space left on device).*\(the partial copy '\S+backup-\d+' was removed\)$/i) });
    expect(readdirSync(mnt).filter((f) => f.startsWith('backup-'))).toEqual([]);
    expect(await count()).toEqual([{ c: ROWS }]);
    expect(await server.sql(`INSERT INTO t (id, title, n) VALUES (${ROWS + 1}, 'after', 1)`)).toEqual([expect.objectContaining({ total: 1 })]);
    expect(await count()).toEqual([{ c: ROWS + 1 }]);
  }, 60_000);

  it('quarry restore into a full disk fails saying so and leaves no data directory behind', async () => {
    const good = join(root, 'backups');
    mkdirSync(good);
    expect(await server.sql(`BACKUP TO ${good}`)).toEqual([expect.objectContaining({ error: '' })]);
    const from = join(good, readdirSync(good)[0]!);
    const target = join(mnt, 'restored');
    const run = await runQuarry(['restore', '--from', from, '--data', target]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/restore into '\S+restored' failed: .*(ENOSPC|no space left on device).*\(what was copied was removed\)/i);
    expect(run.stderr).not.toMatch(/\n\s+at /); // an error line, not a stack
    expect(existsSync(target)).toBe(false);
  }, 60_000);

  it('quarry import --data onto a full disk fails saying so; the data directory holds whole batches and opens', async () => {
    const csv = join(root, 'rows.csv');
    const lines = ['id,title,n'];
    for (let id = 1; id <= 20_000; id++) lines.push(`${id},${text(id)},${id}`);
    writeFileSync(csv, `${lines.join('\n')}\n`);
    // a tmpfs of its own, big enough for some batches (each write first checks for its room and a reserve)
    const big = mountTmpfs(6 << 20, 'quarry-full-import-');
    try {
      await importOnto(join(big, 'imported'), csv);
    } finally {
      unmountTmpfs(big);
    }
  }, 120_000);
});

async function importOnto(target: string, csv: string): Promise<void> {
  {
    const run = await runQuarry(['import', '--table', 'i', '--data', target, '--batch', '200', csv]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/^quarry import: write failed: no space left on device in the data directory \(\d+ bytes free, this write needs \d+\); nothing of this write was stored$/m);
    const imported = /^quarry import: stopped in \S+rows\.csv: ([\d,]+) documents imported into table i before it \(acknowledged: they stay\)$/m.exec(run.stderr);
    expect(imported).not.toBeNull();
    const acked = Number(imported![1]!.replace(/,/g, ''));
    // what it said stayed is there, whole batches only, and the directory opens
    const rows = (await dataDirRows(target, 'SELECT COUNT(*) AS c FROM i')) as unknown[][];
    expect(rows).toEqual([[acked]]);
    expect(acked).toBeGreaterThan(0);
    expect(acked % 200).toBe(0);
  }
}
