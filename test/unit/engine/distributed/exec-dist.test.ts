// The distributed-table statements through the engine: kept across a restart, names shared with RT
// tables, DESCRIBE / SHOW CREATE / DROP, writes refused, and a query over local tables alone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'lossless-json';
import { newSession, openEngine, type Engine, type JsonValue, type Result } from '../../../../src/engine/index.js';
import { searchJsonText } from '../../../../src/http/render-search.js';

let dir: string;
let engine: Engine;
const session = newSession();

async function sql(text: string): Promise<Result> {
  const out = await engine.execute(text, session);
  return out[out.length - 1]!;
}
const rows = async (text: string) => { const r = await sql(text); if (r.kind !== 'rows') throw new Error(JSON.stringify(r)); return r.rows; };
const error = async (text: string) => { const r = await sql(text); return r.kind === 'error' ? r.message : undefined; };

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-dist-'));
  engine = await openEngine({ dataDir: dir, threads: 1 });
  await sql('CREATE TABLE t1 (title text, gid uint)');
  await sql('CREATE TABLE t2 (title text, gid uint)');
  await sql("INSERT INTO t1 (id, title, gid) VALUES (1, 'red apple', 1), (3, 'green apple', 2)");
  await sql("INSERT INTO t2 (id, title, gid) VALUES (2, 'red pear', 1), (4, 'apple pie', 1)");
});
afterEach(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('distributed tables in the engine', () => {
  it('survive a restart and share the catalog namespace', async () => {
    expect(await sql("CREATE TABLE d type='distributed' local='t1' local='t2' agent='127.0.0.1:9999:r'")).toMatchObject({ kind: 'ok' });
    expect(await error("CREATE TABLE d type='distributed' local='t1'")).toBe("table 'd': CREATE TABLE failed: table 'd' already exists");
    expect(await error('CREATE TABLE d (title text)')).toBe("table 'd': CREATE TABLE failed: table 'd' already exists");
    expect(await error("CREATE TABLE t1 type='distributed' local='t2'")).toBe("table 't1': CREATE TABLE failed: table 't1' already exists");
    expect(await error("CREATE TABLE `a b` type='distributed' local='t2'")).toMatch(/table name 'a b' is not valid/);
    await engine.close();
    engine = await openEngine({ dataDir: dir, threads: 1 });
    expect(await rows('SHOW TABLES')).toEqual([['d', 'distributed'], ['t1', 'rt'], ['t2', 'rt']]);
    expect(await rows('DESCRIBE d')).toEqual([['t1', 'local'], ['t2', 'local'], ['127.0.0.1:9999:r', 'remote_1']]);
    expect(await sql('DROP TABLE d')).toMatchObject({ kind: 'ok' });
    expect(await rows('SHOW TABLES')).toEqual([['t1', 'rt'], ['t2', 'rt']]);
  });

  // Manticore's ALTER of a distributed table (its Buddy sidecar; CLT core/test-alter-table-distributed):
  // the options replace the definition. Before: 'unknown local table in ALTER request'.
  it('ALTER TABLE d local=... agent=... replaces its definition; other ALTERs are refused', async () => {
    await sql("CREATE TABLE d type='distributed' local='t1' local='t2'");
    expect(await sql("ALTER TABLE d local='t2'")).toMatchObject({ kind: 'ok' });
    expect(await rows('DESCRIBE d')).toEqual([['t2', 'local']]);
    expect(await rows('SELECT id FROM d ORDER BY id ASC')).toEqual([[2n], [4n]]);
    expect(await sql("ALTER TABLE d agent='127.0.0.1:9999:r' local='t1'")).toMatchObject({ kind: 'ok' });
    expect(await rows('DESCRIBE d')).toEqual([['t1', 'local'], ['127.0.0.1:9999:r', 'remote_1']]);
    expect(await error("ALTER TABLE d local='nosuch'")).toMatch(/nosuch/);
    expect(await rows('DESCRIBE d')).toEqual([['t1', 'local'], ['127.0.0.1:9999:r', 'remote_1']]);
    expect(await error('ALTER TABLE d ADD COLUMN x int')).toBe('ALTER is only supported for local (not distributed) tables');
    expect(await error('ALTER TABLE d REBUILD SECONDARY')).toBe('ALTER is only supported for local (not distributed) tables');
    // RENAME is Buddy's and takes RT tables only (CLT core/test-alter-rename.rec)
    expect(await error('ALTER TABLE d RENAME d2')).toBe('Table d should be RT');
    await engine.close();
    engine = await openEngine({ dataDir: dir, threads: 1 });
    expect(await rows('SHOW CREATE TABLE d')).toEqual([['d', "CREATE TABLE d type='distributed' local='t1' agent='127.0.0.1:9999:r'"]]);
  });

  it('answers over its local tables as one table, forwards UPDATE and DELETE, and refuses INSERT', async () => {
    await sql("CREATE TABLE d type='distributed' local='t1, t2'");
    expect(await rows("SELECT id, gid FROM d WHERE MATCH('apple') ORDER BY id ASC")).toEqual([[1n, 1], [3n, 2], [4n, 1]]);
    expect(await rows('SELECT gid, COUNT(*) c FROM d GROUP BY gid ORDER BY gid ASC')).toEqual([[1, 3n], [2, 1n]]);
    expect(await rows("SELECT id, HIGHLIGHT() FROM d WHERE MATCH('red') ORDER BY id DESC")).toEqual([[2n, '<b>red</b> pear'], [1n, '<b>red</b> apple']]);
    // ORDER BY a select alias (the shard renames every item, so the alias must name the item's column)
    const one = "SELECT id, WEIGHT() AS w, gid * 10 AS g FROM t1 WHERE MATCH('apple | red') ORDER BY w ASC, id ASC";
    const byAlias = await rows("SELECT id, WEIGHT() AS w, gid * 10 AS g FROM d WHERE MATCH('apple | red') ORDER BY w ASC, id ASC");
    expect(byAlias.map((r) => r[0])).toEqual([...(await rows(one.replace('t1', 't2'))), ...(await rows(one))].sort((a, b) => Number(a[1]) - Number(b[1]) || Number(a[0]) - Number(b[0])).map((r) => r[0]));
    expect((await rows("SELECT id, gid * 10 AS g FROM d ORDER BY g DESC, id ASC")).map((r) => r[0])).toEqual([3n, 1n, 2n, 4n]);
    expect(await error("INSERT INTO d (id, title) VALUES (9, 'x')")).toBe("table 'd' does not support INSERT");
    expect(await error("REPLACE INTO d (id, title) VALUES (9, 'x')")).toBe("table 'd' does not support INSERT");
    expect(await sql('UPDATE d SET gid = 7 WHERE id IN (1, 2, 9)')).toMatchObject({ kind: 'ok', affected: 2 });
    expect(await rows('SELECT id FROM d WHERE gid = 7 ORDER BY id ASC')).toEqual([[1n], [2n]]);
    expect(await sql('DELETE FROM d WHERE gid = 7')).toMatchObject({ kind: 'ok', affected: 2 });
    expect(await rows('SELECT id FROM d ORDER BY id ASC')).toEqual([[3n], [4n]]);
    expect(await rows('SHOW CREATE TABLE d')).toEqual([['d', "CREATE TABLE d type='distributed' local='t1' local='t2'"]]);
  });

  it('/search with aggs gives the exact total, as over one table (not the full scan\'s early-stop bound)', async () => {
    await sql("CREATE TABLE d type='distributed' local='t1, t2'");
    const search = async (body: unknown) => JSON.parse(searchJsonText(await engine.json!.search(parse(JSON.stringify(body)) as JsonValue, newSession())));
    const aggs = { g: { terms: { field: 'gid', size: 10 } } };
    for (const size of [0, 1]) {
      const r = await search({ table: 'd', size, aggs });
      expect(r.hits.total).toBe(4);
      expect(r.hits.total_relation).toBe('eq');
      expect(r.aggregations.g.buckets).toEqual([{ key: 1, doc_count: 3 }, { key: 2, doc_count: 1 }]);
    }
    // without aggs the full scan stops early and says so, as a local table's
    expect((await search({ table: 'd', size: 1 })).hits.total_relation).toBe('gte');
  });

  it('/search with aggs counts the total under the same filters and MATCH as its hits and buckets', async () => {
    await sql("CREATE TABLE d type='distributed' local='t1, t2'");
    const search = async (body: unknown) => JSON.parse(searchJsonText(await engine.json!.search(parse(JSON.stringify(body)) as JsonValue, newSession())));
    const aggs = { g: { terms: { field: 'gid', size: 10 } } };
    for (const [query, total] of [[{ equals: { gid: 1 } }, 3], [{ match: { title: 'apple' } }, 3], [{ bool: { must: [{ match: { title: 'apple' } }, { equals: { gid: 1 } }] } }, 2]] as const) {
      const r = await search({ table: 'd', size: 0, query, aggs });
      const local = await Promise.all(['t1', 't2'].map((table) => search({ table, size: 10, query })));
      expect(r.hits.total, JSON.stringify(query)).toBe(total);
      expect(local.reduce((n, l) => n + l.hits.hits.length, 0), JSON.stringify(query)).toBe(total);
      expect(r.aggregations.g.buckets.reduce((n: number, b: { doc_count: number }) => n + b.doc_count, 0)).toBe(total);
    }
  });
});
