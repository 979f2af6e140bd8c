import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newSession, openEngine, type Engine, type Result } from '../../../../src/engine/index.js';

let dir: string;
let engine: Engine;
const session = newSession();
const sql = async (text: string): Promise<Result> => (await engine.execute(text, session))[0]!;
const data = async (text: string) => {
  const r = await sql(text);
  if (r.kind !== 'rows') throw new Error(`${text}: ${JSON.stringify(r)}`);
  return { columns: r.columns.map((c) => c.name), rows: r.rows.map((row) => row.map((v) => (typeof v === 'bigint' ? Number(v) : v))) };
};

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quarry-admin-'));
  engine = await openEngine({ dataDir: dir });
  await sql('CREATE TABLE t (title text, n uint)');
  await sql("INSERT INTO t (id, title, n) VALUES (1, 'red apple', 5), (2, 'green pear', 6)");
});
afterEach(async () => {
  await engine.close();
  await rm(dir, { recursive: true, force: true });
});

describe('ALTER TABLE', () => {
  it('adds an attribute with its default on existing rows, usable at once and after a restart', async () => {
    expect(await sql('ALTER TABLE t ADD COLUMN price float')).toEqual({ kind: 'ok', affected: 0 });
    expect(await data('SELECT id, n, price FROM t ORDER BY id ASC')).toEqual({ columns: ['id', 'n', 'price'], rows: [[1, 5, 0], [2, 6, 0]] });
    await sql("INSERT INTO t (id, title, n, price) VALUES (3, 'apple pie', 7, 2.5)");
    await sql('UPDATE t SET price = 1.25 WHERE id = 1');
    await engine.close();
    engine = await openEngine({ dataDir: dir });
    expect(await data("SELECT id, price FROM t WHERE MATCH('apple') ORDER BY id ASC")).toEqual({ columns: ['id', 'price'], rows: [[1, 1.25], [3, 2.5]] });
    expect((await data('DESCRIBE t')).rows.map((r) => r[0])).toEqual(['id', 'title', 'n', 'price']);
  });

  it('adds a full-text field, searchable for new documents', async () => {
    await sql('ALTER TABLE t ADD COLUMN body text');
    await sql("INSERT INTO t (id, title, body) VALUES (4, 'x', 'hidden words')");
    expect(await data("SELECT id FROM t WHERE MATCH('@body hidden')")).toEqual({ columns: ['id'], rows: [[4]] });
  });

  it('drops a column from the schema, the documents and the index', async () => {
    await sql('ALTER TABLE t DROP COLUMN n');
    expect((await data('DESCRIBE t')).rows.map((r) => r[0])).toEqual(['id', 'title']);
    expect(await sql('SELECT n FROM t')).toMatchObject({ kind: 'error' });
    expect(await data("SELECT * FROM t WHERE MATCH('pear')")).toEqual({ columns: ['id', 'title'], rows: [[2, 'green pear']] });
    await engine.close();
    engine = await openEngine({ dataDir: dir });
    expect(await data('SELECT * FROM t ORDER BY id ASC')).toEqual({ columns: ['id', 'title'], rows: [[1, 'red apple'], [2, 'green pear']] });
  });

  it('refuses what Manticore refuses, with its messages', async () => {
    expect(await sql('ALTER TABLE t ADD COLUMN n uint')).toEqual({ kind: 'error', code: 'QUERY_ERROR', message: "table t: 'n' attribute already in schema" });
    expect(await sql('ALTER TABLE t DROP COLUMN nope')).toEqual({ kind: 'error', code: 'QUERY_ERROR', message: "table t: attribute 'nope' does not exist" });
    expect(await sql('ALTER TABLE nosuch ADD COLUMN x uint')).toMatchObject({ kind: 'error', message: 'table nosuch: unknown local table in ALTER request' });
    // settings: searchd's HandleMysqlAlterIndexSettings; with local/agent Buddy's ALTER of a distributed
    // table answers (CLT core/test-alter-table-distributed.rec)
    expect(await sql("ALTER TABLE nosuch min_infix_len='2'")).toMatchObject({ kind: 'error', message: "table 'nosuch' is not found, or not real-time" });
    expect(await sql("ALTER TABLE Nosuch local='t' local='t2'")).toMatchObject({ kind: 'error', message: "Table nosuch doesn't exist" });
  });

  it('changes text settings for documents written afterwards', async () => {
    expect(await sql("ALTER TABLE t morphology='stem_en'")).toEqual({ kind: 'ok', affected: 0 });
    await sql("INSERT INTO t (id, title) VALUES (5, 'running dogs')");
    expect(await data("SELECT id FROM t WHERE MATCH('dog')")).toEqual({ columns: ['id'], rows: [[5]] });
    expect((await data('SHOW CREATE TABLE t')).rows[0]![1]).toContain("morphology='stem_en'");
  });
});

describe('OPTIMIZE and FLUSH', () => {
  it('merges segments without changing results', async () => {
    for (let i = 10; i < 15; i++) await sql(`INSERT INTO t (id, title, n) VALUES (${i}, 'apple ${i}', ${i})`);
    await sql('DELETE FROM t WHERE id = 12');
    const before = await data("SELECT id FROM t WHERE MATCH('apple') ORDER BY id ASC");
    expect(await sql('OPTIMIZE TABLE t')).toEqual({ kind: 'ok', affected: 0 });
    expect(await data("SELECT id FROM t WHERE MATCH('apple') ORDER BY id ASC")).toEqual(before);
    expect(await sql('OPTIMIZE TABLE nosuch')).toMatchObject({ kind: 'error', message: 'OPTIMIZE TABLE requires an existing RT, distributed, or shard table' });
  });

  it('accepts FLUSH RAMCHUNK for an existing table only', async () => {
    expect(await sql('FLUSH RAMCHUNK t')).toEqual({ kind: 'ok', affected: 0 });
    expect(await sql('FLUSH RAMCHUNK nosuch')).toMatchObject({ kind: 'error', message: 'FLUSH RAMCHUNK requires an existing RT table' });
  });
});
