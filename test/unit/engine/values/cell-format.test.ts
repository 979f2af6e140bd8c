import { describe, expect, it } from 'vitest';
import {
  cellToRawJson,
  cellToSourceJson,
  cellToSqlText,
  formatFloatJson,
  formatFloatSql,
  mysqlTypeName,
  RawJson,
} from '../../../../src/engine/values/cell-format.js';
import { toJsonText } from '../../../../src/http/json-text.js';

// Expected texts below are what C's printf prints for the float32 value (checked with glibc).
describe('float formats', () => {
  it('SQL text is %f of the float32 value', () => {
    expect(formatFloatSql(1099.99)).toBe('1099.989990');
    expect(formatFloatSql(1.1)).toBe('1.100000');
    expect(formatFloatSql(19.85)).toBe('19.850000');
    expect(formatFloatSql(123456789)).toBe('123456792.000000');
  });

  it('JSON text falls back to %1.8f when %f does not read back as the same float32', () => {
    expect(formatFloatJson(2.2)).toBe('2.200000');
    expect(formatFloatJson(44.4)).toBe('44.400002');
    expect(formatFloatJson(1e-7)).toBe('0.00000010');
    expect(formatFloatJson(0.0078125)).toBe('0.00781250');
    expect(formatFloatJson(2.5e-6)).toBe('0.00000250');
  });
});

describe('cellToSqlText', () => {
  it('renders each kind as the MySQL text protocol does', () => {
    expect(cellToSqlText(9223372036854775807n, 'bigint')).toBe('9223372036854775807');
    expect(cellToSqlText(-9223372036854775808n, 'bigint')).toBe('-9223372036854775808');
    expect(cellToSqlText(4294967295, 'uint')).toBe('4294967295');
    expect(cellToSqlText(2224442480, 'timestamp')).toBe('2224442480');
    expect(cellToSqlText(1, 'bool')).toBe('1');
    expect(cellToSqlText(1.1, 'float')).toBe('1.100000');
    expect(cellToSqlText([3n, 4n, 6n], 'mva')).toBe('3,4,6');
    expect(cellToSqlText([], 'mva')).toBe('');
    expect(cellToSqlText('{"a":[]}', 'json')).toBe('{"a":[]}');
    expect(cellToSqlText('héllo', 'string')).toBe('héllo');
    expect(cellToSqlText(null, 'json')).toBeNull();
  });
});

describe('JSON cell forms', () => {
  it('raw (cli_json) data: numbers unquoted, 64-bit exact, MVA and JSON as strings', () => {
    const row = [
      cellToRawJson(6775836565403860993n, 'bigint'),
      cellToRawJson(7, 'uint'),
      cellToRawJson(44.4, 'float'),
      cellToRawJson([1n, 2n], 'mva'),
      cellToRawJson('{"a":1}', 'json'),
      cellToRawJson('x\ny', 'string'),
      cellToRawJson(null, 'string'),
    ];
    expect(toJsonText(row)).toBe('[6775836565403860993,7,44.400002,"1,2","{\\"a\\":1}","x\\ny",null]');
  });

  it('_source: bool as true/false, MVA as an array, JSON inline, floats as PrintVarFloat', () => {
    const source = {
      b: cellToSourceJson(1, 'bool'),
      f: cellToSourceJson(2.2, 'float'),
      m: cellToSourceJson([523456764345678976n, 987654098778666540n], 'mva'),
      e: cellToSourceJson([], 'mva'),
      j: cellToSourceJson('{"features":["a"]}', 'json'),
      n: cellToSourceJson(null, 'json'),
      i: cellToSourceJson(18446744073709551615n, 'bigint'),
    };
    expect(toJsonText(source)).toBe(
      '{"b":true,"f":2.200000,"m":[523456764345678976,987654098778666540],"e":[],' +
        '"j":{"features":["a"]},"n":null,"i":18446744073709551615}',
    );
  });

  it('names MySQL column types as /cli_json does', () => {
    expect(mysqlTypeName('bigint')).toBe('long long');
    expect(mysqlTypeName('uint')).toBe('long');
    expect(mysqlTypeName('bool')).toBe('long');
    expect(mysqlTypeName('timestamp')).toBe('long');
    expect(mysqlTypeName('float')).toBe('float');
    expect(mysqlTypeName('mva')).toBe('string');
    expect(mysqlTypeName('json')).toBe('string');
  });

  it('RawJson text is written verbatim', () => {
    expect(toJsonText({ x: new RawJson('1.100000') })).toBe('{"x":1.100000}');
  });
});
