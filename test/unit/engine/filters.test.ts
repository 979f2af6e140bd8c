// JSON attribute filters compare integers as searchd's int64 does (sphinxjson.l reads them with strtoll),
// not as doubles: found by a user pass, `j.m = 9007199254740992` matched a stored 9007199254740993.
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../helpers/temp-engine.js';

const t = useTempEngine('quarry-filters-', async (t) => {
  await t.exec('CREATE TABLE j (title text, j json)');
  await t.exec(`INSERT INTO j (id, title, j) VALUES (1, 'a', '{"k":18446744073709551615,"m":9007199254740993,"a":[9007199254740993]}'),
    (2, 'b', '{"k":5,"m":1.5,"s":"1234567890123456789"}')`);
});

describe('JSON integer filters', () => {
  it('compare integers past 2^53 exactly, not as doubles', async () => {
    // past 2^63-1 after `=` the literal itself is refused, as searchd does (its test_303), whatever the column
    const out = await t.exec('SELECT id FROM j WHERE j.k = 18446744073709551617');
    expect(out[out.length - 1]).toMatchObject({ kind: 'error', message: expect.stringContaining('out of range') });
    expect(await t.rows('SELECT id FROM j WHERE j.m = 9007199254740992')).toEqual([]);
    expect(await t.rows('SELECT id FROM j WHERE j.m = 9007199254740993')).toEqual([[1n]]);
    expect(await t.rows('SELECT id FROM j WHERE j.m > 9007199254740992')).toEqual([[1n]]);
    expect(await t.rows('SELECT id FROM j WHERE j.a[0] IN (9007199254740992)')).toEqual([]);
  });

  it('keep small numbers, floats and digit strings as before', async () => {
    expect(await t.rows('SELECT id FROM j WHERE j.k = 5')).toEqual([[2n]]);
    expect(await t.rows('SELECT id FROM j WHERE j.m < 2.0')).toEqual([[2n]]);
    expect(await t.rows("SELECT id FROM j WHERE j.s = '1234567890123456789'")).toEqual([[2n]]);
  });
});
