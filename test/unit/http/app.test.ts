import { describe, expect, it } from 'vitest';
import { rows, ok, type Result } from '../../../src/engine/result.js';
import { createHttpApp } from '../../../src/http/app.js';
import { EngineDouble } from './engine-double.js';

const SELECT_T: Result[] = [
  rows(
    [
      { name: 'id', kind: 'bigint' },
      { name: 'value', kind: 'string' },
      { name: 'price', kind: 'float' },
      { name: 'tags', kind: 'mva' },
    ],
    [[6775836565403860993n, 'example', 1099.99, [1n, 2n]]],
    { meta: { total: 1, totalFound: 2, totalRelation: 'gte', timeMs: 3, keywords: [] } },
  ),
];
const COUNT: Result[] = [rows([{ name: 'count(*)', kind: 'bigint' }], [[2n]], { meta: { total: 1, totalFound: 1, totalRelation: 'eq', timeMs: 0, keywords: [] } })];

function setup(extra: Record<string, Result[] | (() => never)> = {}, maxBodyBytes?: number) {
  const engine = new EngineDouble({
    'select * from t limit 1': SELECT_T,
    'select count(*) from t': COUNT,
    'truncate table t': [ok(0)],
    'SELEKT * FROM t': [{ kind: 'error', code: 'PARSE_ERROR', message: "P02: syntax error, unexpected identifier near 'SELEKT * FROM t'" }],
    ...extra,
  });
  const errors: unknown[] = [];
  const app = createHttpApp({ engine, maxBodyBytes, onInternalError: (e) => errors.push(e) });
  return { engine, app, errors };
}

describe('POST /sql (search shape)', () => {
  it('answers a SELECT as /search hits with exact ids and float text', async () => {
    const { app } = setup();
    const res = await app.request('/sql', { method: 'POST', body: 'select * from t limit 1' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.text()).toBe(
      '{"took":3,"timed_out":false,"hits":{"total":2,"total_relation":"gte","hits":[' +
        '{"_id":6775836565403860993,"_score":1,"_source":{"value":"example","price":1099.989990,"tags":[1,2]}}]}}',
    );
  });

  it('aggregate rows have no _id; GET ?query= works', async () => {
    const { app } = setup();
    const res = await app.request('/sql?query=select%20count(*)%20from%20t');
    expect(JSON.parse(await res.text()).hits.hits).toEqual([{ _score: 1, _source: { 'count(*)': 2 } }]);
  });

  it('refuses anything but one SELECT without running it', async () => {
    const { app, engine } = setup();
    for (const body of ['show tables', 'insert into t values (3)', 'SELECT * FROM t; SHOW META']) {
      const res = await app.request('/sql', { method: 'POST', body });
      expect(res.status).toBe(501);
      expect(await res.json()).toEqual({ error: 'only SELECT queries are supported' });
    }
    const multi = await app.request('/sql', { method: 'POST', body: 'select 1; select 2' });
    expect(await multi.json()).toEqual({ error: 'only FACET multiple queries supported' });
    expect(engine.calls).toEqual([]);
  });

  it('a statement that does not parse is 400, a missing query 400', async () => {
    const { app } = setup();
    const res = await app.request('/sql', { method: 'POST', body: 'SELEKT * FROM t' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "P02: syntax error, unexpected identifier near 'SELEKT * FROM t'" });
    const empty = await app.request('/sql', { method: 'POST', body: '' });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ error: 'query missing' });
  });
});

describe('raw result sets: /sql?mode=raw and /cli_json', () => {
  it('types columns and keeps numbers unquoted', async () => {
    const { app } = setup();
    const res = await app.request('/sql?mode=raw', { method: 'POST', body: 'select * from t limit 1' });
    expect(await res.text()).toBe(
      '[{\n"columns":[{"id":{"type":"long long"}},{"value":{"type":"string"}},{"price":{"type":"float"}},' +
        '{"tags":{"type":"string"}}],\n"data":[\n{"id":6775836565403860993,"value":"example","price":1099.989990,' +
        '"tags":"1,2"}\n],\n"total":1,\n"error":"",\n"warning":""\n}]',
    );
  });

  it('an OK statement is total/error/warning; url-encoded bodies are decoded', async () => {
    const { app } = setup();
    const res = await app.request('/sql', { method: 'POST', body: 'mode=raw&query=truncate%20table%20t' });
    expect(await res.text()).toBe('[{"total":0,"error":"","warning":""}]');
    const cli = await app.request('/cli_json?truncate%20table%20t');
    expect(await cli.text()).toBe('[{"total":0,"error":"","warning":""}]');
  });

  it('an error is HTTP 500 with {"error"}', async () => {
    const { app } = setup();
    const res = await app.request('/cli_json', { method: 'POST', body: 'SELEKT * FROM t' });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: "P02: syntax error, unexpected identifier near 'SELEKT * FROM t'" });
  });
});

describe('POST /cli', () => {
  it('prints a result set as a table with a summary line', async () => {
    const { app } = setup();
    const res = await app.request('/cli', { method: 'POST', body: 'select count(*) from t' });
    // searchd labels the table text application/json, as every /cli reply (CLT test-content-type-header-*)
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    const text = await res.text();
    expect(text).toMatch(/^\+----------\+\n\| count\(\*\) \|\n\+----------\+\n\| 2        \|\n\+----------\+\n1 row in set \(\d\.\d{3} sec\)\n\n$/);
  });

  // CLT http-interface/multi-query.rec: the second table starts on the line after the first's summary
  it('prints the result sets of several statements one after another, without a blank line between', async () => {
    const { app } = setup({ 'select count(*) from t; select count(*) from t': [...COUNT, ...COUNT] });
    const res = await app.request('/cli', { method: 'POST', body: 'select count(*) from t; select count(*) from t' });
    const table = '\\+-+\\+\\n\\| count\\(\\*\\) \\|\\n\\+-+\\+\\n\\| 2 +\\|\\n\\+-+\\+\\n1 row in set \\(\\d\\.\\d{3} sec\\)\\n';
    expect(await res.text()).toMatch(new RegExp(`^${table}${table}\\n$`));
  });

  it('answers a statement without rows, or an error, with the JSON status object', async () => {
    const { app } = setup();
    const res = await app.request('/cli', { method: 'POST', body: 'truncate table t' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(await res.json()).toEqual({ total: 0, error: '', warning: '' });
    const bad = await app.request('/cli', { method: 'POST', body: 'SELEKT * FROM t' });
    expect(bad.status).toBe(500);
    expect(await bad.json()).toEqual({ total: 0, error: "P02: syntax error, unexpected identifier near 'SELEKT * FROM t'", warning: '' });
  });
});

describe('everything else', () => {
  it('unknown paths get Manticore\'s 501 JSON error', async () => {
    const { app } = setup();
    const res = await app.request('/nope', { method: 'POST', body: '{}' });
    expect(res.status).toBe(501);
    expect(await res.json()).toEqual({ error: '/nope - unsupported endpoint' });
    expect((await app.request('/sql/')).status).toBe(501);
  });

  it('an oversized body gets 413 with a clear error', async () => {
    const { app, engine } = setup({}, 16);
    const res = await app.request('/sql?mode=raw', { method: 'POST', body: 'select * from t limit 1 -- padding' });
    expect(res.status).toBe(413);
    expect((await res.json()).error).toMatch(/^length out of bounds .*\(16\)$/);
    expect(engine.calls).toEqual([]);
  });

  it('an engine fault is a 500 JSON error and the app keeps serving', async () => {
    const { app, errors } = setup({ boom: () => { throw new Error('kaput'); } });
    const res = await app.request('/sql?mode=raw', { method: 'POST', body: 'boom' });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'kaput' });
    expect(errors).toHaveLength(1);
    expect((await app.request('/sql?mode=raw', { method: 'POST', body: 'truncate table t' })).status).toBe(200);
  });

  it('serves the web console at /', async () => {
    const { app } = setup();
    const res = await app.request('/');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<title>quarry console</title>');
  });
});
