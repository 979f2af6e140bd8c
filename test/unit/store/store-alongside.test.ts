// Store.alongside: a meta value stored in the very commits of the writes made inside it (the
// replication layer's applied sequence), and in none that failed.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../../src/store/store.js';
import type { TableSchema } from '../../../src/schema/types.js';

const schema: TableSchema = { name: 't', columns: [{ name: 'title', type: 'text', indexed: true, stored: true }], settings: {} };

let dir: string;
let store: Store;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-store-alongside-'));
  store = Store.open(dir);
  await store.createTable(schema);
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('Store.alongside', () => {
  it('stores the value with each write and table change made inside, and counts those commits', async () => {
    const put = (id: bigint) => store.write('t', [{ op: 'put', docId: id, doc: { title: `doc ${id}` } }]);
    const { result, commits } = await store.alongside('applied', { seq: 7 }, async () => {
      await put(1n);
      await store.truncate('t');
      await put(2n);
      return 'done';
    });
    expect(result).toBe('done');
    expect(commits).toBe(3);
    expect(store.getMeta('applied')).toEqual({ seq: 7 });
    await store.close();
    store = Store.open(dir);
    expect(store.getMeta('applied')).toEqual({ seq: 7 });
    expect([...store.docs('t')].map(([id]) => id)).toEqual([2n]);
  });

  it('leaves the value out of writes outside it, and out of a failed write', async () => {
    await store.write('t', [{ op: 'put', docId: 1n, doc: { title: 'outside' } }]);
    expect(store.getMeta('applied')).toBeUndefined();
    const seen: number[] = [];
    const run = store.alongside('applied', { seq: 8 }, async () => {
      await store.write('missing', [{ op: 'delete', docId: 1n }]);
    }, (n) => seen.push(n));
    await expect(run).rejects.toThrow();
    expect(store.getMeta('applied')).toBeUndefined();
    expect(seen).toEqual([]);
  });

  it('reaches writes issued later in the same async flow (a grouped commit started inside it)', async () => {
    const { commits } = await store.alongside('applied', { seq: 9 }, async () => {
      await new Promise((r) => setTimeout(r, 5));
      await Promise.all([1n, 2n].map((id) => store.write('t', [{ op: 'put', docId: id, doc: { title: 'x' } }])));
    });
    expect(commits).toBe(2);
    expect(store.getMeta('applied')).toEqual({ seq: 9 });
  });
});
