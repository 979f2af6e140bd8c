// HAVING without GROUP BY or naming what groups do not hold, and ORDER BY RAND() over groups, as Manticore's QueueCreator_c decides them:
// HAVING needs groups (an explicit GROUP BY or the implicit group of aggregates), and groups refuse
// the @random sort. Also the select list's NOT IN, a syntax error in Manticore's sphinxql.y.
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('having-rand', async (t) => {
  await t.exec('create table p (a int, b bigint)');
  await t.exec('insert into p (id, a, b) values (1, 5, 10), (2, 4, 20), (3, 4, 1)');
});

async function errorOf(sql: string): Promise<string> {
  const out = await t.exec(sql);
  const r = out[out.length - 1]!;
  return r.kind === 'error' ? r.message : 'no error';
}

describe('HAVING without GROUP BY', () => {
  it('refuses a plain row list', async () => {
    expect(await errorOf('select id, a from p having a > 3')).toBe('can not use HAVING without GROUP BY');
  });

  it('filters the implicit group of aggregates (COUNT(*) alone too)', async () => {
    expect(await t.rows('select sum(b) s, count(*) c from p having s > 5')).toEqual([[31n, 3n]]);
    expect(await t.rows('select sum(b) s from p having s > 100')).toEqual([]);
    expect(await t.rows('select count(*) c from p having c > 2')).toEqual([[3n]]);
    expect(await t.rows('select count(*) c from p having c > 3')).toEqual([]);
  });
});

describe('HAVING names what the groups hold (CheckHavingConstraints)', () => {
  const NOT_RELATED = 'can not use HAVING with attribute not related to GROUP BY';

  it('refuses the group-by column, a plain alias, an attribute not grouped, id and weight()', async () => {
    expect(await errorOf('select a, count(*) c from p group by a having a > 4')).toBe(NOT_RELATED);
    expect(await errorOf('select a, b * 2 b2, count(*) c from p group by a having b2 > 4')).toBe(NOT_RELATED);
    expect(await errorOf('select a, count(*) c from p group by a having b > 4')).toBe(NOT_RELATED);
    expect(await errorOf('select a, count(*) c from p group by a having id > 1')).toBe(NOT_RELATED);
    expect(await errorOf('select a, count(*) c from p group by a having weight() > 1')).toBe(NOT_RELATED);
    expect(await errorOf('select a, count(*) c from p group by a having c > 1 or b > 4')).toBe(NOT_RELATED);
  });

  it('takes GROUPBY(), COUNT(*) and aliases of aggregates or GROUPBY()', async () => {
    expect(await t.rows('select a, count(*) c from p group by a having groupby() = 4')).toEqual([[4, 2n]]);
    expect(await t.rows('select a, count(*) c from p group by a having count(*) = 1')).toEqual([[5, 1n]]);
    expect(await t.rows('select a, groupby() g, sum(b) s from p group by a having g = 5 or s > 100')).toEqual([[5, 5, 10n]]);
  });
});

describe('ORDER BY RAND() with groups', () => {
  it('is refused for GROUP BY and FACET, as Manticore\'s "groups can not be sorted by @random"', async () => {
    expect(await errorOf('select a from p group by a order by rand()')).toBe('table p: groups can not be sorted by @random');
    expect(await errorOf('select id from p facet a order by rand()')).toBe('table p: groups can not be sorted by @random');
  });

  it('leaves the one implicit group of aggregates as it is', async () => {
    expect(await t.rows('select sum(b) from p order by rand()')).toEqual([[31n]]);
  });
});

describe('NOT IN in the select list', () => {
  it('is Manticore\'s syntax error; NOT x IN (...) is the select-list form', async () => {
    expect(await errorOf('select id, a not in (3, 4) from p')).toBe("P01: syntax error, unexpected NOT near 'not in (3, 4) from p'");
    expect(await t.rows('select id, not a in (3, 4) n from p')).toEqual([[1n, 1], [2n, 0], [3n, 0]]);
  });
});
