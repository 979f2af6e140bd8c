import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'lossless-json';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newSession, openEngine, type Engine, type JsonApi, type JsonValue, type RowsResult } from '../../../../src/engine/index.js';

let dir: string;
let engine: Engine;
let json: JsonApi;
const session = newSession();
const j = (text: string) => parse(text) as JsonValue;

async function sql(text: string) {
  const out = await engine.execute(text, session);
  return out[out.length - 1]!;
}
async function ids(text: string): Promise<bigint[]> {
  return ((await sql(text)) as RowsResult).rows.map((r) => r[0] as bigint);
}
const searchIds = async (body: string) => (await json.search(j(body), session)).rows.map((r) => r[0]);

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-json-'));
  engine = await openEngine({ dataDir: dir });
  json = engine.json!;
  await sql('create table t (title text, gid int, price float, tags multi, meta json, s string attribute indexed)');
  await sql(`insert into t (id, title, gid, price, tags, s) values
    (1, 'red apple', 1, 1.5, (1,2), 'one'), (2, 'green apple', 2, 2.5, (3), 'two'), (3, 'red cherry', 3, 3.5, (), 'three')`);
});
afterEach(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('json.search', () => {
  it('match is OR by default and _score equals SQL weight()', async () => {
    const r = await json.search(j('{"table": "t", "query": {"match": {"title": "red cherry"}}}'), session);
    const w = (await sql("select id, weight() from t where match('red | cherry')")) as RowsResult;
    expect(r.rows.map((x) => x[0])).toEqual(w.rows.map((x) => x[0]));
    expect(r.weights).toEqual(w.rows.map((x) => Number(x[1])));
  });

  it('bool with filters, sort and limit', async () => {
    expect(await searchIds(`{"table": "t", "query": {"bool": {"must": [{"match": {"*": "apple"}},
      {"range": {"price": {"gte": 2}}}]}}}`)).toEqual([2n]);
    expect(await searchIds('{"table": "t", "query": {"in": {"gid": [1, 3]}}, "sort": [{"gid": "desc"}]}')).toEqual([3n, 1n]);
    expect(await searchIds('{"table": "t", "sort": ["id"], "limit": 1, "offset": 1}')).toEqual([2n]);
    expect(await searchIds('{"table": "t", "query": {"bool": {"must_not": [{"equals": {"gid": 2}}]}}, "sort": ["id"]}')).toEqual([1n, 3n]);
    expect(await searchIds('{"table": "t", "query": {"bool": {"should": [{"equals": {"gid": 1}}, {"equals": {"s": "three"}}]}}, "sort": ["id"]}'))
      .toEqual([1n, 3n]);
  });

  it('_source includes and excludes pick the columns after id', async () => {
    const r = await json.search(j('{"table": "t", "_source": {"includes": ["t*", "gid"], "excludes": ["tags"]}, "sort": ["id"]}'), session);
    expect(r.columns.map((c) => c.name)).toEqual(['id', 'title', 'gid']);
    const none = await json.search(j('{"table": "t", "_source": [""]}'), session);
    expect(none.columns.map((c) => c.name)).toEqual(['id']);
  });

  it('_source globs match case-insensitively with several stars, and a 300 kB pattern is no internal error (fuzzer found)', async () => {
    const r = await json.search(j('{"table": "t", "_source": {"includes": ["T*L*", "*i*d"]}, "sort": ["id"]}'), session);
    expect(r.columns.map((c) => c.name)).toEqual(['id', 'title', 'gid']);
    const huge = JSON.stringify(['('.repeat(3) + 'running'.repeat(45_000) + '*']);
    const none = await json.search(j(`{"table": "t", "_source": {"includes": ${huge}}}`), session);
    expect(none.columns.map((c) => c.name)).toEqual(['id']);
  });

  it('request-shape errors are PARSE_ERROR, query errors carry the table and path', async () => {
    await expect(json.search(j('{"table": "t", "query": {"match": {"*": "a"}, "query_string": "b"}}'), session))
      .rejects.toMatchObject({ code: 'PARSE_ERROR', message: '"query" has multiple full-text properties, use bool node' });
    await expect(json.search(j('{"table": "t", "query": {"bool": {"should": [{"match": {"*": "a"}}, {"equals": {"gid": 1}}]}}}'), session))
      .rejects.toMatchObject({ code: 'QUERY_ERROR', message: "table t: query error: filter and full-text can be used together only inside \"must\" node at '/query/bool'" });
    await expect(json.search(j('{"table": "nope"}'), session))
      .rejects.toMatchObject({ code: 'UNKNOWN_TABLE', message: "unknown local table(s) 'nope' in search request" });
    await expect(json.search(j('{"table": "t", "sort": ["title"]}'), session))
      .rejects.toMatchObject({ message: "table t: sort-by attribute 'title' not found" });
  });
});

describe('json writes', () => {
  it('insert keeps 64-bit ids exact and generates ids for 0 or none', async () => {
    const big = await json.insert(j('{"table": "t", "id": 9223372036854775807, "doc": {"title": "big", "gid": 7}}'), false);
    expect(big).toEqual({ table: 't', id: 9223372036854775807n, replace: false });
    const auto = await json.insert(j('{"index": "T", "id": 0, "doc": {"title": "auto"}}'), false);
    expect(auto.id > 3n).toBe(true);
    expect(await ids(`select id from t where id = ${auto.id}`)).toEqual([auto.id]);
  });

  it('insert errors: duplicate id, unknown column, MVA value, nothing written', async () => {
    await expect(json.insert(j('{"table": "t", "id": 1, "doc": {"title": "x"}}'), false)).rejects.toMatchObject({ code: 'DUPLICATE_ID', message: "duplicate id '1'" });
    await expect(json.insert(j('{"table": "t", "id": 9, "doc": {"price": 1, "nope": 1}}'), false)).rejects.toMatchObject({ message: "unknown column: 'nope'" });
    await expect(json.insert(j('{"table": "t", "id": 9, "doc": {"title": "x", "tags": ["a"]}}'), false))
      .rejects.toMatchObject({ message: 'row 1, column 3: non-MVA value specified for a MVA column' });
    expect(await ids('select id from t where id = 9')).toEqual([]);
  });

  it('JSON attributes take objects, arrays and JSON text; MVA takes number arrays', async () => {
    await json.insert(j('{"table": "t", "id": 5, "doc": {"meta": [1, 2], "tags": [5, 4]}}'), false);
    await json.insert(j('{"table": "t", "id": 6, "doc": {"meta": "{\\"a\\": 1}"}}'), false);
    const r = (await sql('select id, meta, tags from t where id > 4 order by id asc')) as RowsResult;
    expect(r.rows).toEqual([[5n, '[1,2]', [4n, 5n]], [6n, '{"a":1}', []]]);
  });

  it('replace overwrites; auto schema creates a missing table', async () => {
    await json.insert(j('{"table": "t", "id": 1, "doc": {"title": "new", "gid": 10}}'), true);
    expect(((await sql('select gid from t where id = 1')) as RowsResult).rows).toEqual([[10]]);
    await json.insert(j('{"table": "fresh", "id": 1, "doc": {"t": "hello", "n": 5, "m": [1, 2]}}'), false);
    const desc = (await sql('desc fresh')) as RowsResult;
    expect(desc.rows.map((r) => [r[0], r[1]])).toEqual([['id', 'bigint'], ['t', 'text'], ['n', 'uint'], ['m', 'mva']]);
  });

  it('update by id, by query, JSON sub-keys and a string attribute', async () => {
    expect(await json.update(j('{"table": "t", "id": 1, "doc": {"gid": 100}}'))).toEqual({ table: 't', id: 1n, affected: 1 });
    expect(await json.update(j('{"table": "t", "id": 99, "doc": {"gid": 100}}'))).toEqual({ table: 't', id: 99n, affected: 0 });
    expect(await json.update(j('{"table": "t", "doc": {"s": "x"}, "query": {"match": {"*": "apple"}}}'))).toEqual({ table: 't', affected: 2 });
    await json.update(j('{"table": "t", "id": 3, "doc": {"meta": {"a": {"b": 1}}}}'));
    await json.update(j('{"table": "t", "id": 3, "doc": {"meta.a.b": 2}}'));
    const r = (await sql('select id, gid, s, meta from t order by id asc')) as RowsResult;
    expect(r.rows.map((x) => [x[0], x[1], x[2]])).toEqual([[1n, 100, 'x'], [2n, 2, 'x'], [3n, 3, 'three']]);
    expect(r.rows[2]![3]).toBe('{"a":{"b":2}}');
  });

  it('update errors', async () => {
    await expect(json.update(j('{"table": "t", "id": 1, "doc": {"gid": null}}'))).rejects.toMatchObject({ code: 'PARSE_ERROR', message: "unsupported value type 'null' in field 'gid'" });
    await expect(json.update(j('{"table": "t", "id": 1, "doc": {"title": "x"}}'))).rejects.toMatchObject({ message: "table t: attribute 'title' can not be updated (full-text field)" });
    await expect(json.update(j('{"table": "t", "id": 1, "query": {"match_all": {}}, "doc": {"gid": 1}}'))).rejects.toMatchObject({ message: 'both "id" and "query" specified' });
  });

  it('delete by id, id list (reports the first) and query', async () => {
    expect(await json.delete(j('{"table": "t", "id": 7}'))).toEqual({ table: 't', id: 7n, affected: 0 });
    expect(await json.delete(j('{"table": "t", "id": [3, 1]}'))).toEqual({ table: 't', id: 3n, affected: 2 });
    expect(await json.delete(j('{"table": "t", "query": {"range": {"price": {"lte": 10}}}}'))).toEqual({ table: 't', affected: 1 });
    expect(await ids('select id from t')).toEqual([]);
  });

  it('delete id errors', async () => {
    await expect(json.delete(j('{"table": "t", "id": [1, "2"]}'))).rejects.toMatchObject({ code: 'PARSE_ERROR', message: 'Document ids should be integer' });
    await expect(json.delete(j('{"table": "t", "id": "2"}'))).rejects.toMatchObject({ message: "table t: table t: unsupported filter type 'string' on attribute 'id'" });
    await expect(json.delete(j('{"table": "t", "id": -2}'))).rejects.toMatchObject({ message: 'Negative document ids are not allowed' });
  });

  it('an id past 2^64 is not an integer id (a float to Manticore), and never the row its low 64 bits name', async () => {
    const wrapsTo1 = '18446744073709551617';
    const ints = 'Document ids should be integer, string, or array of integers/strings';
    await expect(json.update(j(`{"table": "t", "id": ${wrapsTo1}, "doc": {"gid": 100}}`))).rejects.toMatchObject({ code: 'PARSE_ERROR', message: ints });
    await expect(json.delete(j(`{"table": "t", "id": ${wrapsTo1}}`))).rejects.toMatchObject({ code: 'PARSE_ERROR', message: ints });
    await expect(json.delete(j(`{"table": "t", "id": [2, ${wrapsTo1}]}`))).rejects.toMatchObject({ code: 'PARSE_ERROR', message: 'Document ids should be integer or string' });
    await expect(json.insert(j(`{"table": "t", "id": ${wrapsTo1}, "doc": {"title": "x"}}`), true)).rejects.toMatchObject({ code: 'PARSE_ERROR', message: ints });
    const r = (await sql('select id, gid, title from t order by id asc')) as RowsResult;
    expect(r.rows).toEqual([[1n, 1, 'red apple'], [2n, 2, 'green apple'], [3n, 3, 'red cherry']]);
  });
});

describe('json.bulk', () => {
  const line = (op: string, body: string) => ({ kind: 'json' as const, value: j(`{"${op}": ${body}}`) });

  it('groups runs per table and empty line, counting each run', async () => {
    await sql('create table u (title text)');
    const r = await json.bulk([
      line('insert', '{"table": "t", "id": 10, "doc": {"title": "a"}}'),
      line('replace', '{"table": "t", "id": 1, "doc": {"title": "b"}}'),
      line('delete', '{"table": "t", "id": 2}'),
      line('insert', '{"table": "u", "id": 1, "doc": {"title": "c"}}'),
      { kind: 'empty' },
      line('update', '{"table": "t", "doc": {"gid": 9}, "query": {"equals": {"gid": 3}}}'),
    ]);
    expect(r.outcome).toBe('ok');
    expect(r.items).toEqual([
      { kind: 'bulk', table: 't', lastId: 1n, created: 2, deleted: 2, updated: 0 },
      { kind: 'bulk', table: 'u', lastId: 1n, created: 1, deleted: 0, updated: 0 },
      { kind: 'bulk', table: 't', lastId: 0n, created: 0, deleted: 0, updated: 1 },
    ]);
    expect([r.currentLine, r.skippedLines]).toEqual([6, 0]);
    expect(await ids('select id from t order by id asc')).toEqual([1n, 3n, 10n]);
  });

  it('a duplicate id fails its line and applies nothing of its run; earlier runs stay', async () => {
    const r = await json.bulk([
      line('insert', '{"table": "t", "id": 20, "doc": {}}'),
      { kind: 'empty' },
      line('insert', '{"table": "t", "id": 21, "doc": {}}'),
      line('insert', '{"table": "t", "id": 21, "doc": {}}'),
    ]);
    expect(r.outcome).toBe('exec');
    expect(r.items[1]).toEqual({ kind: 'error', op: 'insert', table: 't', message: "duplicate id '21'" });
    expect([r.currentLine, r.skippedLines, r.error]).toEqual([4, 2, "duplicate id '21'"]);
    expect(await ids('select id from t where id >= 20')).toEqual([20n]);
  });

  it('a bad line stops with a parse outcome; unknown tables are not created', async () => {
    const bad = await json.bulk([line('insert', '{"table": "t", "id": 30, "doc": {}}'), { kind: 'bad', error: 'unable to parse: x' }]);
    expect([bad.outcome, bad.error, bad.skippedLines]).toEqual(['parse', 'unable to parse: x', 2]);
    expect(await ids('select id from t where id = 30')).toEqual([]);
    const op = await json.bulk([line('upsert', '{"table": "t"}')]);
    expect([op.outcome, op.error]).toEqual(['parse', 'unknown bulk operation: upsert']);
    const missing = await json.bulk([line('insert', '{"table": "newt", "id": 1, "doc": {"title": "x"}}')]);
    expect(missing.outcome).toBe('exec');
    expect(await sql('desc newt')).toMatchObject({ kind: 'error' });
  });
});

describe('json.bulk validation before commit', () => {
  const line = (op: string, body: string) => ({ kind: 'json' as const, value: j(`{"${op}": ${body}}`) });

  it('a bad update line rolls back the inserts before it in its run', async () => {
    const r = await json.bulk([
      line('insert', '{"table": "t", "id": 40, "doc": {"title": "x"}}'),
      line('update', '{"table": "t", "id": 40, "doc": {"title": "y"}}'),
    ]);
    expect(r.outcome).toBe('exec');
    expect(r.error).toBe("table t: attribute 'title' can not be updated (full-text field)");
    expect(await ids('select id from t where id = 40')).toEqual([]);
  });

  it('a bad delete query rolls back its run too', async () => {
    const r = await json.bulk([
      line('insert', '{"table": "t", "id": 41, "doc": {}}'),
      line('delete', '{"table": "t", "query": {"match": {"nope": "x"}}}'),
    ]);
    expect(r.outcome).toBe('exec');
    expect(await ids('select id from t where id = 41')).toEqual([]);
  });
});

describe('json.search error texts', () => {
  it('a NOT-only query_string says query error once, with the path', async () => {
    await expect(json.search(j('{"table": "t", "query": {"query_string": "-red"}}'), session)).rejects.toMatchObject({
      code: 'QUERY_ERROR', message: "table t: query error: query is non-computable (single NOT operator) at '/query/query_string'",
    });
  });

  it('limit errors are not query errors of the tree', async () => {
    await expect(json.search(j('{"table": "t", "limit": -5}'), session)).rejects.toMatchObject({ message: 'limit out of bounds (limit=-5)' });
  });

  // found by a user pass: "offset": -1 answered the last match, max_matches 0 an empty page
  it('offset and max_matches out of bounds are searchd\'s errors', async () => {
    await expect(json.search(j('{"table": "t", "offset": -1}'), session)).rejects.toMatchObject({ message: 'offset out of bounds (offset=-1, max_matches=1000)' });
    // searchd's CheckQuery runs once every option is read: the message names the max_matches asked for
    await expect(json.search(j('{"table": "t", "offset": -1, "max_matches": 50}'), session)).rejects.toMatchObject({ message: 'offset out of bounds (offset=-1, max_matches=50)' });
    await expect(json.search(j('{"table": "t", "offset": -1, "max_matches": 0}'), session)).rejects.toMatchObject({ message: 'max_matches can not be less than one' });
    await expect(json.search(j('{"table": "t", "from": 5, "max_matches": 5}'), session)).rejects.toMatchObject({ message: 'offset out of bounds (offset=5, max_matches=5)' });
    await expect(json.search(j('{"table": "t", "max_matches": 0}'), session)).rejects.toMatchObject({ message: 'max_matches can not be less than one' });
    // the default max_matches bounds the page too (a user pass: offset 1000 answered an empty page)
    await expect(json.search(j('{"table": "t", "offset": 1000, "limit": 10}'), session)).rejects.toMatchObject({ message: 'offset out of bounds (offset=1000, max_matches=1000)' });
    await expect(json.search(j('{"table": "t", "from": 1200, "size": 10}'), session)).rejects.toMatchObject({ message: 'offset out of bounds (offset=1200, max_matches=1000)' });
  });
});

describe('a closed engine', () => {
  it('rejects JSON API calls', async () => {
    const d = mkdtempSync(join(tmpdir(), 'quarry-json-closed-'));
    const e = await openEngine({ dataDir: d });
    await e.close();
    await expect(e.json!.search(j('{"table": "t"}'), session)).rejects.toThrow('engine is closed');
    await expect(e.json!.insert(j('{"table": "t", "doc": {}}'), false)).rejects.toThrow('engine is closed');
    rmSync(d, { recursive: true, force: true });
  });
});

describe('auto schema from JSON types', () => {
  it('numbers, bool, integer arrays, float arrays and objects', async () => {
    await json.insert(j('{"table": "auto1", "id": 1, "doc": {"t": "x", "i": 5, "b": 1099511627776, "f": 1.5, "ok": true, "m": [1, 2], "fv": [0.5, 1], "o": {"a": 1}}}'), false);
    const desc = (await sql('desc auto1')) as RowsResult;
    expect(desc.rows.map((r) => [r[0], r[1]])).toEqual([
      ['id', 'bigint'], ['t', 'text'], ['i', 'uint'], ['b', 'bigint'], ['f', 'float'], ['ok', 'uint'], ['m', 'mva'], ['fv', 'json'], ['o', 'json'],
    ]);
    const row = (await sql('select fv, o, ok from auto1')) as RowsResult;
    expect(row.rows).toEqual([['[0.5,1]', '{"a":1}', 1]]);
  });
});

describe('json.search warnings', () => {
  it('a match value that is not text builds nothing, with the warning in the reply', async () => {
    const r = await json.search(j('{"table": "t", "query": {"match": {"title": 5}}}'), session);
    expect(r.rows).toEqual([]);
    expect(r.warning).toBe('query warning: values of properties in "match" should be strings or objects');
  });

  it('query_string warnings come through too', async () => {
    const r = await json.search(j('{"table": "t", "query": {"query_string": "\\"red apple\\"/5"}}'), session);
    expect(r.rows.map((x) => x[0])).toEqual([1n]);
    expect(r.warning).toContain('replacing quorum operator with AND operator');
  });
});

describe('json.search filters past int64', () => {
  it('match as searchd\'s cJSON reads the value: 2^64-1 is -1, past 2^64 a float', async () => {
    await sql('CREATE TABLE big (title text, b bigint)');
    await sql("INSERT INTO big (id, title, b) VALUES (1, 'a', -1), (2, 'b', 5)");
    expect(await searchIds('{"table": "big", "query": {"equals": {"b": 18446744073709551615}}}')).toEqual([1n]);
    expect(await searchIds('{"table": "big", "query": {"range": {"b": {"lte": 18446744073709551615}}}}')).toEqual([1n]);
    expect(await searchIds('{"table": "big", "query": {"range": {"b": {"lt": 18446744073709551616}}}, "sort": [{"id": "asc"}]}')).toEqual([1n, 2n]);
  });
});
