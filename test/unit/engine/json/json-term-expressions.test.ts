// JSON /search query types as Manticore 29 reads them (src/sphinxjsonquery.cpp ConstructNode): `term`
// (`value` in place of `query`) and `terms` (an array of words, OR-ed) are full-text nodes; `expressions`
// is a synonym of script_fields. `wildcard`, `prefix`, `regexp` are unknown full-text nodes there, and
// `slop` / `minimum_should_match` inside match are dropped by searchd: refused here, never ignored.
import { parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { newSession } from '../../../../src/engine/index.js';
import type { JsonValue } from '../../../../src/engine/json/json-value.js';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('json-term', async (t) => {
  await t.exec('create table docs (title text, body text, price float)');
  await t.exec(`insert into docs (id, title, body, price) values
    (1, 'red apple', 'fresh fruit', 10), (2, 'green apple', 'sour fruit', 20), (3, 'red car', 'fast machine', 30)`);
});

const search = async (body: object) => t.engine.json!.search(parse(JSON.stringify(body)) as JsonValue, newSession());
const ids = async (query: object) => (await search({ table: 'docs', query, sort: [{ id: 'asc' }] })).rows.map((row) => Number(row[0]));

describe('term and terms', () => {
  it('term matches its words in the field, in the short and the object form', async () => {
    expect(await ids({ term: { title: 'red' } })).toEqual([1, 3]);
    expect(await ids({ term: { title: { value: 'apple' } } })).toEqual([1, 2]);
    expect(await ids({ term: { title: { value: 'red apple', operator: 'and' } } })).toEqual([1]);
    expect(await ids({ term: { body: 'red' } })).toEqual([]); // limited to the field
    expect(await ids({ bool: { must: [{ term: { title: 'apple' } }, { range: { price: { gte: 15 } } }] } })).toEqual([2]);
  });

  it('terms ORs its array of words', async () => {
    expect(await ids({ terms: { title: ['green', 'car'] } })).toEqual([2, 3]);
    expect(await ids({ bool: { must_not: [{ terms: { body: ['sour', 'fast'] } }], must: [{ match: { title: 'red apple' } }] } })).toEqual([1]);
  });

  it('errors and warnings are Manticore\'s', async () => {
    await expect(search({ table: 'docs', query: { term: { title: { query: 'red' } } } })).rejects.toThrow('"term" property "query" is not supported');
    await expect(search({ table: 'docs', query: { term: { title: { value: 7 } } } })).rejects.toThrow('"value" property value should be a string');
    await expect(search({ table: 'docs', query: { terms: { title: ['red', 1] } } })).rejects.toThrow('"terms" value should be a string');
    const r = await search({ table: 'docs', query: { terms: { title: 'red' } } });
    expect(r.rows).toEqual([]);
    expect(r.warning).toContain('values of properties in "terms" should be an array');
    await expect(search({ table: 'docs', query: { term: { title: 'red' }, match: { body: 'fruit' } } })).rejects.toThrow('"query" has multiple full-text properties, use bool node');
  });
});

describe('forms Manticore 29 does not read', () => {
  it('wildcard, prefix, regexp are unknown full-text nodes', async () => {
    for (const name of ['wildcard', 'prefix', 'regexp']) {
      await expect(search({ table: 'docs', query: { [name]: { title: 'ap*' } } })).rejects.toThrow(`unknown full-text node '${name}'`);
    }
  });

  it('slop and minimum_should_match are refused, not dropped', async () => {
    await expect(search({ table: 'docs', query: { match_phrase: { title: { query: 'red apple', slop: 2 } } } })).rejects.toThrow('"match_phrase" property "slop" is not supported');
    await expect(search({ table: 'docs', query: { match: { title: { query: 'red apple', minimum_should_match: 2 } } } })).rejects.toThrow('"match" property "minimum_should_match" is not supported');
  });
});

describe('expressions', () => {
  it('each property is a computed column named by its key', async () => {
    const r = await search({ table: 'docs', sort: [{ id: 'asc' }], expressions: { p2: 'price*2', cheap: 'IF(price<15, 1, 0)' } });
    const p2 = r.columns.findIndex((c) => c.name === 'p2');
    const cheap = r.columns.findIndex((c) => c.name === 'cheap');
    expect(r.rows.map((row) => [row[p2], row[cheap]])).toEqual([[20, 1], [40, 0], [60, 0]]);
  });

  it('errors name what is wrong', async () => {
    await expect(search({ table: 'docs', expressions: 'price*2' })).rejects.toThrow('"expressions" property should be an object');
    await expect(search({ table: 'docs', expressions: { p: 2 } })).rejects.toThrow('"expressions" properties should be strings');
    await expect(search({ table: 'docs', expressions: { '': 'price' } })).rejects.toThrow('"expressions" empty property name');
  });
});
