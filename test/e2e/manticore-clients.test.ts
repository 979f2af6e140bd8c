// Manticore's own npm clients, unchanged, against a real quarry server: manticoresearch 3.x
// (CommonJS, sends `index`) and manticoresearch-ts 8.x (sends `table`, raw SQL to /sql?raw_response=true).
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../helpers/server-process.js';

const require = createRequire(import.meta.url);
/* eslint-disable @typescript-eslint/no-explicit-any */
const ManticoreJs: any = require('manticoresearch');
const ManticoreTs: any = require('manticoresearch-ts');

let dir: string;
let server: ServerProcess;
let base: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-clients-'));
  server = await startServer(dir);
  base = `http://127.0.0.1:${server.httpPort}`;
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const ids = (res: any) => res.hits.hits.map((h: any) => Number(h._id));

describe('manticoresearch 3.x (JavaScript client)', () => {
  let index: any, search: any, utils: any;
  beforeAll(() => {
    const client = new ManticoreJs.ApiClient();
    client.basePath = base;
    index = new ManticoreJs.IndexApi(client);
    search = new ManticoreJs.SearchApi(client);
    utils = new ManticoreJs.UtilsApi(client);
  });

  it('sql, insert, replace, bulk, search with filters and sort, update, delete', async () => {
    const created = await utils.sql('CREATE TABLE books (title text, year int, price float)');
    expect(created[0]).toMatchObject({ total: 0, error: '' });
    const ins = await index.insert({ index: 'books', id: 1, doc: { title: 'the old man and the sea', year: 1952, price: 9.5 } });
    expect(ins).toMatchObject({ _index: 'books', _id: 1, created: true, result: 'created' });
    await index.replace({ index: 'books', id: 1, doc: { title: 'the old man and the sea', year: 1952, price: 11 } });
    const bulk = await index.bulk([
      JSON.stringify({ insert: { index: 'books', id: 2, doc: { title: 'the sun also rises', year: 1926, price: 7 } } }),
      JSON.stringify({ insert: { index: 'books', id: 3, doc: { title: 'a farewell to arms', year: 1929, price: 8 } } }),
    ].join('\n'));
    expect(bulk.errors).toBe(false);

    const req = new ManticoreJs.SearchRequest();
    req.index = 'books';
    req.fulltext_filter = new ManticoreJs.QueryFilter('the');
    req.sort = [{ attr: 'year', order: 'asc' }];
    expect(ids(await search.search(req))).toEqual([2, 1]);

    const ranged = await search.search({ index: 'books', query: { range: { price: { lte: 9 } } }, sort: [{ year: 'desc' }] });
    expect(ids(ranged)).toEqual([3, 2]);

    const upd = await index.update({ index: 'books', id: 2, doc: { price: 20 } });
    expect(upd).toMatchObject({ _id: 2, result: 'updated' });
    const del = await index.callDelete({ index: 'books', query: { range: { year: { lt: 1930 } } } });
    expect(del).toMatchObject({ deleted: 2 });
    const rows = await utils.sql('SELECT id, price FROM books');
    expect(rows[0].data).toEqual([{ id: 1, price: 11 }]);
  });
});

describe('manticoresearch-ts 8.x (TypeScript client)', () => {
  let index: any, search: any, utils: any;
  beforeAll(() => {
    const config = ManticoreTs.createConfiguration({ baseServer: new ManticoreTs.ServerConfiguration(base, {}) });
    index = new ManticoreTs.IndexApi(config);
    search = new ManticoreTs.SearchApi(config);
    utils = new ManticoreTs.UtilsApi(config);
  });

  it('sql, insert, replace, bulk, search with filters and sort, update, delete', async () => {
    await utils.sql('CREATE TABLE films (title text, year int, rating float)');
    const ins = await index.insert({ table: 'films', id: 1, doc: { title: 'alien', year: 1979, rating: 8.5 } });
    expect(ins).toMatchObject({ id: 1, created: true, result: 'created' });
    const auto = await index.insert({ table: 'films', doc: { title: 'aliens', year: 1986, rating: 8.4 } });
    expect(Number(auto.id)).toBeGreaterThan(1);
    await index.replace({ table: 'films', id: 1, doc: { title: 'alien', year: 1979, rating: 8.6 } });
    const bulk = await index.bulk([
      JSON.stringify({ insert: { table: 'films', id: 10, doc: { title: 'the thing', year: 1982, rating: 8.2 } } }),
      JSON.stringify({ insert: { table: 'films', id: 11, doc: { title: 'the fly', year: 1986, rating: 7.6 } } }),
    ].join('\n'));
    expect(bulk.errors).toBe(false);

    const found = await search.search({
      table: 'films',
      // The client's BoolFilter model knows must/must_not/should only (it drops `filter`).
      query: { bool: { must: [{ match: { title: 'the' } }, { range: { year: { gte: 1985 } } }] } },
    });
    expect(ids(found)).toEqual([11]);
    const sorted = await search.search({ table: 'films', query: { match_all: {} }, sort: [{ rating: 'desc' }], limit: 2 });
    expect(ids(sorted)).toEqual([1, Number(auto.id)]);

    await index.update({ table: 'films', id: 10, doc: { rating: 9 } });
    const del = await index.delete({ table: 'films', id: 11 });
    expect(del).toMatchObject({ id: 11, found: true, result: 'deleted' });
    const rows = await utils.sql('SELECT id, rating FROM films WHERE id >= 10 AND id < 100', true);
    expect(rows[0].data).toEqual([{ id: 10, rating: 9 }]);
  });
});

/** GET with a body, as `curl -XGET -d` sends it (fetch cannot). */
function getWithBody(path: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.httpPort, path, method: 'GET', headers: { 'Content-Length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { text += c; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('GET /search', () => {
  it('reads a JSON body sent with GET', async () => {
    await server.sql('CREATE TABLE g (title text)');
    await server.post('/insert', '{"table":"g","id":7,"doc":{"title":"hello there"}}');
    const r = await getWithBody('/search', '{"table":"g","query":{"match":{"title":"hello"}}}');
    expect(r.status).toBe(200);
    expect(ids(JSON.parse(r.text))).toEqual([7]);
  });
});
