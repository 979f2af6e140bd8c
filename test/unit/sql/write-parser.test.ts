import { describe, expect, it } from 'vitest';
import { errorOf, one } from './helpers.js';

describe('INSERT / REPLACE', () => {
  it('reads the table, column list and rows', () => {
    const s = one("INSERT INTO products(id,title,price) VALUES (1,'a',1.5),(2,'b',2.5)", 'insert');
    expect(s).toMatchObject({ replace: false, table: 'products', columns: ['id', 'title', 'price'] });
    expect(s.rows).toEqual([
      [{ kind: 'int', value: 1, text: '1' }, { kind: 'string', value: 'a' }, { kind: 'float', value: 1.5, text: '1.5' }],
      [{ kind: 'int', value: 2, text: '2' }, { kind: 'string', value: 'b' }, { kind: 'float', value: 2.5, text: '2.5' }],
    ]);
  });

  it('leaves columns undefined without a list (schema order) and reads REPLACE', () => {
    const s = one('REPLACE INTO products VALUES(1, "document one", 10)', 'insert');
    expect(s.replace).toBe(true);
    expect(s.columns).toBeUndefined();
    expect(s.rows[0]![1]).toEqual({ kind: 'string', value: 'document one' });
  });

  it('reads every literal form: negatives, exponents, NULL, tuples, empty tuples, escapes', () => {
    const s = one("insert into t values (-7, -1.5e2, NULL, (1, -2, 3.5), (), 'a\\nb', 0)", 'insert');
    expect(s.rows[0]).toEqual([
      { kind: 'int', value: -7, text: '-7' },
      { kind: 'float', value: -150, text: '-1.5e2' },
      { kind: 'null' },
      { kind: 'tuple', items: [{ kind: 'int', value: 1, text: '1' }, { kind: 'int', value: -2, text: '-2' }, { kind: 'float', value: 3.5, text: '3.5' }] },
      { kind: 'tuple', items: [] },
      { kind: 'string', value: 'a\nb' },
      { kind: 'int', value: 0, text: '0' },
    ]);
  });

  it('keeps 64-bit integers exact as bigint with their text', () => {
    const s = one('INSERT INTO t (id, b, n) VALUES (6775836565403860993, 9007199254740993, -9223372036854775808)', 'insert');
    expect(s.rows[0]).toEqual([
      { kind: 'int', value: 6775836565403860993n, text: '6775836565403860993' },
      { kind: 'int', value: 9007199254740993n, text: '9007199254740993' },
      { kind: 'int', value: -9223372036854775808n, text: '-9223372036854775808' },
    ]);
    expect(one('INSERT INTO t (id) VALUES (9007199254740991)', 'insert').rows[0]![0]).toMatchObject({ value: 9007199254740991 });
  });

  it('accepts keywords Manticore allows as column names (values, status)', () => {
    expect(one('insert into t (id, values, status) values (1, 2, 3)', 'insert').columns).toEqual(['id', 'values', 'status']);
  });

  it("reports Manticore's errors for a wrong row width and a missing VALUES", () => {
    expect(errorOf('INSERT INTO t (id, a) VALUES (1, 2), (3)')).toBe("P01: wrong number of values here near ')'");
    expect(errorOf('INSERT INTO t VALUES (1, 2), (3)')).toBe("P01: wrong number of values here near ')'");
    expect(errorOf("INSERT INTO t SET a='x'")).toBe("P01: syntax error, unexpected SET, expecting VALUES near 'SET a='x''");
    expect(errorOf('INSERT INTO t VALUES ()')).toBe("P01: syntax error, unexpected ')' near ')'");
  });
});

describe('UPDATE', () => {
  it('reads assignments of numbers, strings, tuples and JSON paths', () => {
    const s = one("UPDATE test SET gid=100, price=1000.5, tags=(3,6,4), e=(), meta.tags[0]=100, meta='{\"a\":1}' WHERE id=1", 'update');
    expect(s.table).toBe('test');
    expect(s.assignments).toEqual([
      { column: 'gid', path: [], value: { kind: 'int', value: 100, text: '100' } },
      { column: 'price', path: [], value: { kind: 'float', value: 1000.5, text: '1000.5' } },
      { column: 'tags', path: [], value: { kind: 'tuple', items: [3, 6, 4].map((v) => ({ kind: 'int', value: v, text: String(v) })) } },
      { column: 'e', path: [], value: { kind: 'tuple', items: [] } },
      { column: 'meta', path: ['tags', 0], value: { kind: 'int', value: 100, text: '100' } },
      { column: 'meta', path: [], value: { kind: 'string', value: '{"a":1}' } },
    ]);
    expect(s.where).toMatchObject({ kind: 'compare', op: '=', value: { value: 1 } });
  });

  it('takes MATCH and OPTION', () => {
    const s = one("UPDATE t SET a=1 WHERE MATCH('x') AND b>2 OPTION strict=1", 'update');
    expect(s.match).toBe('x');
    expect(s.options).toEqual([{ name: 'strict', value: { kind: 'int', value: 1, text: '1' } }]);
  });

  it('requires WHERE', () => {
    expect(errorOf('UPDATE t SET a=1')).toBe("P01: syntax error, unexpected $end, expecting WHERE near ''");
  });
});

describe('DELETE', () => {
  it('reads the table and condition', () => {
    const s = one('DELETE FROM test WHERE id IN (1,2)', 'delete');
    expect(s.table).toBe('test');
    expect(s.where).toMatchObject({ kind: 'in', values: [{ value: 1 }, { value: 2 }] });
  });

  it('requires FROM and WHERE', () => {
    expect(errorOf('DELETE t WHERE id=1')).toBe("P01: syntax error, unexpected identifier, expecting FROM near 't WHERE id=1'");
    expect(errorOf('DELETE FROM t')).toBe("P01: syntax error, unexpected $end, expecting WHERE near ''");
  });
});
