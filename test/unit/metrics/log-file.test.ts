/** LogFile on a device that is always full (/dev/full: every write fails with ENOSPC), then on a real file. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LogFile } from '../../../src/metrics/log-file.js';

describe('LogFile', () => {
  afterEach(() => { vi.restoreAllMocks(); });

  it('drops lines it cannot write (ENOSPC) without throwing, with one notice on stderr', () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const log = new LogFile('/dev/full');
    try {
      for (let i = 0; i < 5; i++) expect(() => log.write(`line ${i}\n`)).not.toThrow();
    } finally {
      log.close();
    }
    expect(errors).toHaveBeenCalledTimes(1);
    expect(String(errors.mock.calls[0]![0])).toMatch(/^quarry: log file \/dev\/full: ENOSPC/);
  });

  it('appends lines to a file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-logfile-'));
    try {
      const log = new LogFile(join(dir, 'searchd.log'));
      log.write('a\n');
      log.write('b\n');
      log.close();
      expect(readFileSync(join(dir, 'searchd.log'), 'utf8')).toBe('a\nb\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
