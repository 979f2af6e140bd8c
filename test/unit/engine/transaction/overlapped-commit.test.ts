// The overlapped commit (startOverlapped, builtOrUndone): the segment is built while the store's commit is
// in flight; a build that fails after the commit deletes again exactly the rows of the calls that became
// durable and answers the build's error; a store that refuses at once frees a batch built before. The
// variant with a turn builds only after the callbacks queued with the commit ran (lmdb-js starts writing in one).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Store } from '../../../../src/store/index.js';
import { Catalog } from '../../../../src/engine/catalog.js';
import type { RtIndex } from '../../../../src/index/rt-index.js';
import type { TableStore, WriteOp } from '../../../../src/engine/durability/table-store.js';
import { AFTER_TURN_ROWS, builtOrUndone, startOverlapped } from '../../../../src/engine/transaction/overlapped-commit.js';
import type { DocInput } from '../../../../src/index/types.js';
import { req, t } from '../../index/helpers.js';

let dir = '';
let store: Store;
let tableStore: TableStore;
let index: RtIndex;
/** Each store call (kind and doc ids), and how many writes were in flight when each segment was built. */
let calls: string[];
let inFlight = 0;
let inFlightAtBuild: number[];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-overlapped-'));
  store = Store.open(dir);
  const made = await Catalog.open(store).create({ name: 't', settings: {}, columns: [{ name: 'title', type: 'text', indexed: true, stored: true }] });
  calls = [];
  inFlightAtBuild = [];
  const inner = made.store;
  const track = <T>(p: Promise<T>) => { inFlight++; return p.finally(() => { inFlight--; }); };
  tableStore = {
    getDocs: (ids) => inner.getDocs(ids),
    write: (ops: WriteOp[]) => { calls.push(`write ${ops.map((o) => `${o.op} ${o.docId}`).join(',')}`); return track(inner.write(ops)); },
    writeTogether: (c: WriteOp[][]) => { calls.push(`together ${c.map((ops) => ops.map((o) => o.docId).join(',')).join(' | ')}`); return inner.writeTogether(c).map(track); },
  };
  index = made.index;
  const prepare = index.prepareBatch.bind(index);
  index.prepareBatch = (docs) => { inFlightAtBuild.push(inFlight); return prepare(docs); };
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const puts = (...ids: number[]): WriteOp[] => ids.map((id) => ({ op: 'put', docId: BigInt(id), doc: { title: `kiwi ${id}` } }));
const inputsOf = (ops: WriteOp[][]): DocInput[] => ops.flat().map((o) => ({ docId: o.docId, fields: [{ terms: ['kiwi'], positions: [1], length: 1 }], attrs: [] }));
const titles = (...ids: number[]) => store.getDocs('t', ids.map(BigInt)).map((d) => d?.title);

describe('startOverlapped and builtOrUndone', () => {
  it('builds the segment while the commit is in flight, and hands the batch on once it settled', async () => {
    const c = [puts(1, 2), puts(3)];
    const o = startOverlapped(tableStore, index, c, inputsOf(c));
    expect(inFlightAtBuild).toEqual([2]);
    const outcomes = await Promise.allSettled(o.writes);
    const batch = await builtOrUndone(tableStore, c, o, outcomes);
    index.applyBatch(batch, []);
    expect(calls).toEqual(['together 1,2 | 3']);
    expect(titles(1, 2, 3)).toEqual(['kiwi 1', 'kiwi 2', 'kiwi 3']);
    expect(index.search(req(t('kiwi'))).hits.length).toBe(3);
  });

  it('deletes again the rows of the durable calls only, then throws the build error', async () => {
    index.prepareBatch = () => { throw new Error('core out of memory'); };
    const c = [puts(1, 2), puts(3)];
    const o = startOverlapped(tableStore, index, c, inputsOf(c));
    const outcomes: PromiseSettledResult<unknown>[] = [await Promise.allSettled(o.writes).then((r) => r[0]!), { status: 'rejected', reason: new Error('disk full') }];
    await expect(builtOrUndone(tableStore, c, o, outcomes)).rejects.toThrow('core out of memory');
    // the second call "failed": its id 3 is not deleted (a later statement may hold it)
    expect(calls).toEqual(['together 1,2 | 3', 'write delete 1,delete 2']);
    expect(titles(1, 2)).toEqual([undefined, undefined]);
  });

  it('deletes nothing when no call became durable', async () => {
    index.prepareBatch = () => { throw new Error('core out of memory'); };
    const c = [puts(1)];
    const o = startOverlapped(tableStore, index, c, inputsOf(c));
    await Promise.allSettled(o.writes);
    await expect(builtOrUndone(tableStore, c, o, [{ status: 'rejected', reason: new Error('disk full') }])).rejects.toThrow('core out of memory');
    expect(calls).toEqual(['together 1']);
  });

  it('takes a batch built before the commit as it is, and frees it when the store refuses at once', async () => {
    const c = [puts(4)];
    const batch = index.prepareBatch(inputsOf(c));
    let freed = 0;
    const discard = index.discardBatch.bind(index);
    index.discardBatch = (b) => { freed++; discard(b); };
    const refusing: TableStore = { ...tableStore, writeTogether: () => { throw new Error('store closed'); } };
    expect(() => startOverlapped(refusing, index, c, batch)).toThrow('store closed');
    expect(freed).toBe(1);
    const again = index.prepareBatch(inputsOf(c));
    const o = startOverlapped(tableStore, index, c, again);
    expect(await builtOrUndone(tableStore, c, o, await Promise.allSettled(o.writes))).toBe(again);
    expect(inFlightAtBuild).toEqual([0, 0]);
  });
});

describe('a write big enough to build a segment (AFTER_TURN_ROWS rows)', () => {
  const many = (from: number) => puts(...Array.from({ length: AFTER_TURN_ROWS }, (_, i) => from + i));

  it('is built only after a callback queued with setImmediate when the commit was queued (where lmdb-js starts writing)', async () => {
    let started = false;
    const startsLater: TableStore = { ...tableStore, writeTogether: (c) => { const w = tableStore.writeTogether(c); setImmediate(() => { started = true; }); return w; } };
    const startedAtBuild: boolean[] = [];
    const prepare = index.prepareBatch;
    index.prepareBatch = (docs) => { startedAtBuild.push(started); return prepare(docs); };
    const c = [many(1)];
    const o = startOverlapped(startsLater, index, c, inputsOf(c));
    expect(startedAtBuild).toEqual([]);
    await o.built;
    expect(startedAtBuild).toEqual([true]);
    index.applyBatch(await builtOrUndone(tableStore, c, o, await Promise.allSettled(o.writes)), []);
    expect(titles(1, AFTER_TURN_ROWS)).toEqual(['kiwi 1', `kiwi ${AFTER_TURN_ROWS}`]);
    expect(index.search(req(t('kiwi'), { limit: 1000 })).hits.length).toBe(AFTER_TURN_ROWS);
    // one row fewer is built at once, before that callback
    started = false;
    const c2 = [puts(...Array.from({ length: AFTER_TURN_ROWS - 1 }, (_, i) => 1000 + i))];
    const o2 = startOverlapped(startsLater, index, c2, inputsOf(c2));
    expect(startedAtBuild).toEqual([true, false]);
    await Promise.allSettled(o2.writes);
  });

  it('keeps a write that fails during the turn for the caller (not an unhandled rejection), and undoes the durable calls when the build fails', async () => {
    index.prepareBatch = () => { throw new Error('core out of memory'); };
    const failing: TableStore = { ...tableStore, writeTogether: (c) => [tableStore.writeTogether([c[0]!])[0]!, Promise.reject(new Error('disk full'))] };
    const c = [many(1), many(5000)];
    const o = startOverlapped(failing, index, c, inputsOf(c));
    await new Promise((resolve) => setImmediate(resolve));
    const outcomes = await Promise.allSettled(o.writes);
    expect(outcomes[1]).toMatchObject({ status: 'rejected', reason: new Error('disk full') });
    await expect(builtOrUndone(tableStore, c, o, outcomes)).rejects.toThrow('core out of memory');
    expect(calls[calls.length - 1]).toBe(`write ${many(1).map((p) => `delete ${p.docId}`).join(',')}`);
    expect(titles(1, AFTER_TURN_ROWS)).toEqual([undefined, undefined]);
  });
});
