// Store.releaseMappedPages: closing and reopening the lmdb environment in one synchronous step unmaps the
// pages the process touched through lmdb's map and changes nothing the store answers; it does nothing while
// a write is in flight; reads, writes and reopens interleaved from timers never fail (the asynchronous
// reopen of session 6 crashed the process from lmdb-js's read-transaction reset timer).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../../src/store/store.js';
import type { TableSchema } from '../../../src/schema/types.js';

const schema: TableSchema = { name: 't', columns: [{ name: 'body', type: 'text', indexed: true, stored: true }], settings: {} };
const text = 'lorem ipsum dolor sit amet '.repeat(15);
const docOf = (id: bigint) => ({ body: `${text}${id}` });

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

async function load(from: number, n: number): Promise<void> {
  for (let i = from; i < from + n; i += 500) {
    const ops = Array.from({ length: 500 }, (_, j) => ({ op: 'insert' as const, docId: BigInt(i + j + 1), doc: docOf(BigInt(i + j + 1)) }));
    await store.write('t', ops);
  }
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('Store.releaseMappedPages', () => {
  it('unmaps the pages reads mapped and answers the same afterwards', async () => {
    await load(0, 20_000);
    for (let id = 1n; id <= 20_000n; id += 7n) store.getDoc('t', id);
    const before = mappedBytes();
    expect(before).toBeGreaterThan(1 << 20);
    expect(store.releaseMappedPages()).toBe(true);
    expect(mappedBytes()).toBeLessThan(before / 4);
    expect(store.getDoc('t', 12_345n)).toEqual(docOf(12_345n));
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
    expect(store.releaseMappedPages()).toBe(false);
    await write;
    expect(store.getDoc('t', 1n)).toEqual({ body: 'x' });
    expect(store.releaseMappedPages()).toBe(true);
    expect(store.getDoc('t', 1n)).toEqual({ body: 'x' });
  });

  it('never fails a read, a write or the process when reopens interleave with them from timers', async () => {
    await load(0, 2000);
    const uncaught: unknown[] = [];
    const onUncaught = (e: unknown) => { uncaught.push(e); };
    process.on('uncaughtException', onUncaught);
    let stop = false;
    let reads = 0;
    let reopened = 0;
    let next = 2000;
    try {
      const readers = Array.from({ length: 4 }, async (_, r) => {
        while (!stop) {
          const id = BigInt(1 + ((reads * 37 + r) % next));
          expect(store.getDoc('t', id)).toEqual(docOf(id));
          expect(store.hasDoc('t', id)).toBe(true);
          if (reads % 50 === 0) expect(store.getDocs('t', [1n, id])).toEqual([docOf(1n), docOf(id)]);
          reads++;
          await (r % 2 ? tick() : new Promise((res) => setImmediate(res)));
        }
      });
      const reopener = (async () => {
        while (!stop) {
          if (store.releaseMappedPages()) reopened++;
          await tick();
        }
      })();
      for (let round = 0; round < 40; round++) {
        const batch = Array.from({ length: 20 }, (_, j) => ({ op: 'insert' as const, docId: BigInt(next + j + 1), doc: docOf(BigInt(next + j + 1)) }));
        await store.write('t', batch.slice(0, 10));
        // the group commit's queued writes too (lmdb's write thread commits them while reads go on)
        await Promise.all(store.writeTogether('t', [batch.slice(10, 15).map((o) => ({ ...o, op: 'put' as const })), batch.slice(15).map((o) => ({ ...o, op: 'put' as const }))]));
        next += 20;
        await store.setMeta('round', round);
        for (let k = 0; k < 5; k++) await tick();
      }
      await store.saveCheckpoint('t', [], store.lastSeq('t'));
      await store.pruneOps('t', store.lastSeq('t'));
      for (let k = 0; k < 20; k++) await tick();
      stop = true;
      await Promise.all([...readers, reopener]);
      await new Promise((r) => setTimeout(r, 20)); // lmdb-js's read-transaction reset timers have fired
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
    expect(reopened).toBeGreaterThan(20);
    expect(reads).toBeGreaterThan(200);
    expect([...store.docs('t')]).toHaveLength(next);
    expect(store.getMeta('round')).toBe(39);
    await store.close();
    store = Store.open(dir);
    expect(store.getDoc('t', BigInt(next))).toEqual(docOf(BigInt(next)));
  });
});
