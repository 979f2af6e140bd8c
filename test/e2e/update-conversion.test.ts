// HTTP /update values into int, bigint, float and bool attributes, over loopback to the real server, as
// searchd's JSON update path types them (sphinxjsonquery.cpp ParseJsonUpdate: a JSON integer or bool
// as its int64, typed bigint when its high 32 bits are set; a double as a float) and stores them
// (sphinx.cpp PrepareListOfUpdatedAttributes, Update_Plain): an int column keeps the low 32 bits, a
// float column takes float(int64) of a bigint, a bigint column int64(float) of a float.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isLosslessNumber, parse } from 'lossless-json';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../helpers/server-process.js';

let dir: string;
let server: ServerProcess;
let nextId = 1;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quarry-e2e-upd-'));
  server = await startServer(join(dir, 'data'));
  await server.sql('CREATE TABLE t (title TEXT, a INT, b BIGINT, f FLOAT, u BOOL)');
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** A fresh row of zeros, `/update`d with the same JSON value into every column; the stored row as printed. */
async function updated(jsonValue: string, cols = ['a', 'b', 'f', 'u']): Promise<Record<string, string>> {
  const id = nextId++;
  await server.sql(`INSERT INTO t (id, a, b, f, u) VALUES (${id}, 0, 0, 0, 0)`);
  const res = await server.post('/update', `{"table":"t","id":${id},"doc":{${cols.map((c) => `"${c}":${jsonValue}`).join(',')}}}`);
  expect(res.status).toBe(200);
  expect(JSON.parse(res.text)).toMatchObject({ table: 't', id, result: 'updated' });
  const r = await server.post('/sql?mode=raw', `SELECT a, b, f, u FROM t WHERE id = ${id}`);
  const row = (parse(r.text) as [{ data: Record<string, unknown>[] }])[0].data[0]!;
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, isLosslessNumber(v) ? v.value : String(v)]));
}

describe('/update: integers and bools (searchd: int64, bigint-typed past 32 bits)', () => {
  it('a small integer is itself in every column', async () => {
    expect(await updated('7')).toEqual({ a: '7', b: '7', f: '7.000000', u: '1' });
  });

  it('-1: the int column keeps the low 32 bits, bigint and float the value', async () => {
    expect(await updated('-1', ['a', 'b', 'f'])).toEqual({ a: '4294967295', b: '-1', f: '-1.000000', u: '0' });
  });

  it('past 32 bits: the int column wraps, the bigint keeps it, the float rounds it', async () => {
    expect(await updated('5000000000', ['a', 'b', 'f'])).toEqual({ a: '705032704', b: '5000000000', f: '5000000000.000000', u: '0' });
    expect(await updated('9223372036854775807', ['b'])).toEqual({ a: '0', b: '9223372036854775807', f: '0.000000', u: '0' });
  });

  it('true and false are 1 and 0', async () => {
    expect(await updated('true')).toEqual({ a: '1', b: '1', f: '1.000000', u: '1' });
    expect(await updated('false')).toEqual({ a: '0', b: '0', f: '0.000000', u: '0' });
  });
});

describe('/update: a double (searchd: a float, then int64(float) into a bigint)', () => {
  it('goes through float precision into a bigint and truncates', async () => {
    expect(await updated('3.7', ['b', 'f'])).toEqual({ a: '0', b: '3', f: '3.700000', u: '0' });
    // 16777217 is not a float: searchd stores float(16777217.0) = 16777216
    expect(await updated('16777217.0', ['b'])).toEqual({ a: '0', b: '16777216', f: '0.000000', u: '0' });
    expect(await updated('-2.5', ['b'])).toEqual({ a: '0', b: '-2', f: '0.000000', u: '0' });
  });
});
