// expansion_limit under ZONE / ZONESPAN: a wildcard's expansions are weighed over the table's segments as anywhere
// else (expansion-limit.ts: frequent ones pooled over the segments, rare ones per segment), the zone only limits
// where its hits may lie. Every row's text lies inside <h1> here, so ZONE:(h1) Q must answer as Q: the same rows,
// weights and SHOW META keyword statistics, for prefix and infix wildcards and each limit.
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

/** `n` rows from `first`, each one <h1> holding `word` ten times (n >= 32 rows: a frequent expansion). */
function rowsOf(first: number, n: number, word: string): string {
  return Array.from({ length: n }, (_, i) => `(${first + i}, '<h1>${Array(10).fill(word).join(' ')} common</h1>')`).join(', ');
}

const t = useTempEngine('expansion-limit-zone', async (t) => {
  // two segments kept apart (optimize_cutoff); a read seals the writes before it into a segment
  await t.exec("create table two (title text) min_infix_len='3' optimize_cutoff='10' html_strip='1' index_zones='h1'");
  // segment 1: appa in 40 rows, appb in 35, two rare words; segment 2: appc in 33 rows and one rare word
  await t.exec(`insert into two (id, title) values ${rowsOf(1, 40, 'appa')}, ${rowsOf(101, 35, 'appb')}, (301, '<h1>appz</h1>'), (302, '<h1>appy</h1>')`);
  await t.exec('select id from two limit 1');
  await t.exec(`insert into two (id, title) values ${rowsOf(201, 33, 'appc')}, (303, '<h1>appx</h1>')`);
  await t.exec('select id from two limit 1');
});

async function answer(q: string, limit: number): Promise<{ rows: unknown[][]; meta: unknown[][] }> {
  const out = await t.exec(`select id, weight() from two where match('${q}') order by id asc limit 1000 option expansion_limit=${limit}; show meta`);
  const [rows, meta] = out.map((r) => (r.kind === 'rows' ? r.rows : [[r.kind, JSON.stringify(r)]]));
  // the statement's time is not an answer
  return { rows: rows!, meta: meta!.filter((r) => r[0] !== 'time') };
}

const groups = (rows: unknown[][]) => {
  const ids = rows.map((r) => Number(r[0]));
  const n = (lo: number, hi: number) => ids.filter((i) => i >= lo && i < hi).length;
  return { a: n(1, 100), b: n(101, 200), c: n(201, 300), rare: ids.filter((i) => i >= 300) };
};

describe('expansion_limit under ZONE and ZONESPAN', () => {
  it('answers as without the zone: rows, weights and keyword statistics, for every limit', async () => {
    const status = await t.rows('show table two status');
    expect(status.find((r) => r[0] === 'ram_chunk_segments_count')?.[1]).toBe('2');
    const queries = ['app*', '*app*', 'app* | common', 'app* common', '"appa common"', 'app* -appa', 'appb | *ppc*'];
    for (const limit of [0, 1, 2, 3]) {
      for (const q of queries) {
        const plain = await answer(q, limit);
        expect(plain.rows.length, `${q} ${limit}`).toBeGreaterThan(0);
        for (const zoned of [`ZONE:(h1) ${q}`, `ZONESPAN:(h1) (${q})`]) {
          expect(await answer(zoned, limit), `${zoned} limit ${limit}`).toEqual(plain);
        }
      }
    }
  });

  it('holds the limit: the table\'s limit x segments most frequent pooled, rare ones per segment', async () => {
    for (const q of ['ZONE:(h1) app*', 'ZONESPAN:(h1) app*', 'ZONE:(h1) *app*']) {
      // limit 1 x 2 segments: appa (40 rows) and appb (35) kept, appc (33, the other segment's) is not; each segment
      // keeps its one rare word besides (appy before appz in the dictionary, appx)
      expect(groups((await answer(q, 1)).rows), q).toEqual({ a: 40, b: 35, c: 0, rare: [302, 303] });
      expect(groups((await answer(q, 2)).rows), q).toEqual({ a: 40, b: 35, c: 33, rare: [301, 302, 303] });
      expect(groups((await answer(q, 0)).rows), q).toEqual({ a: 40, b: 35, c: 33, rare: [301, 302, 303] });
    }
  });
});
