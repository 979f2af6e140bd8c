// Store.writeTogether: several write calls in one commit that lmdb's write thread makes, each call all or
// nothing with its own sequence numbers (the round's ops in one op record); write(), catalog changes and
// further groups of the table commit in call order and continue the sequence.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../../src/store/store.js';
import { openDbs } from '../../../src/store/lmdb-env.js';
import * as catalog from '../../../src/store/catalog.js';

// lastSeqOf, the read of a generation's sequence record, counted (see the sequence-from-memory case)
vi.mock('../../../src/store/catalog.js', async (original) => {
  const real = await original<typeof import('../../../src/store/catalog.js')>();
  return { ...real, lastSeqOf: vi.fn(real.lastSeqOf) };
});

let dir: string;
let store: Store;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-store-queued-'));
  store = Store.open(dir);
  await store.createTable({ name: 't', columns: [{ name: 'title', type: 'text', indexed: true, stored: true }], settings: {} });
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const put = (id: number, title: string) => ({ op: 'put' as const, docId: BigInt(id), doc: { title } });

describe('Store.writeTogether', () => {
  it('commits the calls together, each with its own sequence numbers in order', async () => {
    await store.write('t', [put(1, 'before')]);
    const seqs = await Promise.all(store.writeTogether('t', [[put(2, 'two'), put(3, 'three')], [], [put(2, 'two again'), { op: 'delete', docId: 1n }]]));
    expect(seqs).toEqual([3n, 3n, 5n]);
    expect(store.getDocs('t', [1n, 2n, 3n]).map((d) => d?.title)).toEqual([undefined, 'two again', 'three']);
    expect(store.lastSeq('t')).toBe(5n);
    expect([...store.opsSince('t', 1n)].map((o) => [o.seq, o.op, o.docId])).toEqual([[2n, 'put', 2n], [3n, 'put', 3n], [4n, 'put', 2n], [5n, 'delete', 1n]]);
    // write() and groups one after another carry on from there
    const a = store.writeTogether('t', [[put(4, 'four')]]);
    const b = store.writeTogether('t', [[put(5, 'five')]]);
    expect(await Promise.all([...a, ...b])).toEqual([6n, 7n]);
    expect(await store.write('t', [put(6, 'six')])).toBe(8n);
    store = await reopened();
    expect(store.lastSeq('t')).toBe(8n);
    expect(store.getDocs('t', [4n, 5n, 6n]).map((d) => d?.title)).toEqual(['four', 'five', 'six']);
  });

  it('keeps a round\'s ops in one op record, read from any sequence in it', async () => {
    await store.write('t', [put(1, 'one')]);
    const seqs = await Promise.all(store.writeTogether('t', [[put(2, 'two')], [put(3, 'three'), put(4, 'four')], [{ op: 'delete', docId: 1n }]]));
    expect(seqs).toEqual([2n, 4n, 5n]);
    expect([...store.opsSince('t', 3n)].map((o) => [o.seq, o.op, o.docId])).toEqual([[4n, 'put', 4n], [5n, 'delete', 1n]]);
    await store.close(); // the logged round applied to lmdb
    const dbs = openDbs(join(dir, 'store'));
    try {
      expect(dbs.ops.getKeysCount()).toBe(2); // write()'s record and the round's
    } finally {
      await dbs.env.close();
    }
    store = Store.open(dir);
    expect([...store.opsSince('t', 1n)].map((o) => [o.seq, o.op, o.docId])).toEqual([[2n, 'put', 2n], [3n, 'put', 3n], [4n, 'put', 4n], [5n, 'delete', 1n]]);
    expect([...store.opsSince('t', 4n)].map((o) => o.seq)).toEqual([5n]);
  });

  it('queues a round called while the one before commits at once, behind it, with the sequence numbers after its own', async () => {
    await store.write('t', [put(1, 'one')]);
    await new Promise((r) => setImmediate(r)); // the table's chain settled: the next round is queued at once
    const a = store.writeTogether('t', [[put(2, 'two')], [put(3, 'three')]]);
    let aDurable = false;
    void a[1].then(() => { aDurable = true; });
    const b = store.writeTogether('t', [[put(2, 'two again')]]);
    expect(aDurable).toBe(false);
    expect(await Promise.all([...a, ...b])).toEqual([2n, 3n, 4n]);
    expect(store.lastSeq('t')).toBe(4n);
    store = await reopened();
    expect(store.getDocs('t', [2n, 3n]).map((d) => d?.title)).toEqual(['two again', 'three']);
    expect([...store.opsSince('t', 1n)].map((o) => [o.seq, o.docId])).toEqual([[2n, 2n], [3n, 3n], [4n, 2n]]);
  });

  it('rejects a call with a bad value or an op that reads alone; the others commit', async () => {
    await store.write('t', [put(1, 'one')]);
    const results = await Promise.allSettled(store.writeTogether('t', [
      [put(2, 'two')],
      [put(3, 'three'), { op: 'put', docId: 4n, doc: [] as never }],
      [{ op: 'insert', docId: 5n, doc: { title: 'five' } }],
      [{ op: 'update', docId: 1n, values: { title: 'changed' } }],
      [put(6, 'six')],
    ]));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason.message).toMatch(/doc must be an object/);
    expect((results[2] as PromiseRejectedResult).reason.message).toMatch(/reads the store/);
    expect(store.getDocs('t', [1n, 2n, 3n, 5n, 6n]).map((d) => d?.title)).toEqual(['one', 'two', undefined, undefined, 'six']);
    expect([...store.opsSince('t', 1n)].map((o) => o.seq)).toEqual([2n, 3n]);
  });

  it('commits off this thread: the calls come back pending, and rounds, write() and TRUNCATE called meanwhile commit in call order', async () => {
    let done = false;
    const first = store.writeTogether('t', [[put(1, 'one')], [put(2, 'two')]]);
    void Promise.all(first).then(() => { done = true; });
    await Promise.resolve();
    await Promise.resolve();
    expect(done).toBe(false); // lmdb's write thread commits and fsyncs; this thread went on
    const second = store.writeTogether('t', [[put(3, 'three')]]);
    const single = store.write('t', [put(4, 'four')]);
    const third = store.writeTogether('t', [[put(5, 'five')]]);
    expect(await Promise.all([...first, ...second, single, ...third])).toEqual([1n, 2n, 3n, 4n, 5n]);
    // a TRUNCATE takes the table's lock first: a round called meanwhile commits before or after it, whole
    const truncated = store.truncate('t');
    await Promise.resolve();
    const fourth = store.writeTogether('t', [[put(6, 'six')]]);
    await truncated;
    expect(await Promise.all(fourth)).toEqual([6n]);
    const after = store.getDocs('t', [1n, 5n, 6n]).map((d) => d?.title);
    const ops = [...store.opsSince('t', 0n)].map((o) => [o.seq, o.docId]);
    if (after[2]) expect(ops).toEqual([[6n, 6n]]);
    else expect(ops).toEqual([]);
    expect(after.slice(0, 2)).toEqual([undefined, undefined]);
    expect(store.lastSeq('t')).toBe(6n); // the sequence continues either way
  });

  it('takes the sequence a round committed from memory, and reads the record again after write() and TRUNCATE', async () => {
    await Promise.all(store.writeTogether('t', [[put(1, 'one')]]));
    const reads = vi.mocked(catalog.lastSeqOf);
    reads.mockClear();
    const seqReads = () => reads.mock.calls.length;
    try {
      expect(await Promise.all(store.writeTogether('t', [[put(2, 'two')]]))).toEqual([2n]);
      expect(await Promise.all(store.writeTogether('t', [[put(3, 'three')], [put(4, 'four')]]))).toEqual([3n, 4n]);
      expect(store.lastSeq('t')).toBe(4n);
      expect(seqReads()).toBe(0);
      expect(await store.write('t', [put(5, 'five')])).toBe(5n);
      const afterWrite = seqReads();
      expect(await Promise.all(store.writeTogether('t', [[put(6, 'six')]]))).toEqual([6n]);
      expect(seqReads()).toBeGreaterThan(afterWrite); // write() put the record itself: read again
      await store.truncate('t');
      expect(await Promise.all(store.writeTogether('t', [[put(7, 'seven')]]))).toEqual([7n]);
    } finally {
      reads.mockClear();
    }
    store = await reopened();
    expect(store.lastSeq('t')).toBe(7n);
    expect([...store.opsSince('t', 0n)].map((o) => [o.seq, o.docId])).toEqual([[7n, 7n]]);
  });

  it('close waits for rounds still committing, and a reopened store has them', async () => {
    const rounds = [store.writeTogether('t', [[put(1, 'one')]]), store.writeTogether('t', [[put(2, 'two')]])].flat();
    store = await reopened();
    expect(await Promise.all(rounds)).toEqual([1n, 2n]);
    expect(store.getDocs('t', [1n, 2n]).map((d) => d?.title)).toEqual(['one', 'two']);
    expect(store.lastSeq('t')).toBe(2n);
  });

  it('refuses a table that does not exist, and starts a new generation at its base after TRUNCATE', async () => {
    expect(() => store.writeTogether('nope', [[put(1, 'x')]])).toThrow(/absent/);
    await Promise.all(store.writeTogether('t', [[put(1, 'one'), put(2, 'two')]]));
    await store.truncate('t');
    expect(await Promise.all(store.writeTogether('t', [[put(3, 'three')]]))).toEqual([3n]);
    expect(store.getDocs('t', [1n, 3n]).map((d) => d?.title)).toEqual([undefined, 'three']);
  });
});

async function reopened(): Promise<Store> {
  await store.close();
  return Store.open(dir);
}
