import { parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { splitJsonQuery } from '../../../../src/engine/json/json-query-tree.js';
import { sortItems, sourceFilter } from '../../../../src/engine/json/json-search.js';
import type { JsonValue } from '../../../../src/engine/json/json-value.js';

const j = (text: string) => parse(text) as JsonValue;
const opts = { fields: ['title', 'body'] };

describe('splitJsonQuery', () => {
  it('no query, or filters only, is a full scan', () => {
    expect(splitJsonQuery(undefined, opts)).toEqual({ fullText: null, warnings: [] });
    const f = splitJsonQuery(j('{"bool": {"must": [{"range": {"n": {"gt": 1}}}]}}'), opts);
    expect(f.fullText).toBeNull();
    expect(f.where).toMatchObject({ kind: 'compare', op: '>' });
  });

  it('match is OR, must with must_not is AND NOT, should next to must is MAYBE', () => {
    expect(splitJsonQuery(j('{"match": {"title": "a b"}}'), opts).fullText).toMatchObject({ kind: 'or' });
    const b = splitJsonQuery(j('{"bool": {"must": {"match": {"*": "a"}}, "must_not": {"match": {"*": "c"}}, "should": {"match": {"*": "d"}}}}'), opts);
    expect(b.fullText).toMatchObject({ kind: 'maybe', left: { kind: 'and', children: [{ kind: 'term' }, { kind: 'not' }] } });
  });

  it('legacy form: a full-text property next to a filter', () => {
    const q = splitJsonQuery(j('{"match": {"*": "a"}, "equals": {"id": 14}}'), opts);
    expect(q.fullText).toMatchObject({ kind: 'term' });
    expect(q.where).toMatchObject({ kind: 'compare', op: '=' });
  });

  it('errors inside the tree are QUERY_ERROR with the JSON path', () => {
    expect(() => splitJsonQuery(j('{"bool": {"must": [{"bool": {"should": [{"match": {"title": "x", "operator": "and"}}]}}]}}'), opts))
      .toThrow(`query error: ill-formed "match" property at '/query/bool/must/bool/should/match'`);
    expect(() => splitJsonQuery(j('{"match": {"nope": "x"}}'), opts)).toThrow(/query error: .* at '\/query\/match'/);
    let err: unknown;
    try { splitJsonQuery(j('{"bool": {"should": [{"match": {"*": "a"}}, {"in": {"n": [1]}}]}}'), opts); } catch (e) { err = e; }
    expect(err).toMatchObject({ code: 'QUERY_ERROR', message: `query error: filter and full-text can be used together only inside "must" node at '/query/bool'` });
  });

  it('filters are read first, as Manticore parses them with the request (PARSE_ERROR)', () => {
    let err: unknown;
    try { splitJsonQuery(j('{"bool": {"mist": []}}'), opts); } catch (e) { err = e; }
    expect(err).toMatchObject({ code: 'PARSE_ERROR', message: 'unknown bool query type: "mist"' });
  });

  it('shape errors are PARSE_ERROR', () => {
    expect(() => splitJsonQuery(j('[]'), opts)).toThrow('"query" property value should be an object');
    expect(() => splitJsonQuery(j('{}'), opts)).toThrow('"query" property is empty');
    expect(() => splitJsonQuery(j('{"bool": {}, "match": {"*": "a"}, "query_string": "b"}'), opts))
      .toThrow('"query" has multiple full-text properties, use bool node');
  });
});

describe('sort and _source', () => {
  it('sort: strings, objects and _score default to desc', () => {
    const s = sortItems(j('["_score", "price", {"year": "desc"}, {"n": {"order": "asc"}}]'));
    expect(s.map((o) => [o.expr.text, o.direction])).toEqual([['weight()', 'desc'], ['price', 'asc'], ['year', 'desc'], ['n', 'asc']]);
    expect(() => sortItems(j('"price"'))).toThrow('"sort" property value should be an array or an object');
    expect(() => sortItems(j('[{"a": "up"}]'))).toThrow('"sort" property "a" order is invalid up');
  });

  it('_source forms', () => {
    expect(sourceFilter(j('"*"'))).toEqual({ includes: [], excludes: [] });
    expect(sourceFilter(j('["a", "b*"]'))).toEqual({ includes: ['a', 'b*'], excludes: [] });
    expect(sourceFilter(j('{"includes": ["*"], "excludes": ["x"]}'))).toEqual({ includes: [], excludes: ['x'] });
    expect(() => sourceFilter(false)).toThrow('"_source" property should be a string or an array or an object');
  });
});
