// SELECT without FROM: constant expressions evaluated once, typed as Manticore types them.
import { describe, expect, it } from 'vitest';
import { constantValue } from '../../../../src/engine/expr/constant-expr.js';
import { parseSql } from '../../../../src/sql/parse-sql.js';
import type { SelectStatement } from '../../../../src/sql/ast.js';

const value = (text: string) => constantValue((parseSql(`SELECT ${text}`)[0] as SelectStatement).items[0]!.expr);

describe('constant expressions', () => {
  it('computes arithmetic, functions and comparisons with their types', () => {
    expect(value('1+2')).toEqual({ value: 3n, kind: 'bigint' });
    expect(value('7/2')).toEqual({ value: 3.5, kind: 'float' });
    expect(value("IF(2>1, 'yes', 'no')")).toEqual({ value: 'yes', kind: 'string' });
    expect(value('5000000000*2')).toEqual({ value: 10000000000n, kind: 'bigint' });
  });

  it('evaluates the bucket functions over constants (aggrexpr.cpp keys)', () => {
    expect(value('HISTOGRAM(431, {hist_interval=200})').value).toBe(400n);
    expect(value('HISTOGRAM(31, {hist_interval=300, hist_offset=100})').value).toBe(-200n);
    expect(value('RANGE(150, {range_to=150},{range_from=150,range_to=300},{range_from=300})').value).toBe(1n);
    expect(value('RANGE(500, {range_from=0,range_to=300})').value).toBe(1n); // outside every range: the count of ranges
    expect(value("DATE_HISTOGRAM(1488412800, {calendar_interval='month'})").value).toBe(1488326400n);
    expect(value("DATE_RANGE(1488412800, {range_to='2017||+2M/M'},{range_from='2017||+2M/M'})").value).toBe(1n);
  });

  it('refuses a column and names what it cannot compute, without a table name', () => {
    expect(() => value('foo+1')).toThrow("unsupported expression 'foo+1' without a table");
    expect(() => value("'a'+1")).toThrow(/^parse error: /);
    expect(() => value('HISTOGRAM(1, {hist_interval=0})')).toThrow('histogram interval should be greater than 0');
  });
});
