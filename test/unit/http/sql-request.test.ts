import { describe, expect, it } from 'vitest';
import { parseParams, percentDecode, readCliQuery, readSqlRequest } from '../../../src/http/sql-request.js';

describe('percentDecode', () => {
  it('decodes UTF-8 byte escapes and leaves bad escapes as written', () => {
    expect(percentDecode('select%20%D1%82%D0%B5%D1%81%D1%82', true)).toBe('select тест');
    expect(percentDecode('100%zz%2', true)).toBe('100%zz%2');
  });

  it('turns + into a space only for form encoding', () => {
    expect(percentDecode('a+b%2B', true)).toBe('a b+');
    expect(percentDecode('a+b%2B', false)).toBe('a+b+');
  });
});

describe('parseParams', () => {
  it('lowercases names and keeps the first of repeated names', () => {
    const p = parseParams('MODE=raw&query=a&query=b&flag');
    expect([...p]).toEqual([['mode', 'raw'], ['query', 'a']]);
  });
});

describe('readSqlRequest', () => {
  it('takes a raw body as the query', () => {
    expect(readSqlRequest('', 'select * from t where x=1')).toEqual({ query: 'select * from t where x=1', raw: false });
    expect(readSqlRequest('mode=raw', 'show tables')).toEqual({ query: 'show tables', raw: true });
  });

  it('decodes url-encoded bodies', () => {
    expect(readSqlRequest('', 'query=select+*+from+t%3B')).toEqual({ query: 'select * from t;', raw: false });
    expect(readSqlRequest('', 'mode=raw&query=show%20tables')).toEqual({ query: 'show tables', raw: true });
    expect(readSqlRequest('', 'raw_response=true&query=desc%20t')).toEqual({ query: 'desc t', raw: true });
  });

  it('reads GET parameters', () => {
    expect(readSqlRequest('query=select%20count(*)%20from%20t', '')).toEqual({
      query: 'select count(*) from t',
      raw: false,
    });
    expect(readSqlRequest('mode=raw&query=select%201', '')).toEqual({ query: 'select 1', raw: true });
  });

  it('lets mode win over raw_response and only mode=raw count as raw', () => {
    expect(readSqlRequest('mode=json&raw_response=true', 'select 1').raw).toBe(false);
    expect(readSqlRequest('raw_response=false', 'select 1').raw).toBe(false);
  });

  it('reads the usual request (`mode=raw` or no URL query, SQL as the body) as the general reading does', () => {
    // the short cut must leave form bodies, encoded characters and other parameters to the general reading
    expect(readSqlRequest('mode=raw', "insert into t values (1, 'a+b %41')")).toEqual({ query: "insert into t values (1, 'a+b %41')", raw: true });
    expect(readSqlRequest('mode=raw', 'query=select%201')).toEqual({ query: 'select 1', raw: true });
    expect(readSqlRequest('', 'mode=raw&query=select%202')).toEqual({ query: 'select 2', raw: true });
    expect(readSqlRequest('mode=raw&x=1', 'select 3')).toEqual({ query: 'select 3', raw: true });
    expect(readSqlRequest('MODE=raw', 'select 4')).toEqual({ query: 'select 4', raw: true });
    expect(readSqlRequest('mode=raw', '')).toEqual({ query: '', raw: true });
  });

  it('a body that merely contains query= is SQL text', () => {
    expect(readSqlRequest('', "select * from t where match('query=x')").query).toBe("select * from t where match('query=x')");
  });
});

describe('readCliQuery', () => {
  it('takes the body verbatim, or the decoded URL query keeping +', () => {
    expect(readCliQuery('ignored', 'select 1+1')).toBe('select 1+1');
    expect(readCliQuery('show%20fields%20from%20t', '')).toBe('show fields from t');
    expect(readCliQuery('select%201+1', '')).toBe('select 1+1');
  });
});
