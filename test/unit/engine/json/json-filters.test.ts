import { parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { boolFilters, filterCondition, queryFilters } from '../../../../src/engine/json/json-filters.js';
import type { JsonObject, JsonValue } from '../../../../src/engine/json/json-value.js';

const j = (text: string) => parse(text) as JsonValue;

describe('JSON filters as WHERE conditions', () => {
  it('equals on an integer keeps 64-bit values exact', () => {
    const c = filterCondition('equals', j('{"id": 9223372036854775807}'));
    expect(c).toMatchObject({ kind: 'compare', op: '=', value: { kind: 'int', value: 9223372036854775807n } });
  });

  it('integers past int64 are read as cJSON reads them: up to 2^64-1 the same 64 bits as int64, past it a float', () => {
    // no "out of range" error as SQL literals give: searchd's JSON filters take what cJSON parsed (jsonqueryfilter.cpp)
    expect(filterCondition('equals', j('{"b": 18446744073709551615}'))).toMatchObject({ value: { kind: 'int', value: -1n } });
    expect(filterCondition('in', j('{"b": [9223372036854775808, 1]}'))).toMatchObject({ values: [{ kind: 'int', value: -9223372036854775808n }, { kind: 'int', value: 1n }] });
    expect(filterCondition('range', j('{"b": {"lte": 18446744073709551615}}'))).toMatchObject({ op: '<=', value: { kind: 'int', value: -1n } });
    expect(filterCondition('equals', j('{"b": 18446744073709551616}'))).toMatchObject({ value: { kind: 'float', value: 18446744073709551616 } });
    expect(filterCondition('range', j('{"b": {"gt": -9223372036854775809}}'))).toMatchObject({ op: '>', value: { kind: 'float', value: -9223372036854775808 } });
  });

  it('range with both bounds is an AND of the lower and upper comparison', () => {
    const c = filterCondition('range', j('{"price": {"gte": 1, "lt": 2.5}}'));
    expect(c).toMatchObject({
      kind: 'and',
      children: [{ op: '>=', value: { kind: 'int', value: 1n } }, { op: '<', value: { kind: 'float', value: 2.5 } }],
    });
  });

  it('lower-cases column names and splits JSON paths', () => {
    const c = filterCondition('equals', j('{"Meta.Tags": 3}'));
    expect(c).toMatchObject({ target: { expr: { name: 'meta', path: ['tags'] } } });
  });

  it('rejects filters with Manticore texts', () => {
    expect(() => filterCondition('range', j('{"a": {}}'))).toThrow('empty filter found');
    expect(() => filterCondition('in', j('{"a": 1}'))).toThrow('"in" filter should contain an array of values');
    expect(() => filterCondition('in', j('{"a": [1.5]}'))).toThrow('"in" supports only integer, bool and string values');
    expect(() => filterCondition('in', j('{"a": [1, "x"]}'))).toThrow('all values in the "in" filter should have one type');
    expect(() => filterCondition('equals', j('{"a": 1, "b": 2}'))).toThrow('filter should have only one element');
    expect(() => filterCondition('equals', j('{"a": null}'))).toThrow('"equals" filter expects numeric or string values');
  });

  it('bool: must and filter AND-ed, must_not negated, should dropped next to them', () => {
    const c = boolFilters(j(`{"must": [{"equals": {"a": 1}}], "filter": {"in": {"b": [2, 3]}},
      "must_not": [{"equals": {"c": 4}}, {"equals": {"d": 5}}], "should": {"equals": {"e": 6}}}`));
    expect(c).toMatchObject({
      kind: 'and',
      children: [
        { kind: 'compare' }, { kind: 'in' },
        { kind: 'not', child: { kind: 'or', children: [{ kind: 'compare' }, { kind: 'compare' }] } },
      ],
    });
  });

  it('bool: should alone is an OR; full-text items are left to the query tree', () => {
    const c = boolFilters(j('{"should": [{"equals": {"a": 1}}, {"match": {"*": "x"}}, {"range": {"b": {"lt": 3}}}]}'));
    expect(c).toMatchObject({ kind: 'or', children: [{ kind: 'compare' }, { kind: 'compare', op: '<' }] });
  });

  it('unknown bool clauses are errors', () => {
    expect(() => boolFilters(j('{"maybe": []}'))).toThrow('unknown bool query type: "maybe"');
  });

  it('a query object uses its bool, else its first filter, else none', () => {
    expect(queryFilters(j('{"match": {"*": "x"}}') as JsonObject)).toBeUndefined();
    expect(queryFilters(j('{"match": {"*": "x"}, "equals": {"id": 14}}') as JsonObject)).toMatchObject({ kind: 'compare' });
  });
});
