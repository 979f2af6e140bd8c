// expansion_limit weighs a wildcard's expansions over the whole table as searchd's RT index does over
// its RAM chunk's segments (sphinxrt.cpp DictEntryRtPayload_t::Convert): expansions with >= 32 documents
// and >= 256 hits in their segment are pooled over the segments and the table's `limit` x segments most
// frequent kept; rarer ones are clipped per segment, apart from them. Before, each segment kept its own
// `limit` most frequent of all its expansions.
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

/** `n` rows from `first`, each holding `word` ten times (so n >= 32 rows make a frequent expansion). */
function rowsOf(first: number, n: number, word: string): string {
  return Array.from({ length: n }, (_, i) => `(${first + i}, '${Array(10).fill(word).join(' ')}')`).join(', ');
}

const t = useTempEngine('expansion-limit-table', async (t) => {
  // optimize_cutoff keeps the two segments apart (the idle compaction would merge them into one); a read
  // seals the writes before it into a segment (ram-tail.ts)
  await t.exec("create table two (title text) min_prefix_len='3' optimize_cutoff='10'");
  // segment 1: appa in 40 rows, appb in 35 (400 and 350 hits); segment 2: appc in 33 rows (330 hits)
  await t.exec(`insert into two (id, title) values ${rowsOf(1, 40, 'appa')}, ${rowsOf(101, 35, 'appb')}`);
  await t.exec('select id from two limit 1');
  await t.exec(`insert into two (id, title) values ${rowsOf(201, 33, 'appc')}`);
  await t.exec('select id from two limit 1');
  await t.exec("create table one (title text) min_prefix_len='3'");
  await t.exec(`insert into one (id, title) values ${rowsOf(1, 40, 'appa')}, (301, 'appz'), (302, 'appy')`);
});

async function found(sql: string): Promise<{ a: number; b: number; c: number; rare: number[] }> {
  const ids = (await t.rows(sql)).map((r) => Number(r[0]));
  const n = (lo: number, hi: number) => ids.filter((i) => i >= lo && i < hi).length;
  return { a: n(1, 100), b: n(101, 200), c: n(201, 300), rare: ids.filter((i) => i >= 300).sort((x, y) => x - y) };
}

describe('expansion_limit over a table of several segments', () => {
  it('pools the frequent expansions of every segment: the table keeps its limit x segments most frequent', async () => {
    const status = await t.rows('show table two status');
    expect(status.find((r) => r[0] === 'ram_chunk_segments_count')?.[1]).toBe('2');
    // limit 1 x 2 segments: appa (40 rows) and appb (35) are kept, appc (33, the other segment's only one) is not;
    // per segment it was appa and appc
    expect(await found("select id from two where match('app*') limit 1000 option expansion_limit=1")).toEqual({ a: 40, b: 35, c: 0, rare: [] });
    expect(await found("select id from two where match('app*') limit 1000 option expansion_limit=2")).toEqual({ a: 40, b: 35, c: 33, rare: [] });
    expect(await found("select id from two where match('app*') limit 1000")).toEqual({ a: 40, b: 35, c: 33, rare: [] });
  });

  it('clips rare expansions apart from the frequent ones: one segment keeps limit of each', async () => {
    // appa is frequent, appy and appz rare (1 row each, ranked alike: the first in the dictionary stays);
    // before, limit 1 kept appa alone
    expect(await found("select id from one where match('app*') limit 1000 option expansion_limit=1")).toEqual({ a: 40, b: 0, c: 0, rare: [302] });
    expect(await found("select id from one where match('app*') limit 1000 option expansion_limit=2")).toEqual({ a: 40, b: 0, c: 0, rare: [301, 302] });
  });
});
