import { describe, expect, it } from 'vitest';
import { formatQueryLine, parseLogCommands, squeezeJson } from '../../../src/metrics/query-log.js';

const at = new Date(2024, 3, 28, 12, 38, 2, 808);

describe('query log lines', () => {
  it('squeezes whitespace outside JSON strings only', () => {
    expect(squeezeJson('{\n  "a" :  "x  \\"  y",\t"b": [1,  2]\n}')).toBe('{ "a" : "x  \\"  y", "b": [1, 2] }');
  });

  it('formats searches, JSON bodies, other statements and errors as Manticore', () => {
    const conn = { connId: 2, peer: '127.0.0.1:53228' };
    expect(formatQueryLine({ kind: 'select', text: 'SELECT * FROM t', ms: 1.4, found: 3, ...conn }, at))
      .toBe('/* Sun Apr 28 12:38:02.808 2024 conn 2 (127.0.0.1:53228) real 0.001 wall 0.001 found 3 */ SELECT * FROM t;\n');
    expect(formatQueryLine({ kind: 'select', text: '{"table": "t"}', json: true, ms: 0, found: 0, ...conn }, at))
      .toBe('/* Sun Apr 28 12:38:02.808 2024 conn 2 (127.0.0.1:53228) real 0.000 wall 0.000 found 0 */  /*{"table": "t"} */\n');
    expect(formatQueryLine({ kind: 'select', text: 'SELECT * FROM x', ms: 0, error: 'no such', ...conn }, at))
      .toBe('/* Sun Apr 28 12:38:02.808 2024 conn 2 (127.0.0.1:53228) real 0.000 wall 0.000 found 0 */ SELECT * FROM x; /* error=no such */\n');
    expect(formatQueryLine({ kind: 'parse_error', text: 'SELEKT 1', ms: 0, error: 'P02: bad' }, at))
      .toBe('/* Sun Apr 28 12:38:02.808 2024 */ SELEKT 1 # error=P02: bad\n');
    expect(formatQueryLine({ kind: 'insert', text: '{"doc": "a */ b"}', json: true, ms: 2 }, at))
      .toBe('/* Sun Apr 28 12:38:02.808 2024 real 0.002 */  /*{"doc": "a *\\/ b"} */\n');
  });

  it('reads query_log_commands', () => {
    expect(parseLogCommands('')).toEqual(new Set());
    expect(parseLogCommands('*')).toBe('all');
    expect(parseLogCommands('1')).toBe('all');
    expect(parseLogCommands('insert, Delete')).toEqual(new Set(['insert', 'delete']));
    expect(parseLogCommands('insert,nope')).toMatch(/unknown statement name\(s\) nope/);
  });
});
