// SELECT ... LIMIT -1: searchd's limitless ("streaming") select (sphinx.cpp CheckQuery, -1 is "magic for
// limitless select" when the statement is one query): every row, past the default 20 and max_matches.
// Found by Manticore's CLT mysqldump/*/mcl-*.rec ('select * from t limit -1'). Before: 'limit out of
// bounds (limit=-1)'. A distributed table gets searchd's refusal; other negative limits stay errors.
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('limitless-select', async (t) => {
  await t.exec('create table l (title text, g int)');
  const values = Array.from({ length: 1500 }, (_, i) => `(${i + 1}, 'word', ${i % 3})`).join(', ');
  await t.exec(`insert into l (id, title, g) values ${values}`);
  await t.exec("create table d type='distributed' local='l'");
});
const err = async (sql: string) => JSON.stringify(await t.exec(sql));

describe('LIMIT -1', () => {
  it('answers every row; grouped, every group', async () => {
    const all = await t.rows('select id from l order by id asc limit -1');
    expect(all.length).toBe(1500);
    expect(all[1499]).toEqual([1500n]);
    expect((await t.rows("select id from l where match('word') limit -1")).length).toBe(1500);
    expect(await t.rows('select g, count(*) c from l group by g order by g asc limit -1')).toEqual([[0, 500n], [1, 500n], [2, 500n]]);
  });
  it('other negative limits and a distributed table are errors', async () => {
    expect(await err('select id from l limit -2')).toContain('limit out of bounds (limit=-2)');
    expect(await err('select id from d limit -1')).toContain('only one local table allowed in streaming select');
  });
});
