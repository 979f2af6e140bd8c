// SELECT's page bounds against max_matches, as searchd's query check: an OPTION max_matches below one,
// or an OFFSET at or past an explicit max_matches, is an error (found by a user pass: both answered
// an empty page, so a typo looked like "no matches").
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('quarry-exec-select-');

describe('max_matches bounds', () => {
  it('refuses max_matches below one and an offset past an explicit max_matches, with searchd\'s texts', async () => {
    await t.exec('CREATE TABLE b (title text, gid uint)');
    await t.exec("INSERT INTO b (id, title, gid) VALUES (1, 'a', 1), (2, 'b', 2), (3, 'c', 2)");
    for (const q of ['SELECT * FROM b OPTION max_matches=0', 'SELECT * FROM b OPTION max_matches=-1',
      'SELECT gid, COUNT(*) FROM b GROUP BY gid OPTION max_matches=0']) {
      const [res] = await t.exec(q);
      expect(res, q).toMatchObject({ kind: 'error', message: 'max_matches can not be less than one' });
    }
    const [past] = await t.exec('SELECT * FROM b LIMIT 30,5 OPTION max_matches=10');
    expect(past).toMatchObject({ kind: 'error', message: 'offset out of bounds (offset=30, max_matches=10)' });
    const [grouped] = await t.exec('SELECT gid FROM b GROUP BY gid LIMIT 10,5 OPTION max_matches=10');
    expect(grouped).toMatchObject({ kind: 'error', message: 'offset out of bounds (offset=10, max_matches=10)' });
  });

  // found by a user pass: LIMIT 1000,10 answered an empty page; searchd's CheckQuery bounds the default 1000 too
  it('refuses an offset at or past the default max_matches', async () => {
    await t.exec('CREATE TABLE d (title text, gid uint)');
    await t.exec("INSERT INTO d (id, title, gid) VALUES (1, 'a', 1)");
    const [deep] = await t.exec('SELECT * FROM d LIMIT 1000,10');
    expect(deep).toMatchObject({ kind: 'error', message: 'offset out of bounds (offset=1000, max_matches=1000)' });
    const [grouped] = await t.exec('SELECT gid FROM d GROUP BY gid LIMIT 10 OFFSET 1500');
    expect(grouped).toMatchObject({ kind: 'error', message: 'offset out of bounds (offset=1500, max_matches=1000)' });
    expect(await t.rows('SELECT id FROM d LIMIT 999,10')).toEqual([]);
  });

  it('still answers pages inside max_matches', async () => {
    await t.exec('CREATE TABLE c (title text)');
    await t.exec("INSERT INTO c (id, title) VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    expect(await t.rows('SELECT id FROM c ORDER BY id ASC LIMIT 1,5 OPTION max_matches=2')).toEqual([[2n]]);
    expect(await t.rows('SELECT id FROM c ORDER BY id ASC LIMIT 5,5')).toEqual([]);
  });
});
