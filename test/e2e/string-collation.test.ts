// String collation over the real server: SET collation_connection changes one MySQL session only (searchd's
// per-session collation, client_task_info.h), the config's collation_server is every query's default, JSON
// /search takes the server's collation.
import mysql from 'mysql2/promise';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnQuarry, type SpawnedQuarry } from '../helpers/spawn-quarry.js';
import { ROOT } from './mysql-server.js';

const ROWS = `INSERT INTO tbl (id, title, s) VALUES (1, 'a', 'apple'), (2, 'a', 'Banana'), (3, 'a', 'APPLE'), (4, 'a', '_under')`;
const started: { q: SpawnedQuarry; dir: string }[] = [];

/** A server (with `collation_server` in its config when given), table tbl loaded; a MySQL connection to it. */
async function serve(collationServer?: string): Promise<{ q: SpawnedQuarry; conn: () => Promise<mysql.Connection> }> {
  const dir = await mkdtemp(join(tmpdir(), 'quarry-e2e-collation-'));
  const args = ['--data', join(dir, 'data')];
  if (collationServer) {
    await writeFile(join(dir, 'quarry.conf'), `searchd {\n  collation_server = ${collationServer}\n}\n`);
    args.push('--config', join(dir, 'quarry.conf'));
  }
  const q = await spawnQuarry(ROOT, args);
  started.push({ q, dir });
  const conn = () => mysql.createConnection({ host: '127.0.0.1', port: q.mysql, user: 'root' });
  const c = await conn();
  await c.query('CREATE TABLE tbl (title TEXT, s STRING)');
  await c.query(ROWS);
  await c.end();
  return { q, conn };
}

const ids = async (c: mysql.Connection, sql: string) => ((await c.query({ sql, rowsAsArray: true }))[0] as unknown[][]).map((r) => Number(r[0]));
const search = async (q: SpawnedQuarry, body: object) => {
  const res = await fetch(`http://127.0.0.1:${q.http}/search`, { method: 'POST', body: JSON.stringify(body) });
  return ((await res.json()) as { hits: { hits: { _id: number }[] } }).hits.hits.map((h) => Number(h._id));
};

afterAll(async () => {
  for (const { q, dir } of started) {
    if (q.proc.exitCode === null) q.proc.kill('SIGTERM');
    await q.exited;
    await rm(dir, { recursive: true, force: true });
  }
});

describe('collation over MySQL sessions and HTTP', () => {
  let server: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => { server = await serve(); }, 60_000);

  it('SET collation_connection changes its own session only', async () => {
    const a = await server.conn(), b = await server.conn();
    try {
      await a.query('SET collation_connection = binary');
      expect(await ids(a, "SELECT id FROM tbl WHERE s = 'apple'")).toEqual([1]);
      expect(await ids(a, 'SELECT id FROM tbl ORDER BY s ASC')).toEqual([3, 2, 4, 1]);
      expect(await ids(b, "SELECT id FROM tbl WHERE s = 'apple'")).toEqual([1, 3]);
      expect(await ids(b, 'SELECT id FROM tbl ORDER BY s ASC')).toEqual([4, 1, 3, 2]);
      const [vars] = await a.query({ sql: "SHOW VARIABLES LIKE 'collation_connection'", rowsAsArray: true });
      expect(vars).toEqual([['collation_connection', 'binary']]);
      // HTTP JSON queries use the server's collation, whatever a MySQL session set
      expect(await search(server.q, { table: 'tbl', query: { equals: { s: 'APPLE' } } })).toEqual([1, 3]);
    } finally {
      await a.end();
      await b.end();
    }
  });
});

describe('collation_server in the config', () => {
  it('binary: byte order and exact matches over MySQL and JSON', async () => {
    const server = await serve('binary');
    const c = await server.conn();
    try {
      expect(await ids(c, "SELECT id FROM tbl WHERE s = 'apple'")).toEqual([1]);
      expect(await ids(c, 'SELECT id FROM tbl ORDER BY s ASC')).toEqual([3, 2, 4, 1]);
      const [groups] = await c.query({ sql: 'SELECT s, COUNT(*) FROM tbl GROUP BY s', rowsAsArray: true });
      expect((groups as unknown[]).length).toBe(4);
      expect(await search(server.q, { table: 'tbl', sort: [{ s: 'asc' }] })).toEqual([3, 2, 4, 1]);
      // string comparisons inside sort expressions too (libc_ci would give 1, 3, 2, 4), over MySQL and JSON
      expect(await ids(c, "SELECT id FROM tbl ORDER BY IF(s = 'APPLE', 0, 1) ASC, id ASC")).toEqual([3, 1, 2, 4]);
      expect(await ids(c, "SELECT id, s IN ('APPLE') AS k FROM tbl ORDER BY k DESC, id ASC")).toEqual([3, 1, 2, 4]);
      expect(await search(server.q, { table: 'tbl', expressions: { k: "IF(s = 'APPLE', 0, 1)" }, sort: [{ k: 'asc' }, { id: 'asc' }] })).toEqual([3, 1, 2, 4]);
      // a session still chooses its own
      await c.query("SET collation_connection = 'libc_ci'");
      expect(await ids(c, "SELECT id FROM tbl WHERE s = 'apple'")).toEqual([1, 3]);
    } finally {
      await c.end();
    }
  }, 60_000);
});
