// A huge LIMIT with a max_matches as huge: the window (offset + limit, capped by max_matches) was the K of
// every segment's top-K, and the WASM core allocates K result pairs up front: LIMIT 2000000000 OPTION
// max_matches=2000000000 asked 16 GB of its memory and answered 'quarry wasm core: assertion failed at
// 461:29'. A segment yields no more matches than its rows, so K is capped by those; Manticore answers rows.
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

// over DEADLINE_STEP_ROWS (16,384) rows after OPTIMIZE: a search under max_query_time steps through ranges
const ROWS = 17_000;

const t = useTempEngine('huge-window-select', async (t) => {
  await t.exec('create table w (title text, n int)');
  for (let b = 0; b < ROWS; b += 5000) {
    const values = Array.from({ length: Math.min(5000, ROWS - b) }, (_, i) => `(${b + i + 1}, 'word w${(b + i) % 7}', ${(b + i) % 100})`).join(', ');
    await t.exec(`insert into w (id, title, n) values ${values}`);
  }
  await t.exec('optimize table w option sync=1');
});

const HUGE = 'limit 2000000000 option max_matches=2000000000';

describe('LIMIT and max_matches of 2,000,000,000', () => {
  it('a full scan, a ranked match and an ordered scan answer their rows', async () => {
    expect((await t.rows(`select id from w ${HUGE}`)).length).toBe(ROWS);
    const ranked = await t.rows(`select id from w where match('w3') ${HUGE}`);
    expect(ranked.length).toBe(Array.from({ length: ROWS }, (_, i) => i % 7 === 3).filter(Boolean).length);
    const ordered = await t.rows(`select id, n from w where n > 97 order by n desc, id asc ${HUGE}`);
    expect(ordered.length).toBe(ROWS / 100 * 2);
    expect(ordered[0]).toEqual([100n, 99]); // id i + 1 holds n = i % 100
  });
  it('with an offset past the matches: an empty page, not an error', async () => {
    expect(await t.rows(`select id from w where match('w3') limit 1999999999, 1 option max_matches=2000000000`)).toEqual([]);
  });
  it('under max_query_time (the search steps through ranges of the optimized segment)', async () => {
    expect((await t.rows(`select id from w ${HUGE}, max_query_time=100000`)).length).toBe(ROWS);
  });
});
