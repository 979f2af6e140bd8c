// A float literal past the 64-bit range in an integer filter (qa27's fuzzer: `WHERE n > 1e309` was an internal
// RangeError, BigInt of Infinity, in the plan encoder; 1e19 wrapped to a negative 64-bit value, so `id < 1e19`
// matched nothing). Such a value is above (or below) every value of the column, as a bigint one past it is.
import { expect, it } from 'vitest';
import { useTempEngine } from '../../helpers/temp-engine.js';
import type { RowsResult } from '../../../src/engine/index.js';

const t = useTempEngine('filter-huge-float', async (t) => {
  await t.exec('create table h (title text, n int, b bigint)');
  await t.exec("insert into h (id, title, n, b) values (1, 'a', 5, -7), (2, 'b', 6, 8)");
});

async function ids(where: string): Promise<unknown[]> {
  const out = await t.exec(`select id from h where ${where} order by id asc`);
  const r = out[out.length - 1] as RowsResult;
  if (r.kind !== 'rows') throw new Error(JSON.stringify(r));
  return r.rows.map((x) => x[0]);
}

it('1e309, -1e309 and 1e19 in an integer filter are past every value', async () => {
  expect(await ids('n > 1e309')).toEqual([]);
  expect(await ids('n < 1e309')).toEqual([1n, 2n]);
  expect(await ids('b > -1e309')).toEqual([1n, 2n]);
  expect(await ids('b <= -1e309')).toEqual([]);
  expect(await ids('id < 1e19')).toEqual([1n, 2n]);
  expect(await ids('id > -1e19')).toEqual([1n, 2n]);
  expect(await ids('n = 1e309')).toEqual([]);
  expect(await ids('n != 1e309')).toEqual([1n, 2n]);
  expect(await ids('n between -1e309 and 1e309')).toEqual([1n, 2n]);
  expect(await ids('n in (5, 1e309)')).toEqual([1n]);
});
