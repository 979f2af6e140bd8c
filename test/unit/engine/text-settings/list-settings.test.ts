// The `*_list` settings end to end through SQL: stopwords_list, wordforms_list and exceptions_list give
// a file's lines inline in CREATE TABLE (Manticore's RT-mode form), entries separated by `;`.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { useTempEngine } from '../../../helpers/temp-engine.js';
import { openEngine } from '../../../../src/engine/index.js';
import { newSession } from '../../../../src/engine/session.js';

const t = useTempEngine('list-settings');
const ids = async (table: string, q: string) =>
  (await t.rows(`select id from ${table} where match('${q}') order by id asc`)).map((r) => r[0]);

describe('the *_list table settings', () => {
  it('stopwords_list: the listed words are stopwords, as the manual example has it', async () => {
    await t.exec("CREATE TABLE products (title text, price float) stopwords_list = 'a; the'");
    await t.exec("INSERT INTO products (id, title) VALUES (1, 'the book'), (2, 'a red book'), (3, 'theme')");
    expect(await ids('products', 'the')).toEqual([]);
    expect(await ids('products', 'book')).toEqual([1n, 2n]);
    expect(await ids('products', 'theme')).toEqual([3n]);
  });

  it('wordforms_list maps words; exceptions_list keeps a token whole; both as their files would', async () => {
    await t.exec("CREATE TABLE w (title text) wordforms_list = 'walks > walk; mice > mouse' exceptions_list = 'AT&T => att'");
    await t.exec("INSERT INTO w (id, title) VALUES (1, 'she walks'), (2, 'two mice'), (3, 'AT&T phones'), (4, 'at and t')");
    expect(await ids('w', 'walk')).toEqual([1n]);
    expect(await ids('w', 'mouse')).toEqual([2n]);
    expect(await ids('w', 'att')).toEqual([3n]);
    expect(await ids('w', 'AT&T')).toEqual([3n]);
    expect(await ids('w', 't')).toEqual([4n]);
  });

  it('persists: SHOW CREATE TABLE prints the list, and the table reopens with it', async () => {
    await t.exec("CREATE TABLE s (title text) stopwords_list = 'the'");
    const [[, create]] = await t.rows('SHOW CREATE TABLE s');
    expect(String(create)).toContain("stopwords_list='the'");
    await t.exec("INSERT INTO s (id, title) VALUES (1, 'the end')");
    await t.engine.close();
    const reopened = await openEngine({ dataDir: join(t.dir, 'data') });
    try {
      const match = async (q: string) => (await reopened.execute(`select id from s where match('${q}')`, newSession()))[0];
      expect(await match('the')).toMatchObject({ kind: 'rows', rows: [] });
      expect(await match('end')).toMatchObject({ kind: 'rows', rows: [[1n]] });
    } finally {
      await reopened.close();
    }
  });
});
