// Values into int, bigint, float, bool and timestamp attributes over the real server, as searchd's INSERT
// converts them (searchd.cpp ConvertPlainAttr, src/engine/c-numbers.ts): a quoted value's leading number
// through strtoul / strtoll / strtod / GetUTC, a float (SQL literal or JSON double, held as a float)
// through int() / int64_t() (out of range: INT_MIN / INT64_MIN), an integer saturated at int64, a JSON
// integer past int64 as cJSON's uint64 (wrapped), past uint64 as a double; a bool keeps the low bit.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isLosslessNumber, parse } from 'lossless-json';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../helpers/server-process.js';

let dir: string;
let server: ServerProcess;
const NDJSON = { 'Content-Type': 'application/x-ndjson' };
const COLS = ['a', 'b', 'f', 'u', 'ts'] as const;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quarry-e2e-conv-'));
  // GetUTC reads a date in the server's time zone
  server = await startServer(join(dir, 'data'), { TZ: 'UTC' });
  await server.sql('CREATE TABLE t (title TEXT, a INT, b BIGINT, f FLOAT, u BOOL, ts TIMESTAMP)');
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

let nextId = 1;

/** The stored row of a document, each value as the raw /sql reply prints it. */
async function row(id: number): Promise<string[]> {
  const r = await server.post('/sql?mode=raw', `SELECT a, b, f, u, ts FROM t WHERE id = ${id}`);
  // numbers as printed: a bigint past 2^53 exact
  const data = (parse(r.text) as [{ data: Record<string, unknown>[] }])[0].data;
  expect(data).toHaveLength(1);
  return COLS.map((c) => { const v = data[0]![c]; return isLosslessNumber(v) ? v.value : String(v); });
}

/** The same value (SQL literal text, JSON text) into every column by SQL INSERT, /insert, /replace and /bulk. */
async function everyWay(sqlValue: string, jsonValue: string): Promise<string[][]> {
  const ids = [nextId++, nextId++, nextId++, nextId++];
  const sqlRes = await server.post('/sql?mode=raw', `INSERT INTO t (id, a, b, f, u, ts) VALUES (${ids[0]}, ${Array(5).fill(sqlValue).join(', ')})`);
  expect(JSON.parse(sqlRes.text)).toEqual([{ total: 1, error: '', warning: '' }]);
  const doc = `{${COLS.map((c) => `"${c}":${jsonValue}`).join(',')}}`;
  expect((await server.post('/insert', `{"table":"t","id":${ids[1]},"doc":${doc}}`)).status).toBe(200);
  expect((await server.post('/replace', `{"table":"t","id":${ids[2]},"doc":${doc}}`)).status).toBe(200);
  const bulk = await server.post('/bulk', `{"insert":{"table":"t","id":${ids[3]},"doc":${doc}}}\n`, NDJSON);
  expect(JSON.parse(bulk.text)).toMatchObject({ errors: false });
  return Promise.all(ids.map(row));
}

/** The row every way of writing gives: all four the same. */
async function stored(sqlValue: string, jsonValue: string = sqlValue): Promise<string[]> {
  const rows = await everyWay(sqlValue, jsonValue);
  for (const r of rows.slice(1)) expect(r).toEqual(rows[0]);
  return rows[0]!;
}

describe('a quoted value: its leading number (strtoul, strtoll, strtod; GetUTC for a timestamp)', () => {
  //                                      a (int)       b (bigint)              f (float)      u (bool) ts
  it("'1e5' is 1 in integers, 100000 in a float, 0 as a date", async () => {
    expect(await stored("'1e5'", '"1e5"')).toEqual(['1', '1', '100000.000000', '1', '0']);
  });
  it("'12abc' is 12, 'abc' and '' are 0, never an error", async () => {
    expect(await stored("'12abc'", '"12abc"')).toEqual(['12', '12', '12.000000', '0', '0']);
    expect(await stored("'abc'", '"abc"')).toEqual(['0', '0', '0.000000', '0', '0']);
    expect(await stored("''", '""')).toEqual(['0', '0', '0.000000', '0', '0']);
  });
  it("'-1' wraps in an int (strtoul), is -1 in a bigint", async () => {
    // (the timestamp left out: GetUTC reads '-1' as the year -1 through cctz's %Y)
    expect((await stored("'-1'", '"-1"')).slice(0, 4)).toEqual(['4294967295', '-1', '-1.000000', '1']);
  });
  it('past 64 bits: strtoul and strtoll saturate', async () => {
    expect(await stored("'99999999999999999999'", '"99999999999999999999"'))
      .toEqual(['4294967295', '9223372036854775807', '100000002004087734272.000000', '1', '4294967295']);
  });
  it("'true' and 'false' in a bool; a date or 5+ digits in a timestamp", async () => {
    expect((await stored("'true'", '"true"'))[3]).toBe('1');
    expect((await stored("'false'", '"false"'))[3]).toBe('0');
    expect((await stored("'2020-01-02'", '"2020-01-02"'))[4]).toBe('1577923200');
    expect((await stored("'2020-01-02T10:11:12'", '"2020-01-02T10:11:12"'))[4]).toBe('1577959872');
    expect((await stored("'123456'", '"123456"'))[4]).toBe('123456');
  });
  it("' 0x10' is 0 in integers (base 10) and 16 in a float (strtod reads hex)", async () => {
    expect(await stored("' 0x10'", '" 0x10"')).toEqual(['0', '0', '16.000000', '0', '0']);
  });
});

describe('a number', () => {
  it('1e5 (a float literal, a JSON double) is 100000; a bool keeps its low bit', async () => {
    expect(await stored('1e5')).toEqual(['100000', '100000', '100000.000000', '0', '100000']);
  });
  it('1.9 and -1.9 truncate', async () => {
    expect(await stored('1.9')).toEqual(['1', '1', '1.900000', '1', '1']);
    expect(await stored('-1.9')).toEqual(['4294967295', '-1', '-1.900000', '1', '4294967295']);
  });
  it('-1 into an int is 4294967295', async () => {
    expect(await stored('-1')).toEqual(['4294967295', '-1', '-1.000000', '1', '4294967295']);
  });
  it('a double out of range is the integer indefinite value: INT_MIN, INT64_MIN', async () => {
    expect(await stored('1e30')).toEqual(['2147483648', '-9223372036854775808', '1000000015047466219876688855040.000000', '0', '2147483648']);
  });
  it('an integer past int64: SQL saturates; JSON has uint64 wrapped, past uint64 a double', async () => {
    const [sql, json] = await everyWay('18446744073709551615', '18446744073709551615');
    expect(sql).toEqual(['4294967295', '9223372036854775807', '9223372036854775808.000000', '1', '4294967295']);
    expect(json).toEqual(['4294967295', '-1', '-1.000000', '1', '4294967295']);
    const [, past] = await everyWay('1', '99999999999999999999');
    expect(past).toEqual(['2147483648', '-9223372036854775808', '100000002004087734272.000000', '0', '2147483648']);
  });
});
