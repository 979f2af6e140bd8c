// blend_chars and blend_mode through SQL: indexing, MATCH(), CALL KEYWORDS, CALL SNIPPETS.
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('blend');
const ids = async (q: string) => (await t.rows(`select id from t where match('${q}') order by id asc`)).map((r) => r[0]);
const keywords = async (q: string) => (await t.rows(`call keywords('${q}', 't')`)).map((r) => r.slice(0, 3).map(String));

async function table(settings: string, docs: string[]): Promise<void> {
  await t.exec(`create table t (title text) ${settings}`);
  const values = docs.map((d, i) => `(${i + 1}, '${d}')`).join(', ');
  await t.exec(`insert into t (id, title) values ${values}`);
}

describe('blend_chars', () => {
  it('indexes a blended token whole and as its parts', async () => {
    await table("blend_chars='&'", ['AT&T phones', 'at and t', 'at t']);
    expect(await ids('AT&T')).toEqual([1n]);
    expect(await ids('at')).toEqual([1n, 2n, 3n]);
    expect(await ids('"at t"')).toEqual([1n, 3n]);
  });

  it('gives the whole token the position of its first part, as Manticore', async () => {
    await table("blend_chars='&'", ['AT&T phones', 'phones AT&T']);
    // the typed blended word takes its parts' positions in the query too (Manticore's SkipBlended):
    // "at&t t" asks for another t after the whole token, "at&t phones" for phones right after it
    expect(await ids('"at&t t"')).toEqual([]);
    expect(await ids('"at&t phones"')).toEqual([1n]);
    expect(await ids('"at phones"')).toEqual([]);
    expect(await ids('"t phones"')).toEqual([1n]);
    expect(await ids('"phones at"')).toEqual([2n]);
  });

  it('CALL KEYWORDS lists the whole token (query mode blends trim_none only) and its parts, sharing a qpos', async () => {
    await table("blend_chars='&, U+2E' blend_mode='trim_none, trim_all'", ['x']);
    expect(await keywords('AT&T. phones')).toEqual([
      ['1', 'at&t.', 'at&t.'], ['1', 'at', 'at'], ['2', 't', 't'], ['3', 'phones', 'phones'],
    ]);
  });

  it('blend_mode trims: trim_head and trim_tail index the trimmed forms only', async () => {
    await table("blend_chars='@, U+2E' blend_mode='trim_head, trim_tail'", ['@twitter. rocks', 'twitter rocks']);
    expect(await ids('twitter.')).toEqual([1n]);
    expect(await ids('twitter')).toEqual([1n, 2n]);
  });

  it('skip_pure drops a token made only of blend characters', async () => {
    await table("blend_chars='&' blend_mode='trim_none, skip_pure'", ['a & b']);
    expect(await keywords('a & b')).toEqual([['1', 'a', 'a'], ['2', 'b', 'b']]);
    expect(await ids('"a b"')).toEqual([1n]);
  });

  it('keeps a pure blend token by default', async () => {
    await table("blend_chars='&'", ['a & b']);
    expect(await keywords('a & b')).toEqual([['1', 'a', 'a'], ['2', '&', '&'], ['3', 'b', 'b']]);
    expect(await ids('"a b"')).toEqual([]);
  });

  it('rejects an unknown blend_mode with Manticore\'s text', async () => {
    const out = await t.exec("create table t (title text) blend_mode='trim_foo, trim_none'").catch((e: Error) => e);
    const text = out instanceof Error ? out.message : JSON.stringify(out);
    expect(text).toContain("'blend_mode': unknown blend_mode option near 'trim_foo, trim_none'");
  });

  it('CALL SNIPPETS highlights a blended token typed in the query', async () => {
    await table("blend_chars='&'", ['x']);
    const rows = await t.rows("call snippets('call AT&T now', 't', 'AT&T')");
    expect(rows).toEqual([['call <b>AT&T</b> now']]);
  });
});
