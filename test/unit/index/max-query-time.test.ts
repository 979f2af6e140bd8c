// OPTION max_query_time: segments searched after the deadline are skipped, the answer keeps what was
// found and says so (Manticore's `query time exceeded max_query_time` warning). The clock is faked so
// that the deadline passes during the first segment.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEADLINE_STEP_ROWS } from '../../../src/index/search.js';
import { useTempEngine } from '../../helpers/temp-engine.js';

const t = useTempEngine('max-query-time', async (t) => {
  await t.exec('create table t (title text)');
  // one INSERT per segment: a read after each seals the RAM tail (src/index/ram-tail.ts) into a segment
  for (const id of [1, 2, 3]) {
    await t.exec(`insert into t (id, title) values (${id}, 'apple')`);
    await t.exec('select id from t');
  }
});

afterEach(() => { vi.restoreAllMocks(); });

describe('OPTION max_query_time', () => {
  it('stops after the deadline with a warning; without it every segment is searched', async () => {
    expect(await t.rows("select id from t where match('apple') order by id asc")).toEqual([[1n], [2n], [3n]]);
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (now += 10_000));
    const partial = await t.rows("select id from t where match('apple') order by id asc option max_query_time=1");
    vi.restoreAllMocks();
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(3);
    expect((await t.rows('show meta')).find((r) => r[0] === 'warning')).toEqual(['warning', 'query time exceeded max_query_time']);
  });

  it('max_query_time=0 means no limit', async () => {
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (now += 10_000));
    expect(await t.rows("select id from t where match('apple') order by id asc option max_query_time=0")).toEqual([[1n], [2n], [3n]]);
  });
});

describe('OPTION max_query_time on one big segment', () => {
  const ROWS = 2 * DEADLINE_STEP_ROWS + 100;
  const big = useTempEngine('max-query-time-big', async (t) => {
    await t.exec('create table b (title text, n int)');
    for (let from = 0; from < ROWS; from += 4000) {
      const values = Array.from({ length: Math.min(4000, ROWS - from) }, (_, i) => `(${from + i + 1}, 'apple pie', ${i})`);
      await t.exec(`insert into b (id, title, n) values ${values.join(',')}`);
    }
    await t.exec('optimize table b'); // one segment
  });

  it('stops inside the segment, between steps of rows, with the warning', async () => {
    expect(await big.rows("select count(*) from b where match('apple')")).toEqual([[BigInt(ROWS)]]);
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (now += 10_000));
    const partial = await big.rows("select id from b where match('apple') limit 5 option max_query_time=1");
    vi.restoreAllMocks();
    expect(partial.length).toBe(5);
    const meta = new Map((await big.rows('show meta')).map((r) => [r[0], r[1]]));
    expect(meta.get('warning')).toBe('query time exceeded max_query_time');
    // the first step of rows was searched, the rest skipped
    expect(Number(meta.get('total_found'))).toBe(DEADLINE_STEP_ROWS);
  }, 30_000);
});
