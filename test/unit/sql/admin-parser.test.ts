import { describe, expect, it } from 'vitest';
import { parseSql } from '../../../src/sql/parse-sql.js';
import { errorOf, one } from './helpers.js';

const str = (value: string) => ({ kind: 'string', value });
const int = (value: number) => ({ kind: 'int', value, text: String(value) });

describe('CALL', () => {
  it('reads CALL SNIPPETS with one document and options of both types', () => {
    const s = one("CALL SNIPPETS('this is my document text', 'forum', 'is text', 5 AS around, '5' AS limit, 'retain' as html_strip_mode)", 'call');
    expect(s.name).toBe('snippets');
    expect(s.args).toEqual([str('this is my document text'), str('forum'), str('is text')]);
    expect(s.options).toEqual([
      { name: 'around', value: int(5) }, { name: 'limit', value: str('5') }, { name: 'html_strip_mode', value: str('retain') },
    ]);
  });

  it('reads a list of documents and lower-cases the procedure name', () => {
    const s = one("call Snippets (('door opened', 'door closed'), 'test1', ' \"door\" ', 1 as query_mode)", 'call');
    expect(s.name).toBe('snippets');
    expect(s.args[0]).toEqual({ kind: 'string_list', values: ['door opened', 'door closed'] });
    expect(s.options).toEqual([{ name: 'query_mode', value: int(1) }]);
  });

  it('reads CALL KEYWORDS with and without options', () => {
    expect(one("CALL KEYWORDS ( ' 3.51 ', 'num2t' )", 'call')).toMatchObject({ name: 'keywords', args: [str(' 3.51 '), str('num2t')], options: [] });
    expect(one("call keywords('a', 't', 1 AS stats, 0 fold_wildcards)", 'call').options).toEqual([
      { name: 'stats', value: int(1) }, { name: 'fold_wildcards', value: int(0) },
    ]);
  });

  it('leaves the argument count to the engine (it reports SNIPPETS() expects exactly 3 arguments)', () => {
    expect(one("CALL SNIPPETS('this is my document text', 'forum')", 'call').args).toHaveLength(2);
  });

  it('rejects positional arguments after options', () => {
    expect(errorOf("CALL SNIPPETS('a', 't', 'q', 1 AS limit, 'x')")).toBe("P01: syntax error, unexpected ')', expecting AS near ')'");
  });
});

describe('TRUNCATE, OPTIMIZE, FLUSH', () => {
  it('reads TRUNCATE TABLE|RTINDEX [WITH RECONFIGURE]', () => {
    expect(one('TRUNCATE TABLE products', 'truncate')).toMatchObject({ table: 'products', rtindex: false, reconfigure: false });
    expect(one('TRUNCATE TABLE products with reconfigure', 'truncate')).toMatchObject({ reconfigure: true });
    expect(one('TRUNCATE RTINDEX products', 'truncate')).toMatchObject({ rtindex: true });
  });

  it('reports TRUNCATE errors from the second grammar (P02)', () => {
    expect(errorOf('TRUNCATE products')).toBe("P02: syntax error, unexpected identifier, expecting rtindex or table near 'products'");
    expect(errorOf('TRUNCATE TABLE t WITH x')).toBe("P02: syntax error, unexpected identifier, expecting RECONFIGURE near 'x'");
  });

  it('reads OPTIMIZE TABLE|INDEX with options', () => {
    expect(one('OPTIMIZE TABLE t OPTION sync=1, cutoff=2', 'optimize')).toMatchObject({
      table: 't', options: [{ name: 'sync', value: int(1) }, { name: 'cutoff', value: int(2) }],
    });
    expect(one('optimize index t', 'optimize').table).toBe('t');
  });

  it.each([
    ['FLUSH RAMCHUNK t', { target: 'ramchunk', table: 't' }],
    ['FLUSH RTINDEX t', { target: 'rtindex', table: 't' }],
    ['FLUSH TABLE t', { target: 'rtindex', table: 't' }],
    ['FLUSH ATTRIBUTES', { target: 'attributes' }],
    ['FLUSH LOGS', { target: 'logs' }],
    ['FLUSH HOSTNAMES', { target: 'hostnames' }],
  ])('%s', (sql, expected) => {
    expect(one(sql, 'flush')).toMatchObject(expected);
  });
});

// FREEZE / UNFREEZE (CLT core/test-freeze-unfreeze-update, core/test-unfreeze-defrosts): parsed by
// searchd's second grammar and refused by name. Before, both were P02 syntax errors at their first word.
describe('FREEZE / UNFREEZE', () => {
  it('are refused by name once they parse; their syntax errors are P02', () => {
    expect(() => parseSql("freeze t1, t2 like 'x'")).toThrow(/^FREEZE is not supported: quarry's tables need no freezing to be copied; use BACKUP or quarry backup$/);
    expect(() => parseSql('unfreeze t')).toThrow(/^UNFREEZE is not supported/);
    expect(() => parseSql('freeze')).toThrow("P02: syntax error, unexpected $end near ''");
  });
});
