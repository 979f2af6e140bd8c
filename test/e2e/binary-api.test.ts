// The binary API on a real quarry process: Sphinx's JavaScript sphinxapi client, unchanged, and a
// Sphinx 2.2.11 searchd whose distributed index has the quarry node as its agent.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchAgent } from '../../src/agent/agent-client.js';
import { apiQuery } from '../../src/agent/search-write.js';
import { spawnQuarry, type SpawnedQuarry } from '../helpers/spawn-quarry.js';
import { hasSphinx, startSphinx, type SphinxProcess } from '../helpers/sphinx-searchd.js';
import { ROOT } from './mysql-server.js';

const require = createRequire(import.meta.url);
/* eslint-disable @typescript-eslint/no-explicit-any */
const SphinxClient: any = require('sphinxapi');

let dir: string;
let q: SpawnedQuarry;
let db: mysql.Connection;

const DOCS = [
  [1, 'hello world', 'the first doc', 1, 1.5, '(1,2)', 'a'],
  [2, 'hello there', 'second doc world', 2, 2.5, '(3)', 'b'],
  [3, 'other things', 'world peace now', 1, 3.5, '()', 'c'],
  [4, 'quiet evening', 'nothing to see', 3, 0.5, '(7)', 'd'],
  [5, 'world of hello', 'hello hello world', 2, 9.25, '(2,3)', 'e'],
];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-api-'));
  q = await spawnQuarry(ROOT, ['--data', join(dir, 'data'), '--agent', '127.0.0.1:0']);
  db = await mysql.createConnection({ host: '127.0.0.1', port: q.mysql, user: 'root' });
  await db.query('CREATE TABLE t (title text, body text, gid uint, price float, tags multi, name string)');
  await db.query(`INSERT INTO t (id, title, body, gid, price, tags, name) VALUES ${
    DOCS.map((d) => `(${d[0]}, '${d[1]}', '${d[2]}', ${d[3]}, ${d[4]}, ${d[5]}, '${d[6]}')`).join(', ')}`);
});
afterAll(async () => {
  await db?.end();
  q?.proc.kill();
  await q?.exited;
  rmSync(dir, { recursive: true, force: true });
});

function client(): any {
  const c = new SphinxClient();
  c.SetServer('127.0.0.1', q.agent);
  return c;
}
const query = (c: any, text: string, index = 't'): Promise<any> =>
  new Promise((resolve, reject) => c.Query(text, index, (err: Error | null, r: any) => (err ? reject(err) : resolve(r))));
const ids = (r: any) => r.matches.map((m: any) => m.id);
async function sqlIds(sql: string): Promise<number[]> {
  const [rows] = await db.query(sql);
  return (rows as any[]).map((r) => Number(r.id));
}

describe('sphinxapi (JavaScript) against the binary API', () => {
  it('answers the handshake, reports the schema, and returns weights and typed attributes', async () => {
    const c = client();
    c.SetMatchMode(SphinxClient.SPH_MATCH_EXTENDED2);
    const r = await query(c, 'world');
    expect(r.fields).toEqual(['title', 'body']);
    expect(r.attrs).toEqual([['title', 7], ['body', 7], ['gid', 1], ['price', 5], ['tags', 0x40000001], ['name', 7]]);
    expect(ids(r)).toEqual(await sqlIds("SELECT id FROM t WHERE MATCH('world') ORDER BY weight() DESC, id ASC"));
    const [rows] = await db.query("SELECT id, weight() AS w FROM t WHERE MATCH('world') ORDER BY weight() DESC, id ASC");
    expect(r.matches.map((m: any) => m.weight)).toEqual((rows as any[]).map((x) => x.w));
    const five = r.matches.find((m: any) => m.id === 5);
    expect(five.attrs).toMatchObject({ gid: 2, price: 9.25, tags: [2, 3], name: 'e', title: 'world of hello' });
    expect(r.total_found).toBe(4);
    expect(r.words).toEqual([{ word: 'world', docs: 4, hits: 5 }]);
  });

  it('maps the legacy match modes as Sphinx defines them', async () => {
    const c = client();
    c.SetMatchMode(SphinxClient.SPH_MATCH_ALL);
    expect(ids(await query(c, 'hello world')).sort()).toEqual([1, 2, 5]);
    c.SetMatchMode(SphinxClient.SPH_MATCH_ANY);
    expect(ids(await query(c, 'quiet peace')).sort()).toEqual([3, 4]);
    c.SetMatchMode(SphinxClient.SPH_MATCH_PHRASE);
    expect(ids(await query(c, 'hello world'))).toEqual([1, 5]);
    c.SetMatchMode(SphinxClient.SPH_MATCH_BOOLEAN);
    expect(ids(await query(c, 'hello & -there')).sort()).toEqual([1, 5]);
    c.SetMatchMode(SphinxClient.SPH_MATCH_FULLSCAN);
    expect((await query(c, '')).total_found).toBe(5);
  });

  it('applies rankers, filters, sort modes, limits and field weights', async () => {
    const c = client();
    c.SetMatchMode(SphinxClient.SPH_MATCH_EXTENDED2);
    c.SetRankingMode(SphinxClient.SPH_RANK_NONE);
    expect((await query(c, 'hello')).matches.every((m: any) => m.weight === 1)).toBe(true);
    c.SetRankingMode(SphinxClient.SPH_RANK_PROXIMITY_BM25);
    c.SetFilter('gid', [1, 2]);
    c.SetFilterFloatRange('price', 1.0, 5.0);
    c.SetSortMode(SphinxClient.SPH_SORT_ATTR_DESC, 'price');
    expect(ids(await query(c, ''))).toEqual([3, 2, 1]);
    c.ResetFilters();
    c.SetFilterRange('gid', 2, 3, true);
    c.SetSortMode(SphinxClient.SPH_SORT_EXTENDED, 'price ASC');
    expect(ids(await query(c, ''))).toEqual([1, 3]);
    c.ResetFilters();
    c.SetLimits(1, 2);
    c.SetSortMode(SphinxClient.SPH_SORT_EXTENDED, '@id DESC');
    const page = await query(c, '');
    expect(ids(page)).toEqual([4, 3]);
    expect(page.total_found).toBe(5);
    const w = client();
    w.SetFieldWeights({ title: 10, body: 1 });
    w.SetMatchMode(SphinxClient.SPH_MATCH_EXTENDED2);
    const [rows] = await db.query("SELECT id, weight() AS w FROM t WHERE MATCH('world') ORDER BY weight() DESC, id ASC OPTION field_weights=(title=10, body=1)");
    expect((await query(w, 'world')).matches.map((m: any) => [m.id, m.weight])).toEqual((rows as any[]).map((x) => [Number(x.id), x.w]));
  });

  it('groups with @groupby and @count', async () => {
    const c = client();
    c.SetMatchMode(SphinxClient.SPH_MATCH_EXTENDED2);
    c.SetGroupBy('gid', SphinxClient.SPH_GROUPBY_ATTR, '@count desc');
    const r = await query(c, '');
    expect(r.matches.map((m: any) => [m.attrs['@groupby'], m.attrs['@count']])).toEqual([[1, 2], [2, 2], [3, 1]]);
  });

  it('reports an unknown table and a bad sort mode as searchd errors', async () => {
    const c = client();
    await expect(query(c, 'x', 'nosuch')).rejects.toThrow(/nosuch/);
    c.SetSortMode(SphinxClient.SPH_SORT_TIME_SEGMENTS, 'price');
    await expect(query(c, 'x')).rejects.toThrow(/SPH_SORT_TIME_SEGMENTS/);
  });

  it('builds excerpts and keywords, and reports status', async () => {
    const c = client();
    const ex = await new Promise<any>((res, rej) => c.BuildExcerpts(['a hello to the whole world'], 't', 'world', {}, (e: any, x: any) => (e ? rej(e) : res(x))));
    expect(ex).toEqual(['a hello to the whole <b>world</b>']);
    const kw = await new Promise<any>((res, rej) => c.BuildKeywords('hello worlds', 't', true, (e: any, x: any) => (e ? rej(e) : res(x))));
    expect(kw).toEqual([{ tokenized: 'hello', normalized: 'hello', docs: 3, hits: 5 }, { tokenized: 'worlds', normalized: 'worlds', docs: 0, hits: 0 }]);
    const st = await new Promise<any>((res, rej) => c.Status((e: any, x: any) => (e ? rej(e) : res(x))));
    expect(Number(st.uptime)).toBeGreaterThanOrEqual(0);
    expect(Number(st.command_search)).toBeGreaterThan(0);
  });
});

describe.skipIf(!hasSphinx)('Sphinx 2.2.11 searchd as master, quarry as its agent', () => {
  let sphinx: SphinxProcess;
  let sx: mysql.Connection;
  beforeAll(async () => {
    sphinx = await startSphinx(`index dist\n{\n  type = distributed\n  agent = 127.0.0.1:${q.agent}:t\n}\n`);
    sx = await mysql.createConnection({ host: '127.0.0.1', port: sphinx.mysqlPort, user: 'root' });
  });
  afterAll(async () => {
    await sx?.end();
    await sphinx?.stop();
  });

  it('returns the agent\'s matches, weights and attributes', async () => {
    const [viaSphinx] = await sx.query("SELECT id, weight() AS w, gid, price, name FROM dist WHERE MATCH('hello') ORDER BY w DESC, id ASC");
    const [direct] = await db.query("SELECT id, weight() AS w, gid, price, name FROM t WHERE MATCH('hello') ORDER BY w DESC, id ASC");
    const norm = (rows: any) => (rows as any[]).map((r) => [Number(r.id), Number(r.w), Number(r.gid), Number(r.price).toFixed(2), r.name]);
    expect(norm(viaSphinx)).toEqual(norm(direct));
  });

  it('groups, filters and sorts through the agent', async () => {
    const [g] = await sx.query('SELECT gid, count(*) AS c FROM dist GROUP BY gid ORDER BY gid ASC');
    expect((g as any[]).map((r) => [Number(r.gid), Number(r.c)])).toEqual([[1, 2], [2, 2], [3, 1]]);
    const [f] = await sx.query('SELECT id FROM dist WHERE gid=2 ORDER BY price DESC');
    expect((f as any[]).map((r) => Number(r.id))).toEqual([5, 2]);
  });

  it('forwards UPDATE to the agent (the SPHINXQL command)', async () => {
    await sx.query('UPDATE dist SET gid=9 WHERE id=4');
    expect(await sqlIds('SELECT id FROM t WHERE gid=9')).toEqual([4]);
    await db.query('UPDATE t SET gid=3 WHERE id=4');
  });
});

describe('the agent client (a master\'s side of SEARCH)', () => {
  it('reads a quarry node\'s reply: schema, matches, totals, words', async () => {
    const [r] = await searchAgent({ host: '127.0.0.1', port: q.agent! }, [apiQuery({ indexes: 't', query: 'hello', sort: 4, sortBy: '@weight desc, @id asc' })]);
    const [rows] = await db.query("SELECT id, weight() AS w FROM t WHERE MATCH('hello') ORDER BY weight() DESC, id ASC");
    expect(r!.matches.map((m) => [Number(m.id), m.weight])).toEqual((rows as any[]).map((x) => [Number(x.id), x.w]));
    expect(r!.attrs.map((a) => a.name)).toEqual(['title', 'body', 'gid', 'price', 'tags', 'name']);
    expect(r!.words).toEqual([{ word: 'hello', docs: 3, hits: 5 }]);
  });

  it('reports an error per query and rejects an unreachable agent', async () => {
    const [r] = await searchAgent({ host: '127.0.0.1', port: q.agent! }, [apiQuery({ indexes: 'nosuch' })]);
    expect(r!.error).toMatch(/nosuch/);
    await expect(searchAgent({ host: '127.0.0.1', port: 1 }, [apiQuery({ indexes: 't' })])).rejects.toThrow(/connect\(\) failed: errno=111, Connection refused/);
  });

  it.skipIf(!hasSphinx)('queries a Sphinx 2.2.11 RT index and gets the same ids as quarry for the same documents', async () => {
    const sphinx = await startSphinx(`index rt\n{\n  type = rt\n  path = ${join(dir, 'sphinx-rt')}\n  rt_field = title\n  rt_field = body\n  rt_attr_uint = gid\n  rt_attr_float = price\n}\n`);
    try {
      const sx = await mysql.createConnection({ host: '127.0.0.1', port: sphinx.mysqlPort, user: 'root' });
      await sx.query(`INSERT INTO rt (id, title, body, gid, price) VALUES ${DOCS.map((d) => `(${d[0]}, '${d[1]}', '${d[2]}', ${d[3]}, ${d[4]})`).join(', ')}`);
      await sx.end();
      const query = apiQuery({ indexes: 'rt', query: 'world', sort: 2, sortBy: 'price' });
      const [fromSphinx] = await searchAgent({ host: '127.0.0.1', port: sphinx.apiPort }, [query]);
      const [fromQuarry] = await searchAgent({ host: '127.0.0.1', port: q.agent! }, [{ ...query, indexes: 't' }]);
      expect(fromSphinx!.error).toBeUndefined();
      expect(fromSphinx!.matches.map((m) => Number(m.id))).toEqual(fromQuarry!.matches.map((m) => Number(m.id)));
      expect(fromSphinx!.totalFound).toBe(fromQuarry!.totalFound);
      expect(fromSphinx!.attrs).toEqual([{ name: 'gid', type: 1 }, { name: 'price', type: 5 }]);
    } finally {
      await sphinx.stop();
    }
  });
});

describe('binary API framing and bad input', () => {
  /** Opens a raw connection, sends `bytes` after the version exchange, and collects what comes back until close or `wait` ms. */
  async function raw(bytes: Buffer, wait = 500): Promise<Buffer> {
    const { connect } = await import('node:net');
    return new Promise((resolve) => {
      const s = connect(q.agent!, '127.0.0.1');
      let got = Buffer.alloc(0);
      const done = () => { s.destroy(); resolve(got); };
      const timer = setTimeout(done, wait);
      s.on('data', (c: Buffer) => { got = Buffer.concat([got, c]); });
      s.on('close', () => { clearTimeout(timer); resolve(got); });
      s.on('error', () => {});
      s.write(Buffer.concat([Buffer.from([0, 0, 0, 1]), bytes]));
    });
  }
  const head = (cmd: number, ver: number, len: number) => {
    const b = Buffer.alloc(8);
    b.writeUInt16BE(cmd, 0); b.writeUInt16BE(ver, 2); b.writeUInt32BE(len, 4);
    return b;
  };
  const message = (reply: Buffer) => reply.toString('utf8', 16, 16 + reply.readUInt32BE(12));

  it('greets with protocol version 1 and answers an unknown command with an error', async () => {
    const r = await raw(head(77, 0x100, 0));
    expect(r.readUInt32BE(0)).toBe(1);
    expect(r.readUInt16BE(4)).toBe(1); // SEARCHD_ERROR
    expect(message(r)).toBe('invalid command (code=77, len=0)');
  });

  it('answers a truncated SEARCH and a wrong major version with searchd\'s errors', async () => {
    const body = Buffer.from([0, 0, 0, 0, 0, 0, 0, 1, 0, 0]);
    expect(message(await raw(Buffer.concat([head(0, 0x11e, body.length), body])))).toBe('invalid or truncated request');
    expect(message(await raw(Buffer.concat([head(0, 0x21e, 0)])))).toMatch(/major command version mismatch/);
  });

  it('keeps a connection open after PERSIST and serves several PINGs on it', async () => {
    const persist = Buffer.concat([head(4, 0, 4), Buffer.from([0, 0, 0, 1])]);
    const ping = (cookie: number) => Buffer.concat([head(9, 0x100, 4), Buffer.from([0, 0, 0, cookie])]);
    const r = await raw(Buffer.concat([persist, ping(7), ping(9)]));
    expect(r.length).toBe(4 + 12 + 12);
    expect([r.readUInt32BE(12), r.readUInt32BE(24)]).toEqual([7, 9]);
  });

  it('refuses a request longer than the packet limit and stays up', async () => {
    const r = await raw(head(0, 0x11e, 0x7fffffff));
    expect(message(r)).toMatch(/invalid command/);
    const c = client();
    expect((await query(c, 'hello')).total_found).toBe(3);
  });
});
