// Store.releaseMappedPages: reopening the lmdb environment when idle unmaps the pages the process had
// touched through lmdb's map, and changes nothing the store answers; it does nothing while a write is in flight.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../../src/store/store.js';
import type { TableSchema } from '../../../src/schema/types.js';

const schema: TableSchema = { name: 't', columns: [{ name: 'body', type: 'text', indexed: true, stored: true }], settings: {} };
const text = 'lorem ipsum dolor sit amet '.repeat(15);

/** Resident bytes of this process's mappings of the store's data.mdb. */
function mappedBytes(): number {
  let rss = 0;
  let inFile = false;
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) inFile = line.includes('data.mdb');
    else if (inFile && line.startsWith('Rss:')) rss += Number(/(\d+)/.exec(line)![1]) * 1024;
  }
  return rss;
}

let dir: string;
let store: Store;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-release-'));
  store = Store.open(dir);
  await store.createTable(schema);
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function load(n: number): Promise<void> {
  for (let i = 0; i < n; i += 500) {
    const ops = Array.from({ length: 500 }, (_, j) => ({ op: 'insert' as const, docId: BigInt(i + j + 1), doc: { body: `${text}${i + j + 1}` } }));
    await store.write('t', ops);
  }
}

/** Runs `fn` from a timer callback (an empty microtask queue), as the idle collector does. */
const fromTimer = <T>(fn: () => Promise<T>) => new Promise<T>((resolve, reject) => setTimeout(() => fn().then(resolve, reject), 0));

describe('Store.releaseMappedPages', () => {
  it('unmaps the pages reads mapped and answers the same afterwards', async () => {
    await load(20_000);
    for (let id = 1n; id <= 20_000n; id += 7n) store.getDoc('t', id);
    const before = mappedBytes();
    expect(before).toBeGreaterThan(1 << 20);
    expect(await fromTimer(() => store.releaseMappedPages())).toBe(true);
    expect(mappedBytes()).toBeLessThan(before / 4);
    expect(store.getDoc('t', 12_345n)).toEqual({ body: `${text}12345` });
    expect([...store.docs('t')]).toHaveLength(20_000);
    await store.write('t', [{ op: 'insert', docId: 20_001n, doc: { body: 'after' } }]);
    expect(store.getDoc('t', 20_001n)).toEqual({ body: 'after' });
    await store.close();
    store = Store.open(dir);
    expect(store.getDoc('t', 20_001n)).toEqual({ body: 'after' });
    expect(store.lastSeq('t')).toBe(20_001n);
  });

  it('does nothing while a write is in flight, and the write lands', async () => {
    const write = store.write('t', [{ op: 'insert', docId: 1n, doc: { body: 'x' } }]);
    expect(await store.releaseMappedPages()).toBe(false);
    await write;
    expect(store.getDoc('t', 1n)).toEqual({ body: 'x' });
    expect(await fromTimer(() => store.releaseMappedPages())).toBe(true);
    expect(store.getDoc('t', 1n)).toEqual({ body: 'x' });
  });

  it('lets close wait for a reopen it overlaps', async () => {
    await load(1000);
    const released = fromTimer(() => store.releaseMappedPages());
    await released;
    const again = store.releaseMappedPages();
    await store.close();
    await again;
    store = Store.open(dir);
    expect(store.getDoc('t', 1000n)).toEqual({ body: `${text}1000` });
  });
});
