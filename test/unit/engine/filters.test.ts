// JSON attribute filters compare integers as searchd's int64 does (sphinxjson.l reads them with strtoll),
// not as doubles: found by a user pass, `j.m = 9007199254740992` matched a stored 9007199254740993.
import { describe, expect, it } from 'vitest';
import { parse } from 'lossless-json';
import { useTempEngine } from '../../helpers/temp-engine.js';
import { newSession, type JsonValue } from '../../../src/engine/index.js';

const t = useTempEngine('quarry-filters-', async (t) => {
  await t.exec('CREATE TABLE j (title text, j json)');
  await t.exec(`INSERT INTO j (id, title, j) VALUES (1, 'a', '{"k":18446744073709551615,"m":9007199254740993,"a":[9007199254740993]}'),
    (2, 'b', '{"k":5,"m":1.5,"s":"1234567890123456789"}')`);
});

describe('JSON integer filters', () => {
  it('compare integers past 2^53 exactly, not as doubles', async () => {
    // past 2^63-1 after `=` the literal itself is refused, as searchd does (its test_303), whatever the column
    const out = await t.exec('SELECT id FROM j WHERE j.k = 18446744073709551617');
    expect(out[out.length - 1]).toMatchObject({ kind: 'error', message: expect.stringContaining('out of range') });
    expect(await t.rows('SELECT id FROM j WHERE j.m = 9007199254740992')).toEqual([]);
    expect(await t.rows('SELECT id FROM j WHERE j.m = 9007199254740993')).toEqual([[1n]]);
    expect(await t.rows('SELECT id FROM j WHERE j.m > 9007199254740992')).toEqual([[1n]]);
    expect(await t.rows('SELECT id FROM j WHERE j.a[0] IN (9007199254740992)')).toEqual([]);
  });

  it('keep small numbers, floats and digit strings as before', async () => {
    expect(await t.rows('SELECT id FROM j WHERE j.k = 5')).toEqual([[2n]]);
    expect(await t.rows('SELECT id FROM j WHERE j.m < 2.0')).toEqual([[2n]]);
    expect(await t.rows("SELECT id FROM j WHERE j.s = '1234567890123456789'")).toEqual([[2n]]);
  });
});

describe('filters over JSON arrays', () => {
  // sphinxfilter.cpp SetupJsonExpr: a string filter over a JSON array is ExprJsonIn (any element), and so is
  // JSON /search's any(j.a) (jsonqueryfilter.cpp SetMvaFilterFunc); the array's text is never compared
  const search = async (body: string) => (await t.engine.json!.search(parse(body) as JsonValue, newSession())).rows.map((r) => r[0]);

  it('match a string = / != / IN when any string element does', async () => {
    await t.exec(`INSERT INTO j (id, title, j) VALUES (3, 'c', '{"s":["red","blue"],"a":[1,2,3]}'), (4, 'd', '{"s":["green"],"a":[5,6]}')`);
    expect(await t.rows("SELECT id FROM j WHERE j.s = 'red'")).toEqual([[3n]]);
    expect(await t.rows("SELECT id FROM j WHERE j.s IN ('green', 'x') ORDER BY id ASC")).toEqual([[4n]]);
    // a missing key matches no filter (TryToCreateJsonNullFilter), != included
    expect(await t.rows("SELECT id FROM j WHERE j.s != 'red' ORDER BY id ASC")).toEqual([[2n], [4n]]);
    expect(await search('{"table":"j","query":{"equals":{"j.s":"blue"}}}')).toEqual([3n]);
  });

  it('take JSON /search any(j.a) in equals and in, any element matching', async () => {
    await t.exec(`INSERT INTO j (id, title, j) VALUES (3, 'c', '{"a":[1,2,3]}'), (4, 'd', '{"a":[5,6]}')`);
    expect(await search('{"table":"j","query":{"equals":{"any(j.a)":2}}}')).toEqual([3n]);
    expect(await search('{"table":"j","query":{"in":{"ANY(j.a)":[6,7]}}}')).toEqual([4n]);
    expect(await search('{"table":"j","query":{"bool":{"must_not":[{"equals":{"any(j.a)":5}}]}},"sort":[{"id":"asc"}]}')).toEqual([1n, 2n, 3n]);
    // the manual's MVA form (Data_types.md: "equals": {"any(product_codes)": 3}) goes the same way
    await t.exec('CREATE TABLE m (title text, codes multi)');
    await t.exec("INSERT INTO m (id, title, codes) VALUES (1, 'a', (1,3)), (2, 'b', (4))");
    expect(await search('{"table":"m","query":{"equals":{"any(codes)":3}}}')).toEqual([1n]);
    expect(await search('{"table":"m","query":{"in":{"all(codes)":[4]}}}')).toEqual([2n]);
  });
});

describe('REGEX() as a WHERE filter', () => {
  it('keeps the documents whose JSON string (or string attribute) matches', async () => {
    await t.exec(`INSERT INTO j (id, title, j) VALUES (3, 'c', '{"color":"red"}'), (4, 'd', '{"color":"pink"}'), (5, 'e', '{"color":"blue"}')`);
    expect(await t.rows("SELECT id FROM j WHERE REGEX(j.color, 'red|pink') ORDER BY id ASC")).toEqual([[3n], [4n]]);
    expect(await t.rows("SELECT id FROM j WHERE NOT REGEX(j.color, '^p') AND id > 2 ORDER BY id ASC")).toEqual([[3n], [5n]]);
  });
});

describe('filters on full-text fields', () => {
  // sphinxfilter.cpp TryToCreateExpressionFilter: a filter over a field (its value lives in the docstore) is an
  // error; found by a user pass, where `WHERE title='a'` answered no rows and `WHERE title!='a'` none either
  const message = "unsupported filter on field 'title' (filters are supported only on attributes, not stored fields)";

  it('refuses =, !=, IN and IS NULL on a text field, in SQL and JSON', async () => {
    for (const where of ["title = 'a'", "title != 'a'", "title IN ('a')", 'title IS NULL', "j.s = 'x' OR title = 'a'"]) {
      const out = await t.exec(`SELECT id FROM j WHERE ${where}`);
      expect(out[out.length - 1]).toMatchObject({ kind: 'error', message: `table j: ${message}` });
    }
    await expect(t.engine.json!.search(parse('{"table":"j","query":{"equals":{"title":"a"}}}') as JsonValue, newSession()))
      .rejects.toThrow(message);
  });

  it('still filters string attributes and ids', async () => {
    expect(await t.rows('SELECT id FROM j WHERE id = 2')).toEqual([[2n]]);
  });
});
