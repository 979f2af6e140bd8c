// A distributed table over real quarry processes on loopback: 2 local tables on the master and 2
// remote agents, compared with one table holding every document, for seeded random queries of each
// full-text operator class, filters, sorts, grouping and facets; then an agent killed with SIGKILL
// mid-run (partial results and Manticore's warning), a mirror taking over, and a Sphinx 2.2.11
// searchd as the agent of a quarry distributed table.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnQuarry, type SpawnedQuarry } from '../helpers/spawn-quarry.js';
import { hasSphinx, startSphinx } from '../helpers/sphinx-searchd.js';
import { ROOT } from './mysql-server.js';
import { docsSql, makeDocs, randomQueries, SCHEMA } from '../helpers/distributed-data.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
let dir: string;
let master: SpawnedQuarry;
const agents: SpawnedQuarry[] = [];
let db: mysql.Connection;
const DOCS = makeDocs(42, 400);

async function connect(p: SpawnedQuarry): Promise<mysql.Connection> {
  return mysql.createConnection({ host: '127.0.0.1', port: p.mysql, user: 'root', supportBigNumbers: true, bigNumberStrings: true });
}

async function load(conn: mysql.Connection, table: string, docs: typeof DOCS): Promise<void> {
  await conn.query(`CREATE TABLE ${table} ${SCHEMA}`);
  if (docs.length) await conn.query(docsSql(table, docs));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-dist-'));
  // master, two agents, and a mirror of the second agent's shard
  const procs = await Promise.all(['m', 'a', 'b', 'c'].map((n) => spawnQuarry(ROOT, ['--data', join(dir, n), '--agent', '127.0.0.1:0'])));
  master = procs[0]!;
  agents.push(...procs.slice(1));
  db = await connect(master);
  const shard = (k: number) => DOCS.filter((d) => d.id % 4 === k);
  await load(db, 'everything', DOCS);
  await load(db, 't1', shard(0));
  await load(db, 't2', shard(1));
  for (const [i, k] of [[0, 2], [1, 3], [2, 3]] as const) {
    const c = await connect(agents[i]!);
    await load(c, 'shard', shard(k));
    await c.end();
  }
  const [a, b, c] = agents.map((p) => `127.0.0.1:${p.agent}`);
  await db.query(`CREATE TABLE d type='distributed' local='t1' local='t2' agent='${a}:shard' agent='${b}:shard'`);
  await db.query(`CREATE TABLE dm type='distributed' local='t1' local='t2' agent='${a}:shard' agent='${b}|${c}:shard' ha_strategy='nodeads' agent_retry_count='1'`);
  // agent_persistent: the same shards over pooled PERSIST connections
  await db.query(`CREATE TABLE dp type='distributed' local='t1' local='t2' agent_persistent='${a}:shard' agent='${b}:shard[conn=pconn]'`);
}, 60_000);

afterAll(async () => {
  await db?.end();
  for (const p of [master, ...agents]) { p?.proc.kill('SIGKILL'); await p?.exited; }
  rmSync(dir, { recursive: true, force: true });
});

async function select(sql: string): Promise<{ rows: any[]; meta: Record<string, string> }> {
  const [rows] = await db.query(sql);
  const [meta] = await db.query('SHOW META');
  return { rows: rows as any[], meta: Object.fromEntries((meta as any[]).map((r) => [r.Variable_name, r.Value])) };
}

describe('a distributed table over 2 local and 2 remote shards', () => {
  it('is listed, described and shown as Manticore does', async () => {
    const [tables] = await db.query("SHOW TABLES LIKE 'd%'");
    expect(tables).toEqual([{ Table: 'd', Type: 'distributed' }, { Table: 'dm', Type: 'distributed' }, { Table: 'dp', Type: 'distributed' }]);
    const [desc] = await db.query('DESCRIBE dm');
    expect((desc as any[]).map((r) => r.Type)).toEqual(['local', 'local', 'remote_1', 'remote_2_mirror_1', 'remote_2_mirror_2']);
    const [create] = await db.query('SHOW CREATE TABLE dm');
    expect((create as any[])[0]['Create Table']).toMatch(/^CREATE TABLE dm type='distributed' local='t1' local='t2' agent='127\.0\.0\.1:\d+:shard' .*ha_strategy='nodeads' agent_retry_count='1'$/);
    await expect(db.query("INSERT INTO d (id, title) VALUES (1, 'x')")).rejects.toThrow("table 'd' does not support INSERT");
    await expect(db.query("CREATE TABLE d2 type='distributed' local='nosuch'")).rejects.toThrow("table 'd2': no such local table 'nosuch'");
  });

  it('returns the ids, order and totals of one table for random queries of every operator class', async () => {
    let nonEmpty = 0;
    for (const q of randomQueries(7, 60)) {
      const one = await select(q.replaceAll('$T', 'everything'));
      if (one.rows.length && Number(one.meta.total_found) > 0) nonEmpty++;
      const dist = await select(q.replaceAll('$T', 'd'));
      expect(dist.rows, q).toEqual(one.rows);
      expect(dist.meta.total_found, q).toBe(one.meta.total_found);
      expect(dist.meta.warning, q).toBeUndefined();
      const pooled = await select(q.replaceAll('$T', 'dp'));
      expect(pooled.rows, q).toEqual(one.rows);
      expect(pooled.meta.total_found, q).toBe(one.meta.total_found);
    }
    expect(nonEmpty).toBeGreaterThan(40); // the comparison is over real matches, not empty sets
  }, 120_000);

  it('reports per-agent figures in SHOW META', async () => {
    const { meta } = await select("SELECT id FROM d WHERE MATCH('alpha')");
    expect(meta['agent[0]']).toMatch(/^127\.0\.0\.1:\d+:shard$/);
    expect(Number(meta['agent_response_bytes[1]'])).toBeGreaterThan(0);
    expect(Number(meta['agent_total_found[0]']) + Number(meta['agent_total_found[1]'])).toBeLessThanOrEqual(Number(meta.total_found));
  });

  it('counts SHOW STATUS dist_* as Manticore does: queries that asked remote agents, once per statement', async () => {
    const status = async () => Object.fromEntries(((await db.query("SHOW STATUS LIKE '%dist%'"))[0] as any[]).map((r) => [r.Counter, r.Value]));
    await db.query("CREATE TABLE dlocal type='distributed' local='t1' local='t2'");
    const before = await status();
    expect(Object.keys(before)).toEqual(['dist_queries', 'dist_wall', 'dist_local', 'dist_wait', 'avg_dist_wall', 'avg_dist_local', 'avg_dist_wait']);
    await db.query("SELECT id FROM dlocal WHERE MATCH('alpha')"); // no remote agent: not counted
    await db.query("SELECT id FROM d WHERE MATCH('alpha') FACET gid FACET tags"); // one statement, its facets included
    await db.query('SELECT gid, COUNT(*) FROM d GROUP BY gid');
    const after = await status();
    expect(Number(after.dist_queries) - Number(before.dist_queries)).toBe(2);
    // in seconds to the ms, as searchd prints them: a local search of a few hundred rows may round to 0
    for (const k of ['dist_wall', 'dist_wait']) expect(Number(after[k]), k).toBeGreaterThan(Number(before[k]));
    expect(Number(after.dist_local)).toBeGreaterThanOrEqual(Number(before.dist_local));
    // the wall time covers the local search; the agents' waits are added over both agents
    expect(Number(after.dist_wall) - Number(before.dist_wall)).toBeGreaterThanOrEqual(Number(after.dist_local) - Number(before.dist_local));
    expect(Number(after.avg_dist_wall)).toBeCloseTo(Number(after.dist_wall) / Number(after.dist_queries), 2);
    await db.query('DROP TABLE dlocal');
  });

  it('answers /search as the one table does', async () => {
    const search = async (table: string, body: object) => {
      const r = await fetch(`http://127.0.0.1:${master.http}/search`, { method: 'POST', body: JSON.stringify({ table, ...body }) });
      const j = (await r.json()) as any;
      return { total: j.hits?.total, hits: j.hits?.hits?.map((h: any) => [h._id, h._source, h.highlight]), aggs: j.aggregations, error: j.error };
    };
    for (const body of [
      { query: { match: { title: 'alpha' } }, sort: [{ id: 'asc' }], limit: 50 },
      { query: { bool: { must: [{ query_string: 'beta | gamma' }], filter: [{ range: { price: { gte: 2, lte: 6 } } }] } }, sort: [{ price: 'desc' }, { id: 'asc' }], limit: 20 },
      { query: { equals: { gid: 3 } }, sort: [{ id: 'desc' }], limit: 10, _source: ['gid', 'tags'] },
      // highlight: the merged rows' texts marked on the master, then _source applied
      { query: { match: { title: 'alpha beta' } }, sort: [{ id: 'asc' }], limit: 30, highlight: { fields: ['title'] }, _source: ['gid'] },
      { query: { query_string: 'gamma' }, sort: [{ id: 'desc' }], limit: 30, highlight: { pre_tags: '[', post_tags: ']' } },
      // aggs: terms as FACET over the shards, metrics as aggregate SELECTs
      { query: { match: { title: 'alpha | beta' } }, sort: [{ id: 'asc' }], limit: 5, aggs: { g: { terms: { field: 'gid', size: 10, order: { _key: 'asc' } } }, t: { terms: { field: 'tags', size: 50, order: [{ _key: 'desc' }] } } } },
      { query: { range: { price: { gte: 1 } } }, sort: [{ id: 'asc' }], limit: 3, aggs: { lo: { min: { field: 'price' } }, hi: { max: { field: 'price' } }, s: { sum: { field: 'gid' } }, top: { terms: { field: 'gid', order: { _key: 'desc' } } } } },
      // buckets and distributions: the field's distinct values over the shards, folded on the master
      { query: { match: { title: 'alpha | beta' } }, sort: [{ id: 'asc' }], limit: 2, aggs: {
        h: { histogram: { field: 'price', interval: 2.5, offset: 1 } }, r: { range: { field: 'gid', ranges: [{ to: 2 }, { from: 2, to: 4 }, { from: 3 }] } },
        dh: { date_histogram: { field: 'ts', calendar_interval: 'month' } }, dr: { date_range: { field: 'ts', keyed: true, ranges: [{ to: '2023||+6M/M' }, { from: '2023||+6M/M' }] } },
        p: { percentiles: { field: 'price' } }, pr: { percentile_ranks: { field: 'price', values: [2, 5.5] } }, mad: { median_absolute_deviation: { field: 'price' } },
      } },
      // facet filter modes: each aggregation under its scope, max mode's helper passes, statuses
      ...[{ gid: 3 }, { gid: [2, 4] }].map((gid) => ({
        query: { bool: { must: [{ match: { title: 'alpha | beta' } }], filter: [Array.isArray(gid.gid) ? { in: { gid: gid.gid } } : { equals: gid }, { range: { price: { gte: 2 } } }, { in: { tags: [1, 2, 3] } }] } },
        sort: [{ id: 'asc' }], limit: 4, offset: 1, aggs: {
          auto: { terms: { field: 'gid', order: { _key: 'asc' } }, mode: 'auto' },
          max: { terms: { field: 'tags', size: 4, order: { _count: 'desc' } }, mode: 'max' },
          zero: { terms: { field: 'gid', size: 10, order: { _key: 'desc' } }, mode: 'max', zeroes: true },
          // the broad pass's buckets missing from the scoped ones join with doc_count 0
          zf: { terms: { field: 'gid', size: 10, order: { _key: 'asc' } }, mode: 'max', zeroes: true, filters: ['gid'] },
          only: { terms: { field: 'tags', size: 10, order: { _key: 'asc' } }, filters: ['price'] },
          excl: { terms: { field: 'gid', order: { _count: 'asc' } }, exclude_filters: ['tags', 'gid'] },
          h: { histogram: { field: 'price', interval: 3 }, mode: 'max', zeroes: true },
          hs: { histogram: { field: 'price', interval: 2 }, mode: 'max' },
          r: { range: { field: 'gid', ranges: [{ to: 3 }, { from: 3 }] }, mode: 'auto' },
          lo: { min: { field: 'price' }, mode: 'max' }, s: { sum: { field: 'gid' }, exclude_filters: ['gid'] },
          p: { percentiles: { field: 'price' }, filters: ['gid'] },
        },
      })),
      { query: { bool: { filter: [{ equals: { gid: 1 } }] } }, sort: [{ id: 'asc' }], limit: 2, facet_filter_mode: 'auto', aggs: { g: { terms: { field: 'gid', order: { _key: 'asc' } } }, t: { terms: { field: 'tags', order: { _key: 'asc' } }, mode: 'strict' } } },
    ]) {
      const one = await search('everything', body);
      expect(one.hits.length).toBeGreaterThan(0);
      expect(Object.keys(one.aggs ?? {})).toEqual(Object.keys((body as any).aggs ?? {}));
      expect(await search('d', body), JSON.stringify(body)).toEqual(one);
    }
    // composite: Manticore's grouped query by weight, so the pages hold the same buckets in the merge's order
    const pages = async (table: string): Promise<string[]> => {
      const out: string[] = [];
      let after: object | undefined;
      for (let page = 0; page < 20; page++) {
        const r = await search(table, { query: { match: { title: 'alpha | beta' } }, limit: 1, aggs: { c: { composite: { size: 40, sources: [{ g: { terms: { field: 'gid' } } }, { p: { terms: { field: 'price' } } }], ...(after ? { after } : {}) } } } });
        const c = r.aggs.c;
        out.push(...c.buckets.map((b: any) => `${b.key.g}/${b.key.p}:${b.doc_count}`));
        if (c.buckets.length < 40) return out;
        after = c.after_key;
      }
      throw new Error('composite paging did not end');
    };
    const [distPages, onePages] = [await pages('d'), await pages('everything')];
    expect(distPages.length).toBeGreaterThan(40);
    expect(new Set(distPages).size).toBe(distPages.length);
    expect([...distPages].sort()).toEqual([...onePages].sort());
    // a scope the WHERE cannot be split for is Manticore's error, as over one table
    const or = { query: { bool: { should: [{ equals: { gid: 1 } }, { equals: { gid: 2 } }] } }, aggs: { g: { terms: { field: 'gid' }, mode: 'auto' } } };
    const [distErr, oneErr] = [await search('d', or), await search('everything', or)];
    expect(distErr.error?.reason ?? distErr.error).toMatch(/conjunction-only attribute filters/);
    expect(distErr.error).toEqual(oneErr.error);
  });

  it("applies the master's OPTION idf and expand_keywords on the agent (query flags and QueryOption_e over 9312)", async () => {
    // one agent holding every document (the master's own 9312): its weights are one table's
    await db.query(`CREATE TABLE dall type='distributed' agent='127.0.0.1:${master.agent}:everything'`);
    const sql = (t: string, opts: string) => `SELECT id, WEIGHT() AS w FROM ${t} WHERE MATCH('alpha | gamma | zeta') ORDER BY WEIGHT() DESC, id ASC LIMIT 40 OPTION ranker=bm25${opts}`;
    const weights = async (t: string, opts: string) => ((await db.query(sql(t, opts)))[0] as any[]).map((r) => `${r.id}:${r.w}`);
    const plain = await weights('everything', ", idf='plain,tfidf_unnormalized'");
    expect(plain).not.toEqual(await weights('everything', ''));
    for (const opts of ['', ", idf='plain,tfidf_unnormalized'", ", idf='normalized,tfidf_unnormalized'", ", idf='plain'"]) {
      expect(await weights('dall', opts), opts).toEqual(await weights('everything', opts));
    }
    // expand_keywords=1 on a min_prefix_len table: 'alph' also matches alpha* and =alph
    const ids = async (t: string, ek: number) => ((await db.query(`SELECT id FROM ${t} WHERE MATCH('alph') ORDER BY id ASC LIMIT 1000 OPTION expand_keywords=${ek}`))[0] as any[]).map((r) => r.id);
    const expanded = await ids('everything', 1);
    expect(expanded.length).toBeGreaterThan(0);
    expect(await ids('everything', 0)).toEqual([]);
    expect(await ids('dall', 1)).toEqual(expanded);
    expect(await ids('dall', 0)).toEqual([]);
    await db.query('DROP TABLE dall');
  });

  it('merges FACET counts of all shards', async () => {
    const sql = (t: string) => `SELECT id FROM ${t} WHERE MATCH('alpha | beta') ORDER BY id ASC LIMIT 5 FACET gid ORDER BY gid ASC FACET tags ORDER BY COUNT(*) DESC, tags ASC`;
    const [one] = await db.query(sql('everything'));
    const [dist] = await db.query(sql('d'));
    expect(dist).toEqual(one);
    // facet filter modes: auto and max statuses (max's strict helper) as over one table; ZEROES refused by name
    const modes = (t: string) => `SELECT id FROM ${t} WHERE MATCH('alpha | beta') AND gid = 2 AND price >= 5 ORDER BY id ASC LIMIT 3 FACET gid MODE AUTO ORDER BY gid ASC FACET tags MODE MAX ORDER BY tags ASC FACET price MODE MAX ORDER BY price ASC LIMIT 40`;
    const [oneModes] = await db.query(modes('everything'));
    expect(JSON.stringify(oneModes)).toContain('unavailable');
    expect((await db.query(modes('d')))[0]).toEqual(oneModes);
    await expect(db.query("SELECT id FROM d WHERE gid = 2 FACET gid ZEROES MODE MAX")).rejects.toThrow(/ZEROES over a distributed table is not supported/);
  });
});

describe('writes through a distributed table', () => {
  it('forwards UPDATE and DELETE to the local tables and the agents (SPHINXQL command), adding the affected rows', async () => {
    const ids = [4, 5, 6, 7]; // one document of each shard
    const r = await db.query('UPDATE d SET gid = 77 WHERE id IN (4, 5, 6, 7)');
    expect((r[0] as any).affectedRows).toBe(4);
    expect((await select('SELECT id FROM d WHERE gid = 77 ORDER BY id ASC')).rows.map((x) => Number(x.id))).toEqual(ids);
    for (const id of ids) await db.query(`UPDATE d SET gid = ${DOCS[id - 1]!.gid} WHERE id = ${id}`); // as they were
    const extra = await connect(agents[0]!);
    await extra.query("INSERT INTO shard (id, title) VALUES (100002, 'temporary')");
    await extra.end();
    await db.query("INSERT INTO t1 (id, title) VALUES (100000, 'temporary')");
    const del = await db.query('DELETE FROM d WHERE id IN (100000, 100002)');
    expect((del[0] as any).affectedRows).toBe(2);
    expect((await select("SELECT id FROM d WHERE MATCH('temporary')")).rows).toEqual([]);
  });
});

describe('failures and mirrors', () => {
  it('gives partial results with the warning when an agent is killed mid-run, a mirror takes over, and an error when none answers', async () => {
    const full = await select("SELECT id FROM everything WHERE MATCH('alpha') ORDER BY id ASC LIMIT 1000");
    const t3 = full.rows.filter((r) => Number(r.id) % 4 === 3).length;
    const deadA = `127.0.0.1:${agents[0]!.agent}`;
    let partial = 0;
    for (let i = 0; i < 20; i++) {
      if (i === 5) agents[0]!.proc.kill('SIGKILL'); // shard 2 is gone from here on
      const r = await select("SELECT id FROM d WHERE MATCH('alpha') ORDER BY id ASC LIMIT 1000");
      if (r.meta.warning) {
        // refused once it is gone; reset, closed or a broken pipe when it dies during the query
        const failure = '(connect\\(\\) failed: errno=\\d+, [A-Za-z ]+|receiving failure \\(errno=104, msg=Connection reset by peer\\)|agent closed connection|error when sending data: Broken pipe)';
        expect(r.meta.warning).toMatch(new RegExp(`^table d: agent ${deadA.replace(/\./g, '\\.')}: ${failure}$`));
        expect(r.rows).toEqual(full.rows.filter((x) => Number(x.id) % 4 !== 2));
        partial++;
      } else {
        expect(r.rows).toEqual(full.rows);
      }
    }
    expect(partial).toBeGreaterThanOrEqual(14);
    // the second shard's mirror answers when its first mirror dies (retry on the next mirror)
    agents[1]!.proc.kill('SIGKILL');
    await agents[1]!.exited;
    for (let i = 0; i < 4; i++) {
      const r = await select("SELECT id FROM dm WHERE MATCH('alpha') ORDER BY id ASC LIMIT 1000");
      expect(r.rows.filter((x) => Number(x.id) % 4 === 3)).toHaveLength(t3);
      expect(r.meta.warning).toMatch(/^table dm: agent 127\.0\.0\.1:\d+: connect\(\) failed: errno=111, Connection refused$/); // only shard 2's
    }
    const [status] = await db.query(`SHOW AGENT STATUS LIKE '%connect_failures'`);
    expect((status as any[]).some((r) => Number(r.Value) > 0)).toBe(true);
    await db.query(`CREATE TABLE dead type='distributed' agent='${deadA}:shard'`);
    await expect(db.query("SELECT id FROM dead WHERE MATCH('alpha')")).rejects.toThrow(`table dead: agent ${deadA}: connect() failed: errno=111, Connection refused`);
  }, 60_000);
});

describe('timeouts and blackholes', () => {
  it('gives up on an agent that stalls after agent_query_timeout, and never waits for a blackhole', async () => {
    const { createServer } = await import('node:net');
    const held: import('node:net').Socket[] = [];
    const stall = createServer((s) => { held.push(s); s.write(Buffer.from([0, 0, 0, 1])); }); // greets, never answers
    await new Promise<void>((r) => stall.listen(0, '127.0.0.1', r));
    const port = (stall.address() as { port: number }).port;
    try {
      await db.query(`CREATE TABLE slow type='distributed' local='t1' agent='127.0.0.1:${port}:x' agent_query_timeout='300'`);
      const t0 = performance.now();
      const r = await select("SELECT id FROM slow WHERE MATCH('alpha') ORDER BY id ASC LIMIT 1000");
      expect(performance.now() - t0).toBeLessThan(2500);
      expect(r.meta.warning).toBe(`table slow: agent 127.0.0.1:${port}: query timed out`);
      const local = await select("SELECT id FROM t1 WHERE MATCH('alpha') ORDER BY id ASC LIMIT 1000");
      expect(r.rows).toEqual(local.rows);
      await db.query(`CREATE TABLE hole type='distributed' local='t1' agent_blackhole='127.0.0.1:${port}:x' agent_query_timeout='5s'`);
      const t1 = performance.now();
      const h = await select("SELECT id FROM hole WHERE MATCH('alpha') ORDER BY id ASC LIMIT 1000");
      expect(performance.now() - t1).toBeLessThan(2500); // the stalled blackhole (5 s timeout) is not waited for
      expect(h.rows).toEqual(local.rows);
      expect(h.meta.warning).toBeUndefined();
    } finally {
      for (const s of held) s.destroy();
      stall.close();
    }
  });
});

describe.skipIf(!hasSphinx)('a Sphinx 2.2.11 searchd as an agent', () => {
  it('serves a quarry distributed table with the same matches as a local table', async () => {
    const sphinx = await startSphinx(`index rt\n{\n  type = rt\n  path = ${join(dir, 'sphinx-rt')}\n  rt_field = title\n  rt_field = body\n  rt_attr_uint = gid\n  rt_attr_float = price\n}\n`);
    try {
      const sx = await mysql.createConnection({ host: '127.0.0.1', port: sphinx.mysqlPort, user: 'root' });
      const docs = DOCS.filter((d) => d.id % 4 === 2);
      await sx.query(`INSERT INTO rt (id, title, body, gid, price) VALUES ${docs.map((d) => `(${d.id}, '${d.title}', '${d.body}', ${d.gid}, ${d.price})`).join(', ')}`);
      await sx.end();
      await db.query(`CREATE TABLE ds type='distributed' local='t1' agent='127.0.0.1:${sphinx.apiPort}:rt'`);
      await load(db, 'ref02', DOCS.filter((d) => d.id % 4 === 0 || d.id % 4 === 2));
      for (const sql of [
        "SELECT id, gid, price FROM $T WHERE MATCH('alpha | gamma') AND gid IN (1,2,3) ORDER BY price DESC, id ASC LIMIT 50",
        "SELECT id FROM $T WHERE MATCH('\"beta gamma\"') ORDER BY id ASC LIMIT 100",
        "SELECT id, weight() w FROM $T WHERE MATCH('delta') ORDER BY weight() DESC, id ASC LIMIT 100 OPTION ranker=wordcount",
        'SELECT gid, COUNT(*) c FROM $T GROUP BY gid ORDER BY gid ASC',
      ]) {
        const [dist] = await db.query(sql.replaceAll('$T', 'ds'));
        const [ref] = await db.query(sql.replaceAll('$T', 'ref02'));
        expect(dist, sql).toEqual(ref);
      }
      // COUNT(DISTINCT): each shard's count, added per group (README); searchd counts it only when the
      // query's group-distinct field names the attribute (it answered "column '@distinct/__c1' not found")
      const distinct = 'SELECT gid, COUNT(DISTINCT price) d FROM $T GROUP BY gid ORDER BY gid ASC';
      const [dist] = await db.query(distinct.replace('$T', 'ds'));
      const [[warnings]] = await db.query('SHOW WARNINGS') as any;
      expect(warnings).toBeUndefined();
      const [local] = await db.query(distinct.replace('$T', 't1')) as any;
      const sx2 = await mysql.createConnection({ host: '127.0.0.1', port: sphinx.mysqlPort, user: 'root' });
      const [remote] = await sx2.query(distinct.replace('$T', 'rt').replace(' d FROM', ' AS d FROM')) as any;
      await sx2.end();
      const sum = new Map<number, number>();
      for (const r of [...local, ...remote]) sum.set(Number(r.gid), (sum.get(Number(r.gid)) ?? 0) + Number(r.d));
      expect((dist as any[]).map((r) => [Number(r.gid), Number(r.d)])).toEqual([...sum].sort((a, b) => a[0] - b[0]));
      expect(sum.size).toBeGreaterThan(1);
    } finally {
      await sphinx.stop();
    }
  }, 60_000);
});

describe('CALL SNIPPETS over agents, and a distributed table from the config file', () => {
  it('spreads load_files over the local table and the agent, and merges load_files_scattered', async () => {
    const [dirX, dirY] = [join(dir, 'files-x'), join(dir, 'files-y')];
    for (const [d, files] of [[dirX, ['f3', 'f4']], [dirY, ['f1', 'f2']]] as const) {
      mkdirSync(d, { recursive: true });
      for (const f of files) writeFileSync(join(d, `${f}.txt`), `the ${f} file speaks of alpha and beta`);
    }
    writeFileSync(join(dir, 'x.conf'), `searchd {\n  snippets_file_prefix = ${dirX}/\n}\n`);
    const x = await spawnQuarry(ROOT, ['--data', join(dir, 'x'), '--agent', '127.0.0.1:0', '--config', join(dir, 'x.conf')]);
    let y: SpawnedQuarry | undefined;
    try {
      const cx = await connect(x);
      await cx.query('CREATE TABLE xs (title text)');
      await cx.query("INSERT INTO xs (id, title) VALUES (7, 'alpha from the agent')");
      await cx.end();
      writeFileSync(join(dir, 'y.conf'), `searchd {\n  snippets_file_prefix = ${dirY}/\n}\n
table loc {\n  type = rt\n  path = loc\n  rt_field = title\n}\n
table dsn {\n  type = distributed\n  local = loc\n  agent = 127.0.0.1:${x.agent}:xs\n  agent_query_timeout = 2s\n}\n`);
      y = await spawnQuarry(ROOT, ['--data', join(dir, 'y'), '--config', join(dir, 'y.conf')]);
      const cy = await connect(y);
      try {
        const [tables] = await cy.query('SHOW TABLES');
        expect(tables).toEqual([{ Table: 'dsn', Type: 'distributed' }, { Table: 'loc', Type: 'rt' }]);
        await cy.query("INSERT INTO loc (id, title) VALUES (1, 'alpha at home')");
        const [found] = await cy.query("SELECT id, title FROM dsn WHERE MATCH('alpha') ORDER BY id ASC");
        expect(found).toEqual([{ id: '1', title: 'alpha at home' }, { id: '7', title: 'alpha from the agent' }]);
        const snippets = async (files: string[], opts: string) => {
          const [r] = await cy.query(`CALL SNIPPETS((${files.map((f) => `'${f}.txt'`).join(',')}), 'dsn', 'alpha', ${opts})`);
          return (r as any[]).map((row) => row.snippet);
        };
        expect(await snippets(['f1', 'f2', 'f3', 'f4'], '1 AS load_files')).toEqual(
          ['f1', 'f2', 'f3', 'f4'].map((f) => `the ${f} file speaks of <b>alpha</b> and beta`));
        expect(await snippets(['f3', 'f1', 'nope'], '1 AS load_files_scattered')).toEqual(
          ['the f3 file speaks of <b>alpha</b> and beta', 'the f1 file speaks of <b>alpha</b> and beta', '']);
        await expect(snippets(['f3', 'f1', 'nope'], '1 AS load_files, 1 AS load_files_scattered')).rejects.toThrow(/nope\.txt/);
        // the agent's share (the second half) names files only the master has
        await expect(snippets(['f1', 'f2', 'f1', 'f2'], '1 AS load_files')).rejects.toThrow(/agent 127\.0\.0\.1:\d+: remote error: .*f1\.txt/);
        const [plain] = await cy.query("CALL SNIPPETS('alpha and omega', 'dsn', 'alpha')");
        expect(plain).toEqual([{ snippet: '<b>alpha</b> and omega' }]);
      } finally {
        await cy.end();
      }
    } finally {
      for (const p of [x, y]) { p?.proc.kill('SIGKILL'); await p?.exited; }
    }
  }, 60_000);
});
