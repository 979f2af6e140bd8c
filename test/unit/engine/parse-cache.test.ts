import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'lossless-json';
import { newSession, open } from '../../../src/index.js';
import type { JsonObject } from '../../../src/engine/json/json-value.js';
import { ParseCache } from '../../../src/engine/parse-cache.js';

describe('ParseCache', () => {
  it('drops the least recently used entry when full and keeps no over-long key', () => {
    const c = new ParseCache<number>(2, 5);
    c.set('a', 1);
    c.set('b', 2);
    expect(c.get('a')).toBe(1); // 'a' is now the most recent
    c.set('c', 3);
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toBe(1);
    expect(c.get('c')).toBe(3);
    expect(c.set('toolong', 4)).toBe(4);
    expect(c.get('toolong')).toBeUndefined();
    expect(c.size).toBe(2);
  });
});

/** A result without its timing, which differs from run to run. */
const untimed = (rs: unknown[]) => JSON.parse(JSON.stringify(rs, (k, v) => (k === 'timeMs' ? undefined : typeof v === 'bigint' ? `${v}n` : v)));

describe('repeated statements and MATCH texts', () => {
  it('answer as the first time, and a MATCH parsed before ALTER TABLE is parsed again after it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-parse-cache-'));
    const db = await open(dir, { threads: 1 });
    try {
      await db.sql('CREATE TABLE t (title text)');
      await db.sql("INSERT INTO t (id, title) VALUES (1, 'the walking dead'), (2, 'walk the line'), (3, 'dead end')");
      const q = "SELECT id FROM t WHERE MATCH('walking dead') ORDER BY id ASC";
      const first = await db.sql(q);
      expect(first[0]).toMatchObject({ rows: [[1n]] });
      expect(untimed(await db.sql(q))).toEqual(untimed(first));
      // the same MATCH text in another statement shape shares the parsed query
      expect((await db.sql("SELECT id FROM t WHERE MATCH('walking dead') LIMIT 5"))[0]).toMatchObject({ rows: [[1n]] });
      // new text settings apply to documents written from now on and to every query parsed after
      await db.sql("ALTER TABLE t morphology='stem_en'");
      await db.sql("INSERT INTO t (id, title) VALUES (4, 'walks with the dead')");
      expect((await db.sql(q))[0]).toMatchObject({ rows: [[4n]] });
      // an error is never cached as an answer
      const bad = "SELECT id FROM t WHERE MATCH('\"unclosed')";
      const e1 = await db.sql(bad);
      expect(e1[0]).toMatchObject({ kind: 'error' });
      expect(await db.sql(bad)).toEqual(e1);
      // /search: a repeated query tree, and its filters, answer as the first time
      const s = newSession();
      const text = '{"table":"t","query":{"bool":{"must":[{"query_string":"dead"},{"range":{"id":{"gte":2}}}]}}}';
      const body = parse(text) as JsonObject;
      const j1 = await db.engine.json!.search(body, s);
      expect(j1.rows.map((r) => r[0]).sort()).toEqual([3n, 4n]);
      expect(untimed([await db.engine.json!.search(parse(text) as JsonObject, s)])).toEqual(untimed([j1]));
      const other = parse('{"table":"t","query":{"bool":{"must":[{"query_string":"dead"},{"range":{"id":{"gte":4}}}]}}}') as JsonObject;
      expect((await db.engine.json!.search(other, s)).rows.map((r) => r[0])).toEqual([4n]);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
