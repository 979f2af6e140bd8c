// The INSERT rows every SQL write path shares (src/engine/insert-rows.ts): ids taken from the row.
import { describe, expect, it } from 'vitest';
import { idOf } from '../../../src/engine/insert-rows.js';
import { useTempEngine } from '../../helpers/temp-engine.js';

const t = useTempEngine('insert-rows', async (t) => { await t.exec('create table t (title text, n uint)'); });

describe('idOf', () => {
  it('takes an integer or a numeric string; 0, NULL and absent mean a generated id', () => {
    expect(idOf({ t: 'int', v: 7n })).toBe(7n);
    expect(idOf({ t: 'string', v: ' 12 ' })).toBe(12n);
    expect(idOf({ t: 'int', v: 0n })).toBeUndefined();
    expect(idOf({ t: 'null' })).toBeUndefined();
    expect(idOf(undefined)).toBeUndefined();
    expect(() => idOf({ t: 'string', v: 'abc' })).toThrow('id must be an integer');
  });

  it('refuses a negative id with Manticore\'s text, given as a number or as a string', () => {
    expect(() => idOf({ t: 'int', v: -1n })).toThrow('Negative document ids are not allowed');
    expect(() => idOf({ t: 'string', v: '-5' })).toThrow('Negative document ids are not allowed');
  });

  it('refuses an id past 2^63-1 with the store\'s text, given as a number or as a string', () => {
    expect(idOf({ t: 'int', v: 9223372036854775807n })).toBe(9223372036854775807n);
    expect(() => idOf({ t: 'int', v: 9223372036854775808n })).toThrow('document id out of range: 9223372036854775808');
    expect(() => idOf({ t: 'string', v: '18446744073709551615' })).toThrow('document id out of range: 18446744073709551615');
  });
});

describe('INSERT and REPLACE with a negative id', () => {
  it('fail before anything of the statement is stored, in or out of a transaction', async () => {
    for (const sql of [
      "insert into t (id, title) values (1, 'a'), (-1, 'b')",
      "replace into t (id, title) values (-2, 'c')",
      "insert into t values (-3, 'd', 4)",
    ]) {
      const [r] = await t.exec(sql);
      expect(r).toMatchObject({ kind: 'error', message: 'Negative document ids are not allowed' });
    }
    await t.exec('begin');
    const [tx] = await t.exec("insert into t (id, title) values (-4, 'e')");
    expect(tx).toMatchObject({ kind: 'error', message: 'Negative document ids are not allowed' });
    await t.exec('commit');
    expect(await t.rows('select id from t')).toEqual([]);
  });
});

describe('column lists of INSERTs one after another', () => {
  // rowInputs keeps a table's last column list: a changed list, case or schema must not be read with the old one
  it('reads each statement by its own list, and by the schema after an ALTER', async () => {
    await t.exec("insert into t (id, title, n) values (10, 'ten', 1)");
    await t.exec("insert into t (n, id, title) values (2, 11, 'eleven')");
    await t.exec("insert into t (ID, Title, N) values (12, 'twelve', 3)");
    const [bad] = await t.exec("insert into t (id, title, nope) values (13, 'x', 4)");
    expect(bad).toMatchObject({ kind: 'error', message: "unknown column: 'nope'" });
    await t.exec("insert into t values (14, 'fourteen', 5)");
    await t.exec('alter table t add column m uint');
    await t.exec("insert into t values (15, 'fifteen', 6, 7)");
    const [short] = await t.exec("insert into t values (16, 'sixteen', 8)");
    expect(short).toMatchObject({ kind: 'error', message: 'column count does not match value count (expected 4, got 3)' });
    await t.exec("insert into t (id, title, n, m) values (17, 'seventeen', 9, 10)");
    expect(await t.rows('select id, n, m from t where id >= 10 order by id asc')).toEqual([
      [10n, 1, 0], [11n, 2, 0], [12n, 3, 0], [14n, 5, 0], [15n, 6, 7], [17n, 9, 10],
    ]);
  });
});
