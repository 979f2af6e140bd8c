// FACET: each clause one more result set after the main one, the same over the MySQL protocol (mysql2
// multiple result sets, the mariadb CLI), /sql?mode=raw, /cli_json and /cli; /sql (no mode) answers them as
// `aggregations`.
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasCommand, run, startQuarry, type QuarryProcess } from './mysql-server.js';

let q: QuarryProcess;
let conn: mysql.Connection;
const post = async (path: string, body: string) => {
  const res = await fetch(`http://127.0.0.1:${q.httpPort}${path}`, { method: 'POST', body });
  return { status: res.status, text: await res.text() };
};

beforeAll(async () => {
  q = await startQuarry();
  conn = await mysql.createConnection({ host: '127.0.0.1', port: q.mysqlPort, user: 'root' });
  await q.sql('CREATE TABLE facetdemo (price float, brand_id int, title text, brand_name string, categories multi)');
  await q.sql(`INSERT INTO facetdemo (id, price, brand_id, title, brand_name, categories) VALUES
    (1, 306, 1, 'Product Ten Three', 'Brand One', (10,11)), (2, 400, 10, 'Product Three One', 'Brand Ten', (13,14)),
    (3, 855, 1, 'Product Seven Two', 'Brand One', (10,11,12)), (4, 31, 9, 'Product Four One', 'Brand Nine', (12,13,14))`);
}, 60_000);
afterAll(async () => {
  await conn?.end();
  await q?.stop();
});

const SQL = 'SELECT id, price FROM facetdemo ORDER BY id ASC LIMIT 2 FACET brand_id ORDER BY COUNT(*) DESC, brand_id ASC FACET categories AS cat ORDER BY FACET() ASC LIMIT 3';
const MAIN = [[1, 306], [2, 400]];
const BRANDS = [[1, 2], [9, 1], [10, 1]];
const CATS = [[10, 2], [11, 2], [12, 2]];

describe('FACET', () => {
  it('mysql2 receives the main result set and one per FACET', async () => {
    const [sets, fields] = await conn.query({ sql: SQL, rowsAsArray: true });
    const all = sets as unknown as unknown[][][];
    expect(all.length).toBe(3);
    expect(all[0]).toEqual(MAIN);
    expect(all[1]).toEqual(BRANDS);
    expect(all[2]!.map((r) => [Number(r[0]), r[1]])).toEqual(CATS);
    const names = (fields as unknown as mysql.FieldPacket[][]).map((f) => f.map((x) => x.name));
    expect(names).toEqual([['id', 'price'], ['brand_id', 'count(*)'], ['cat', 'count(*)']]);
  });

  it.skipIf(!hasCommand('mariadb', ['--version']))('the mariadb CLI prints every result set', async () => {
    const r = await run('mariadb', ['-h127.0.0.1', `-P${q.mysqlPort}`, '-uroot', '--batch', '-e', SQL]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe([
      'id\tprice', '1\t306.000000', '2\t400.000000',
      'brand_id\tcount(*)', ...BRANDS.map((x) => x.join('\t')),
      'cat\tcount(*)', ...CATS.map((x) => x.join('\t')), '',
    ].join('\n'));
  });

  it('FACET on a JSON path shows the group value', async () => {
    await q.sql('CREATE TABLE products (title text, meta json)');
    await q.sql(`INSERT INTO products (id, title, meta) VALUES (1, 'nike', '{"color":"red"}'), (2, 'adidas', '{"color":"red"}'), (3, 'puma', '{"color":"green"}')`);
    const [sets] = await conn.query({ sql: 'SELECT id FROM products FACET meta.color ORDER BY COUNT(*) DESC', rowsAsArray: true });
    expect((sets as unknown as unknown[][][])[1]).toEqual([['red', 2], ['green', 1]]);
  });

  it('/sql?mode=raw and /cli_json answer the same result sets', async () => {
    for (const path of ['/sql?mode=raw', '/cli_json']) {
      const body = JSON.parse((await post(path, SQL)).text) as { columns: Record<string, unknown>[]; data: Record<string, unknown>[] }[];
      expect(body.length).toBe(3);
      expect(body[1]!.data).toEqual(BRANDS.map(([b, c]) => ({ brand_id: b, 'count(*)': c })));
      expect(body[2]!.data).toEqual(CATS.map(([k, c]) => ({ cat: String(k), 'count(*)': c })));
    }
  });

  it('/cli prints one table per result set', async () => {
    const text = (await post('/cli', SQL)).text;
    expect(text.match(/rows? in set/g)?.length).toBe(3);
    expect(text).toContain('| brand_id | count(*) |');
  });

  it('/sql (no mode) answers the facets as aggregations', async () => {
    const body = JSON.parse((await post('/sql', SQL)).text);
    expect(body.hits.hits.map((h: { _id: number }) => h._id)).toEqual([1, 2]);
    expect(body.aggregations).toEqual({
      brand_id: { buckets: BRANDS.map(([key, doc_count]) => ({ key, doc_count })) },
      categories: { buckets: CATS.map(([key, doc_count]) => ({ key, doc_count })) },
    });
  });
});

describe('FACET filter scopes over a WHERE they cannot split', () => {
  const CONJ = 'facet-local filter scope supports conjunction-only attribute filters';
  const search = async (body: object) => post('/search', JSON.stringify(body));

  it("an OR, NOT or exclude filter under MODE max / auto, FILTERS or EXCLUDE FILTERS is Manticore's error over MySQL and /sql", async () => {
    for (const sql of [
      'SELECT id FROM facetdemo WHERE brand_id = 1 OR price < 100 FACET brand_id MODE max',
      "SELECT id FROM facetdemo WHERE brand_id = 1 OR price < 100 OPTION facet_filter_mode='auto' FACET brand_id",
      'SELECT id FROM facetdemo WHERE brand_id = 1 OR price < 100 FACET brand_id FILTERS price',
      'SELECT id FROM facetdemo WHERE brand_id != 9 AND price > 10 FACET brand_id EXCLUDE FILTERS price',
      'SELECT id FROM facetdemo WHERE NOT (brand_id = 9) FACET brand_id MODE max',
      'SELECT id FROM facetdemo WHERE brand_id NOT IN (9) FACET brand_id EXCLUDE FILTERS brand_id',
    ]) {
      await expect(conn.query(sql), sql).rejects.toThrow(CONJ);
      const raw = await post('/sql?mode=raw', `query=${encodeURIComponent(sql)}`);
      expect(raw.text, sql).toContain(CONJ);
    }
  });

  it('the same WHERE is fine under ALL FILTERS and MODE strict, which keep it whole', async () => {
    const [sets] = await conn.query('SELECT id FROM facetdemo WHERE brand_id = 1 OR price < 100 ORDER BY id ASC FACET brand_id ORDER BY brand_id ASC FACET brand_id ALL FILTERS ORDER BY brand_id ASC') as unknown as [Array<Array<Record<string, unknown>>>];
    expect(sets.map((s) => s.map((r) => Object.values(r)))).toEqual([[[1], [3], [4]], [[1, 2], [9, 1]], [[1, 2], [9, 1]]]);
  });

  it('/search: a should or must_not with mode max / auto or filters is the same error; strict aggregations answer', async () => {
    const should = { bool: { should: [{ equals: { brand_id: 1 } }, { range: { price: { lt: 100 } } }] } };
    const mustNot = { bool: { must_not: [{ equals: { brand_id: 9 } }] } };
    for (const [query, agg] of [[should, { mode: 'max' }], [should, { mode: 'auto' }], [mustNot, { filters: ['price'] }], [mustNot, { exclude_filters: ['price'] }]] as const) {
      const res = await search({ table: 'facetdemo', query, aggs: { b: { terms: { field: 'brand_id' }, ...agg } } });
      expect(res.text, JSON.stringify(agg)).toContain(CONJ);
      expect(res.status).toBe(500); // a request that parses but cannot run (spec section 10)
    }
    const ok = await search({ table: 'facetdemo', query: should, aggs: { b: { terms: { field: 'brand_id' } } } });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.text).aggregations.b.buckets).toHaveLength(2);
  });

  it('a bucket is selected only when it matches every filter on its attribute (SQL and /search)', async () => {
    const rows = async (where: string) => {
      const [sets] = await conn.query(`SELECT id FROM facetdemo WHERE ${where} FACET brand_id MODE auto ORDER BY brand_id ASC`) as unknown as [Array<Array<Record<string, unknown>>>];
      return sets[1]!.map((r) => Object.values(r));
    };
    expect(await rows('brand_id IN (1, 10) AND brand_id = 1')).toEqual([[1, 2, 'selected'], [9, 1, 'available'], [10, 1, 'available']]);
    // no bucket passes both: none selected, and all available (a selected filter exists)
    expect(await rows('brand_id = 1 AND brand_id = 10')).toEqual([[1, 2, 'available'], [9, 1, 'available'], [10, 1, 'available']]);
    const res = await search({
      table: 'facetdemo', query: { bool: { must: [{ in: { brand_id: [1, 10] } }, { equals: { brand_id: 1 } }] } },
      aggs: { b: { terms: { field: 'brand_id', order: { _key: 'asc' } }, mode: 'auto' } },
    });
    expect(res.status, res.text).toBe(200);
    expect(JSON.parse(res.text).aggregations.b.buckets.map((b: { key: number; status: string }) => [b.key, b.status])).toEqual([[1, 'selected'], [9, 'available'], [10, 'available']]);
  });
});
