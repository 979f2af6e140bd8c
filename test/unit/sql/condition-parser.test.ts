import { describe, expect, it } from 'vitest';
import type { Condition } from '../../../src/sql/ast.js';
import { errorOf, one } from './helpers.js';

const where = (cond: string): { match?: string; where?: Condition } => {
  const s = one(`SELECT * FROM t WHERE ${cond}`, 'select');
  return { match: s.match, where: s.where };
};
const col = (name: string) => ({ expr: { kind: 'column', name, path: [], text: name } });
const int = (value: number) => ({ kind: 'int', value, text: String(value) });

describe('WHERE: MATCH()', () => {
  it('takes the unescaped full-text query out of the tree', () => {
    expect(where("MATCH('hello \\'world\\'')")).toEqual({ match: "hello 'world'", where: undefined });
    expect(where("MATCH ('@title one') AND gid = 3")).toEqual({
      match: '@title one', where: { kind: 'compare', op: '=', target: col('gid'), value: int(3) },
    });
  });

  it('allows MATCH anywhere in the top-level AND chain, also in parentheses', () => {
    expect(where("a = 1 AND (MATCH('q')) AND b = 2")).toMatchObject({
      match: 'q', where: { kind: 'and', children: [{ target: col('a') }, { target: col('b') }] },
    });
    expect(where("(MATCH('q') AND a = 1)").match).toBe('q');
  });

  it('rejects MATCH under OR or NOT, and a second MATCH', () => {
    expect(errorOf("SELECT a FROM t WHERE x = 1 OR MATCH('q')")).toBe("P01: syntax error, unexpected MATCH near 'MATCH('q')'");
    expect(errorOf("SELECT a FROM t WHERE NOT MATCH('q')")).toBe("P01: syntax error, unexpected MATCH near 'MATCH('q')'");
    expect(errorOf("SELECT a FROM t WHERE MATCH('a') AND MATCH('b') AND c = 1")).toBe(
      "P01: too many MATCH() clauses near ') AND c = 1'",
    );
    expect(errorOf('SELECT a FROM t WHERE MATCH(title)')).toBe("P01: syntax error, unexpected identifier, expecting string near 'title)'");
  });
});

describe('WHERE: filters', () => {
  it.each([
    ['id = 1', '='], ['id != 1', '!='], ['id <> 1', '!='], ['id < 1', '<'], ['id <= 1', '<='], ['id > 1', '>'], ['id >= 1', '>='],
  ])('%s', (cond, op) => {
    expect(where(cond).where).toEqual({ kind: 'compare', op, target: col('id'), value: int(1) });
  });

  it('compares with negative numbers, floats, strings and booleans', () => {
    expect(where('a = -5').where).toMatchObject({ value: { kind: 'int', value: -5, text: '-5' } });
    expect(where('a > -1.5').where).toMatchObject({ value: { kind: 'float', value: -1.5 } });
    expect(where("s = 'x'").where).toMatchObject({ value: { kind: 'string', value: 'x' } });
    expect(where('b = TRUE').where).toMatchObject({ value: { kind: 'int', value: 1 } });
    expect(where('b != false').where).toMatchObject({ value: { kind: 'int', value: 0 } });
  });

  it('keeps ids beyond 2^53 exact as bigint', () => {
    expect(where('id = 6775836565403860993').where).toMatchObject({ value: { value: 6775836565403860993n } });
  });

  it('reads [NOT] IN, [NOT] BETWEEN and IS [NOT] NULL', () => {
    expect(where('id IN (1, 2, -3)').where).toEqual({ kind: 'in', target: col('id'), values: [int(1), int(2), int(-3)], negate: false });
    expect(where("s NOT IN ('a', 'b')").where).toMatchObject({ kind: 'in', negate: true, values: [{ value: 'a' }, { value: 'b' }] });
    expect(where('p BETWEEN 1 AND 2.5').where).toMatchObject({ kind: 'between', low: int(1), high: { kind: 'float', value: 2.5 }, negate: false });
    expect(where('p NOT BETWEEN 1 AND 2').where).toMatchObject({ kind: 'between', negate: true });
    expect(where('j.a IS NULL').where).toEqual({
      kind: 'is_null', negate: false, target: { expr: { kind: 'column', name: 'j', path: ['a'], text: 'j.a' } },
    });
    expect(where('j IS NOT NULL').where).toMatchObject({ kind: 'is_null', negate: true });
  });

  it('reads ANY()/ALL() over MVA columns', () => {
    expect(where('ANY(tags) = 5').where).toMatchObject({ kind: 'compare', target: { quantifier: 'any', expr: { name: 'tags' } } });
    expect(where('all(tags) NOT IN (1,2)').where).toMatchObject({ kind: 'in', negate: true, target: { quantifier: 'all' } });
  });

  it('refuses ANY()/ALL() of a JSON path as searchd\'s grammar does (mva_aggr takes a column name only)', () => {
    // sphinxql.y mva_aggr: TOK_ANY '(' identcol ')'; JSON arrays take ANY(cond FOR x IN j.a) in the select list
    expect(errorOf('SELECT * FROM t WHERE ANY(j.a) = 1')).toBe("P01: syntax error, unexpected SUBKEY, expecting ':' or ')' near '.a) = 1'");
    expect(errorOf('SELECT * FROM t WHERE all(j.a.b) > 4')).toBe("P01: syntax error, unexpected SUBKEY, expecting ':' or ')' near '.a.b) > 4'");
    expect(errorOf("SELECT * FROM t WHERE ANY(j['a']) IN (1, 2)")).toBe("P01: syntax error, unexpected '[', expecting ':' or ')' near '['a']) IN (1, 2)'");
  });

  it('reads REGEX(attr, re) alone as a filter, as sphinxql.y filter_item does', () => {
    expect(where("REGEX(j.color, 'red|pink') AND gid = 3").where).toMatchObject({ kind: 'and', children: [
      { kind: 'compare', op: '!=', target: { expr: { kind: 'call', name: 'regex' } }, value: int(0) }, { kind: 'compare', op: '=' },
    ] });
    expect(where("REGEX(s, 'x') = 1").where).toMatchObject({ kind: 'compare', op: '=', value: int(1) });
  });

  it('reads function targets like weight() and count(*)', () => {
    expect(where('weight() > 10').where).toMatchObject({ target: { expr: { kind: 'call', name: 'weight' } } });
  });

  it('builds AND/OR/NOT trees with NOT binding tightest and AND before OR', () => {
    expect(where('a = 1 OR b = 2 AND NOT c = 3').where).toEqual({
      kind: 'or', children: [
        { kind: 'compare', op: '=', target: col('a'), value: int(1) },
        { kind: 'and', children: [
          { kind: 'compare', op: '=', target: col('b'), value: int(2) },
          { kind: 'not', child: { kind: 'compare', op: '=', target: col('c'), value: int(3) } },
        ] },
      ],
    });
  });

  it('parses the DELETE case of the conformance set', () => {
    const s = one("DELETE FROM test WHERE MATCH ('test document') AND ( mva1>206 or mva1 in (100, 103) )", 'delete');
    expect(s.match).toBe('test document');
    expect(s.where).toMatchObject({ kind: 'or', children: [{ kind: 'compare', op: '>' }, { kind: 'in' }] });
  });

  it('rejects a column on the right side and a dangling NOT', () => {
    expect(errorOf('SELECT * FROM t WHERE a = b')).toBe("P01: syntax error, unexpected identifier near 'b'");
    expect(errorOf('SELECT * FROM t WHERE a NOT 5')).toBe("P01: syntax error, unexpected integer, expecting IN or BETWEEN near '5'");
  });
});

describe('WHERE: integers past int64 (Manticore SqlNode_t::GetValueInt / NumIsSaturated)', () => {
  const range = 'is out of range [-9223372036854775808..9223372036854775807]';
  it('refuses them for = and != and for an id list', () => {
    expect(errorOf('SELECT * FROM t WHERE b = 18446744073709551615')).toBe(`number 18446744073709551615 ${range}`);
    expect(errorOf('SELECT * FROM t WHERE b != -9223372036854775809')).toBe(`number -9223372036854775809 ${range}`);
    expect(errorOf('SELECT * FROM t WHERE id IN (1, 9223372036854775808)')).toBe(`number 9223372036854775808 ${range}`);
  });

  it('saturates them elsewhere, as INSERT does, and keeps the int64 bounds themselves', () => {
    const sat = (v: bigint) => expect.objectContaining({ kind: 'int', value: v });
    expect(where('b IN (18446744073709551615)').where).toMatchObject({ kind: 'in', values: [sat(2n ** 63n - 1n)] });
    expect(where('b > 18446744073709551615').where).toMatchObject({ value: sat(2n ** 63n - 1n) });
    expect(where('b BETWEEN -99999999999999999999 AND 1').where).toMatchObject({ low: sat(-(2n ** 63n)) });
    expect(where('b = -9223372036854775808').where).toMatchObject({ value: sat(-(2n ** 63n)) });
  });
});
