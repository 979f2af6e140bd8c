import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveStopwordFile, Stopwords } from '../../../src/text/stopwords.js';
import { SearchError } from '../../../src/util/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-stop-'));
const source = {
  tokenize: (line: string) => line.toLowerCase().split(/[^a-z]+/).filter(Boolean),
  normalize: (t: string) => (t.endsWith('s') ? t.slice(0, -1) : t),
};

describe('Stopwords', () => {
  it('loads every file, tokenizing line by line and normalizing', () => {
    const a = join(dir, 'a.txt');
    const b = join(dir, 'b.txt');
    writeFileSync(a, 'The AND\nthings');
    writeFileSync(b, 'of\r\n');
    const sw = Stopwords.fromSetting(`${a}, ${b}`, source);
    expect(['the', 'and', 'thing', 'of'].every((w) => sw.has(w))).toBe(true);
    expect(sw.has('things')).toBe(false);
    expect(sw.size).toBe(4);
  });

  it('falls back to the share dir and fails on a missing file', () => {
    const share = join(dir, 'share');
    writeFileSync(join(dir, 'dummy'), '');
    expect(() => resolveStopwordFile('/nowhere/en', share)).toThrow(SearchError);
    // the host's share dir holds the built-in lists: a code resolves there, an unknown one nowhere
    expect(() => resolveStopwordFile('/nowhere/qq')).toThrow("'stopwords' file missed /nowhere/qq");
    expect(resolveStopwordFile('/nowhere/en')).toMatch(/share\/stopwords\/en$/);
  });

  it('is empty without a setting', () => {
    expect(Stopwords.fromSetting('', source).size).toBe(0);
  });
});
