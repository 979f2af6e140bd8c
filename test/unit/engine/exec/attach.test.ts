// ATTACH TABLE source TO TABLE target WITH TRUNCATE: the target takes the source's documents and schema
// in one step and keeps them across a restart, checkpointed or not; errors name what is wrong.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newSession, openEngine } from '../../../../src/engine/index.js';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('attach', async (t) => {
  for (const sql of ['CREATE TABLE live (title text, n int)', "INSERT INTO live VALUES (1, 'old one', 1), (2, 'old two', 2)",
    "CREATE TABLE fresh (title text, price float) morphology='stem_en'", "INSERT INTO fresh VALUES (5, 'new runners', 2.5)"]) {
    expect((await t.exec(sql))[0]?.kind).toBe('ok');
  }
});

describe('ATTACH ... WITH TRUNCATE', () => {
  it('replaces the target with the source, which is gone', async () => {
    // the warning names the tid the target had when replaced (what indexer --rotate compares)
    expect(await t.exec('ATTACH TABLE fresh TO TABLE live WITH TRUNCATE')).toEqual([{ kind: 'ok', affected: 0, warning: "table 'live' replaced at tid 2" }]);
    expect(await t.rows('SELECT id, title, price FROM live')).toEqual([[5n, 'new runners', 2.5]]);
    expect(await t.rows("SELECT id FROM live WHERE MATCH('runner')")).toEqual([[5n]]); // the source's morphology came along
    expect(await t.rows('SHOW TABLES')).toEqual([['live', 'rt']]);
    await t.exec("INSERT INTO live (id, title, price) VALUES (6, 'after', 1)");
    expect(await t.rows('SELECT COUNT(*) FROM live')).toEqual([[2n]]);
  });

  it('keeps the swap across a restart, with and without a checkpoint of the source', async () => {
    for (const checkpointFirst of [false, true]) {
      const engine = await openEngine({ dataDir: join(t.dir, `data-${checkpointFirst}`) });
      const s = newSession();
      for (const sql of ['CREATE TABLE a (title text)', "INSERT INTO a VALUES (1, 'old')", 'CREATE TABLE b (title text)', "INSERT INTO b VALUES (7, 'new'), (8, 'newer')"]) {
        expect((await engine.execute(sql, s))[0]?.kind).toBe('ok');
      }
      if (checkpointFirst) await engine.execute('FLUSH RAMCHUNK b', s);
      await engine.execute('ATTACH TABLE b TO TABLE a WITH TRUNCATE', s);
      await engine.close();
      const again = await openEngine({ dataDir: join(t.dir, `data-${checkpointFirst}`) });
      const [res] = await again.execute('SELECT id, title FROM a ORDER BY id ASC', newSession());
      const [tables] = await again.execute('SHOW TABLES', newSession());
      await again.close();
      expect(res?.kind === 'rows' && res.rows).toEqual([[7n, 'new'], [8n, 'newer']]);
      expect(tables?.kind === 'rows' && tables.rows).toEqual([['a', 'rt']]);
    }
  });

  it('names what is wrong', async () => {
    const err = async (sql: string) => (await t.exec(sql))[0];
    expect(await err('ATTACH TABLE fresh TO TABLE live')).toMatchObject({ kind: 'error', message: 'ATTACH without WITH TRUNCATE is not supported (only replacing the target)' });
    expect(await err('ATTACH TABLE nope TO TABLE live WITH TRUNCATE')).toMatchObject({ kind: 'error', message: "ATTACH: unknown source table 'nope'" });
    expect(await err('ATTACH TABLE fresh TO TABLE nope WITH TRUNCATE')).toMatchObject({ kind: 'error', message: "ATTACH: unknown target table 'nope'" });
    expect(await err('ATTACH TABLE live TO TABLE live WITH TRUNCATE')).toMatchObject({ kind: 'error', message: 'ATTACH: source and target are the same table' });
    expect(await err('ATTACH live TO TABLE x')).toMatchObject({ kind: 'error' });
    expect(await t.rows('SELECT COUNT(*) FROM live')).toEqual([[2n]]);
  });
});
