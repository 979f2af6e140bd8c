// ZONE:(z) and ZONESPAN:(z) over index_zones tags: hits must lie inside a listed zone's span;
// ZONESPAN needs all the words inside one span.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newSession, openEngine, type Engine, type RowsResult } from '../../../../src/engine/index.js';

let dir: string;
let engine: Engine;
const session = newSession();

const match = async (q: string): Promise<number[]> => {
  const out = await engine.execute(`select id from t where match('${q}') order by id asc`, session);
  const r = out[out.length - 1] as RowsResult;
  if (r.kind !== 'rows') throw new Error(JSON.stringify(r));
  return r.rows.map((x) => Number(x[0]));
};

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-zones-'));
  engine = await openEngine({ dataDir: dir });
  await engine.execute("create table t (title text) html_strip='1' index_zones='h1,h2'", session);
  await engine.execute(`insert into t (id, title) values
    (1, '<h1>hello world</h1> some text <h2>bold hello</h2>'),
    (2, '<h2>alpha</h2> x <h2>beta</h2> gamma'),
    (3, 'hello bold alpha beta, no zones')`, session);
});
afterEach(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('ZONE', () => {
  it('keeps words inside the zone', async () => {
    expect(await match('ZONE:(h1) hello')).toEqual([1]);
    expect(await match('ZONE:(h1) bold')).toEqual([]);
    expect(await match('ZONE:(h2) bold')).toEqual([1]);
    expect(await match('ZONE:(h1,h2) text')).toEqual([]);
    expect(await match('ZONE:(h1,h2) bold')).toEqual([1]);
    expect(await match('ZONE:(h2) gamma')).toEqual([]);
  });
  it('phrases and ANDs inside a zone', async () => {
    expect(await match('ZONE:(h1) "hello world"')).toEqual([1]);
    expect(await match('ZONE:(h2) "bold hello"')).toEqual([1]);
    expect(await match('ZONE:(h2) alpha beta')).toEqual([2]);
  });
});

describe('ZONESPAN', () => {
  it('needs every word inside one span of the zone', async () => {
    expect(await match('ZONESPAN:(h2) bold hello')).toEqual([1]);
    expect(await match('ZONESPAN:(h2) alpha beta')).toEqual([]);
    expect(await match('ZONESPAN:(h1) hello bold')).toEqual([]);
  });
});
