// /search `aggs` through the engine and the /search renderer: terms, histogram, range and the metric
// aggregations in Manticore's `aggregations` shape; `size: 0` answers aggregations with the exact total;
// aggregation types and keys quarry does not implement are errors naming them.
import { parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../../../src/engine/index.js';
import { searchJsonText } from '../../../../src/http/render-search.js';
import { newSession } from '../../../../src/engine/session.js';
import { useTempEngine } from '../../../helpers/temp-engine.js';
import { groupCalls } from '../../../../src/wasm/group-runner.js';

const t = useTempEngine('json-aggs', async (t) => {
  await t.exec('create table facets (title text, price int, brand_id int, cats multi, rate float)');
  await t.exec(`insert into facets (id, title, price, brand_id, cats, rate) values (1, 'a red', 10, 1, (1,2), 0.5),
    (2, 'b red', 120, 2, (2), 1.5), (3, 'c', 320, 1, (), 2.5)`);
  await t.exec('select id from facets'); // a read seals the RAM tail: the first INSERT's rows become a segment
  await t.exec("insert into facets (id, title, price, brand_id, cats, rate) values (4, 'd', 600, 3, (3), 3.5), (5, 'e red', 99, 2, (1), 4.5)");
});

async function search(body: unknown): Promise<Record<string, unknown>> {
  const r = await t.engine.json!.search(parse(JSON.stringify(body)) as JsonValue, newSession());
  return JSON.parse(searchJsonText(r));
}
async function error(body: unknown): Promise<string> {
  try { await search(body); return 'no error'; } catch (e) { return (e as Error).message; }
}

describe('/search aggs', () => {
  it('terms: buckets of key and doc_count, size, order; size 0 gives only aggregations with the exact total', async () => {
    const r = await search({ table: 'facets', size: 0, aggs: { b: { terms: { field: 'brand_id', size: 2, order: { _count: 'desc' } } }, c: { terms: { field: 'cats' }, sort: [{ _key: 'asc' }] } } });
    expect(r.hits).toEqual({ total: 5, total_relation: 'eq', hits: [] });
    expect(r.aggregations).toEqual({
      b: { buckets: [{ key: 1, doc_count: 2 }, { key: 2, doc_count: 2 }] },
      c: { buckets: [{ key: 1, doc_count: 2 }, { key: 2, doc_count: 2 }, { key: 3, doc_count: 1 }] },
    });
  });

  it('folds the aggregations over the same matches in one core call per segment, as FACETs', async () => {
    const before = groupCalls.count;
    const r = await search({ table: 'facets', size: 0, aggs: { b: { terms: { field: 'brand_id' } }, h: { histogram: { field: 'price', interval: 100 } }, s: { sum: { field: 'price' } } } });
    // two segments (two INSERTs): one grouping call each for the three aggregations and the total
    expect(groupCalls.count - before).toBe(2);
    expect((r.aggregations as { s: unknown }).s).toEqual({ value: 1149 });
  });

  it('aggregates the query\'s matches only', async () => {
    const r = await search({ table: 'facets', query: { match: { title: 'red' } }, aggs: { b: { terms: { field: 'brand_id' }, sort: [{ brand_id: 'asc' }] } } });
    expect(r.aggregations).toEqual({ b: { buckets: [{ key: 1, doc_count: 1 }, { key: 2, doc_count: 2 }] } });
  });

  it('histogram: key = floor((v - offset) / interval) * interval + offset, by key; keyed', async () => {
    const r = await search({ table: 'facets', size: 0, aggs: { h: { histogram: { field: 'price', interval: 300 } }, k: { histogram: { field: 'price', interval: 300, offset: 50, keyed: true } } } });
    expect(r.aggregations).toEqual({
      h: { buckets: [{ key: 0, doc_count: 3 }, { key: 300, doc_count: 1 }, { key: 600, doc_count: 1 }] },
      k: { buckets: { '-250': { key: -250, doc_count: 1 }, 50: { key: 50, doc_count: 3 }, 350: { key: 350, doc_count: 1 } } },
    });
  });

  it('range: from inclusive, to exclusive, keys as Manticore names them; keyed', async () => {
    const r = await search({ table: 'facets', size: 0, aggs: {
      r: { range: { field: 'price', ranges: [{ to: 99 }, { from: 99, to: 550 }, { from: 550 }] } },
      k: { range: { field: 'price', keyed: true, ranges: [{ from: 100, to: 399 }, { from: 399 }] } },
    } });
    expect(r.aggregations).toEqual({
      r: { buckets: [{ key: '*-99', to: 99, doc_count: 1 }, { key: '99-550', from: 99, to: 550, doc_count: 3 }, { key: '550-*', from: 550, doc_count: 1 }] },
      k: { buckets: { '100-399': { from: 100, to: 399, doc_count: 2 }, '399-*': { from: 399, doc_count: 1 } } },
    });
  });

  it('min, max, sum, avg', async () => {
    const r = await search({ table: 'facets', size: 0, query: { range: { price: { gte: 100 } } }, aggs: {
      mn: { min: { field: 'price' } }, mx: { max: { field: 'rate' } }, s: { sum: { field: 'price' } }, a: { avg: { field: 'price' } },
    } });
    expect(r.aggregations).toEqual({ mn: { value: 120 }, mx: { value: 3.5 }, s: { value: 1040 }, a: { value: 346.666656 } });
  });

  it('what is not implemented is an error naming it', async () => {
    expect(await error({ table: 'facets', aggs: { d: { significant_terms: { field: 'price' } } } })).toContain('"significant_terms"');
    expect(await error({ table: 'facets', aggs: { d: { date_range: { field: 'price', ranges: [{ to: 'yesterday' }] } } } })).toContain("unable to parse date math 'yesterday'");
    expect(await error({ table: 'facets', aggs: { d: { date_histogram: { field: 'price', calendar_interval: 'month', time_zone: 'Mars/Base' } } } })).toContain("unknown time zone 'Mars/Base'");
    expect(await error({ table: 'facets', aggs: { d: { date_histogram: { field: 'price', calendar_interval: 'month', time_zone: '+03:00' } } } })).toContain('must be an IANA time zone name');
    expect(await error({ table: 'facets', aggs: { d: { date_histogram: { field: 'price', calendar_interval: '2M' } } } })).toContain('calendar_interval');
    expect(await error({ table: 'facets', aggs: { d: { composite: { sources: [] } } } })).toContain('empty "composite" aggregate');
    expect(await error({ table: 'facets', aggs: { d: { composite: { sources: [{ b: { histogram: { field: 'price' } } }] } } } })).toContain('other than "terms"');
    expect(await error({ table: 'facets', aggs: { d: { composite: { sources: [{ b: { terms: { field: 'price' } } }], after: { x: 1 } } } } })).toContain('"after" missed "x"');
    expect(await error({ table: 'facets', aggs: { d: { percentile_ranks: { field: 'price' } } } })).toContain('percentile_ranks() requires values');
    expect(await error({ table: 'facets', aggs: { d: { terms: { field: 'price', shard_size: 3 } } } })).toContain('"shard_size"');
    expect(await error({ table: 'facets', aggs: { d: { terms: { field: 'price' }, zeroes: 'yes' } } })).toContain('"zeroes" property should be a boolean');
    expect(await error({ table: 'facets', aggs: { d: { composite: { sources: [{ b: { terms: { field: 'price' } } }] }, mode: 'max' } } })).toContain('filter scope of the "composite"');
    expect(await error({ table: 'facets', aggs: { d: { terms: { field: 'nosuch' } } } })).toContain("'nosuch' not found");
  });

  it('a negative size is an error, as a FACET\'s negative LIMIT (it cut buckets off the end, as JS slice does)', async () => {
    for (const agg of [{ terms: { field: 'brand_id', size: -1 } }, { histogram: { field: 'price', interval: 100, size: -1 } },
      { range: { field: 'price', ranges: [{ to: 100 }], size: -2 } },
      { composite: { size: -1, sources: [{ b: { terms: { field: 'brand_id' } } }] } }]) {
      expect(await error({ table: 'facets', size: 0, aggs: { d: agg } })).toMatch(/^limit out of bounds \(limit=-[12]\)$/);
    }
  });

  it('terms over a JSON path', async () => {
    await t.exec(`create table products (title text, meta json)`);
    await t.exec(`insert into products (id, title, meta) values (1, 'nike', '{"color":"red"}'), (2, 'adidas', '{"color":"red"}'), (3, 'puma', '{"color":"green"}')`);
    const r = await search({ table: 'products', limit: 0, aggs: { color: { terms: { field: 'meta.color', size: 100 } } } });
    expect(r.aggregations).toEqual({ color: { buckets: [{ key: 'red', doc_count: 2 }, { key: 'green', doc_count: 1 }] } });
    expect(await error({ table: 'products', aggs: { h: { histogram: { field: 'meta.color', interval: 2 } } } })).toContain('"histogram" aggregation over the json field');
  });

  it('date_histogram: calendar and fixed intervals over timestamps, key in seconds and key_as_string (UTC)', async () => {
    await t.exec('create table ev (title text, tm timestamp)');
    // 2017-02-03 10:00, 2017-02-28 23:59, 2017-03-01 00:00, 2017-05-10 12:00 UTC
    await t.exec('insert into ev (id, title, tm) values (1, \'a\', 1486116000), (2, \'b\', 1488326340), (3, \'c\', 1488326400), (4, \'d\', 1494417600)');
    const r = await search({ table: 'ev', size: 0, aggs: {
      months: { date_histogram: { field: 'tm', calendar_interval: 'month', keyed: true } },
      days: { date_histogram: { field: 'tm', fixed_interval: '30d' } },
    } });
    expect(r.aggregations).toEqual({
      months: { buckets: {
        '2017-02-01T00:00:00': { key: 1485907200, key_as_string: '2017-02-01T00:00:00', doc_count: 2 },
        '2017-03-01T00:00:00': { key: 1488326400, key_as_string: '2017-03-01T00:00:00', doc_count: 1 },
        '2017-05-01T00:00:00': { key: 1493596800, key_as_string: '2017-05-01T00:00:00', doc_count: 1 },
      } },
      days: { buckets: [
        // 30 days = 2592000 s: floor(v / 2592000) * 2592000 is 573, 574, 574, 576 intervals
        { key: 573 * 2592000, key_as_string: '2017-01-24T00:00:00', doc_count: 1 },
        { key: 574 * 2592000, key_as_string: '2017-02-23T00:00:00', doc_count: 2 },
        { key: 576 * 2592000, key_as_string: '2017-04-24T00:00:00', doc_count: 1 },
      ] },
    });
  });

  it('composite: buckets of several terms sources, size and after, after_key the last bucket', async () => {
    const body = (after?: unknown) => ({ table: 'facets', size: 0, aggs: { c: { composite: {
      size: 2, sources: [{ b: { terms: { field: 'brand_id' } } }, { p: { terms: { field: 'price' } } }], ...(after ? { after } : {}),
    } } } });
    const first = await search(body());
    expect(first.aggregations).toEqual({ c: {
      after_key: { b: 2, p: 120 },
      buckets: [{ key: { b: 1, p: 10 }, doc_count: 1 }, { key: { b: 2, p: 120 }, doc_count: 1 }],
    } });
    const next = await search(body({ b: 2, p: 120 }));
    expect(next.aggregations).toEqual({ c: {
      after_key: { b: 3, p: 600 },
      buckets: [{ key: { b: 1, p: 320 }, doc_count: 1 }, { key: { b: 3, p: 600 }, doc_count: 1 }],
    } });
    const last = await search(body({ b: 3, p: 600 }));
    expect(last.aggregations).toEqual({ c: { after_key: { b: 2, p: 99 }, buckets: [{ key: { b: 2, p: 99 }, doc_count: 1 }] } });
  });

  it('date_range: date math bounds, keys and from/to as dates (the manual\'s example)', async () => {
    await t.exec('create table dates (title text, tm timestamp)');
    // 2017-02-10, 2017-03-05, 2017-04-20, 2017-05-02 UTC
    await t.exec("insert into dates (id, title, tm) values (1, 'a', 1486684800), (2, 'b', 1488672000), (3, 'c', 1492646400), (4, 'd', 1493683200)");
    const r = await search({ table: 'dates', size: 0, aggs: { points: { date_range: { field: 'tm', keyed: true, ranges: [
      { to: '2017||+2M/M' }, { from: '2017||+2M/M', to: '2017||+4M/M' }, { from: '2017||+4M/M', to: '2017||+5M/M' }, { from: '2017||+5M/M' },
    ] } } } });
    expect(r.aggregations).toEqual({ points: { buckets: {
      '*-2017-03-01T00:00:00': { to: '2017-03-01T00:00:00', doc_count: 1 },
      '2017-03-01T00:00:00-2017-05-01T00:00:00': { from: '2017-03-01T00:00:00', to: '2017-05-01T00:00:00', doc_count: 2 },
      '2017-05-01T00:00:00-2017-06-01T00:00:00': { from: '2017-05-01T00:00:00', to: '2017-06-01T00:00:00', doc_count: 1 },
    } } });
  });
});
