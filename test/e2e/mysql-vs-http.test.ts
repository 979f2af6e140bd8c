// The same statements over the MySQL protocol and over /sql?mode=raw give the same results; many
// concurrent connections and misbehaving clients leave the server serving.
import { connect, type Socket } from 'node:net';
import { isLosslessNumber, parse } from 'lossless-json';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startQuarry, type QuarryProcess } from './mysql-server.js';

/** Wire column types as /sql?mode=raw names them. */
const TYPE_NAMES: Record<number, string> = { 8: 'long long', 3: 'long', 4: 'float', 254: 'string' };

type Set = { columns: string[][]; data: (string | null)[][] };
/** One result set, or several (`more`: the statement's further ones, one per FACET). */
type Normal = { error: string } | (Set & { more?: Set[] }) | { total: number };

let q: QuarryProcess;
let conn: mysql.Connection;
beforeAll(async () => {
  q = await startQuarry();
  conn = await mysql.createConnection({ host: '127.0.0.1', port: q.mysqlPort, user: 'root' });
});
afterAll(async () => {
  await conn?.end();
  await q?.stop();
});

/** Floats are compared as the float32 they print; other values as exact text. */
function cellText(v: unknown, type: string): string | null {
  if (v === null || v === undefined) return null;
  const text = isLosslessNumber(v) ? v.value : String(v);
  return type === 'float' ? String(Math.fround(Number.parseFloat(text))) : text;
}

async function overMysql(sql: string): Promise<Normal> {
  try {
    const [res, fields] = await conn.query({ sql, rowsAsArray: true, typeCast: (f, next) => (f.type === 'NULL' ? next() : f.string()) });
    if (!Array.isArray(res)) return { total: (res as mysql.ResultSetHeader).affectedRows };
    const one = (rows: unknown[][], fs: mysql.FieldPacket[]): Set => {
      const cols = fs.map((f) => [f.name, TYPE_NAMES[f.columnType ?? 0] ?? `?${f.columnType}`]);
      return { columns: cols, data: rows.map((row) => row.map((v, i) => cellText(v, cols[i]![1]!))) };
    };
    // several result sets (FACET): mysql2 gives a list of row lists and a list of field lists
    if (Array.isArray(fields) && Array.isArray(fields[0])) {
      const sets = (res as unknown[][][]).map((r, i) => one(r, (fields as unknown as mysql.FieldPacket[][])[i]!));
      return { ...sets[0]!, more: sets.slice(1) };
    }
    return one(res as unknown[][], fields as mysql.FieldPacket[]);
  } catch (e) {
    return { error: (e as { sqlMessage?: string }).sqlMessage ?? String(e) };
  }
}

async function overHttp(sql: string): Promise<Normal> {
  const res = await fetch(`http://127.0.0.1:${q.httpPort}/sql?mode=raw`, { method: 'POST', body: sql });
  const body = parse(await res.text()) as Record<string, unknown> | Array<Record<string, unknown>>;
  if (!Array.isArray(body)) return { error: String(body.error) };
  const r = body[0]!;
  if (!r.columns) return { total: Number(String(r.total)) };
  const one = (x: Record<string, unknown>): Set => {
    const cols = (x.columns as Array<Record<string, { type: string }>>).map((c) => {
      const [name, def] = Object.entries(c)[0]!;
      return [name, def.type];
    });
    const data = (x.data as Array<Record<string, unknown>>).map((row) => cols.map(([name, type]) => cellText(row[name!], type!)));
    return { columns: cols, data };
  };
  return body.length > 1 ? { ...one(r), more: body.slice(1).map(one) } : one(r);
}

/** SHOW META's `time` row is a measurement, different on every run. */
function withoutTime(r: Normal): Normal {
  return 'data' in r ? { ...r, data: r.data.filter((row) => row[0] !== 'time') } : r;
}

/** FACET result sets, bucket functions, GROUP_CONCAT forms, percentiles, host-side ORDER BY keys. */
const ANALYTICS = [
  'SELECT id FROM cmp ORDER BY id ASC FACET n ORDER BY n DESC FACET tags ORDER BY FACET() ASC LIMIT 2 FACET HISTOGRAM(price, {hist_interval=50}) AS h ORDER BY h ASC',
  "SELECT id FROM cmp WHERE n > 5 AND flag = 1 FACET flag EXCLUDE FILTERS flag ORDER BY flag ASC FACET n MODE auto ORDER BY n ASC",
  "SELECT id FROM cmp WHERE n > 5 AND flag = 1 OPTION facet_filter_mode='max' FACET flag ORDER BY flag ASC FACET n ALL FILTERS ZEROES ORDER BY n ASC FACET n ZEROES MODE strict",
  "SELECT flag, GROUP_CONCAT(n SEPARATOR ';') AS ns, GROUP_CONCAT(id ORDER BY price DESC LIMIT 1) AS top, COUNT(DISTINCT meta.k) FROM cmp GROUP BY flag ORDER BY flag ASC",
  "SELECT percentiles(price, {values='50,90'}) AS p, percentile_ranks(n, {values='20'}) AS r, median_absolute_deviation(n) AS m FROM cmp",
  "SELECT COUNT(*), RANGE(price, {range_to=10},{range_from=10}) AS r FROM cmp GROUP BY r ORDER BY r ASC",
  "SELECT id, CONCAT(TO_STRING(n), '!') AS c FROM cmp ORDER BY c DESC",
  'SELECT id, big*2 AS b2 FROM cmp ORDER BY b2 ASC',
  'SELECT 1+2, 7/2 AS half',
];

const STATEMENTS = [
  'CREATE TABLE cmp (title text, body text, price float, n uint, big bigint, flag bool, tags multi, meta json)',
  `INSERT INTO cmp (id, title, body, price, n, big, flag, tags, meta) VALUES
    (1, 'red apple', 'fresh fruit from the farm', 1.1, 10, 9007199254740993, 1, (5,3), '{"k":[1,2]}'),
    (2, 'green apple', 'sour fruit', 44.4, 20, -5, 0, (), '{}'),
    (3, 'banana', 'yellow fruit', 1099.99, 30, 0, 1, (1), NULL)`,
  'SELECT * FROM cmp ORDER BY id ASC',
  "SELECT id, weight(), title FROM cmp WHERE MATCH('apple') ORDER BY id ASC",
  'SELECT n, COUNT(*) FROM cmp GROUP BY n ORDER BY n DESC',
  'SELECT id, price FROM cmp WHERE price > 2 ORDER BY price ASC',
  'SELECT id, price*2 AS p2, n div 3, n/4, big+1, IF(n>15, \'hi\', \'lo\') AS t, meta.k[1], CONCAT(TO_STRING(n), \'!\') FROM cmp ORDER BY id ASC',
  "SELECT id, ABS(-n), CEIL(price), SQRT(n), IN(tags, 3, 4), LENGTH(tags), DATE_FORMAT(n, '%Y'), n*2 AS n2 FROM cmp WHERE n2 > 25 ORDER BY id ASC",
  'SELECT id, SQRT(1, 2) FROM cmp',
  'SELECT id, price*2 AS p2 FROM cmp ORDER BY p2 DESC',
  'SHOW META',
  'SHOW TABLES',
  'DESCRIBE cmp',
  'SHOW CREATE TABLE cmp',
  "CALL KEYWORDS('apples fruit', 'cmp')",
  'UPDATE cmp SET n = 99 WHERE id = 2',
  'DELETE FROM cmp WHERE id = 3',
  'SELECT id, n FROM cmp ORDER BY id ASC',
  'SELECT * FROM missing',
  "SELECT * FROM cmp WHERE MATCH('\"unclosed')",
  ...ANALYTICS,
  'SELEKT 1',
  "INSERT INTO cmp (id, title) VALUES (1, 'dup')",
];

describe('MySQL protocol and /sql?mode=raw agree', () => {
  it('on every statement, statement by statement', async () => {
    // Writes go to one protocol only; every statement is then compared on both (reads are repeatable).
    for (const sql of STATEMENTS) {
      const isWrite = /^(CREATE|INSERT|UPDATE|DELETE)/i.test(sql) && !/dup/.test(sql);
      const viaMysql = await overMysql(sql);
      const viaHttp = isWrite ? viaMysql : await overHttp(sql);
      expect({ sql, result: withoutTime(viaHttp) }).toEqual({ sql, result: withoutTime(viaMysql) });
      // the analytics statements are answered, not refused on both sides alike
      if (ANALYTICS.includes(sql)) expect(viaMysql, sql).not.toHaveProperty('error');
    }
  });
});

describe('many connections', () => {
  it('accepts 1000 concurrent connections, then still answers queries', async () => {
    const sockets: Socket[] = [];
    try {
      const greeted = await Promise.all(Array.from({ length: 1000 }, () => new Promise<boolean>((resolve) => {
        const s = connect(q.mysqlPort, '127.0.0.1');
        sockets.push(s);
        s.once('data', (d: Buffer) => resolve(d[4] === 10));
        s.once('error', () => resolve(false));
      })));
      expect(greeted.every(Boolean)).toBe(true);
      // half of them misbehave: garbage, or a close right away
      sockets.slice(0, 250).forEach((s) => s.write(Buffer.from('\xff\xff\xff\x00garbage')));
      sockets.slice(250, 500).forEach((s) => s.destroy());
      const [rows] = await conn.query('SELECT COUNT(*) AS c FROM cmp');
      expect(rows).toEqual([{ c: 2 }]);
    } finally {
      sockets.forEach((s) => s.destroy());
    }
  });
});
