// Wordforms and exceptions end to end through SQL: CREATE TABLE with the files, INSERT, MATCH, CALL KEYWORDS.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newSession, openEngine, type Engine, type RowsResult } from '../../../src/engine/index.js';

let dir: string;
let engine: Engine;
const session = newSession();

async function rows(text: string): Promise<unknown[][]> {
  const out = await engine.execute(text, session);
  const r = out[out.length - 1] as RowsResult;
  if (r.kind !== 'rows') throw new Error(JSON.stringify(r));
  return r.rows;
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-wordforms-'));
  engine = await openEngine({ dataDir: join(dir, 'data') });
});
afterEach(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('wordforms through SQL', () => {
  it('maps indexed and query words, unstemmed, and CALL KEYWORDS shows the mapping', async () => {
    const wf = join(dir, 'wf.txt');
    writeFileSync(wf, 'Mice > rodent\nrunning => sprint\n');
    await engine.execute(`create table t (title text) morphology='stem_en' wordforms='${wf}'`, session);
    await engine.execute("insert into t (id, title) values (1, 'three mice'), (2, 'a rodent running'), (3, 'runs')", session);
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
    const wf = join(dir, 'multi.txt');
    writeFileSync(wf, 'core 2 duo > c2d\n');
    await engine.execute(`create table t (title text) wordforms='${wf}'`, session);
    await engine.execute("insert into t (id, title) values (1, 'Core 2 Duo laptop'), (2, 'core duo 2')", session);
    const ids = async (q: string) => (await rows(`select id from t where match('${q}') order by id asc`)).map((r) => r[0]);
    expect(await ids('c2d')).toEqual([1n]);
    expect(await ids('"c2d laptop"')).toEqual([1n]);
    expect(await ids('duo')).toEqual([2n]);
    const kw = await rows("call keywords('core 2 duo', 't')");
    expect(kw.map((r) => r.slice(0, 3).map(String))).toEqual([['1', 'c2d', 'c2d']]);
  });

  it('a missing wordforms file fails CREATE TABLE', async () => {
    const missing = join(dir, 'missing.txt');
    const out = await engine.execute(`create table t (title text) wordforms='${missing}'`, session).catch((e: Error) => e);
    const text = out instanceof Error ? out.message : JSON.stringify(out);
    expect(text).toContain(`file not found: '${missing}'`);
  });
});

describe('exceptions through SQL', () => {
  it('index raw-text matches as one token, and CALL KEYWORDS maps them', async () => {
    const exc = join(dir, 'exc.txt');
    writeFileSync(exc, 'AT&T => att\nC++ => cplusplus\n');
    await engine.execute(`create table t (title text) exceptions='${exc}'`, session);
    await engine.execute("insert into t (id, title) values (1, 'AT&T phones'), (2, 'at&t t'), (3, 'learn C++')", session);
    const match = async (q: string) =>
      (await rows(`select id from t where match('${q}') order by id asc`)).map((r) => r[0]);
    expect(await match('att')).toEqual([1n]);
    expect(await match('t')).toEqual([2n]);
    expect(await match('cplusplus')).toEqual([3n]);
    const kw = await rows("call keywords('AT&T at&t', 't')");
    expect(kw.map((r) => r.slice(0, 3).map(String))).toEqual([['1', 'att', 'att'], ['2', 'at', 'at'], ['3', 't', 't']]);
  });

  it('two exceptions files fail CREATE TABLE', async () => {
    const a = join(dir, 'a.txt');
    writeFileSync(a, 'x => y\n');
    const out = await engine.execute(`create table t (title text) exceptions='${a} ${a}'`, session).catch((e: Error) => e);
    const text = out instanceof Error ? out.message : JSON.stringify(out);
    expect(text).toContain("'exceptions' options only supports a single file");
  });
});
