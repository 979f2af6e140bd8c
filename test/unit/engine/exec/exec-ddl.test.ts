// CREATE TABLE's table type: rt is created, percolate and unknown types are refused by name.
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('quarry-exec-ddl-');

describe('CREATE TABLE type', () => {
  it("creates type='rt' as the default kind", async () => {
    const [res] = await t.exec("CREATE TABLE a (title text) type='rt'");
    expect(res).toMatchObject({ kind: 'ok' });
    expect(await t.rows('SHOW TABLES')).toEqual([['a', 'rt']]);
  });

  it('refuses a percolate table instead of creating an RT table in its place', async () => {
    for (const type of ['pq', 'percolate', 'PQ']) {
      const [res] = await t.exec(`CREATE TABLE p (title text) type='${type}'`);
      expect(res).toMatchObject({ kind: 'error', message: `error adding table 'p': percolate tables (type='${type}') are not supported` });
    }
    const [other] = await t.exec("CREATE TABLE p (title text) type='plain'");
    expect(other).toMatchObject({ kind: 'error', message: "error adding table 'p': unknown table type 'plain'" });
    expect(await t.rows('SHOW TABLES')).toEqual([]);
  });
});
