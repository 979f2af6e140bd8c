// BACKUP (src/engine/exec/exec-backup.ts): the copy holds a checkpoint of every table up to the backup,
// so a server started on it loads segments instead of rebuilding the rows from the store.
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../../../src/store/index.js';
import { restoreBackup } from '../../../../src/engine/backup/backup.js';
import { useTempEngine } from '../../../helpers/temp-engine.js';

// no periodic checkpoint during the test: only BACKUP's own pass can write one
const before = process.env.QUARRY_CHECKPOINT_MS;
beforeAll(() => { process.env.QUARRY_CHECKPOINT_MS = String(3_600_000); });
afterAll(() => {
  if (before === undefined) delete process.env.QUARRY_CHECKPOINT_MS;
  else process.env.QUARRY_CHECKPOINT_MS = before;
});

const t = useTempEngine('exec-backup', async (t) => {
  await t.exec('create table a (title text, n uint)');
  await t.exec('create table b (title text)');
});

describe('BACKUP', () => {
  it('checkpoints every table first: the copy\'s checkpoints cover its last writes', async () => {
    await t.exec("insert into a (id, title, n) values (1, 'one', 1), (2, 'two', 2)");
    await t.exec("insert into b (id, title) values (7, 'seven')");
    await t.exec('delete from a where id = 2');
    const to = join(t.dir, 'backups');
    mkdirSync(to);
    const [r] = await t.exec(`BACKUP TO '${to}'`);
    expect(r).toMatchObject({ kind: 'rows' });
    const [dir] = readdirSync(to);
    const copy = Store.open(join(to, dir!));
    try {
      for (const table of ['a', 'b']) {
        const cp = copy.loadCheckpoint(table);
        expect(cp.segments.length).toBeGreaterThan(0);
        expect(cp.lastSeq).toBe(copy.lastSeq(table));
      }
    } finally {
      await copy.close();
    }
    expect(await t.rows('select id from a')).toEqual([[1n]]);
  });
});

describe('BACKUP that fails part way', () => {
  it('answers BACKUP failed and leaves no half-written backup folder behind', async () => {
    // a target whose backup folder can be made but not its files: the folder's path is within
    // Linux's PATH_MAX (4096) and its files' paths past it, so the copy fails with ENAMETOOLONG after
    // the folder exists (as a disk filling up does); it stayed, a half data directory, and the error
    // was Node's bare message
    let to = t.dir;
    while (to.length < 4096 - 26 - 250) to = join(to, 'd'.repeat(200));
    to = join(to, 'e'.repeat(4096 - 26 - to.length - 1));
    mkdirSync(to, { recursive: true });
    await t.exec("insert into b (id, title) values (8, 'eight')");
    const [r] = await t.exec(`BACKUP TO '${to}'`);
    expect(r).toMatchObject({ kind: 'error', message: expect.stringMatching(/^BACKUP failed: .*ENAMETOOLONG.*\(the partial copy '.*' was removed\)$/) });
    expect(readdirSync(to)).toEqual([]);
  });
});

describe('BACKUP to an empty path', () => {
  it('is refused, not written into the server\'s working directory', async () => {
    const cwd = process.cwd();
    const entries = readdirSync(cwd);
    for (const to of ["''", "'  '"]) {
      const [r] = await t.exec(`BACKUP TO ${to}`);
      expect(r).toMatchObject({ kind: 'error', message: 'BACKUP failed: backup directory is empty' });
    }
    expect(readdirSync(cwd)).toEqual(entries);
  });
});

describe('quarry restore that fails part way', () => {
  it('removes what it copied: the data directory is left as it was, absent or empty', async () => {
    const to = join(t.dir, 'for-restore');
    mkdirSync(to);
    const [r] = await t.exec(`BACKUP TO '${to}'`);
    const from = String((r as { rows: unknown[][] }).rows[0]![0]);
    // a data directory whose own path fits in PATH_MAX (4096) and whose files' paths do not: the
    // copy fails after the directory was made (as a disk filling up does); it stayed, half copied
    let base = t.dir;
    while (base.length < 4096 - 260) base = join(base, 'r'.repeat(200));
    mkdirSync(base, { recursive: true });
    const target = join(base, 'n'.repeat(4096 - 4 - base.length - 1));
    await expect(restoreBackup(from, target)).rejects.toThrow(/^restore into '.*' failed: .*ENAMETOOLONG.*\(what was copied was removed\)$/);
    expect(existsSync(target)).toBe(false);
    mkdirSync(target);
    await expect(restoreBackup(from, target)).rejects.toThrow(/ENAMETOOLONG/);
    expect(readdirSync(target)).toEqual([]);
  });
});
