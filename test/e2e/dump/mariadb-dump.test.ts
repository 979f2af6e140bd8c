// Logical dump with the MariaDB tools: `mariadb-dump` (and `mysqldump`, Debian's alias of it) against the
// MySQL port writes CREATE TABLE + INSERT statements; the `mariadb` client replays them into an empty
// server, which then holds the same documents: every attribute type, 64-bit ids, JSON and MVA values,
// text with quotes, backslashes and Unicode, more rows than the default LIMIT and max_matches.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../../helpers/server-process.js';

const run = promisify(execFile);
let dir = '';
const servers: ServerProcess[] = [];
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'quarry-dump-')); });
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function serve(name: string): Promise<{ s: ServerProcess; port: string }> {
  const s = await startServer(join(dir, name));
  servers.push(s);
  const port = /mysql=[\d.]+:(\d+)/.exec(s.output())![1]!;
  return { s, port };
}

/** The `mariadb` client: `sql` on stdin (as `mariadb < dump.sql`), batch output back. */
function mariadb(port: string, sql: string, args: string[] = []): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((done) => {
    const p = spawn('mariadb', ['-h127.0.0.1', `-P${port}`, '--batch', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.setEncoding('utf8'); // a character may straddle two chunks
    p.stderr.setEncoding('utf8');
    p.stdout.on('data', (c: string) => { out += c; });
    p.stderr.on('data', (c: string) => { err += c; });
    p.on('close', (code) => done({ code, out, err }));
    p.stdin.end(sql);
  });
}

async function dump(tool: string, port: string, args: string[]): Promise<string> {
  const { stdout } = await run(tool, ['-h127.0.0.1', `-P${port}`, ...args], { maxBuffer: 256 << 20 });
  return stdout;
}

/** Every row of `table`, exact (SQL_NO_CACHE: all rows, floats that read back the same). */
async function snapshot(port: string, table: string): Promise<string> {
  const r = await mariadb(port, `SELECT /*!40001 SQL_NO_CACHE */ * FROM ${table} ORDER BY id ASC`);
  expect(r.err).toBe('');
  return r.out;
}

const ROWS = 1500; // past LIMIT 20 and max_matches 1000: the dump must ask for, and get, every row

const SCHEMA = `CREATE TABLE docs (price float, title text, body text stored, n integer, small bit(3), b bigint,
  ok bool, ts timestamp, tags multi, tags64 multi64, meta json, s string, si string indexed attribute)`;

/** Values that need escaping or exactness: quotes, backslashes, newlines, Unicode, 64-bit numbers. */
function row(i: number): string {
  const id = i === 0 ? '9223372036854775807' : i === 1 ? '1' : String(1_000_000_000_000n * BigInt(i) + 7n);
  const title = i % 3 === 0 ? `it\\'s a \\"quoted\\" \\\\ back\\\\slash line\\nbreak tab\\there ${i}` : `plain ünïcødé 日本語 😀 word${i}`;
  const meta = i % 5 === 0 ? "''" : `'{"i":${i},"big":9223372036854775000,"s":"q\\\\"x\\\\\\\\y ü","a":[1,2.5,{"k":null}]}'`;
  const tags = i % 4 === 0 ? '()' : `(${i % 7}, ${i}, 4294967295)`;
  const tags64 = i % 4 === 1 ? '()' : `(-5, ${i}, 9223372036854775807)`;
  return `(${id}, ${i * 0.123456789 - 50}, '${title}', 'body ${i}', ${i * 37}, ${i % 8}, ${-9_000_000_000 * i}, ${i % 2},
    ${1_700_000_000 + i}, ${tags}, ${tags64}, ${meta}, 'str \\'${i}\\' ñ', 'kw${i % 10}')`;
}

async function loadDocs(port: string): Promise<void> {
  const values = Array.from({ length: ROWS }, (_, i) => row(i));
  const sql = [SCHEMA + ';',
    'CREATE TABLE later (n integer, title text);',
    "INSERT INTO later (id, n, title) VALUES (5, 1, 'fields after attributes');"];
  for (let i = 0; i < values.length; i += 250) {
    sql.push(`INSERT INTO docs (id, price, title, body, n, small, b, ok, ts, tags, tags64, meta, s, si) VALUES ${values.slice(i, i + 250).join(',')};`);
  }
  const r = await mariadb(port, sql.join('\n'));
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
}

describe('mariadb-dump and replay through the mariadb client', () => {
  it('gives the same documents in an empty server, every attribute type and escape included', async () => {
    const a = await serve('a');
    await loadDocs(a.port);
    const before = await snapshot(a.port, 'docs');
    expect(before.trim().split('\n')).toHaveLength(ROWS + 1);

    const text = await dump('mariadb-dump', a.port, ['manticore']);
    expect(text).toContain('CREATE TABLE `docs` (');
    expect(text).toContain('INSERT INTO `docs` VALUES');

    const b = await serve('b');
    const replay = await mariadb(b.port, text);
    expect(replay.err).toBe('');
    expect(replay.code).toBe(0);
    expect(await snapshot(b.port, 'docs')).toBe(before);
    expect(await snapshot(b.port, 'later')).toBe(await snapshot(a.port, 'later'));
    // the same schema, and the full-text index rebuilt from the replayed text
    const create = (p: string) => mariadb(p, 'SHOW CREATE TABLE docs');
    expect((await create(b.port)).out).toBe((await create(a.port)).out);
    const search = (p: string) => mariadb(p, "SELECT id, WEIGHT() FROM docs WHERE MATCH('quoted | ünïcødé') ORDER BY id ASC LIMIT 2000 OPTION max_matches=2000");
    const found = await search(b.port);
    expect(found.out.trim().split('\n')).toHaveLength(ROWS + 1);
    expect(found.out).toBe((await search(a.port)).out);
  }, 120_000);

  it('replays a data-only REPLACE dump (-t --replace -c -e, Manticore\'s reindex recipe) over a table', async () => {
    const a = await serve('a');
    await loadDocs(a.port);
    const before = await snapshot(a.port, 'docs');
    const tool = existsSync('/usr/bin/mysqldump') ? 'mysqldump' : 'mariadb-dump';
    const text = await dump(tool, a.port, ['-t', '--replace', '-c', '-e', '--skip-lock-tables', '--net-buffer-length=16384', 'manticore', 'docs']);
    expect(text).not.toContain('CREATE TABLE');
    expect(text).toMatch(/REPLACE INTO `docs` \(`id`, `title`/);
    const wipe = await mariadb(a.port, "UPDATE docs SET n = 0 WHERE id > 0; DELETE FROM docs WHERE id = 1;");
    expect(wipe.err).toBe('');
    const replay = await mariadb(a.port, text);
    expect(replay.err).toBe('');
    expect(await snapshot(a.port, 'docs')).toBe(before);
  }, 120_000);

  it('answers the dump tool\'s probes as Manticore does', async () => {
    const a = await serve('a');
    await loadDocs(a.port);
    const q = async (sql: string) => (await mariadb(a.port, sql)).out;
    expect(await q("SELECT engine, table_type FROM INFORMATION_SCHEMA.TABLES WHERE table_schema = DATABASE() AND table_name = 'docs'"))
      .toBe('ENGINE\tTABLE_TYPE\nROWWISE\tBASE TABLE\n');
    expect(await q("SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE table_schema = 'performance_schema' AND table_name = 'session_variables'"))
      .toBe('count(*)\n0\n');
    expect(await q("select column_name, data_type from information_schema.columns where table_schema=database() and table_name='later' order by ordinal_position"))
      .toBe('COLUMN_NAME\tDATA_TYPE\nid\tbigint\ntitle\ttext\nn\tuint\n');
    expect(await q("SELECT TRIGGER_NAME FROM INFORMATION_SCHEMA.TRIGGERS WHERE EVENT_OBJECT_TABLE = 'docs'")).toBe('');
    expect((await mariadb(a.port, 'SELECT * FROM INFORMATION_SCHEMA.NOPE')).err).toContain('no such table information_schema.NOPE');
    expect((await mariadb(a.port, 'LOCK TABLES nope READ')).err).toContain('Table nope absent, or not suitable for lock');
    const w = await mariadb(a.port, 'LOCK TABLES docs WRITE; SHOW WARNINGS; UNLOCK TABLES');
    expect(w.out).toContain('Write lock is not implemented.');
    expect(await q('SET SQL_QUOTE_SHOW_CREATE=1; SHOW CREATE TABLE later')).toContain('CREATE TABLE `later` (\\n`id` bigint,\\n`title` text,\\n`n` integer\\n)');
  }, 60_000);
});
