// JSON request bodies over the real server, read as searchd's cJSON reads them (src/http/cjson-parse.ts):
// text after the first value ignored, a repeated key's first value (an insert's doc naming a column twice
// is refused as INSERT's column list is), nesting past 1000 refused at the bracket past the limit.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../helpers/server-process.js';

let dir: string;
let server: ServerProcess;
const NDJSON = { 'Content-Type': 'application/x-ndjson' };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quarry-e2e-cjson-'));
  server = await startServer(join(dir, 'data'), {}, ['--max-body', '8m']);
  await server.sql('CREATE TABLE t (title TEXT, price INT)');
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

const ids = async (body: string): Promise<number[]> => {
  const r = await server.post('/search', body);
  expect(r.status).toBe(200);
  return (JSON.parse(r.text) as { hits: { hits: { _id: number }[] } }).hits.hits.map((h) => Number(h._id));
};

describe('trailing text after the top-level value', () => {
  it('is ignored by /insert, /search and /bulk lines, as cJSON_Parse without require_null_terminated', async () => {
    const ins = await server.post('/insert', '{"table":"t","id":1,"doc":{"title":"red apple","price":3}} trailing {garbage');
    expect(ins.status).toBe(200);
    expect(JSON.parse(ins.text)).toMatchObject({ id: 1, created: true });
    const bulk = await server.post('/bulk', '{"insert":{"table":"t","id":2,"doc":{"title":"red pear","price":5}}}}}]\n', NDJSON);
    expect(JSON.parse(bulk.text)).toMatchObject({ errors: false });
    expect(await ids('{"table":"t","query":{"match":{"title":"red"}},"sort":[{"id":"asc"}]}}}} xyz')).toEqual([1, 2]);
  });

  it('a body that breaks before its first value ends is still refused, from where cJSON stopped', async () => {
    const r = await server.post('/search', '{"table":"t","query":{"match":{"title":"red"}} x');
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text)).toEqual({ error: 'unable to parse: x' });
  });
});

describe('a repeated key', () => {
  it('takes the first value where searchd looks a key up (cJSON_GetObjectItem)', async () => {
    expect(await ids('{"table":"t","query":{"match_all":{}},"sort":[{"id":"asc"}],"limit":1,"limit":5}')).toEqual([1]);
    expect(await ids('{"table":"t","table":"missing","query":{"match":{"title":"pear"}}}')).toEqual([2]);
    const rep = await server.post('/replace', '{"table":"t","id":7,"id":8,"doc":{"title":"green"}}');
    expect(JSON.parse(rep.text)).toMatchObject({ id: 7 });
  });

  it('in an insert doc names the column twice: refused as INSERT is, in any case, nothing written', async () => {
    const twice = { error: { type: 'action_request_validation_exception', reason: "column 'price' specified twice", table: 't' }, status: 409 };
    for (const doc of ['{"price":1,"title":"x","price":2}', '{"Price":1,"price":2}']) {
      const r = await server.post('/insert', `{"table":"t","id":20,"doc":${doc}}`);
      expect(r.status).toBe(409);
      expect(JSON.parse(r.text)).toEqual(twice);
    }
    const bulk = await server.post('/bulk', '{"insert":{"table":"t","id":21,"doc":{"title":"a","title":"b"}}}\n', NDJSON);
    expect(JSON.parse(bulk.text)).toMatchObject({ errors: true, error: "column 'title' specified twice" });
    // the SQL statement's own column list, over /sql as over MySQL
    expect(await server.sql('INSERT INTO t (id, price, PRICE) VALUES (22, 1, 2)')).toMatchObject({ error: "column 'price' specified twice" });
    expect(await server.sql('SELECT id FROM t WHERE id IN (20, 21, 22)')).toMatchObject([{ total: 0 }]);
  });
});

describe('nesting', () => {
  const deepSearch = (depth: number) => `{"table":"t","query":{"match_all":{}},"x":${'['.repeat(depth)}1${']'.repeat(depth)}}`;

  it('1000 levels parse; the bracket past them is where the error points', async () => {
    // 998 arrays inside the body object's 2 levels: parsed, then the unknown key is what is refused
    const ok = await server.post('/search', deepSearch(999));
    expect(ok.text).not.toContain('unable to parse');
    const r = await server.post('/search', deepSearch(1000));
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text).error).toBe(`unable to parse: [1${']'.repeat(1000)}}`);
  });

  it('10^5 and 10^6 nested arrays are refused without a stack overflow, and the server answers on', async () => {
    for (const depth of [100_000, 1_000_000]) {
      const body = `${'['.repeat(depth)}${']'.repeat(depth)}`;
      const r = await server.post('/search', body);
      expect(r.status).toBe(400);
      expect(JSON.parse(r.text).error).toBe(`unable to parse: ${body.slice(1000)}`);
      const bulk = await server.post('/bulk', `${body}\n`, NDJSON);
      expect(JSON.parse(bulk.text)).toMatchObject({ errors: true });
    }
    expect(await ids('{"table":"t","query":{"match":{"title":"apple"}}}')).toEqual([1]);
    expect(server.output()).not.toMatch(/Maximum call stack|RangeError/);
  }, 60_000);
});
