// ALTER TABLE t RENAME new (Manticore: Buddy's AlterRenameTable plugin): the new name serves the same
// documents, schema and settings, the old name is gone, and both survive a restart, including one after
// a crash that left the segment folder under the old name.
import { existsSync, readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newSession, openEngine } from '../../../../src/engine/index.js';
import { Catalog } from '../../../../src/engine/catalog.js';
import { Store } from '../../../../src/store/index.js';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('alter-rename', async (t) => {
  for (const sql of ["CREATE TABLE t1 (title text, n int) morphology='stem_en'", "INSERT INTO t1 VALUES (1, 'runners here', 1), (2, 'other', 2)",
    'CREATE TABLE taken (title text)']) {
    expect((await t.exec(sql))[0]?.kind).toBe('ok');
  }
});

async function run(dataDir: string, sqls: string[]): Promise<unknown[]> {
  const engine = await openEngine({ dataDir });
  const s = newSession();
  const out: unknown[] = [];
  try {
    for (const sql of sqls) {
      const [r] = await engine.execute(sql, s);
      out.push(r?.kind === 'rows' ? r.rows : r);
    }
  } finally {
    await engine.close();
  }
  return out;
}

describe('ALTER TABLE ... RENAME', () => {
  it('serves the same documents under the new name; the old name is gone', async () => {
    expect(await t.exec('ALTER TABLE t1 RENAME t1new')).toEqual([{ kind: 'ok', affected: 0 }]);
    expect(await t.rows("SELECT id, n FROM t1new WHERE MATCH('runner')")).toEqual([[1n, 1]]); // settings came along
    expect(await t.rows('SHOW TABLES')).toEqual([['t1new', 'rt'], ['taken', 'rt']]);
    expect((await t.exec('SELECT * FROM t1'))[0]).toMatchObject({ kind: 'error' });
    await t.exec("INSERT INTO t1new (id, title, n) VALUES (3, 'after', 3)");
    expect(await t.rows('SELECT COUNT(*) FROM t1new')).toEqual([[3n]]);
    expect((await t.exec("CREATE TABLE t1 (title text)"))[0]?.kind).toBe('ok'); // the old name is free again
  });

  it('names what is wrong, as the Buddy plugin does', async () => {
    const err = async (sql: string) => (await t.exec(sql))[0];
    expect(await err('ALTER TABLE nope RENAME x')).toMatchObject({ kind: 'error', message: 'Source table nope not exists' });
    expect(await err('ALTER TABLE t1 RENAME taken')).toMatchObject({ kind: 'error', message: 'Destination table taken already exists' });
    expect(await err('ALTER TABLE t1 RENAME')).toMatchObject({ kind: 'error' });
    expect(await err('ALTER TABLE t1 RENAME `bad name`')).toMatchObject({ kind: 'error' });
    expect(await t.rows('SELECT COUNT(*) FROM t1')).toEqual([[2n]]);
    expect(await t.rows('SHOW TABLES')).toEqual([['t1', 'rt'], ['taken', 'rt']]);
  });

  it('keeps the rename across a restart, with and without a checkpoint', async () => {
    for (const checkpointFirst of [false, true]) {
      const dir = join(t.dir, `data-${checkpointFirst}`);
      await run(dir, ['CREATE TABLE a (title text)', "INSERT INTO a VALUES (1, 'one'), (2, 'two')",
        ...(checkpointFirst ? ['FLUSH RAMCHUNK a'] : []), 'ALTER TABLE a RENAME b', "INSERT INTO b VALUES (3, 'three')"]);
      const [rows, tables] = await run(dir, ['SELECT id, title FROM b ORDER BY id ASC', 'SHOW TABLES']);
      expect(rows).toEqual([[1n, 'one'], [2n, 'two'], [3n, 'three']]);
      expect(tables).toEqual([['b', 'rt']]);
    }
  });

  it('recovers a crash between the catalog commit and the folder rename, checkpoint kept', async () => {
    const dir = join(t.dir, 'data-crash');
    await run(dir, ['CREATE TABLE a (title text)', "INSERT INTO a VALUES (1, 'one'), (2, 'two')", 'FLUSH RAMCHUNK a', 'ALTER TABLE a RENAME b']);
    const tables = join(dir, 'tables');
    const folder = readdirSync(tables).find((n) => n.startsWith('b.'));
    expect(folder).toBeDefined();
    // the state a crash right after the commit leaves: the folder still under the old name
    const gen = folder!.slice(2);
    renameSync(join(tables, folder!), join(tables, `a.${gen}`));
    // opened bare (no checkpointer to write a fresh one): the index loads from the moved-back folder
    const store = Store.open(dir);
    try {
      const catalog = Catalog.open(store);
      expect(existsSync(join(tables, `b.${gen}`))).toBe(true);
      expect(existsSync(join(tables, `a.${gen}`))).toBe(false);
      expect(catalog.covered.get('b')).toBeGreaterThan(0n);
      expect(catalog.names()).toEqual(['b']);
    } finally {
      await store.close();
    }
    const [rows] = await run(dir, ["SELECT id FROM b WHERE MATCH('two')"]);
    expect(rows).toEqual([[2n]]);
  });
});
