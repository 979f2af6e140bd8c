// Repeated table settings: in CREATE TABLE (first value wins, file lists replace) and in config files (wordforms adds up).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/server/config-parser.js';
import { tableSchemaOf } from '../../../src/server/config-tables.js';
import { useTempEngine } from '../../helpers/temp-engine.js';
import { one } from './helpers.js';

const settings = (sql: string): Record<string, string> => one(sql, 'create_table').settings;

describe('repeated settings in CREATE TABLE', () => {
  it('keeps the first value of a plain setting, as Manticore reads the head of its chain', () => {
    expect(settings("create table t (a text) min_word_len='2' morphology='stem_en' min_word_len='3'"))
      .toEqual({ min_word_len: '2', morphology: 'stem_en' });
  });

  it('lets a later file list replace an earlier one (stopwords, exceptions, wordforms)', () => {
    expect(settings("create table t (a text) stopwords='a.txt' stopwords='b.txt' exceptions='e1' exceptions='e2'"))
      .toEqual({ stopwords: 'b.txt', exceptions: 'e2' });
    expect(settings("create table t (a text) wordforms='wrong.file' wordforms='w.txt'")).toEqual({ wordforms: 'w.txt' });
  });

  it('does not mistake inherited object keys for settings already given', () => {
    expect(settings("create table t (a text) constructor='x'")).toEqual({ constructor: 'x' });
  });
});

describe('repeated settings in a config file', () => {
  const section = (body: string) => parseConfig(`table t {\n type = rt\n rt_field = title\n${body}\n}`).tables.get('t')!;

  it('uses every wordforms value, and the first value of a non-list key', () => {
    const s = tableSchemaOf('t', section(' wordforms = /a.txt\n min_word_len = 2\n wordforms = /b.txt /c*.txt\n min_word_len = 5')).settings;
    expect(s.wordforms).toBe('/a.txt /b.txt /c*.txt');
    expect(s.min_word_len).toBe('2');
  });
});

describe('repeated wordforms through SQL', () => {
  const t = useTempEngine('ddl-repeat');

  it("test_403: wordforms='wrong.file' wordforms='<real file>' creates the table and maps with the real file", async () => {
    const wf = join(t.dir, 'wordforms.txt');
    writeFileSync(wf, 'word form > wordform\n');
    await t.exec(`create table t (title text, tag integer) wordforms='wrong.file' wordforms='${wf}'`);
    await t.exec("insert into t values (1, 'word form', 10)");
    expect(await t.rows("select id from t where match('wordform')")).toEqual([[1n]]);
  });
});
