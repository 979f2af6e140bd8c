// Exceptions and multi-word wordforms typed in queries, through SQL: CALL KEYWORDS.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../helpers/temp-engine.js';

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
