import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newSession, openEngine, type Engine } from '../../../src/engine/index.js';
import { createHttpApp } from '../../../src/http/app.js';
import { EngineDouble } from './engine-double.js';

let dir: string;
let engine: Engine;
let app: ReturnType<typeof createHttpApp>;

async function post(path: string, body: string, headers: Record<string, string> = {}) {
  const res = await app.request(path, { method: 'POST', body, headers });
  return { status: res.status, text: await res.text() };
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-json-http-'));
  engine = await openEngine({ dataDir: dir });
  app = createHttpApp({ engine, maxBodyBytes: 4096, onInternalError: () => {} });
  await engine.execute('create table t (title text, price float, tags multi)', newSession());
});
afterEach(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('JSON write endpoints', () => {
  it('/insert answers 200 with the seed and Manticore field names, ids exact', async () => {
    const r = await post('/insert', '{"index":"t","id":1513686608316989453,"doc":{"title":"a","price":2.2}}');
    expect(r.status).toBe(200);
    expect(r.text).toBe('{"_index":"t","table":"t","_id":1513686608316989453,"id":1513686608316989453,"created":true,"result":"created","status":201}');
    const s = await post('/search', '{"table":"t","query":{"match":{"*":"a"}}}');
    expect(s.text).toContain('"_id":1513686608316989453');
    expect(s.text).toContain('"price":2.200000');
  });

  it('/replace and /index answer created:false', async () => {
    const r = await post('/index', '{"table":"t","id":5,"doc":{"title":"a"}}');
    expect(JSON.parse(r.text)).toMatchObject({ created: false, result: 'updated', status: 200 });
  });

  it('errors: 409 validation, 400 parse, both with the table', async () => {
    await post('/insert', '{"table":"t","id":1,"doc":{}}');
    const dup = await post('/create', '{"table":"t","id":1,"doc":{}}');
    expect(dup.status).toBe(409);
    expect(JSON.parse(dup.text)).toEqual({ error: { type: 'action_request_validation_exception', reason: "duplicate id '1'", table: 't' }, status: 409 });
    const bad = await post('/update', '{"table":"t","id":1,"doc":{"price":null}}');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text)).toEqual({ error: { type: 'parse_exception', reason: "unsupported value type 'null' in field 'price'", table: 't' }, status: 400 });
    const broken = await post('/insert', '{"table":"t",');
    expect(broken.status).toBe(400);
    expect(JSON.parse(broken.text).error.type).toBe('parse_exception');
  });

  it('/update and /delete shapes by id and by query', async () => {
    await post('/insert', '{"table":"t","id":1,"doc":{"title":"a","price":1}}');
    expect(JSON.parse((await post('/update', '{"table":"t","id":1,"doc":{"price":3}}')).text))
      .toEqual({ _index: 't', table: 't', _id: 1, id: 1, result: 'updated' });
    expect(JSON.parse((await post('/update', '{"table":"t","doc":{"price":4},"query":{"match":{"*":"a"}}}')).text))
      .toEqual({ _index: 't', table: 't', updated: 1 });
    expect(JSON.parse((await post('/delete', '{"table":"t","id":2}')).text))
      .toEqual({ _index: 't', table: 't', _id: 2, id: 2, found: false, result: 'not found' });
    expect(JSON.parse((await post('/delete', '{"table":"t","query":{"range":{"price":{"gt":3.5}}}}')).text))
      .toEqual({ _index: 't', table: 't', deleted: 1 });
  });
});

describe('/search', () => {
  it('unknown table is 500, shape errors 400, query errors 500 with path', async () => {
    expect(await post('/search', '{"table":"x"}')).toEqual({ status: 500, text: '{"error":"unknown local table(s) \'x\' in search request"}' });
    const two = await post('/search', '{"table":"t","query":{"equals":{"price":1},"in":{"price":[2]}}}');
    expect(two).toEqual({ status: 400, text: '{"error":"\\"query\\" has multiple filter properties, use bool node"}' });
    const q = await post('/search', '{"table":"t","query":{"query_string":"a/b"}}');
    expect(q.status).toBe(500);
    expect(JSON.parse(q.text).error).toBe("table t: query error: P08: syntax error, unexpected '/' near '/b' at '/query/query_string'");
  });

  it('also answers under /json/ and to GET', async () => {
    expect((await post('/json/search', '{"table":"t"}')).status).toBe(200);
    expect((await app.request('/search', { method: 'GET' })).status).toBe(400);
  });
});

describe('/bulk', () => {
  const NDJSON = { 'Content-Type': 'application/x-ndjson' };

  it('needs the NDJSON Content-Type', async () => {
    const r = await post('/bulk', '{}', { 'Content-Type': 'application/json' });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text)).toEqual({ error: { type: 'parse_exception', reason: 'Content-Type must be application/x-ndjson' }, status: 400 });
  });

  it('answers one item per run with the line counters', async () => {
    const r = await post('/bulk', '{"insert":{"table":"t","id":1,"doc":{"title":"a"}}}\n{"insert":{"table":"t","id":2,"doc":{}}}', NDJSON);
    expect(r.status).toBe(200);
    expect(r.text).toBe('{"items":[{"bulk":{"table":"t","_id":2,"created":2,"deleted":0,"updated":0,"result":"created","status":201}}],' +
      '"current_line":2,"skipped_lines":0,"errors":false,"error":""}');
  });

  it('a duplicate id is 500 with the failed line item; a parse error 400', async () => {
    await post('/insert', '{"table":"t","id":1,"doc":{}}');
    const dup = await post('/bulk', '{"insert":{"table":"t","id":1,"doc":{}}}', NDJSON);
    expect(dup.status).toBe(500);
    expect(JSON.parse(dup.text)).toEqual({ items: [{ insert: { error: { type: "duplicate id '1'", table: 't' }, status: 409 } }],
      current_line: 1, skipped_lines: 1, errors: true, error: "duplicate id '1'" });
    const bad = await post('/bulk', '{"insert":', NDJSON);
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text)).toMatchObject({ errors: true, error: 'unable to parse: :' }); // cJSON: stopped at the end, its pointer on the last character
  });

  it('a write into a missing table names it as Manticore\'s INSERT does; update/delete as its UPDATE/DELETE do', async () => {
    for (const op of ['insert', 'replace']) {
      const r = await post('/bulk', `{"${op}":{"table":"nope","id":1,"doc":{}}}`, NDJSON);
      expect(JSON.parse(r.text)).toMatchObject({ items: [{ [op]: { error: { type: "table 'nope' absent", table: 'nope' } } }], error: "table 'nope' absent" });
    }
    // sphHandleMysqlUpdate/Delete (src/searchd.cpp) check the table ahead of any search; /bulk, /update, /delete use them
    const del = await post('/bulk', '{"delete":{"table":"nope","id":1}}', NDJSON);
    expect(JSON.parse(del.text).error).toBe("unknown table 'nope' in delete request");
    const upd = await post('/bulk', '{"update":{"table":"nope","id":1,"doc":{"gid":2}}}', NDJSON);
    expect(JSON.parse(upd.text).error).toBe("unknown table 'nope' in update request");
    expect((await post('/update', '{"table":"nope","id":1,"doc":{"gid":2}}')).text).toContain("unknown table 'nope' in update request");
    expect((await post('/delete', '{"table":"nope","id":1}')).text).toContain("unknown table 'nope' in delete request");
  });

  it('an oversized body is refused with 413 and nothing is written', async () => {
    const big = `{"insert":{"table":"t","id":7,"doc":{"title":"${'x'.repeat(5000)}"}}}`;
    expect((await post('/bulk', big, NDJSON)).status).toBe(413);
    const s = await post('/search', '{"table":"t"}');
    expect(JSON.parse(s.text).hits.total).toBe(0);
  });
});

describe('an engine without a JSON API', () => {
  it('answers the JSON endpoints as unsupported', async () => {
    const bare = createHttpApp({ engine: new EngineDouble({}) });
    const res = await bare.request('/insert', { method: 'POST', body: '{}' });
    expect(res.status).toBe(501);
  });
});

describe('JSON attribute integers past 2^53 over HTTP', () => {
  it('/search _source and /sql keep int64 values exact', async () => {
    const s = newSession();
    await engine.execute('create table jb (title text, j json)', s);
    await engine.execute(`insert into jb (id, title, j) values (1, 'a', '{"m":9007199254740993,"n":-9223372036854775807}')`, s);
    const found = await post('/search', '{"table":"jb"}');
    expect(found.text).toContain('"m":9007199254740993');
    const viaSql = await post('/sql', 'query=' + encodeURIComponent('SELECT j.m, j.n, j FROM jb'), { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(viaSql.text).toContain('9007199254740993');
    expect(viaSql.text).toContain('-9223372036854775807');
    expect(viaSql.text).not.toContain('9007199254740992');
  });
});
