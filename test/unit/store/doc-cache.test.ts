// DocCache and Store.getDocs through it: a page's reads see every committed write, TRUNCATE and DROP.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocCache } from '../../../src/store/doc-cache.js';
import { Store } from '../../../src/store/store.js';
import type { TableSchema } from '../../../src/schema/types.js';

describe('DocCache', () => {
  it('empties when the stamp moves, keeps its entries under the same stamp', () => {
    const c = new DocCache();
    c.stamp(1, 5);
    c.add(1n, { t: 'a' }, 10);
    c.stamp(1, 5);
    expect(c.get(1n)).toEqual({ t: 'a' });
    c.stamp(1, 6);
    expect(c.get(1n)).toBeUndefined();
    c.add(1n, { t: 'b' }, 10);
    c.stamp(2, 6);
    expect(c.size).toBe(0);
  });

  it('drops the oldest entries past its bound and keeps no record bigger than the bound', () => {
    const c = new DocCache(25);
    c.stamp(1, 1);
    for (let i = 1; i <= 3; i++) c.add(BigInt(i), { i }, 10);
    expect([c.get(1n), c.get(2n), c.get(3n)]).toEqual([undefined, { i: 2 }, { i: 3 }]);
    expect(c.add(9n, { big: true }, 26)).toEqual({ big: true });
    expect(c.get(9n)).toBeUndefined();
    expect(c.size).toBe(2);
  });

  it('keeps ids that round to the same double apart (number keys within 2^53, BigInt keys past it)', () => {
    const c = new DocCache();
    c.stamp(1, 1);
    const ids = [0n, -1n, (1n << 53n) - 1n, 1n << 53n, (1n << 53n) + 1n, -(1n << 53n) - 1n, (1n << 63n) - 1n, (1n << 63n) - 2n, -(1n << 63n)];
    ids.forEach((id, i) => c.add(id, { i }, 1));
    expect(ids.map((id) => c.get(id))).toEqual(ids.map((_, i) => ({ i })));
    expect(c.get(1n)).toBeUndefined();
    expect(c.size).toBe(ids.length);
  });

  it('freezes what it hands out: a page cannot change what the next page reads', () => {
    const c = new DocCache();
    const doc = c.add(1n, { t: 'a' }, 10);
    expect(() => { (doc as Record<string, unknown>).t = 'changed'; }).toThrow(TypeError);
  });
});

const schema = (name: string): TableSchema => ({
  name, columns: [{ name: 'title', type: 'text', indexed: true, stored: true }], settings: {},
});

describe('Store.getDocs through the cache', () => {
  let dir: string;
  let store: Store;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-doc-cache-'));
    store = Store.open(dir);
    await store.createTable(schema('t'));
    await store.write('t', [{ op: 'put', docId: 1n, doc: { title: 'one' } }, { op: 'put', docId: 2n, doc: { title: 'two' } }]);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const titles = (ids: bigint[]) => store.getDocs('t', ids).map((d) => d?.title);

  it('returns the same document object to the next page while nothing was written', () => {
    const [a] = store.getDocs('t', [1n]);
    expect(store.getDocs('T', [1n])[0]).toBe(a);
  });

  it('sees replaces, updates and deletes committed after a page was read', async () => {
    expect(titles([1n, 2n])).toEqual(['one', 'two']);
    await store.write('t', [{ op: 'put', docId: 1n, doc: { title: 'one again' } }]);
    expect(titles([1n, 2n])).toEqual(['one again', 'two']);
    await store.write('t', [{ op: 'update', docId: 2n, values: { title: 'two updated' } }]);
    expect(titles([1n, 2n])).toEqual(['one again', 'two updated']);
    await store.write('t', [{ op: 'delete', docId: 1n }]);
    expect(titles([1n, 2n])).toEqual([undefined, 'two updated']);
    await Promise.all(store.writeTogether('t', [[{ op: 'put', docId: 2n, doc: { title: 'two together' } }]]));
    expect(titles([2n])).toEqual(['two together']);
    // a round queued behind one still committing (pipelined): read at each one's resolution
    const first = store.writeTogether('t', [[{ op: 'put', docId: 2n, doc: { title: 'first round' } }]])[0]!;
    const second = store.writeTogether('t', [[{ op: 'put', docId: 2n, doc: { title: 'second round' } }]])[0]!;
    const seen: unknown[] = [];
    await Promise.all([first.then(() => seen.push(titles([2n])[0])), second.then(() => seen.push(titles([2n])[0]))]);
    expect(seen[1]).toBe('second round');
    expect(['first round', 'second round']).toContain(seen[0]);
  });

  it('reads nothing of a truncated or dropped table, nor of the dropped one after CREATE of the same name', async () => {
    expect(titles([1n])).toEqual(['one']);
    await store.truncate('t');
    expect(titles([1n])).toEqual([undefined]);
    await store.write('t', [{ op: 'put', docId: 1n, doc: { title: 'after truncate' } }]);
    expect(titles([1n])).toEqual(['after truncate']);
    await store.dropTable('t');
    await store.createTable(schema('t'));
    expect(titles([1n])).toEqual([undefined]);
    await store.write('t', [{ op: 'put', docId: 1n, doc: { title: 'recreated' } }]);
    expect(titles([1n])).toEqual(['recreated']);
  });
});
