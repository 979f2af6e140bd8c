import { describe, expect, it } from 'vitest';
import { parseOutput, parseTranscript, splitInput } from './transcripts.js';

describe('transcripts', () => {
  it('parses input statements and a result table into a case', () => {
    const text = '# source: spec 3\n--- input ---\nCREATE TABLE t (title TEXT);\nINSERT INTO t VALUES\n  (1, \'a;b\');\nSELECT id FROM t;\n--- output ---\n| id | x    |\n| 1  | NULL |\n';
    const c = parseTranscript(text, '/r/sql/one.case', '/r');
    expect(c.id).toBe('own/sql/one');
    expect(c.area).toBe('own/sql');
    expect(c.source).toBe('source: spec 3');
    expect(c.setup).toEqual([{ sql: 'CREATE TABLE t (title TEXT)' }, { sql: "INSERT INTO t VALUES\n  (1, 'a;b')" }]);
    expect(c.request).toEqual([{ sql: 'SELECT id FROM t' }]);
    expect(c.expect).toEqual({ columns: ['id', 'x'], rows: [['1', null]] });
  });

  it('reads OK and ERROR outputs', () => {
    expect(parseOutput(['OK 2'])).toEqual({ ok: true, affected: 2 });
    expect(parseOutput(["ERROR unknown column: 'c'"])).toEqual({ error: "unknown column: 'c'" });
    expect(() => parseOutput(['whatever'])).toThrow(/must be a table/);
    expect(splitInput(['select 1'])).toEqual(['select 1']);
  });

  it('reads further result sets (one per FACET) separated by blank lines', () => {
    const out = parseOutput(['| a |', '| 1 |', '', '| b | count(*) |', '| x | 2        |', '']);
    expect(out).toEqual({ columns: ['a'], rows: [['1']], more: [{ columns: ['b', 'count(*)'], rows: [['x', '2']] }] });
    expect(() => parseOutput(['| a |', '', 'OK 1'])).toThrow(/must be a table/);
  });

  it('refuses a transcript without its sections', () => {
    expect(() => parseTranscript('--- output ---\nOK 0', '/r/x.case', '/r')).toThrow(/needs/);
  });
});
