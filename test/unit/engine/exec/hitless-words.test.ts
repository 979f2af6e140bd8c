// hitless_words / hitless_words_list (CLT bugs/4758-retired-rt-externals, core/test-import-table) are
// refused by CREATE and ALTER TABLE with why: quarry stores every word's positions. Before, the bare
// "setting not allowed: hitless_words='all'" said nothing of the reason.
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('hitless-words', async (t) => {
  await t.exec('create table h (title text)');
});
const err = async (sql: string) => JSON.stringify(await t.exec(sql));

describe('hitless_words', () => {
  it('CREATE and ALTER refuse both forms naming the reason; nothing is created', async () => {
    expect(await err("create table h1 (title text) hitless_words='all'")).toContain("error adding table 'h1': hitless_words is not supported: quarry stores the positions of every word");
    expect(await err("create table h2 (title text) hitless_words_list='a; b'")).toContain("error adding table 'h2': hitless_words_list is not supported: quarry stores the positions of every word");
    expect(await err("alter table h hitless_words_list='a'")).toContain('table h: hitless_words_list is not supported: quarry stores the positions of every word');
    expect(await t.rows('show tables')).toEqual([['h', 'rt']]);
    expect(await err("create table h3 (title text) nosuch='1'")).toContain("error adding table 'h3': setting not allowed: nosuch='1'");
  });
});
