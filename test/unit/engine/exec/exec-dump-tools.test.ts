import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('dump-tools', async (e) => {
  await e.exec('CREATE TABLE a (title text, n integer, tags multi, f float)');
  await e.exec("INSERT INTO a (id, title, n, tags, f) VALUES (1, 'x', 2, '(3, 1)', 0.1)");
  await e.exec('CREATE TABLE b (title text)');
});

describe('INFORMATION_SCHEMA answers', () => {
  it('lists the catalog\'s tables and columns, and nothing outside the Manticore schema', async () => {
    expect(await t.rows("SELECT table_name, engine, table_rows FROM information_schema.tables WHERE table_schema = DATABASE() ORDER BY table_name"))
      .toEqual([['a', 'ROWWISE', 1n], ['b', 'ROWWISE', 0n]]);
    expect(await t.rows("SELECT table_name FROM information_schema.tables WHERE table_schema = 'mysql'")).toEqual([]);
    expect(await t.rows("SELECT COUNT(*) FROM information_schema.tables WHERE table_name IN ('a', 'zz')")).toEqual([[1n]]);
    expect(await t.rows("SELECT column_name, data_type, ordinal_position FROM information_schema.columns WHERE table_name = 'a'"))
      .toEqual([['id', 'bigint', 1n], ['title', 'text', 2n], ['n', 'uint', 3n], ['tags', 'mva', 4n], ['f', 'float', 5n]]);
    expect(await t.rows('SELECT TABLESPACE_NAME FROM INFORMATION_SCHEMA.FILES')).toEqual([]);
  });

  it('fails on a table it does not model', async () => {
    const [r] = await t.exec('SELECT * FROM information_schema.innodb_trx');
    expect(r).toMatchObject({ kind: 'error', message: 'no such table information_schema.INNODB_TRX' });
  });
});

describe('the rest of what mysqldump sends', () => {
  it('gives every row to SQL_NO_CACHE and takes MVA values back as text', async () => {
    const values = Array.from({ length: 1200 }, (_, i) => `(${i + 10}, 'd', '${i},${i + 1}')`).join(',');
    await t.exec(`INSERT INTO a (id, title, tags) VALUES ${values}`);
    expect(await t.rows('SELECT /*!40001 SQL_NO_CACHE */ id FROM a')).toHaveLength(1201);
    expect(await t.rows('SELECT id FROM a')).toHaveLength(20);
    expect(await t.rows('SELECT tags FROM a WHERE id IN (1, 15)')).toEqual([[[1n, 3n]], [[5n, 6n]]]);
    const [bad] = await t.exec("INSERT INTO a (id, tags) VALUES (5, '1,x')");
    expect(bad).toMatchObject({ kind: 'error', message: expect.stringContaining('non-MVA value') });
  });

  it('rolls a transaction back to a savepoint', async () => {
    const steps = ['BEGIN', "INSERT INTO b (id, title) VALUES (3, 'kept')", 'SAVEPOINT sp', "INSERT INTO b (id, title) VALUES (4, 'dropped')",
      'ROLLBACK TO SAVEPOINT sp', 'RELEASE SAVEPOINT sp', 'COMMIT'];
    for (const q of steps) expect((await t.exec(q))[0]).toMatchObject({ kind: 'ok' });
    expect(await t.rows('SELECT id FROM b ORDER BY id ASC')).toEqual([[3n]]);
    await t.exec('BEGIN');
    expect((await t.exec('ROLLBACK TO nope'))[0]).toMatchObject({ kind: 'error', message: 'SAVEPOINT nope does not exist' });
  });
});
