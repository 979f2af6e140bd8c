// Filters with values past 64 bits (src/index/attr-filters.ts past64Filter): the core keeps a value's
// low 64 bits, so `id = 2^64+1` was `id = 1`, and an UPDATE or DELETE by it changed the row with id 1;
// past a column's values too (an id or uint filter's 2^63..2^64-1, read as negative).
// Each answer is checked against the rows compared as exact integers, after the SQL literal's own reading
// (refused or saturated to int64, as searchd does: below).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSession, openEngine, type Engine, type RowsResult } from '../../../src/engine/index.js';

let dir: string;
let engine: Engine;
const session = newSession();
const P64 = 1n << 64n;
const ROWS: [bigint, bigint][] = [[1n, 1n], [2n, -1n], [3n, 9223372036854775807n], [4n, -9223372036854775808n]];

async function run(text: string) {
  const out = await engine.execute(text, session);
  const r = out[out.length - 1]!;
  if (r.kind === 'error') throw new Error(r.message);
  return r;
}
const ids = async (where: string) => ((await run(`select id from t where ${where} order by id asc`)) as RowsResult).rows.map((r) => r[0] as bigint);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-attr-filters-'));
  engine = await openEngine({ dataDir: dir });
  await run('create table t (title text, b bigint)');
  await run(`insert into t (id, title, b) values ${ROWS.map(([id, b]) => `(${id}, 'x', ${b})`).join(', ')}`);
});
afterAll(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

// Past int64 a literal is read as Manticore reads it (SqlNode_t::GetValueInt, src/sql/literals.ts i64Literal):
// after `=`, `!=` and in an id list it is refused with searchd's out-of-range error; after `<`, `>`, BETWEEN
// and in other lists it saturates to the nearest int64, then compares exactly.
const OUT_OF_RANGE = /is out of range \[-9223372036854775808\.\.9223372036854775807\]/;
const MAX = (1n << 63n) - 1n;
const MIN = -(1n << 63n);

describe('a filter value past 64 bits', () => {
  const cases: [string, ((id: bigint, b: bigint) => boolean) | 'error'][] = [
    [`id = ${P64 + 1n}`, 'error'],
    [`id in (${P64 + 1n}, ${P64 + 2n}, 3)`, 'error'],
    [`id != ${P64 + 1n}`, 'error'],
    [`b = ${P64 + 1n}`, 'error'],
    [`b = ${-P64 - 1n}`, 'error'],
    [`b in (${P64 - 1n})`, (_, b) => b === MAX],
    [`b > ${P64 + 1n}`, () => false],
    [`b < ${P64 + 1n}`, (_, b) => b < MAX],
    [`b >= ${-P64 - 5n}`, () => true],
    [`b <= ${-P64 - 5n}`, (_, b) => b === MIN],
    [`b between ${-P64 - 5n} and ${P64 + 5n}`, () => true],
    [`b between 0 and ${P64 + 5n}`, (_, b) => b >= 0n],
    [`b between ${P64} and ${P64 + 5n}`, (_, b) => b === MAX],
    [`b not in (${P64 + 1n})`, (_, b) => b !== MAX],
    // ids hold 1..2^63-1 (INSERT refuses more): 2^63..2^64-1 are never the negative ids
    [`id < ${1n << 63n}`, () => true],
    [`id <= ${P64 - 1n}`, () => true],
    [`id > ${P64 - 1n}`, () => false],
    [`id >= ${1n << 63n}`, () => false],
    [`id = ${P64 - 1n}`, 'error'],
    [`id != ${P64 - 1n}`, 'error'],
    [`id in (${1n << 63n}, 2)`, 'error'],
    [`id between 2 and ${P64 - 1n}`, (id) => id >= 2n],
  ];
  it.each(cases)('WHERE %s', async (where, keep) => {
    if (keep === 'error') await expect(ids(where)).rejects.toThrow(OUT_OF_RANGE);
    else expect(await ids(where)).toEqual(ROWS.filter(([id, b]) => keep(id, b)).map(([id]) => id));
  });

  it('UPDATE and DELETE by such an id change nothing', async () => {
    await expect(run(`update t set b = 5 where id = ${P64 + 1n}`)).rejects.toThrow(OUT_OF_RANGE);
    await expect(run(`delete from t where id in (${P64 + 1n}, ${P64 + 2n})`)).rejects.toThrow(OUT_OF_RANGE);
    // read as -1, 2^64-1 made this every row
    expect(await run(`delete from t where id > ${P64 - 1n}`)).toMatchObject({ kind: 'ok', affected: 0 });
    expect(await run(`update t set b = 5 where id >= ${1n << 63n}`)).toMatchObject({ kind: 'ok', affected: 0 });
    const all = (await run('select id, b from t order by id asc')) as RowsResult;
    expect(all.rows).toEqual(ROWS.map(([id, b]) => [id, b]));
  });
});

describe('a filter value past 64 bits on a uint column', () => {
  // the literal reached the filter as a Number: 2^64+1 was 2^64, which the core's 64-bit words read as 0
  const U_ROWS: [bigint, number][] = [[1n, 0], [2n, 7], [3n, 4294967295]];
  beforeAll(async () => {
    await run('create table u (title text, u uint)');
    await run(`insert into u (id, title, u) values ${U_ROWS.map(([id, u]) => `(${id}, 'x', ${u})`).join(', ')}`);
  });
  const cases: [string, ((u: number) => boolean) | 'error'][] = [
    [`u = ${P64}`, 'error'],
    [`u = ${P64 + 1n}`, 'error'],
    [`u in (${P64}, 7)`, (u) => u === 7],
    [`u != ${P64 + 1n}`, 'error'],
    [`u < ${P64 + 1n}`, () => true],
    [`u between 1 and ${P64 + 1n}`, (u) => u >= 1],
    [`u > ${P64 + 1n}`, () => false],
    // an unsigned column holds none of 2^63..2^64-1 either (read as -1, 2^64-1 kept no row under <=)
    [`u <= ${P64 - 1n}`, () => true],
    [`u between 1 and ${P64 - 1n}`, (u) => u >= 1],
    [`u = ${P64 - 1n}`, 'error'],
    [`u > ${1n << 63n}`, () => false],
  ];
  it.each(cases)('WHERE %s', async (where, keep) => {
    const got = async () => ((await run(`select id from u where ${where} order by id asc`)) as RowsResult).rows.map((r) => r[0] as bigint);
    if (keep === 'error') await expect(got()).rejects.toThrow(OUT_OF_RANGE);
    else expect(await got()).toEqual(U_ROWS.filter(([, u]) => keep(u)).map(([id]) => id));
  });

  it('UPDATE by such a value is refused and changes nothing', async () => {
    await expect(run(`update u set u = 5 where u = ${P64 + 1n}`)).rejects.toThrow(OUT_OF_RANGE);
    const all = (await run('select id, u from u order by id asc')) as RowsResult;
    expect(all.rows.map((r) => Number(r[1]))).toEqual(U_ROWS.map(([, u]) => u));
  });
});
