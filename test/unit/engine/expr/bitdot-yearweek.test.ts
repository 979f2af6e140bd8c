// BITDOT() and YEARWEEK() over a real engine, values hand-computed from Manticore's evaluators
// (sphinxexpr.cpp Expr_Bitdot_c, datetime.cpp CalcYearWeek) and its manual's examples.
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';
import { cellToSqlText } from '../../../../src/engine/values/cell-format.js';
import type { RowsResult } from '../../../../src/engine/index.js';

const t = useTempEngine('bitdot-yearweek', async (t) => {
  await t.exec('create table p (mask uint, big bigint, w float, ts timestamp)');
  await t.exec(`insert into p (id, mask, big, w, ts) values
    (1, 5, 10, 1.5, 1690848000), (2, 4, 20, 2, 1672531200), (3, 0, 30, 3, 1704067200)`);
});

async function text(sql: string): Promise<(string | null)[][]> {
  const out = await t.exec(sql);
  const r = out[out.length - 1] as RowsResult;
  if (r.kind !== 'rows') throw new Error(JSON.stringify(r));
  return r.rows.map((row) => row.map((v, i) => cellToSqlText(v as never, r.columns[i]!.kind)));
}

async function errorOf(sql: string): Promise<string> {
  const out = await t.exec(sql);
  const r = out[out.length - 1]!;
  return r.kind === 'error' ? r.message : 'no error';
}

describe('BITDOT()', () => {
  it('sums the weights of the set bits, in the widest argument type', async () => {
    // 5 = bits 0 and 2: 11 + 55; 4 = bit 2: 55; 0: nothing
    expect(await text('select id, bitdot(mask, 11, 33, 55) from p')).toEqual([['1', '66'], ['2', '55'], ['3', '0']]);
    // a bigint weight makes the sum bigint, a float one float (printed as %f)
    expect(await text('select id, bitdot(mask, big, 1, 2) from p where id=1')).toEqual([['1', '12']]);
    expect(await text('select id, bitdot(mask, w, 1, w) from p where id=1')).toEqual([['1', '3.000000']]);
    // bits past the last weight count nothing
    expect(await text('select bitdot(255, 1, 2) from p where id=1')).toEqual([['3']]);
  });

  it('refuses a non-integer mask and string weights with Manticore\'s errors', async () => {
    expect(await errorOf('select bitdot(w, 1) from p')).toBe('table p: parse error: first bitdot() argument must be integer');
    expect(await errorOf("select bitdot(mask, 'a') from p")).toBe('table p: parse error: bitdot() arguments can not be string');
  });
});

describe('YEARWEEK()', () => {
  it('is year*1000 + the day of the year of the week\'s Sunday, crossing back into the last year', async () => {
    // 2023-08-01 (Tuesday): Sunday 30 July is day 211 (the manual's 2023211); 2023-01-01 is a Sunday;
    // 2024-01-01 (Monday): Sunday 31 December 2023, day 365
    expect(await text('select id, yearweek(ts) from p')).toEqual([['1', '2023211'], ['2', '2023001'], ['3', '2023365']]);
    // 2021-01-01 (Friday): Sunday 27 December 2020, a leap year's day 362
    expect(await text('select yearweek(1609459200) from p where id=1')).toEqual([['2020362']]);
  });
});
