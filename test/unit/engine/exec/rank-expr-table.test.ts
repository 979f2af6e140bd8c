// Ranker expressions that read the table: numeric attributes of the row and, with
// index_field_lengths=1, bm25a/bm25f over the rows' field lengths, through SQL.
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('rank-expr-table', async (t) => {
  await t.exec('create table l (title text, body text, gid int, price float) index_field_lengths=1');
  await t.exec(`insert into l (id, title, body, gid, price) values
    (1, 'hello', 'one two three four five six seven', 5, 1.5),
    (2, 'hello', 'one', 6, 2.25),
    (3, 'other', 'words here', 7, 0), (4, 'alpha', '', 1, 0), (5, 'beta', '', 1, 0), (6, 'gamma', '', 1, 0)`);
  await t.exec('create table p (title text, body text, gid int)');
  await t.exec(`insert into p (id, title, body, gid) values
    (1, 'hello', 'one two three four five six seven', 5), (2, 'hello', 'one', 6), (3, 'other', 'words here', 7)`);
});

const weights = async (table: string, expr: string) =>
  new Map((await t.rows(`select id, weight() from ${table} where match('hello') option ranker=expr('${expr}')`))
    .map((r) => [Number(r[0]), Number(r[1])]));

describe('ranker=expr over the table', () => {
  it('reads integer and float attributes of each row', async () => {
    expect(await weights('l', 'gid')).toEqual(new Map([[1, 5], [2, 6]]));
    expect(await weights('l', 'price*100')).toEqual(new Map([[1, 150], [2, 225]]));
    expect(await weights('l', 'gid*1000+bm25')).toEqual(new Map([...await weights('l', 'bm25')].map(([id, w]) => [id, w + (id === 1 ? 5000 : 6000)])));
  });
  it('an unknown name is Manticore\'s error', async () => {
    await expect(t.rows("select id from l where match('hello') option ranker=expr('nosuch+1')")).rejects.toThrow('unknown column: nosuch');
  });
  it('bm25a uses the row length against the table average: the shorter row scores higher', async () => {
    const idf = await weights('l', 'sum(tf_idf)*1000000');
    const got = await weights('l', 'bm25a(1.2,0.75)*1000000');
    // row lengths 8 and 2 tokens, table average (8+2+3+1+1+1)/6; one hit of one keyword each
    const avg = 16 / 6;
    for (const [id, dl] of [[1, 8], [2, 2]]) {
      const want = (1 / (1 + 1.2 * (0.25 + (0.75 * dl) / avg))) * (idf.get(id)! / 1e6) + 0.5;
      expect(Math.abs(got.get(id)! / 1e6 - want)).toBeLessThan(1e-3);
    }
    expect(got.get(2)!).toBeGreaterThan(got.get(1)!);
  });
  it('without index_field_lengths bm25a has no lengths: both rows score alike', async () => {
    const got = await weights('p', 'bm25a(1.2,0.75)*1000000');
    expect(got.get(1)).toBe(got.get(2));
  });
  it('bm25f weighs the matched field by its length and weight', async () => {
    const plain = await weights('l', 'bm25f(1.2,0.75)*1000000');
    const idf = await weights('l', 'sum(tf_idf)*1000000');
    // 'hello' is in title (length 1 in both rows, integer average of title lengths 1): same value
    expect(plain.get(1)).toBe(plain.get(2));
    const want = ((1 * (idf.get(1)! / 1e6) * 2.2) / (1 + 1.2 * (0.25 + 0.75 * 1 / 1))) + 0.5;
    expect(Math.abs(plain.get(1)! / 1e6 - want)).toBeLessThan(1e-3);
    const heavier = await weights('l', 'bm25f(1.2,0.75,{title=1,body=4})*1000000');
    expect(heavier.get(1)!).toBeLessThan(plain.get(1)!);
  });
});
