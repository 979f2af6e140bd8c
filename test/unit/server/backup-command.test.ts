import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backupCommand } from '../../../src/server/backup-command.js';

// `quarry backup --data DIR` with a mistyped DIR used to create DIR as a new, empty data directory and
// write an empty backup of it, exit 0: a backup script with a wrong path reported success every night.
describe('quarry backup --data', () => {
  let dir: string;
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'quarry-backup-cmd-')); });
  afterEach(() => { rmSync(dir, { recursive: true, force: true }); vi.restoreAllMocks(); });

  it('refuses a directory that holds no quarry data, creating nothing', async () => {
    const errors: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((m: string) => { errors.push(m); });
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const typo = join(dir, 'dtaa');
    const to = join(dir, 'backups');
    mkdirSync(to);
    expect(await backupCommand(['--data', typo, '--to', to])).toBe(1);
    expect(errors).toEqual([`quarry: data directory ${typo} holds no quarry data (no quarry-format.json)`]);
    expect(existsSync(typo)).toBe(false);
    expect(readdirSync(to)).toEqual([]);
  });
});
