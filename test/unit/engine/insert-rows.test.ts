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
