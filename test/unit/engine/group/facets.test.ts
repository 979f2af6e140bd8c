// FACET clauses as result sets: one grouping pass over the matches for all of a query's facets (one
// core call per segment for the facets together), each facet with its own order and page.
import { describe, expect, it } from 'vitest';
import type { RowsResult } from '../../../../src/engine/index.js';
import { evaluateCalls } from '../../../../src/wasm/segment-runner.js';
import { groupCalls } from '../../../../src/wasm/group-runner.js';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('facets', async (t) => {
  await t.exec('create table p (title text, cat uint, brand string)');
  await t.exec("insert into p (id, title, cat, brand) values (1, 'red bag', 1, 'a'), (2, 'blue bag', 1, 'b'), (3, 'hat', 2, 'a'), (4, 'red hat', 3, 'a')");
});

describe('FACET', () => {
  it('answers the main result then one result set per FACET, the facets in one pass over the segment', async () => {
    const before = evaluateCalls.count;
    const groupBefore = groupCalls.count;
    const out = await t.exec("select id from p where match('red | bag') order by id asc facet cat order by cat desc facet brand limit 1 facet cat by brand order by count(*) asc");
    // one segment: the main query's call and one grouping call shared by the three facets
    expect(evaluateCalls.count - before).toBe(1);
    expect(groupCalls.count - groupBefore).toBe(1);
    const sets = out as RowsResult[];
    expect(sets.map((r) => r.rows)).toEqual([
      [[1n], [2n], [4n]],
      [[3, 1n], [1, 2n]],
      [['a', 2n]],
      [[1, 1n], [1, 2n]],
    ]);
    expect(sets.map((r) => r.columns.map((c) => c.name))).toEqual([['id'], ['cat', 'count(*)'], ['brand', 'count(*)'], ['cat', 'count(*)']]);
  });

  it('SHOW META describes the main query; a negative facet LIMIT is an error', async () => {
    await t.exec("select id from p where match('red') facet cat");
    expect((await t.rows("show meta like 'total_found'"))).toEqual([['total_found', '2']]);
    const out = await t.exec('select id from p facet cat limit -1');
    expect(out.at(-1)).toMatchObject({ kind: 'error', message: 'limit out of bounds (limit=-1)' });
  });

  it('a rewritten filter scope needs an AND of positive filters (nested ANDs too); ALL FILTERS keeps any WHERE', async () => {
    const err = 'facet-local filter scope supports conjunction-only attribute filters';
    expect((await t.exec("select id from p where (cat = 1 and brand = 'a') and id > 0 facet cat exclude filters brand")).at(-1)).toMatchObject({ rows: [[1, 2n]] });
    for (const where of ["cat = 1 or brand = 'a'", 'not (cat = 1)', 'cat != 1', 'cat not in (1)', 'cat not between 1 and 2']) {
      expect((await t.exec(`select id from p where ${where} facet cat mode max`)).at(-1), where).toMatchObject({ kind: 'error', message: err });
    }
    expect((await t.exec("select id from p where cat = 1 or brand = 'a' facet cat all filters order by cat asc")).at(-1)).toMatchObject({ rows: [[1, 2n], [2, 1n], [3, 1n]] });
  });

  it('status: selected only for a bucket every = / IN filter on the attribute accepts', async () => {
    const out = await t.exec("select id from p where brand in ('a', 'b') and brand = 'b' facet brand mode auto order by brand asc");
    expect(out.at(-1)).toMatchObject({ rows: [['a', 3n, 'available'], ['b', 1n, 'selected']] });
  });
});
