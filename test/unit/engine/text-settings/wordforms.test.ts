// Wordforms and exceptions end to end through SQL: CREATE TABLE with the files, INSERT, MATCH, CALL KEYWORDS.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('wordforms');
const rows = (sql: string) => t.rows(sql);

describe('wordforms through SQL', () => {
  it('maps indexed and query words, unstemmed, and CALL KEYWORDS shows the mapping', async () => {
    const wf = join(t.dir, 'wf.txt');
    writeFileSync(wf, 'Mice > rodent\nrunning => sprint\n');
    await t.exec(`create table t (title text) morphology='stem_en' wordforms='${wf}'`);
    await t.exec("insert into t (id, title) values (1, 'three mice'), (2, 'a rodent running'), (3, 'runs')");
    const match = async (q: string) =>
      (await rows(`select id from t where match('${q}') order by id asc`)).map((r) => r[0]);
    expect(await match('rodent')).toEqual([1n, 2n]);
    expect(await match('MICE')).toEqual([1n, 2n]);
    expect(await match('sprint')).toEqual([2n]);
    // running is mapped, not stemmed, so it does not meet `runs` (stemmed to run)
    expect(await match('running')).toEqual([2n]);
    expect(await match('run')).toEqual([3n]);
    const kw = await rows("call keywords('mice running', 't')");
    expect(kw.map((r) => r.slice(1, 3).map(String))).toEqual([['mice', 'rodent'], ['running', 'sprint']]);
  });

  it('multi-word sources index and show as one word', async () => {
    const wf = join(t.dir, 'multi.txt');
    writeFileSync(wf, 'core 2 duo > c2d\n');
    await t.exec(`create table t (title text) wordforms='${wf}'`);
    await t.exec("insert into t (id, title) values (1, 'Core 2 Duo laptop'), (2, 'core duo 2')");
    const ids = async (q: string) => (await rows(`select id from t where match('${q}') order by id asc`)).map((r) => r[0]);
    expect(await ids('c2d')).toEqual([1n]);
    expect(await ids('"c2d laptop"')).toEqual([1n]);
    expect(await ids('duo')).toEqual([2n]);
    const kw = await rows("call keywords('core 2 duo', 't')");
    expect(kw.map((r) => r.slice(0, 3).map(String))).toEqual([['1', 'c2d', 'c2d']]);
  });

  it('a missing wordforms file fails CREATE TABLE', async () => {
    const missing = join(t.dir, 'missing.txt');
    const out = await t.exec(`create table t (title text) wordforms='${missing}'`).catch((e: Error) => e);
    const text = out instanceof Error ? out.message : JSON.stringify(out);
    expect(text).toContain(`file not found: '${missing}'`);
  });
});

describe('exceptions through SQL', () => {
  it('index raw-text matches as one token, and CALL KEYWORDS maps them', async () => {
    const exc = join(t.dir, 'exc.txt');
    writeFileSync(exc, 'AT&T => att\nC++ => cplusplus\n');
    await t.exec(`create table t (title text) exceptions='${exc}'`);
    await t.exec("insert into t (id, title) values (1, 'AT&T phones'), (2, 'at&t t'), (3, 'learn C++')");
    const match = async (q: string) =>
      (await rows(`select id from t where match('${q}') order by id asc`)).map((r) => r[0]);
    expect(await match('att')).toEqual([1n]);
    expect(await match('t')).toEqual([2n]);
    expect(await match('cplusplus')).toEqual([3n]);
    const kw = await rows("call keywords('AT&T at&t', 't')");
    expect(kw.map((r) => r.slice(0, 3).map(String))).toEqual([['1', 'att', 'att'], ['2', 'at', 'at'], ['3', 't', 't']]);
  });

  it('two exceptions files fail CREATE TABLE', async () => {
    const a = join(t.dir, 'a.txt');
    writeFileSync(a, 'x => y\n');
    const out = await t.exec(`create table t (title text) exceptions='${a} ${a}'`).catch((e: Error) => e);
    const text = out instanceof Error ? out.message : JSON.stringify(out);
    expect(text).toContain("'exceptions' options only supports a single file");
  });
});
