// The search core running out of memory mid-query: that query fails with a clear error, the instance
// keeps serving (same answers once memory is free again), nothing else is lost. The core's memory is
// exhausted for real, by allocating from it until it traps (wasm32: 4 GiB of address space, which
// costs no RSS: the allocator touches only block headers).
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { newSession, openEngine, type RowsResult } from '../../../src/engine/index.js';
import { sharedCore } from '../../../src/wasm/core.js';
import { useTempEngine } from '../../helpers/temp-engine.js';

const t = useTempEngine('core-oom', async (t) => {
  await t.exec('create table t (title text, n int)');
  await t.exec("insert into t (id, title, n) values (1, 'apple pie', 1), (2, 'apple tart', 2), (3, 'pear', 3)");
});

const held: number[] = [];
afterEach(() => {
  for (const p of held.splice(0)) sharedCore().free(p);
});

/** Allocates from the shared core until not even 16 bytes are left. */
function exhaust(): void {
  const core = sharedCore();
  for (let size = 256 << 20; size >= 16; size >>>= 2) {
    for (;;) {
      try {
        held.push(core.alloc(size));
      } catch {
        break;
      }
    }
  }
}

describe('the core out of memory', () => {
  it('fails that query with a clear error; the core then serves the same answers', async () => {
    const query = "select id, weight() from t where match('apple') order by id asc";
    const before = await t.rows(query);
    expect(before.map((r) => r[0])).toEqual([1n, 2n]);
    exhaust();
    expect(held.length).toBeGreaterThan(10);
    expect((await t.exec(query)).at(-1)).toMatchObject({
      kind: 'error',
      code: 'QUERY_ERROR',
      message: 'out of memory in the search core: the query needs more memory than the core can get; narrow it or retry later',
    });
    for (const p of held.splice(0)) sharedCore().free(p);
    expect(await t.rows(query)).toEqual(before);
    await t.exec("insert into t (id, title, n) values (4, 'apple crumble', 4)");
    expect((await t.rows(query)).map((r) => r[0])).toEqual([1n, 2n, 4n]);
  });
});

describe('the core out of memory during a write', () => {
  it('a REPLACE that cannot be indexed leaves the old row searchable, not deleted', async () => {
    exhaust();
    const out = (await t.exec("replace into t (id, title, n) values (1, 'plum cake', 10)")).at(-1);
    for (const p of held.splice(0)) sharedCore().free(p);
    expect(out).toMatchObject({ kind: 'error', code: 'QUERY_ERROR', message: expect.stringMatching(/^out of memory in the search core/) });
    // the index still holds the row it had, and so does the store: the failed write left nothing
    expect(await t.rows("select id from t where match('apple') order by id asc")).toEqual([[1n], [2n]]);
    await t.engine.close();
    const again = await openEngine({ dataDir: join(t.dir, 'data') });
    try {
      const rows = (await again.execute('select id, title, n from t order by id asc', newSession())).at(-1) as RowsResult;
      expect(rows.rows).toEqual([[1n, 'apple pie', 1], [2n, 'apple tart', 2], [3n, 'pear', 3]]);
    } finally {
      await again.close();
    }
  });

  it('an INSERT and a transaction the index cannot take store nothing; their ids stay free', async () => {
    exhaust();
    const single = (await t.exec("insert into t (id, title, n) values (10, 'kiwi', 10)")).at(-1);
    await t.exec('begin');
    await t.exec("insert into t (id, title, n) values (11, 'fig', 11)");
    await t.exec("insert into t (id, title, n) values (12, 'fig', 12)");
    const tx = await t.exec('commit');
    for (const p of held.splice(0)) sharedCore().free(p);
    expect(single).toMatchObject({ kind: 'error', code: 'QUERY_ERROR' });
    expect(tx.at(-1)).toMatchObject({ kind: 'error', code: 'QUERY_ERROR' });
    await t.engine.close();
    const again = await openEngine({ dataDir: join(t.dir, 'data') });
    try {
      const session = newSession();
      const count = async () => ((await again.execute('select count(*) from t', session)).at(-1) as RowsResult).rows;
      expect(await count()).toEqual([[3n]]);
      await again.execute("insert into t (id, title, n) values (10, 'kiwi', 10), (11, 'fig', 11), (12, 'fig', 12)", session);
      expect(await count()).toEqual([[6n]]);
    } finally {
      await again.close();
    }
  });
});
