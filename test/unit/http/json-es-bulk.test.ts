import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newSession, openEngine, type Engine } from '../../../src/engine/index.js';
import { createHttpApp } from '../../../src/http/app.js';
import { checkEsBulk, parseEsBulk } from '../../../src/http/json-es-bulk.js';

describe('/_bulk request checks and line pairs', () => {
  it('Content-Type and body rules', () => {
    expect(() => checkEsBulk(undefined, 'x\n')).toThrow('Content-Type must be set');
    expect(() => checkEsBulk('text/plain', 'x\n')).toThrow('Content-Type header [text/plain] is not supported');
    expect(() => checkEsBulk('application/json', '')).toThrow('request body is required');
    expect(() => checkEsBulk('application/x-ndjson; charset=utf-8', '{}')).toThrow('must be terminated by a newline');
    expect(() => checkEsBulk('application/json', '{}\n')).not.toThrow();
  });

  it('pairs action and source lines; delete has no source; blank action lines are skipped', () => {
    const docs = parseEsBulk('{"index":{"_index":"T","_id":1}}\n{"a":1}\n\n{"delete":{"_index":"t","_id":"2"}}\n{"create":{"_index":"t"}}\n{"a":\n');
    expect(docs.map((d) => [d.action, d.table, d.id])).toEqual([['index', 't', 1n], ['delete', 't', '2'], ['create', 't', undefined]]);
    expect(docs[0]!.source).toBeTruthy();
    expect(docs[2]!.sourceError).toMatch(/^unable to parse/);
  });

  it('a bad action line is a request error', () => {
    expect(() => parseEsBulk('{"index":{"_id":1}}\n{}\n')).toThrow('"_index" property missing');
    expect(() => parseEsBulk('nope\n')).toThrow('no statement found');
  });
});

describe('/_bulk on an engine', () => {
  let dir: string;
  let engine: Engine;
  let app: ReturnType<typeof createHttpApp>;
  const post = async (body: string) => {
    const res = await app.request('/_bulk', { method: 'POST', body, headers: { 'Content-Type': 'application/x-ndjson' } });
    return { status: res.status, json: JSON.parse(await res.text()) };
  };
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-esbulk-'));
    engine = await openEngine({ dataDir: dir });
    app = createHttpApp({ engine });
  });
  afterEach(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates a missing table, writes, updates and deletes, one item per document', async () => {
    const r = await post([
      '{"index":{"_index":"books","_id":1}}', '{"title":"dune","year":1965}',
      '{"create":{"_index":"books","_id":2}}', '{"title":"emma","year":1815}',
      '{"update":{"_index":"books","_id":1}}', '{"doc":{"year":1966}}',
      '{"delete":{"_index":"books","_id":2}}', '',
    ].join('\n'));
    expect(r.status).toBe(200);
    expect(r.json.errors).toBe(false);
    expect(r.json.items.map((it: Record<string, { _id: string; result: string }>) => Object.entries(it).map(([k, v]) => [k, v._id, v.result])[0]))
      .toEqual([['index', '1', 'created'], ['create', '2', 'created'], ['update', '1', 'updated'], ['delete', '2', 'deleted']]);
    const rows = await engine.execute('select id, title, year from books', newSession());
    expect(rows[0]).toMatchObject({ kind: 'rows', rows: [[1n, 'dune', 1966]] });
  });

  it('a bad document fails alone (409) while the rest of its run is written', async () => {
    await engine.execute('create table t (title text, n int)', newSession());
    const r = await post(['{"create":{"_index":"t","_id":1}}', '{"title":"a"}', '{"create":{"_index":"t","_id":2}}', '{"nope":1}',
      '{"update":{"_index":"t","_id":9}}', '{"doc":{"n":1}}', ''].join('\n'));
    expect(r.status).toBe(409);
    expect(r.json.errors).toBe(true);
    expect(r.json.items[0].create).toMatchObject({ _id: '1', status: 201 });
    expect(r.json.items[1].create).toMatchObject({ _id: '2', status: 400, error: { type: 'mapper_parsing_exception', reason: "unknown column: 'nope'" } });
    expect(r.json.items[2].update).toMatchObject({ error: { type: 'document_missing_exception', reason: '[_doc][9]: document missing' } });
    const rows = await engine.execute('select id from t', newSession());
    expect(rows[0]).toMatchObject({ rows: [[1n]] });
  });

  it('an _id out of range fails alone, after a run on another table was written, like any bad document', async () => {
    await engine.execute('create table t (title text, n int)', newSession());
    await engine.execute('create table u (title text)', newSession());
    const r = await post(['{"create":{"_index":"u","_id":5}}', '{"title":"other run"}',
      '{"create":{"_index":"t","_id":1}}', '{"title":"a"}', '{"index":{"_index":"t","_id":9223372036854775808}}', '{"title":"b"}', ''].join('\n'));
    expect(r.status).toBe(409);
    expect(r.json.items[0].create).toMatchObject({ _id: '5', status: 201 });
    expect(r.json.items[1].create).toMatchObject({ _id: '1', status: 201 });
    expect(r.json.items[2].index).toMatchObject({ status: 400, error: { reason: 'document id out of range: 9223372036854775808' } });
    expect((await engine.execute('select id from t', newSession()))[0]).toMatchObject({ rows: [[1n]] });
    expect((await engine.execute('select id from u', newSession()))[0]).toMatchObject({ rows: [[5n]] });
  });

  it('a delete or update _id past 2^64-1 fails alone and never reaches the row its low 64 bits name', async () => {
    await engine.execute('create table t (title text, n int)', newSession());
    await engine.execute("insert into t (id, title, n) values (1, 'a', 1)", newSession());
    const r = await post(['{"delete":{"_index":"t","_id":18446744073709551617}}', '{"delete":{"_index":"t","_id":"18446744073709551617"}}',
      '{"update":{"_index":"t","_id":18446744073709551617}}', '{"doc":{"n":5}}', ''].join('\n'));
    const reason = 'Document ids should be integer, string, or array of integers/strings';
    expect(r.json.items.map((it: Record<string, { status: number; error: { reason: string } }>) => Object.values(it)[0]!.error.reason)).toEqual([reason, reason, reason]);
    expect((await engine.execute('select id, n from t', newSession()))[0]).toMatchObject({ rows: [[1n, 1]] });
  });

  it('request errors are 400 with an error object', async () => {
    const res = await app.request('/_bulk', { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(JSON.parse(await res.text())).toEqual({
      error: { type: 'illegal_argument_exception', reason: 'The bulk request must be terminated by a newline [\n]' }, status: 400,
    });
  });
});
