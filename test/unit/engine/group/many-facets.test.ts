// More FACETs than the core folds in one call (MAX_PROGRAMS = 64 groupings a spec, assembly/group/format.ts):
// a query of 65 or more answered 'quarry wasm core: malformed query plan'. Manticore sets no such limit;
// the groupings past the 64th now fold on the host, from the same call's matches.
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';
import type { RowsResult } from '../../../../src/engine/index.js';

const t = useTempEngine('many-facets', async (t) => {
  await t.exec('create table f (title text, n int, g int)');
  await t.exec(`insert into f (id, title, n, g) values ${Array.from({ length: 300 }, (_, i) => `(${i + 1}, 'word', ${i % 5}, ${i % 3})`).join(', ')}`);
});

describe('a query with 70 FACETs', () => {
  it('answers the main result set and 70 facets, each as the same FACET alone', async () => {
    const facets = Array.from({ length: 70 }, (_, i) => (i % 2 ? 'FACET g ORDER BY g ASC' : 'FACET n ORDER BY n ASC')).join(' ');
    const out = await t.exec(`select id from f where match('word') limit 1 ${facets}`);
    expect(out.map((r) => r.kind)).toEqual(Array(71).fill('rows'));
    const alone = async (f: string) => ((await t.exec(`select id from f where match('word') limit 1 ${f}`))[1] as RowsResult).rows;
    const byN = await alone('FACET n ORDER BY n ASC');
    const byG = await alone('FACET g ORDER BY g ASC');
    expect(byN).toEqual([0, 1, 2, 3, 4].map((n) => [n, 60n]));
    expect(byG).toEqual([0, 1, 2].map((g) => [g, 100n]));
    out.slice(1).forEach((r, i) => expect((r as RowsResult).rows).toEqual(i % 2 ? byG : byN));
  });
});
