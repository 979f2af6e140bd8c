// Issue 13's "done": a faceted search page (the hits of a query, counts per category and per brand, a
// price histogram) built with SQL (FACET) and with JSON (/search aggs), as a Manticore user would build
// it. Every transport answers the same page, and the page equals a plain TypeScript evaluation of the
// same catalogue rows (the oracle), so a wrong count fails here.
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasCommand, run, startQuarry, type QuarryProcess } from './mysql-server.js';

interface Product { id: number; title: string; category: string; brand: string; price: number }

const CATEGORIES = ['shoes', 'hats', 'bags', 'socks'];
const BRANDS = ['nike', 'adidas', 'puma'];
/** A deterministic catalogue: 60 products, every tenth title without "red". */
const CATALOGUE: Product[] = Array.from({ length: 60 }, (_, i) => ({
  id: i + 1,
  title: `${i % 10 === 0 ? 'blue' : 'red'} ${CATEGORIES[i % 4]} number ${i}`,
  category: CATEGORIES[(i * 7) % 4]!,
  brand: BRANDS[(i * 5) % 3]!,
  price: 5 + ((i * 37) % 200),
}));
const HIST = 50;
const PAGE = 5;

/** The page computed from the rows: `red` products with price < 180, by price asc then id. */
function oracle() {
  const hits = CATALOGUE.filter((p) => p.title.split(' ').includes('red') && p.price < 180);
  const count = (key: (p: Product) => string | number) => {
    const m = new Map<string | number, number>();
    for (const p of hits) m.set(key(p), (m.get(key(p)) ?? 0) + 1);
    return m;
  };
  const byCountThenKey = (m: Map<string | number, number>) =>
    [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([k, n]) => [String(k), String(n)]);
  const sorted = [...hits].sort((a, b) => a.price - b.price || a.id - b.id);
  return {
    total: hits.length,
    page: sorted.slice(0, PAGE).map((p) => [String(p.id), p.title, p.price.toFixed(6)]),
    categories: byCountThenKey(count((p) => p.category)),
    brands: byCountThenKey(count((p) => p.brand)),
    histogram: [...count((p) => Math.floor(p.price / HIST) * HIST)].sort((a, b) => Number(a[0]) - Number(b[0])).map(([k, n]) => [String(k), String(n)]),
  };
}

const SQL = `SELECT id, title, price FROM catalogue WHERE MATCH('red') AND price < 180 ORDER BY price ASC, id ASC LIMIT ${PAGE}
  FACET category ORDER BY COUNT(*) DESC, category ASC
  FACET brand ORDER BY COUNT(*) DESC, brand ASC
  FACET HISTOGRAM(price, {hist_interval=${HIST}}) AS price_range ORDER BY FACET() ASC`;

let q: QuarryProcess;
let conn: mysql.Connection;
const post = async (path: string, body: string) => (await fetch(`http://127.0.0.1:${q.httpPort}${path}`, { method: 'POST', body })).text();

beforeAll(async () => {
  q = await startQuarry();
  conn = await mysql.createConnection({ host: '127.0.0.1', port: q.mysqlPort, user: 'root', multipleStatements: true });
  await q.sql('CREATE TABLE catalogue (title text, category string, brand string, price float)');
  const values = CATALOGUE.map((p) => `(${p.id}, '${p.title}', '${p.category}', '${p.brand}', ${p.price})`).join(', ');
  await q.sql(`INSERT INTO catalogue (id, title, category, brand, price) VALUES ${values}`);
}, 60_000);
afterAll(async () => {
  await conn?.end();
  await q?.stop();
});

type Sets = string[][][];

/** The four result sets as text rows (the MySQL text protocol's values). */
async function overMysql2(): Promise<Sets> {
  const [sets] = await conn.query({ sql: SQL, rowsAsArray: true, typeCast: (f, next) => (f.type === 'NULL' ? next() : f.string()) });
  return sets as unknown as Sets;
}

async function overRaw(): Promise<Sets> {
  const body = JSON.parse(await post('/sql?mode=raw', SQL)) as { columns: Record<string, { type: string }>[]; data: Record<string, unknown>[] }[];
  return body.map((set) => set.data.map((row) => set.columns.map((c) => {
    const [name, def] = Object.entries(c)[0]!;
    return def.type === 'float' ? Number(row[name]).toFixed(6) : String(row[name]);
  })));
}

/** `/cli` prints the tables as the mysql client does: read the cells back. */
async function overCli(): Promise<Sets> {
  const text = await post('/cli', SQL);
  const sets: Sets = [];
  let inTable = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('+')) { inTable = (inTable + 1) % 3; if (inTable === 1) sets.push([]); continue; }
    if (line.startsWith('|') && inTable === 2) sets[sets.length - 1]!.push(line.slice(1, -1).split('|').map((c) => c.trim()));
  }
  return sets;
}

async function overMariadbCli(): Promise<Sets> {
  const r = await run('mariadb', ['-h127.0.0.1', `-P${q.mysqlPort}`, '-uroot', '--batch', '--skip-column-names', '-e', SQL]);
  expect(r.stderr).toBe('');
  // --batch without names prints the sets one after another: split them by their known sizes
  const rows = r.stdout.trim().split('\n').map((l) => l.split('\t'));
  const want = oracle();
  const sizes = [want.page.length, want.categories.length, want.brands.length, want.histogram.length];
  return sizes.map((n) => rows.splice(0, n));
}

describe('a faceted search page', () => {
  it('SQL over mysql2 (multiple result sets) equals the oracle', async () => {
    const want = oracle();
    const [page, categories, brands, histogram] = await overMysql2();
    expect(page).toEqual(want.page);
    expect(categories).toEqual(want.categories);
    expect(brands).toEqual(want.brands);
    expect(histogram).toEqual(want.histogram);
    const [meta] = await conn.query({ sql: "SHOW META LIKE 'total_found'", rowsAsArray: true });
    expect((meta as unknown as string[][])[0]![1]).toBe(String(want.total));
  });

  it('/sql?mode=raw, /cli and the mariadb CLI give the same page as mysql2', async () => {
    const viaMysql = await overMysql2();
    expect(await overRaw()).toEqual(viaMysql);
    expect(await overCli()).toEqual(viaMysql);
    if (hasCommand('mariadb', ['--version'])) expect(await overMariadbCli()).toEqual(viaMysql);
  });

  it('JSON /search with aggs gives the same hits and counts', async () => {
    const want = oracle();
    const body = JSON.parse(await post('/search', JSON.stringify({
      table: 'catalogue',
      query: { bool: { must: [{ match: { title: 'red' } }, { range: { price: { lt: 180 } } }] } },
      sort: [{ price: 'asc' }, { id: 'asc' }],
      limit: PAGE,
      aggs: {
        categories: { terms: { field: 'category', size: 20 }, sort: [{ 'count(*)': { order: 'desc' } }] },
        brands: { terms: { field: 'brand', size: 20 }, sort: [{ 'count(*)': { order: 'desc' } }] },
        prices: { histogram: { field: 'price', interval: HIST } },
      },
    })));
    expect(body.hits.total).toBe(want.total);
    expect(body.hits.hits.map((h: { _id: number }) => String(h._id))).toEqual(want.page.map((r) => r[0]));
    const buckets = (name: string) => body.aggregations[name].buckets.map((b: { key: unknown; doc_count: number }) => [String(b.key), String(b.doc_count)]);
    // terms buckets of equal count come in no set order (Manticore's neither): compare them as sets, counts in order
    const asSet = (rows: string[][]) => [...rows].sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
    expect(asSet(buckets('categories'))).toEqual(asSet(want.categories));
    expect(buckets('categories').map((r: string[]) => r[1])).toEqual(want.categories.map((r) => r[1]));
    expect(asSet(buckets('brands'))).toEqual(asSet(want.brands));
    expect(buckets('prices')).toEqual(want.histogram);
  });

  it('/search with "size": 0 returns only the aggregations', async () => {
    const body = JSON.parse(await post('/search', JSON.stringify({
      table: 'catalogue', size: 0, query: { match: { title: 'red' } },
      aggs: { categories: { terms: { field: 'category' } } },
    })));
    expect(body.hits.hits).toEqual([]);
    expect(body.hits.total).toBe(CATALOGUE.filter((p) => p.title.startsWith('red')).length);
    expect(body.aggregations.categories.buckets.reduce((n: number, b: { doc_count: number }) => n + b.doc_count, 0)).toBe(body.hits.total);
  });
});
