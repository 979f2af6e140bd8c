// GROUP BY over a real engine: keys of every attribute kind, aggregates, HAVING, group order, LIMIT and
// max_matches over groups, representative rows, and the errors for what is not implemented.
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('exec-group', async (t) => {
  await t.exec('create table p (title text, price float, cat uint, brand string, tags multi, ok bool, meta json)');
  await t.exec(`insert into p (id, title, price, cat, brand, tags, ok, meta) values
    (1, 'red bag', 10, 1, 'a', (1,2), 1, '{"k":1}'), (2, 'blue bag', 20, 1, 'b', (2), 0, '{}'), (3, 'green hat', 20, 2, 'a', (), 1, '{}')`);
  await t.exec("insert into p (id, title, price, cat, brand, tags, ok) values (4, 'bag bag bag', 5, 3, 'c', (3), 1)");
});

async function error(sql: string): Promise<string> {
  const out = await t.exec(sql);
  const last = out.at(-1) as { kind: string; message?: string };
  return last.kind === 'error' ? last.message! : 'no error';
}

describe('GROUP BY', () => {
  it('groups by float, string, bool and several columns', async () => {
    expect(await t.rows('select price, count(*) from p group by price order by price asc')).toEqual([[5, 1n], [10, 1n], [20, 2n]]);
    expect(await t.rows('select brand, count(*) from p group by brand order by brand desc')).toEqual([['c', 1n], ['b', 1n], ['a', 2n]]);
    expect(await t.rows('select ok, count(*) from p group by ok order by ok asc')).toEqual([[0, 1n], [1, 3n]]);
    expect(await t.rows('select cat, brand, count(*) from p group by cat, brand order by cat asc, brand asc'))
      .toEqual([[1, 'a', 1n], [1, 'b', 1n], [2, 'a', 1n], [3, 'c', 1n]]);
  });

  it('an MVA makes each value a group; an empty MVA none', async () => {
    expect(await t.rows('select groupby(), count(*) from p group by tags order by groupby() asc')).toEqual([[1n, 1n], [2n, 2n], [3n, 1n]]);
  });

  it('aggregates, HAVING on an alias and on an aggregate not selected, ORDER BY an aggregate', async () => {
    expect(await t.rows('select cat, sum(price) s, avg(price), min(price), max(price), count(distinct brand) from p group by cat order by s desc'))
      .toEqual([[1, 30, 15, 10, 20, 2n], [2, 20, 20, 20, 20, 1n], [3, 5, 5, 5, 5, 1n]]);
    expect(await t.rows('select brand from p group by brand having count(*) > 1')).toEqual([['a']]);
    expect(await t.rows('select cat, count(*) c from p group by cat having c = 1 order by cat desc')).toEqual([[3, 1n], [2, 1n]]);
  });

  it('groups full-text matches; the representative is the best-weighted row', async () => {
    const rows = await t.rows("select id, cat, count(*) from p where match('bag') group by cat order by cat asc");
    expect(rows).toEqual([[1n, 1, 2n], [4n, 3, 1n]]);
    const best = await t.rows("select id, weight() from p where match('bag') order by weight() desc limit 1");
    expect(await t.rows("select id, weight() from p where match('bag') group by cat order by weight() desc limit 1")).toEqual(best);
  });

  it('LIMIT pages groups, max_matches caps them, total_found counts them', async () => {
    expect(await t.rows('select cat from p group by cat order by cat asc limit 1, 1')).toEqual([[2]]);
    expect(await t.rows("show meta like 'total%'")).toEqual([['total', '1'], ['total_found', '3'], ['total_relation', 'eq']]);
    expect(await t.rows('select cat from p group by cat order by cat asc limit 5 option max_matches=2')).toEqual([[1], [2]]);
  });

  it('aggregates without GROUP BY are one group, also over no matches', async () => {
    expect(await t.rows('select sum(price), count(*) from p')).toEqual([[55, 4n]]);
    expect(await t.rows('select sum(price), count(*) from p where cat = 9')).toEqual([[0, 0n]]);
  });

  it('what is not implemented yet is an error naming it', async () => {
    expect(await error('select count(*) from p group by price*2')).toContain('syntax error');
    expect(await error('select count(*) from p group by brand.k')).toContain('not a JSON attribute path');
    expect(await error('select cat from p group by cat within group order by meta.k desc')).toContain('WITHIN GROUP ORDER BY');
    expect(await error('select sum(brand) from p group by cat')).toBe("table p: can not aggregate non-scalar attribute 'brand'");
    expect(await error('select group_concat(brand order by cat) from p group by cat')).toContain('expecting LIMIT');
    expect(await error('select cat from p group by cat order by title desc')).toContain("ORDER BY 'title'");
  });

  // a user pass: these named 'group-by attribute ... not found', the wrong clause; searchd's texts per clause
  it('an unknown column outside GROUP BY is named by its own clause', async () => {
    expect(await error('select cat from p group by cat within group order by nope desc')).toBe("table p: sort-by attribute 'nope' not found");
    expect(await error('select cat, sum(nope) from p group by cat')).toBe('table p: parse error: unknown column: nope');
    expect(await error('select avg(nope) from p')).toBe('table p: parse error: unknown column: nope');
    expect(await error('select cat, count(distinct nope) from p group by cat')).toBe("table p: group-count-distinct attribute 'nope' not found");
    // a stored text field is a string to searchd's SetupAggregateExpr (queuecreator.cpp)
    expect(await error('select cat, sum(title) from p group by cat')).toBe("table p: SUM() cannot be used on text/string column 'title'");
    expect(await error('select cat from p group by nope')).toBe("table p: group-by attribute 'nope' not found");
  });

  // a user pass: SUM(meta.k) was 'unsupported select expression'; searchd asks for a conversion, which then works
  it('an aggregate over a bare JSON path asks for INTEGER()/BIGINT()/DOUBLE(), as searchd does', async () => {
    const ask = "table p: ambiguous attribute type 'meta.k', use INTEGER(), BIGINT() or DOUBLE() conversion functions";
    for (const fn of ['sum', 'avg', 'min', 'max']) expect(await error(`select cat, ${fn}(meta.k) from p group by cat`)).toBe(ask);
    expect(await error('select sum(meta.k) from p')).toBe(ask);
    expect(await t.rows('select sum(integer(meta.k)) from p where id = 1')).toEqual([[1n]]);
  });

  it('WITHIN GROUP ORDER BY picks each group\'s row; GROUP N BY keeps N rows per group, LIMIT counting rows', async () => {
    expect(await t.rows('select cat, id from p group by cat within group order by price desc order by cat asc')).toEqual([[1, 2n], [2, 3n], [3, 4n]]);
    expect(await t.rows('select cat, id from p group by cat within group order by id asc order by cat asc')).toEqual([[1, 1n], [2, 3n], [3, 4n]]);
    expect(await t.rows('select cat, id, count(*) from p group 2 by cat within group order by price asc order by cat asc'))
      .toEqual([[1, 1n, 2n], [1, 2n, 2n], [2, 3n, 1n], [3, 4n, 1n]]);
    expect(await t.rows('select cat, id from p group 2 by cat within group order by price asc order by cat asc limit 3')).toEqual([[1, 1n], [1, 2n], [2, 3n]]);
    // GROUP 0 BY and GROUP 1 BY are a plain GROUP BY
    for (const n of [0, 1]) expect(await t.rows(`select cat from p group ${n} by cat order by cat asc`)).toEqual([[1], [2], [3]]);
  });

  it('GROUP_CONCAT lists the group\'s values as the client prints them', async () => {
    expect(await t.rows('select cat, group_concat(id), group_concat(price), group_concat(brand) from p group by cat order by cat asc'))
      .toEqual([[1, '1,2', '10.000000,20.000000', 'a,b'], [2, '3', '20.000000', 'a'], [3, '4', '5.000000', 'c']]);
  });

  it('GROUP BY a JSON path: its value is the key, an array gives each element, documents without it no group', async () => {
    await t.exec(`insert into p (id, title, price, cat, meta) values (5, 'x', 1, 9, '{"k":1,"c":"red","a":[1,2]}'),
      (6, 'y', 1, 9, '{"k":"1","c":"red","a":[2]}'), (7, 'z', 1, 9, '{"c":"green"}')`);
    expect(await t.rows('select groupby(), count(*) from p group by meta.c order by count(*) desc')).toEqual([['red', 2n], ['green', 1n]]);
    expect(await t.rows('select groupby(), count(*) from p group by meta.a order by groupby() asc')).toEqual([[1, 1n], [2, 2n]]);
    // the number 1 and the string "1" are different keys
    expect((await t.rows('select groupby(), count(*) from p group by meta.k')).length).toBe(2);
  });
});
