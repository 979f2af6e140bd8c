// POST /autocomplete (Manticore manual Searching/Autocomplete.md, Buddy's Autocomplete plugin): the
// result set in /sql?mode=raw's shape; Buddy's errors. quarry answered 404 before.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { newSession, openEngine, type Engine } from '../../../src/engine/index.js';
import { createHttpApp } from '../../../src/http/app.js';

let dir: string;
let engine: Engine;
let app: ReturnType<typeof createHttpApp>;

async function post(body: string) {
  const res = await app.request('/autocomplete', { method: 'POST', body });
  return { status: res.status, json: JSON.parse(await res.text()) as unknown };
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-autocomplete-'));
  engine = await openEngine({ dataDir: dir });
  app = createHttpApp({ engine, maxBodyBytes: 65536, onInternalError: () => {} });
  await engine.execute(`create table products(name text) min_infix_len='2'`, newSession());
  await engine.execute(`insert into products(id,name) values (1,'iphone')`, newSession());
});
afterEach(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

it('answers the manual force_bigrams example in the raw result-set shape', async () => {
  const r = await post('{"table":"products","query":"ipohne","options":{"force_bigrams":1}}');
  expect(r).toEqual({
    status: 200,
    json: [{ total: 1, error: '', warning: '', columns: [{ query: { type: 'string' } }], data: [{ query: 'iphone' }] }],
  });
  // options false/true and arrays as Buddy reads them; an unknown option is ignored
  const q = await post('{"table":"products","query":"iph","options":{"fuzziness":0,"prepend":false,"layouts":[],"other":1}}');
  expect((q.json as { data: unknown[] }[])[0]!.data).toEqual([{ query: 'iphone' }]);
});

it("gives Buddy's errors", async () => {
  expect(await post('{"table":"products"}')).toEqual({ status: 400, json: { error: 'Failed to parse query: make sure you have query and it is a string' } });
  expect(await post('{"query":"x"}')).toEqual({ status: 400, json: { error: 'Failed to parse query: make sure you have table and it is a string' } });
  expect((await post('{"table":"products","query":"gr","options":{"layouts":"ru"}}')).json).toEqual({ error: 'At least two languages are required in layouts' });
  expect((await post('{"table":"products","query":"gr","options":{"fuzziness":-1}}')).json).toEqual({ error: 'Fuzziness must be greater than 0 and lower than 3' });
});
