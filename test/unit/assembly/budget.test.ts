// max_query_memory (assembly/memory/budget.ts): a query whose matches and groups over one segment need
// more core memory than the cap fails with an error naming the setting; the core keeps serving (the
// same answers as before, writes still indexed) and the failed queries leave nothing behind.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_QUERY_MEMORY, newSession, openEngine, type Engine, type RowsResult } from '../../../src/engine/index.js';
import { setQueryMemory } from '../../../src/index/parallel/query-threads.js';
import { sharedCore } from '../../../src/wasm/core.js';

const CAP = 256 * 1024;
const ROWS = 40_000;
let dir: string;
let engine: Engine;
const session = newSession();
const exec = async (sql: string) => (await engine.execute(sql, session)).at(-1)!;
const rows = async (sql: string) => ((await exec(sql)) as RowsResult).rows;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-budget-'));
  engine = await openEngine({ dataDir: dir, threads: 1, maxQueryMemory: CAP });
  await engine.execute('CREATE TABLE t (title text, cat uint)', session);
  for (let i = 0; i < ROWS; i += 5000) {
    const values = Array.from({ length: 5000 }, (_, j) => `(${i + j + 1}, 'apple ${j % 2 ? 'pie' : 'tart'}', ${(i + j) % 7})`);
    await engine.execute(`INSERT INTO t (id, title, cat) VALUES ${values.join(',')}`, session);
  }
  await engine.execute('OPTIMIZE TABLE t', session);
}, 60_000);

afterAll(async () => {
  await engine.close();
  await setQueryMemory(sharedCore(), DEFAULT_MAX_QUERY_MEMORY);
  rmSync(dir, { recursive: true, force: true });
});

const ERROR = {
  kind: 'error', code: 'QUERY_ERROR',
  message: `query needs more core memory than max_query_memory allows (${CAP} bytes for one segment's matches and groups); narrow the query or raise max_query_memory`,
};

describe('max_query_memory', () => {
  it('fails a query over the cap with an error naming it; queries under it answer', async () => {
    const few = 'SELECT cat, COUNT(*) FROM t GROUP BY cat ORDER BY cat ASC';
    expect(await rows(few)).toEqual(Array.from({ length: 7 }, (_, c) => [c, BigInt(c < ROWS % 7 ? Math.ceil(ROWS / 7) : Math.floor(ROWS / 7))]));
    // 40k groups of 24-byte records, then every match of 40k rows (8 bytes each): over 256 KiB
    expect(await exec('SELECT id, COUNT(*) FROM t GROUP BY id LIMIT 1')).toMatchObject(ERROR);
    expect(await exec("SELECT cat, COUNT(*) FROM t WHERE MATCH('apple') GROUP BY cat")).toMatchObject(ERROR);
    expect(await rows("SELECT id FROM t WHERE MATCH('pie') ORDER BY id ASC LIMIT 2")).toEqual([[2n], [4n]]);
  });

  it('leaves the core serving: no memory kept by the failed queries, writes still indexed', async () => {
    const core = sharedCore();
    await exec('SELECT id, COUNT(*) FROM t GROUP BY id LIMIT 1');
    const pages = core.exports.memory.buffer.byteLength;
    for (let i = 0; i < 30; i++) expect(await exec(i % 2 ? 'SELECT id, COUNT(*) FROM t GROUP BY id' : "SELECT cat, COUNT(*) FROM t WHERE MATCH('apple') GROUP BY cat")).toMatchObject(ERROR);
    expect(core.exports.memory.buffer.byteLength).toBe(pages);
    await exec("INSERT INTO t (id, title, cat) VALUES (100001, 'plum cake', 3)");
    expect(await rows("SELECT id, cat FROM t WHERE MATCH('plum')")).toEqual([[100001n, 3]]);
  });

  it('0 lifts the cap', async () => {
    await setQueryMemory(sharedCore(), 0);
    try {
      expect((await rows('SELECT id, COUNT(*) FROM t GROUP BY id ORDER BY id ASC LIMIT 1'))).toEqual([[1n, 1n]]);
    } finally {
      await setQueryMemory(sharedCore(), CAP);
    }
  });
});
