// `quarry import` as a command: a bad input fails before the target is opened, so nothing is created.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { EXIT_FAILED, importCommand } from '../../../src/import/import-command.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-import-cmd-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('quarry import', () => {
  it('checks every input before it creates the data directory', async () => {
    const good = join(dir, 'good.tsv');
    writeFileSync(good, 'id\ttitle\n1\ta\n');
    const data = join(dir, 'data');
    const errors: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((m: string) => { errors.push(m); });
    try {
      for (const [bad, why] of [[join(dir, 'missing.tsv'), 'no such file'], [dir, 'is a directory']]) {
        errors.length = 0;
        expect(await importCommand(['--table', 't', '--data', data, '--quiet', good, bad])).toBe(EXIT_FAILED);
        expect(errors).toEqual([`quarry import: cannot read ${bad}: ${why}`]);
        expect(existsSync(data)).toBe(false);
      }
    } finally {
      spy.mockRestore();
    }
  });
});
