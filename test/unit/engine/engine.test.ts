import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newSession, openEngine, type Engine, type Result, type RowsResult } from '../../../src/engine/index.js';

let dir: string;
let engine: Engine;
const session = newSession();

async function sql(text: string): Promise<Result> {
  const out = await engine.execute(text, session);
  return out[out.length - 1];
}
async function rowsOf(text: string): Promise<unknown[][]> {
  const r = await sql(text);
  if (r.kind !== 'rows') throw new Error(`expected rows, got ${JSON.stringify(r)}`);
  return (r as RowsResult).rows;
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-engine-'));
  engine = await openEngine({ dataDir: dir });
});
afterEach(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('engine over SQL', () => {
  it('creates, inserts, matches with AND by default, and reads back attributes', async () => {
    expect(await sql('CREATE TABLE t (title text, price float, n int)')).toEqual({ kind: 'ok', affected: 0 });
    expect(await sql("INSERT INTO t (id, title, price, n) VALUES (1,'red apple',1.5,10),(2,'green apple',2,20),(3,'red car',3,30)"))
      .toMatchObject({ kind: 'ok', affected: 3 });
    expect(await rowsOf("SELECT id, price FROM t WHERE MATCH('red apple')")).toEqual([[1n, 1.5]]);
    const or = await rowsOf("SELECT id FROM t WHERE MATCH('green | car') ORDER BY id ASC");
    expect(or).toEqual([[2n], [3n]]);
  });

  it('filters, sorts by attributes and applies LIMIT offset,count', async () => {
    await sql('CREATE TABLE t (title text, n int)');
    await sql("INSERT INTO t (id, title, n) VALUES (1,'a',5),(2,'a',3),(3,'a',9),(4,'b',1)");
    expect(await rowsOf('SELECT id FROM t WHERE n > 2 ORDER BY n DESC')).toEqual([[3n], [1n], [2n]]);
    expect(await rowsOf('SELECT id FROM t WHERE n BETWEEN 2 AND 6 ORDER BY id ASC LIMIT 1,1')).toEqual([[2n]]);
    expect(await rowsOf('SELECT id FROM t WHERE id IN (1,4) ORDER BY id DESC')).toEqual([[4n], [1n]]);
  });

  it('rejects a duplicate id without applying any row of the statement', async () => {
    await sql('CREATE TABLE t (title text)');
    await sql("INSERT INTO t (id, title) VALUES (1,'x')");
    expect(await sql("INSERT INTO t (id, title) VALUES (2,'y'),(1,'z')")).toMatchObject({ kind: 'error', message: "duplicate id '1'" });
    expect(await rowsOf('SELECT COUNT(*) FROM t')).toEqual([[1n]]);
  });

  it('updates, deletes and truncates with counts', async () => {
    await sql('CREATE TABLE t (title text, n int)');
    await sql("INSERT INTO t (id, title, n) VALUES (1,'a',1),(2,'a',2),(3,'b',3)");
    expect(await sql('UPDATE t SET n=7 WHERE id=2')).toMatchObject({ affected: 1 });
    expect(await rowsOf('SELECT n FROM t WHERE id=2')).toEqual([[7]]);
    expect(await sql("DELETE FROM t WHERE MATCH('a')")).toMatchObject({ affected: 2 });
    expect(await rowsOf('SELECT id FROM t')).toEqual([[3n]]);
    expect(await sql('TRUNCATE TABLE t')).toMatchObject({ kind: 'ok', affected: 0 });
    expect(await rowsOf('SELECT COUNT(*) FROM t')).toEqual([[0n]]);
  });

  it('keeps every acknowledged write across a restart', async () => {
    await sql('CREATE TABLE t (title text, n int) morphology=\'stem_en\'');
    await sql("INSERT INTO t (id, title, n) VALUES (1,'walked home',1),(2,'running',2)");
    await sql('UPDATE t SET n=5 WHERE id=1');
    await sql('DELETE FROM t WHERE id=2');
    await engine.close();
    engine = await openEngine({ dataDir: dir });
    expect(await rowsOf("SELECT id, n FROM t WHERE MATCH('walk')")).toEqual([[1n, 5]]);
    expect(await rowsOf('SELECT COUNT(*) FROM t')).toEqual([[1n]]);
  });

  it('generates increasing ids when id is omitted or 0', async () => {
    await sql('CREATE TABLE t (title text)');
    await sql("INSERT INTO t (title) VALUES ('a'),('b')");
    await sql("INSERT INTO t (id, title) VALUES (0,'c')");
    const ids = (await rowsOf('SELECT id FROM t ORDER BY id ASC')).map((r) => r[0] as bigint);
    expect(ids.length).toBe(3);
    expect(ids[0] < ids[1] && ids[1] < ids[2]).toBe(true);
    expect(ids[0] > 1n << 24n).toBe(true);
  });

  it('reads a bigint literal past int64 one way in INSERT and WHERE: saturated, or refused for =', async () => {
    await sql('CREATE TABLE t (title text, b bigint, m multi64)');
    await sql("INSERT INTO t (id, title, b, m) VALUES (1,'a',18446744073709551615,(18446744073709551615)),(2,'b',-1,(-1))");
    expect(await rowsOf('SELECT id, b, m FROM t WHERE b IN (18446744073709551615)')).toEqual([[1n, 9223372036854775807n, [9223372036854775807n]]]);
    expect(await rowsOf('SELECT id FROM t WHERE b >= 18446744073709551615')).toEqual([[1n]]);
    expect(await rowsOf('SELECT id FROM t WHERE m = 9223372036854775807')).toEqual([[1n]]);
    expect(await sql('SELECT id FROM t WHERE b = 18446744073709551615')).toMatchObject({ kind: 'error',
      message: 'number 18446744073709551615 is out of range [-9223372036854775808..9223372036854775807]' });
  });
});

describe('engine status statements', () => {
  it('SHOW TABLE t STATUS counts documents, bytes, segments, killed rows and the table\'s commands', async () => {
    await sql('CREATE TABLE t (title text)');
    await sql("INSERT INTO t (id, title) VALUES (1,'a'),(2,'b')");
    await sql("INSERT INTO t (id, title) VALUES (3,'c')");
    await sql('DELETE FROM t WHERE id=1');
    const status = new Map((await rowsOf('SHOW TABLE t STATUS')) as [string, string][]);
    expect(status.get('indexed_documents')).toBe('2');
    expect(status.get('killed_documents')).toBe('1');
    expect(Number(status.get('ram_chunk_segments_count'))).toBeGreaterThanOrEqual(1);
    expect(Number(status.get('ram_bytes'))).toBeGreaterThan(0);
    expect(status.get('killed_rate')).toBe('33.33%');
    expect(status.get('command_insert')).toBe('2');
    expect(status.get('command_delete')).toBe('1');
    await sql("SELECT * FROM t WHERE MATCH('b')");
    const after = new Map((await rowsOf('SHOW TABLE t STATUS')) as [string, string][]);
    expect(after.get('command_search')).toBe('1');
    // searchd's keys carry the unit (AddQueryTimeStatsToOutput: "avg_sec")
    expect(after.get('query_time_1min')).toMatch(/^\{"queries":1, "avg_sec":\d+\.\d{3}, /);
    // in process there are no client connections: SHOW THREADS lists none (the e2e test has them)
    expect(await rowsOf('SHOW THREADS')).toEqual([]);
  });

  it('SHOW STATUS counts statements by Manticore\'s command kinds and sums query wall time', async () => {
    const counters = async () => new Map((await rowsOf('SHOW STATUS')) as [string, string][]);
    await sql('CREATE TABLE t (title text, n int)');
    const before = await counters();
    await sql("INSERT INTO t (id, title, n) VALUES (1,'a',1)");
    await sql("REPLACE INTO t (id, title, n) VALUES (1,'b',2)");
    await sql('UPDATE t SET n=3 WHERE id=1');
    await sql("SELECT * FROM t WHERE MATCH('b')");
    await sql('SELECT 1');
    const after = await counters();
    const delta = (k: string) => Number(after.get(k)) - Number(before.get(k));
    expect([delta('command_insert'), delta('command_replace'), delta('command_update'), delta('command_search'), delta('queries')]).toEqual([1, 1, 1, 1, 1]);
    expect(delta('command_status')).toBe(1);
    expect(Number(after.get('query_wall'))).toBeGreaterThanOrEqual(Number(before.get('query_wall')));
    expect(after.get('search_stats_ms_avg')).toMatch(/^\d+\.\d{3} \d+\.\d{3} \d+\.\d{3}$/);
    expect([...after.keys()].slice(0, 4)).toEqual(['uptime', 'connections', 'maxed_out', 'version']);
    expect((await rowsOf("SHOW STATUS LIKE 'command_s%'")).map((r) => r[0])).toEqual(['command_search', 'command_status', 'command_sphinxql', 'command_set', 'command_suggest']);
  });
});
