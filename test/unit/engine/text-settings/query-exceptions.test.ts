// Exceptions and multi-word wordforms typed in queries, through SQL: CALL KEYWORDS.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('query-exceptions');
const keywords = async (q: string) => (await t.rows(`call keywords('${q}', 't')`)).map((r) => r.slice(0, 3).map(String));

async function withExceptions(): Promise<void> {
  const exc = join(t.dir, 'exc.txt');
  writeFileSync(exc, 'AT&T => att\nC++ => cplusplus\nMS Windows => mswindows\n');
  await t.exec(`create table t (title text) exceptions='${exc}'`);
  await t.exec("insert into t (id, title) values (1, 'AT&T phones'), (2, 'at and t'), (3, 'C++ code'), (4, 'c code'), (5, 'MS  Windows 95')");
}

describe('exceptions in queries', () => {
  it('CALL KEYWORDS maps exceptions on the raw, case-sensitive text', async () => {
    await withExceptions();
    expect(await keywords('AT&T C++')).toEqual([['1', 'att', 'att'], ['2', 'cplusplus', 'cplusplus']]);
    expect(await keywords('at&t')).toEqual([['1', 'at', 'at'], ['2', 't', 't']]);
    expect(await keywords('MS Windows')).toEqual([['1', 'mswindows', 'mswindows']]);
  });

  it('CALL KEYWORDS skips query escapes inside an exception', async () => {
    await withExceptions();
    expect(await keywords('C\\\\+\\\\+ code')).toEqual([['1', 'cplusplus', 'cplusplus'], ['2', 'code', 'code']]);
  });
});

describe('multi-word wordforms in queries', () => {
  it('CALL KEYWORDS shows a multi-word source as one word at one position', async () => {
    const wf = join(t.dir, 'wf.txt');
    writeFileSync(wf, 'core 2 duo > c2d\n');
    await t.exec(`create table t (title text) wordforms='${wf}'`);
    expect(await keywords('fast Core 2 Duo laptop')).toEqual([['1', 'fast', 'fast'], ['2', 'c2d', 'c2d'], ['3', 'laptop', 'laptop']]);
  });
});

describe('exceptions and multi-word wordforms in MATCH(), JSON /search and snippets', () => {
  const ids = async (q: string) => (await t.rows(`select id from t where match('${q}') order by id asc`)).map((r) => Number(r[0]));
  async function table(): Promise<void> {
    const exc = join(t.dir, 'exc2.txt');
    const wf = join(t.dir, 'wf2.txt');
    writeFileSync(exc, 'AT&T => att\nC++ => cplusplus\n');
    writeFileSync(wf, 'core 2 duo > c2d\n');
    await t.exec(`create table t (title text) exceptions='${exc}' wordforms='${wf}'`);
    await t.exec(`insert into t (id, title) values (1, 'AT&T phones'), (2, 'at and t'), (3, 'C++ code'),
      (4, 'c code'), (5, 'a Core 2 Duo laptop'), (6, 'core duo 2')`);
  }

  it('SQL MATCH finds the exception and the multi-word form as one keyword', async () => {
    await table();
    expect(await ids('AT&T')).toEqual([1]);
    expect(await ids('C++')).toEqual([3]);
    expect(await ids('"core 2 duo" laptop')).toEqual([5]);
    expect(await ids('core 2 duo')).toEqual([5]);
  });

  it('JSON /search query_string and match do the same', async () => {
    await table();
    const search = async (query: string) => {
      const r = await t.engine.json!.search(JSON.parse(`{"table":"t","query":${query}}`), (await import('../../../../src/engine/index.js')).newSession());
      return r.rows.map((row) => Number(row[0])).sort((a, b) => a - b);
    };
    expect(await search('{"query_string":"AT&T"}')).toEqual([1]);
    expect(await search('{"match":{"title":"core 2 duo"}}')).toEqual([5]);
  });

  it('CALL SNIPPETS and HIGHLIGHT() mark the exception and the multi-word form', async () => {
    await table();
    const [[s1]] = await t.rows("call snippets('AT&T phones and C++', 't', 'AT&T C++')");
    expect(s1).toBe('<b>AT&T</b> phones and <b>C++</b>');
    expect(await t.rows("select highlight() from t where match('core 2 duo')")).toEqual([['a <b>Core 2 Duo</b> laptop']]);
  });
});
