// `quarry indexer` over a mysql source against a real MariaDB server (Debian's mariadb-server, started
// here on a loopback port in a temp dir): pre-queries, ranged queries, attribute declarations, strings,
// MVAs from a field and from a query, 64-bit ids, and sql_query_post_index with $maxid.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open } from '../../../src/index.js';
import { mariadbAvailable, startMariadb, type MariaDb } from '../../helpers/mariadb-server.js';
import { runQuarry } from '../../helpers/run-quarry.js';

let dir = '';
let db: MariaDb;
const ROWS = 2500;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-indexer-mysql-'));
  db = await startMariadb(join(dir, 'mariadb'));
  const c = await db.connect();
  await c.query('CREATE DATABASE shop CHARACTER SET utf8mb4');
  await c.query('USE shop');
  await c.query(`CREATE TABLE products (id BIGINT UNSIGNED PRIMARY KEY, title VARCHAR(200), body TEXT, price DECIMAL(10,2),
    qty INT UNSIGNED, added DATETIME, sku VARCHAR(20), tags VARCHAR(100), meta JSON)`);
  await c.query('CREATE TABLE product_colors (product_id BIGINT, color_id INT)');
  await c.query('CREATE TABLE counters (name VARCHAR(20) PRIMARY KEY, maxid BIGINT)');
  const values: unknown[][] = [];
  for (let i = 1; i <= ROWS; i++) {
    values.push([i, `product ${i} ${i % 2 ? 'red' : 'blue'}`, `body of ${i} with 'quotes' and ünïcödé`, (i * 1.25).toFixed(2), i % 7,
      '2024-01-02 03:04:05', `SKU-${i}`, `${i % 3},${(i % 5) + 10}`, JSON.stringify({ n: i })]);
  }
  values.push(['9223372036854775807', 'the last one', 'max id', '1.00', 1, null, 'SKU-MAX', '', null]);
  await c.query('INSERT INTO products VALUES ?', [values]);
  await c.query('INSERT INTO product_colors VALUES (1, 100), (1, 200), (2, 300)');
  await c.end();
}, 120_000);

afterAll(async () => {
  await db?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!mariadbAvailable())('quarry indexer with a mysql source', () => {
  it('indexes a MariaDB table through ranged queries', async () => {
    const data = join(dir, 'data');
    const conf = join(dir, 'q.conf');
    writeFileSync(conf, `
source products_src {
  type = mysql
  sql_host = 127.0.0.1
  sql_port = ${db.port}
  sql_user = root
  sql_pass =
  sql_db = shop
  sql_query_pre = SET NAMES utf8mb4
  sql_query_pre = REPLACE INTO counters VALUES ('started', 0)
  sql_query_range = SELECT MIN(id), MAX(id) FROM products WHERE id < 1000000
  sql_range_step = 1000
  sql_query = SELECT id, title, body, price, qty, UNIX_TIMESTAMP(added) AS added, sku, tags, meta FROM products WHERE id >= $start AND id <= $end
  sql_attr_float = price
  sql_attr_uint = qty
  sql_attr_timestamp = added
  sql_field_string = sku
  sql_attr_multi = uint tags from field
  sql_attr_json = meta
  sql_attr_multi = bigint colors from query; SELECT product_id, color_id FROM product_colors
  sql_query_post_index = REPLACE INTO counters VALUES ('indexed', $maxid)
}
table products {
  source = products_src
  morphology = stem_en
}
searchd {
  data_dir = ${data}
}
`);
    const r = await runQuarry(['indexer', '--config', conf, 'products']);
    expect(r.stderr).toMatch(/table products: 2,500 documents in/);
    expect(r.code).toBe(0);
    const q = await open(data, { threads: 1 });
    try {
      const rows = async (sql: string) => {
        const [res] = await q.sql(sql);
        if (res?.kind !== 'rows') throw new Error(JSON.stringify(res));
        return res.rows;
      };
      expect(await rows('DESCRIBE products')).toEqual([
        ['id', 'bigint', ''], ['title', 'text', 'indexed stored'], ['body', 'text', 'indexed stored'], ['sku', 'string', 'indexed attribute'],
        ['price', 'float', ''], ['qty', 'uint', ''], ['added', 'timestamp', ''], ['tags', 'mva', ''], ['meta', 'json', ''], ['colors', 'mva64', ''],
      ]);
      expect(await rows('SELECT COUNT(*) FROM products')).toEqual([[2500n]]);
      const [one] = await rows("SELECT id, title, body, price, qty, added, sku, tags, meta, colors FROM products WHERE id = 1");
      expect(one).toEqual([1n, 'product 1 red', "body of 1 with 'quotes' and ünïcödé", 1.25, 1, 1704164645, 'SKU-1', [1n, 11n], '{"n":1}', [100n, 200n]]);
      expect(await rows("SELECT COUNT(*) FROM products WHERE MATCH('ünïcödé quote')")).toEqual([[2500n]]);
      expect(await rows("SELECT id FROM products WHERE MATCH('@sku SKU-2500')")).toEqual([[2500n]]);
    } finally {
      await q.close();
    }
    const c = await db.connect('shop');
    const [counters] = await c.query('SELECT name, maxid FROM counters ORDER BY name');
    await c.end();
    expect(counters).toEqual([{ name: 'indexed', maxid: 2500 }, { name: 'started', maxid: 0 }]);
  }, 60_000);

  it('reads a whole table without ranges, 64-bit ids exact; a bad query is reported and changes nothing', async () => {
    const data = join(dir, 'data2');
    const conf = (query: string) => {
      const p = join(dir, 'q2.conf');
      writeFileSync(p, `
source s {
  type = mysql
  sql_host = 127.0.0.1
  sql_port = ${db.port}
  sql_user = root
  sql_db = shop
  sql_query = ${query}
}
table p {
  source = s
}
searchd {
  data_dir = ${data}
}
`);
      return p;
    };
    const r = await runQuarry(['indexer', '--config', conf('SELECT id, title FROM products WHERE id > 2499'), '--all', '--quiet']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const bad = await runQuarry(['indexer', '--config', conf('SELECT id, title FROM no_such_table'), '--all']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("Table 'shop.no_such_table' doesn't exist");
    const q = await open(data, { threads: 1 });
    const [res] = await q.sql('SELECT id, title FROM p ORDER BY id ASC');
    await q.close();
    expect(res?.kind === 'rows' && res.rows).toEqual([[2500n, 'product 2500 blue'], [9223372036854775807n, 'the last one']]);
  });
});
