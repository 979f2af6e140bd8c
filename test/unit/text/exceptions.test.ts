// Exceptions: file parsing, case-sensitive raw-text matching with word boundaries, and the pipeline.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Exceptions, parseExceptionLine } from '../../../src/text/exceptions.js';
import { createTextPipeline } from '../../../src/text/text-pipeline.js';
import { SearchError } from '../../../src/util/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-exc-'));
function file(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, body);
  return path;
}
const alnum = (cp: number): boolean => /[\p{L}\p{N}]/u.test(String.fromCodePoint(cp));

describe('parseExceptionLine', () => {
  it('needs => and both sides; folds whitespace', () => {
    expect(parseExceptionLine('  MS   Windows =>  ms  windows ')).toEqual({ from: 'MS Windows', to: 'ms windows' });
    expect(parseExceptionLine('C++ > cpp')).toBeNull();
    expect(parseExceptionLine(' => x')).toBeNull();
    expect(parseExceptionLine('x =>')).toBeNull();
  });
});

describe('Exceptions.find', () => {
  const exc = Exceptions.of([['AT&T', 'AT&T'], ['C++', 'cplusplus'], ['MS Windows', 'ms windows'], ['USA', 'usa!']]);
  it('matches case-sensitively, folding whitespace runs', () => {
    expect(exc.find('use C++ on MS \t Windows', alnum)).toEqual([
      { start: 4, end: 7, to: 'cplusplus' },
      { start: 11, end: 23, to: 'ms windows' },
    ]);
    expect(exc.find('at&t c++ ms windows', alnum)).toEqual([]);
  });
  it('honours word boundaries on both sides', () => {
    expect(exc.find('USAF xUSA USA.', alnum)).toEqual([{ start: 10, end: 13, to: 'usa!' }]);
  });
  it('prefers the longest source; the first of duplicates stays', () => {
    const e = Exceptions.of([['A', 'one'], ['A B', 'two'], ['A', 'three']]);
    expect(e.size).toBe(2);
    expect(e.find('A B', alnum)).toEqual([{ start: 0, end: 3, to: 'two' }]);
    expect(e.find('A C', alnum)).toEqual([{ start: 0, end: 1, to: 'one' }]);
  });
});

describe('Exceptions.fromSetting', () => {
  it('loads one file, skipping bad lines', () => {
    const e = Exceptions.fromSetting(file('e.txt', 'C++ => cplusplus\nbad line\r\nAT&T => AT&T\r\n'));
    expect(e.size).toBe(2);
  });
  it('rejects several files and missing files with Manticore texts', () => {
    const a = file('a.txt', 'x => y\n');
    expect(() => Exceptions.fromSetting(`${a} ${a}`)).toThrow("'exceptions' options only supports a single file");
    const missing = join(dir, 'none.txt');
    expect(() => Exceptions.fromSetting(missing)).toThrow(SearchError);
    expect(() => Exceptions.fromSetting(missing)).toThrow(`file not found: '${missing}'`);
  });
});

describe('exceptions in the pipeline', () => {
  const exc = file('p.txt', 'C++ => cplusplus\nAT&T => AT&T\nMS Windows => ms windows\n');
  it('index a match as one token at its place, other text as usual', () => {
    const p = createTextPipeline({ exceptions: exc });
    expect(p.indexField('I like C++ and AT&T, at&t too')).toEqual({
      terms: ['i', 'like', 'cplusplus', 'and', 'AT&T', 'at', 't', 'too'],
      positions: [1, 2, 3, 4, 5, 6, 7, 8], length: 8,
    });
    const toks = p.tokenize('x MS  Windows y');
    expect(toks.map((t) => [t.text, t.term, t.pos, t.start, t.end])).toEqual([
      ['x', 'x', 1, 0, 1], ['ms windows', 'ms windows', 2, 2, 13], ['y', 'y', 3, 14, 15],
    ]);
  });
  it('apply to query words and CALL KEYWORDS', () => {
    const p = createTextPipeline({ exceptions: exc });
    expect(p.normalizeWord('C++')).toEqual(['cplusplus']);
    expect(p.keywords('learn C++ now')).toEqual([
      { qpos: 1, tokenized: 'learn', normalized: 'learn' },
      { qpos: 2, tokenized: 'cplusplus', normalized: 'cplusplus' },
      { qpos: 3, tokenized: 'now', normalized: 'now' },
    ]);
  });
});

describe('exceptions on query text', () => {
  const exc = Exceptions.of([['C++', 'cplusplus'], ['C+', 'cplus'], ['MS Windows', 'mswin']]);

  it('queryMatchAt: the longest source at a position, escapes skipped, a separator after it', () => {
    expect(exc.queryMatchAt('C++ code', 0, alnum)).toBe(3);
    expect(exc.queryMatchAt('C+ code', 0, alnum)).toBe(2);
    expect(exc.queryMatchAt('C\\+\\+)', 0, alnum)).toBe(5);
    // C++ has a word character after it, so the longest source that ends before a separator wins
    expect(exc.queryMatchAt('C++x', 0, alnum)).toBe(2);
    expect(exc.queryMatchAt('C+x', 0, alnum)).toBe(-1);
    expect(exc.queryMatchAt('MS  Windows', 0, alnum)).toBe(11);
    expect(exc.queryMatchAt('x C++', 0, alnum)).toBe(-1);
  });

  it('find with escapes reads a backslashed source as typed, without them it does not', () => {
    expect(exc.find('use C\\+\\+ now', alnum, true)).toEqual([{ start: 4, end: 9, to: 'cplusplus' }]);
    expect(exc.find('use C\\+\\+ now', alnum)).toEqual([]);
  });
});
