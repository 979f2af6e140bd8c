import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../../../src/server/config-parser.js';
import { openLogs } from '../../../src/server/logs.js';
import { logError, logWarning } from '../../../src/util/server-log.js';

let dir = '';
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

describe('searchd log', () => {
  it('gets the server\'s warnings and errors as one line each; stack traces stay on stderr', () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-logs-'));
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => {});
    const logs = openLogs(parseConfig(`searchd {\n  log = ${join(dir, 'searchd.log')}\n}\n`));
    logs.info('quarry listening');
    logWarning('table t: checkpoint damaged (bad\nchecksum); rebuilding the table from the store of record');
    logError('internal error running \'SELECT 1\': boom', new TypeError('boom'));
    logs.close();
    logWarning('after close: stderr only');
    const lines = readFileSync(join(dir, 'searchd.log'), 'utf8').trimEnd().split('\n');
    const head = String.raw`^\[[A-Z][a-z]{2} [A-Z][a-z]{2} \d{2} \d{2}:\d{2}:\d{2}\.\d{3} \d{4}\] \[${process.pid}\] `;
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(new RegExp(`${head}quarry listening$`));
    expect(lines[1]).toMatch(new RegExp(`${head}WARNING: table t: checkpoint damaged \\(bad checksum\\); rebuilding`));
    expect(lines[2]).toMatch(new RegExp(`${head}ERROR: internal error running 'SELECT 1': boom$`));
    const printed = stderr.mock.calls.map((c) => String(c[0]));
    expect(printed).toContain('quarry: after close: stderr only');
    expect(printed.some((p) => p.startsWith('TypeError: boom\n'))).toBe(true);
  });

  it('prints no stack trace for an expected condition (a full disk, a user error), one for an internal error', () => {
    const stderr = vi.spyOn(console, 'error').mockImplementation(() => {});
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    logWarning('checkpoint of table t failed: no space left on device', full);
    logWarning('a wrapped internal error', Object.assign(new Error('inner'), { code: 'INTERNAL' }));
    const printed = stderr.mock.calls.map((c) => String(c[0]));
    expect(printed).toContain('quarry: checkpoint of table t failed: no space left on device');
    expect(printed.some((p) => p.startsWith('Error: ENOSPC'))).toBe(false);
    expect(printed.some((p) => p.startsWith('Error: inner\n'))).toBe(true);
  });
});
