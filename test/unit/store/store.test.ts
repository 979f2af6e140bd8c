// Store: catalog, atomic writes with sequences, reads, truncate/drop, meta, against a real lmdb env.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../../src/store/store.js';
import { openDbs } from '../../../src/store/lmdb-env.js';
import type { TableSchema } from '../../../src/schema/types.js';

const schema = (name: string, extra: Partial<TableSchema> = {}): TableSchema => ({
  name,
  columns: [
    { name: 'title', type: 'text', indexed: true, stored: true },
    { name: 'gid', type: 'bigint', indexed: false, stored: false },
    { name: 'tags', type: 'mva64', indexed: false, stored: false },
  ],
  settings: { morphology: 'stem_en' },
  ...extra,
});

let dir: string;
let store: Store;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-store-'));
  store = Store.open(dir);
  await store.createTable(schema('T1'));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function reopen(): Promise<Store> {
  await store.close();
  store = Store.open(dir);
  return store;
}

describe('Store catalog', () => {
  it('lower-cases names and answers case-insensitively', async () => {
    expect(store.getTable('t1')?.name).toBe('t1');
    expect(store.getTable('T1')).toEqual(schema('t1'));
    expect(store.tables().map((t) => t.name)).toEqual(['t1']);
    await reopen();
    expect(store.getTable('t1')).toEqual(schema('t1'));
  });

  it('reopens a table whose name the key encoding reads back as an array (a NUL then a space: stored before names were checked)', async () => {
    const odd = '\ufeff test "/ \u0000 * nan';
    await store.createTable(schema(odd));
    await store.write(odd, [{ op: 'put', docId: 7n, doc: { title: 'kept' } }]);
    await reopen();
    expect(store.tables().map((t) => t.name).sort()).toEqual(['t1', odd].sort());
    expect(store.getDoc(odd, 7n)).toEqual({ title: 'kept' });
    await store.dropTable(odd);
    await reopen();
    expect(store.tables().map((t) => t.name)).toEqual(['t1']);
  });

  it('refuses a second table of the same name with Manticore\'s message', async () => {
    await expect(store.createTable(schema('t1'))).rejects.toMatchObject({
      code: 'TABLE_EXISTS', message: "table 't1': CREATE TABLE failed: table 't1' already exists",
    });
  });

  it('drops a table with its documents; an unknown one fails', async () => {
    await store.write('t1', [{ op: 'put', docId: 1n, doc: { title: 'a' } }]);
    await store.dropTable('T1');
    expect(store.getTable('t1')).toBeUndefined();
    await expect(store.dropTable('t1')).rejects.toThrow("DROP TABLE failed: unknown table 't1'");
    await store.createTable(schema('t1'));
    expect([...store.docs('t1')]).toEqual([]);
    expect(store.lastSeq('t1')).toBe(0n);
  });

  it('alters the schema and keeps documents', async () => {
    await store.write('t1', [{ op: 'put', docId: 1n, doc: { title: 'a' } }]);
    const altered = schema('t1', { columns: [{ name: 'title', type: 'text', indexed: true, stored: true }] });
    await store.alterTable(altered);
    expect(store.getTable('t1')).toEqual(altered);
    expect(store.getDoc('t1', 1n)).toEqual({ title: 'a' });
    await reopen();
    expect(store.getTable('t1')).toEqual(altered);
  });
});

describe('Store writes and reads', () => {
  it('round-trips documents exactly and lists them in signed id order', async () => {
    const big = (1n << 63n) - 1n;
    const docs: [bigint, Record<string, unknown>][] = [
      [5n, { title: 'five', gid: big, tags: [-(1n << 63n), 0n, 7n], price: 1.5, s: null }],
      [-3n, { title: 'minus', gid: -1n, tags: [], n: 4294967295 }],
      [big, { title: 'max' }],
      [-(1n << 63n), { title: 'min' }],
    ];
    const seq = await store.write('t1', docs.map(([docId, doc]) => ({ op: 'put', docId, doc })));
    expect(seq).toBe(4n);
    await reopen();
    expect([...store.docs('t1')]).toEqual([...docs].sort((a, b) => (a[0] < b[0] ? -1 : 1)));
    expect(store.getDoc('t1', 5n)).toStrictEqual(docs[0][1]);
    expect(store.getDocs('t1', [big, 6n, -3n])).toEqual([docs[2][1], undefined, docs[1][1]]);
    expect(store.hasDoc('t1', -3n)).toBe(true);
    expect(store.hasDoc('t1', 3n)).toBe(false);
  });

  it('writes a batch of ascending puts (a bulk load) as one of any order: every document, the ops logged, a repeated id last wins', async () => {
    const ids = [-7n, 1n, 2n, 40n, 1n << 40n];
    expect(await store.write('t1', ids.map((docId) => ({ op: 'put', docId, doc: { title: `t${docId}` } })))).toBe(5n);
    expect(await store.write('t1', [
      { op: 'put', docId: 50n, doc: { title: 'first' } },
      { op: 'put', docId: 3n, doc: { title: 'three' } },
      { op: 'put', docId: 50n, doc: { title: 'last' } },
    ])).toBe(8n);
    await reopen();
    expect([...store.docs('t1')]).toEqual([
      ...ids.slice(0, 3).map((id) => [id, { title: `t${id}` }]), [3n, { title: 'three' }], [40n, { title: 't40' }],
      [50n, { title: 'last' }], [1n << 40n, { title: `t${1n << 40n}` }],
    ]);
    expect([...store.opsSince('t1', 0n)].map((o) => o.docId)).toEqual([...ids, 50n, 3n, 50n]);
  });

  it('writes ascending batches appended past the stored rows, and ones lmdb refuses to append (below, among or over them) too', async () => {
    await store.createTable(schema('t2'));
    const put = (ids: bigint[], tag: string) => ids.map((docId) => ({ op: 'put' as const, docId, doc: { title: `${tag}${docId}` } }));
    await store.write('t1', put([10n, 20n, 30n], 'a'));
    await store.write('t1', put([40n, 50n], 'b')); // past the last row: appended
    await store.write('t2', put([1n, 2n], 'c')); // a later generation: its keys follow every row of t1
    await store.write('t1', put([5n, 6n], 'd')); // below t1's rows and t2's: refused as appends
    await store.write('t1', put([25n, 50n, 60n], 'e')); // among them, over one, then past t1's last (t2's rows still follow)
    await reopen();
    expect([...store.docs('t1')]).toEqual([
      [5n, { title: 'd5' }], [6n, { title: 'd6' }], [10n, { title: 'a10' }], [20n, { title: 'a20' }], [25n, { title: 'e25' }],
      [30n, { title: 'a30' }], [40n, { title: 'b40' }], [50n, { title: 'e50' }], [60n, { title: 'e60' }],
    ]);
    expect([...store.docs('t2')]).toEqual([[1n, { title: 'c1' }], [2n, { title: 'c2' }]]);
  });

  it('numbers ops per table, monotonic across calls and restarts, and logs them', async () => {
    await store.createTable(schema('t2'));
    expect(await store.write('t1', [{ op: 'put', docId: 1n, doc: { title: 'a' } }])).toBe(1n);
    expect(await store.write('t2', [{ op: 'put', docId: 1n, doc: { title: 'b' } }])).toBe(1n);
    expect(await store.write('t1', [
      { op: 'update', docId: 1n, values: { gid: 9n } },
      { op: 'insert', docId: 2n, doc: { title: 'c' } },
      { op: 'delete', docId: 1n },
    ])).toBe(4n);
    await reopen();
    expect(store.lastSeq('t1')).toBe(4n);
    expect([...store.opsSince('t1', 1n)]).toEqual([
      { seq: 2n, op: 'update', docId: 1n, values: { gid: 9n } },
      { seq: 3n, op: 'put', docId: 2n, doc: { title: 'c' } },
      { seq: 4n, op: 'delete', docId: 1n },
    ]);
    expect([...store.opsSince('t1', 4n)]).toEqual([]);
    expect(await store.write('t1', [])).toBe(4n);
    expect(await store.write('t1', [{ op: 'delete', docId: 2n }])).toBe(5n);
  });

  it('gives a logged put the document as stored now, or a delete once it is gone', async () => {
    await store.write('t1', [
      { op: 'put', docId: 1n, doc: { title: 'a' } },
      { op: 'put', docId: 2n, doc: { title: 'b' } },
    ]);
    await store.write('t1', [
      { op: 'update', docId: 1n, values: { gid: 3n } },
      { op: 'delete', docId: 2n },
    ]);
    await reopen();
    // replaying all four in order still ends in what is stored: doc 1 with gid 3, no doc 2
    expect([...store.opsSince('t1', 0n)]).toEqual([
      { seq: 1n, op: 'put', docId: 1n, doc: { title: 'a', gid: 3n } },
      { seq: 2n, op: 'delete', docId: 2n },
      { seq: 3n, op: 'update', docId: 1n, values: { gid: 3n } },
      { seq: 4n, op: 'delete', docId: 2n },
    ]);
  });

  it('merges updates into the stored doc; updating a missing doc is a logged no-op', async () => {
    await store.write('t1', [
      { op: 'put', docId: 1n, doc: { title: 'a', gid: 1n } },
      { op: 'update', docId: 1n, values: { gid: 2n, tags: [3n] } },
      { op: 'update', docId: 2n, values: { gid: 5n } },
    ]);
    expect(store.getDoc('t1', 1n)).toStrictEqual({ title: 'a', gid: 2n, tags: [3n] });
    expect(store.hasDoc('t1', 2n)).toBe(false);
    expect([...store.opsSince('t1', 0n)].map((o) => o.op)).toEqual(['put', 'update', 'update']);
  });

  it('fails a batch with a duplicate insert as a whole', async () => {
    await store.write('t1', [{ op: 'put', docId: 3n, doc: { title: 'x' } }]);
    const batch = [
      { op: 'put' as const, docId: 10n, doc: { title: 'new' } },
      { op: 'insert' as const, docId: 3n, doc: { title: 'dup' } },
    ];
    await expect(store.write('t1', batch)).rejects.toMatchObject({ code: 'DUPLICATE_ID', message: "duplicate id '3'" });
    expect(store.hasDoc('t1', 10n)).toBe(false);
    expect(store.getDoc('t1', 3n)).toEqual({ title: 'x' });
    expect(store.lastSeq('t1')).toBe(1n);
    await expect(store.write('t1', [
      { op: 'insert', docId: 4n, doc: {} }, { op: 'insert', docId: 4n, doc: {} },
    ])).rejects.toThrow("duplicate id '4'");
    expect(await store.write('t1', [
      { op: 'delete', docId: 3n }, { op: 'insert', docId: 3n, doc: { title: 'again' } },
    ])).toBe(3n);
    expect(store.getDoc('t1', 3n)).toEqual({ title: 'again' });
  });

  it('shares commits between concurrent writers without mixing a failed batch in', async () => {
    const ps = Array.from({ length: 50 }, (_, i) => store.write('t1', [
      { op: 'insert', docId: BigInt(i % 40), doc: { title: `w${i}` } },
      { op: 'put', docId: 1000n + BigInt(i), doc: { title: `side${i}` } },
    ]));
    const results = await Promise.allSettled(ps);
    const ok = results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<bigint>).value);
    expect(ok.length).toBe(40);
    expect(new Set(ok).size).toBe(40);
    expect(ok.every((s) => s % 2n === 0n)).toBe(true);
    results.forEach((r, i) => expect(store.hasDoc('t1', 1000n + BigInt(i))).toBe(r.status === 'fulfilled'));
    expect(store.lastSeq('t1')).toBe(80n);
  });

  it('refuses bad input before writing anything', async () => {
    await expect(store.write('nope', [{ op: 'delete', docId: 1n }])).rejects.toThrow("table 'nope' absent");
    await expect(store.write('t1', [{ op: 'put', docId: 1n << 64n, doc: {} }])).rejects.toThrow(/out of range/);
    await expect(store.write('t1', [{ op: 'put', docId: 1n, doc: { d: new Date() } }])).rejects.toThrow(/cannot store/);
    expect(store.lastSeq('t1')).toBe(0n);
  });

  it('finishes writes still in flight when closed, and refuses new ones', async () => {
    const pending = store.write('t1', [{ op: 'put', docId: 9n, doc: { title: 'late' } }]);
    await store.close();
    await expect(pending).resolves.toBe(1n);
    await expect(store.write('t1', [{ op: 'delete', docId: 9n }])).rejects.toThrow('store is closed');
    store = Store.open(dir);
    expect(store.getDoc('t1', 9n)).toEqual({ title: 'late' });
  });

  it('writes what was passed even if the caller mutates it before the commit', async () => {
    const doc = { title: 'before', tags: [1n] };
    const p = store.write('t1', [{ op: 'put', docId: 1n, doc }]);
    doc.title = 'after';
    doc.tags.push(2n);
    await p;
    expect(store.getDoc('t1', 1n)).toEqual({ title: 'before', tags: [1n] });
  });
});

describe('Store truncate', () => {
  it('empties docs, ops and checkpoint atomically, swaps the schema, continues the sequence', async () => {
    await store.write('t1', [{ op: 'put', docId: 1n, doc: { title: 'a' } }, { op: 'put', docId: 2n, doc: {} }]);
    await store.saveCheckpoint('t1', [{ name: 'seg1', bytes: new Uint8Array([1, 2]) }], 2n);
    const reconf = schema('t1', { settings: { morphology: 'none' } });
    await store.truncate('T1', reconf);
    expect([...store.docs('t1')]).toEqual([]);
    expect([...store.opsSince('t1', 0n)]).toEqual([]);
    expect(store.getTable('t1')).toEqual(reconf);
    expect(store.loadCheckpoint('t1')).toEqual({ segments: [], lastSeq: 2n });
    expect(await store.write('t1', [{ op: 'put', docId: 1n, doc: { title: 'b' } }])).toBe(3n);
    await reopen();
    expect([...store.docs('t1')]).toEqual([[1n, { title: 'b' }]]);
    expect([...store.opsSince('t1', 2n)].map((o) => o.seq)).toEqual([3n]);
    expect(store.getTable('t1')).toEqual(reconf);
  });

  it('garbage-collects the old generation\'s rows', async () => {
    await store.write('t1', Array.from({ length: 25 }, (_, i) => ({ op: 'put' as const, docId: BigInt(i), doc: {} })));
    await store.truncate('t1');
    await store.write('t1', [{ op: 'put', docId: 1n, doc: {} }]);
    await store.close(); // waits for the collection
    const dbs = openDbs(join(dir, 'store'));
    try {
      expect(dbs.docs.getKeysCount()).toBe(1);
      expect(dbs.ops.getKeysCount()).toBe(1);
      expect(dbs.dead.getKeysCount()).toBe(0);
    } finally {
      await dbs.env.close();
    }
    store = Store.open(dir);
  });

  it('orders concurrent writes before or after a truncate, never split', async () => {
    const batch = (i: number) => [0, 1, 2].map((j) => ({ op: 'put' as const, docId: BigInt(i * 10 + j), doc: {} }));
    const writes = Array.from({ length: 20 }, (_, i) => store.write('t1', batch(i)));
    const trunc = store.truncate('t1');
    const late = Array.from({ length: 20 }, (_, i) => store.write('t1', batch(100 + i)));
    await Promise.all([...writes, trunc, ...late]);
    const ids = [...store.docs('t1')].map(([id]) => id);
    expect(ids.length % 3).toBe(0);
    for (let i = 0; i < ids.length; i += 3) expect(ids[i + 2] - ids[i]).toBe(2n);
    const ops = [...store.opsSince('t1', 0n)];
    expect(ops.length).toBe(ids.length);
  });
});

describe('Store meta', () => {
  it('keeps values across restarts and updates atomically', async () => {
    await store.setMeta('autoId', (100000n << 24n) | 1n);
    await store.setMeta('settings', { auto_schema: true, n: 1.25 });
    const incs = Array.from({ length: 30 }, () => store.updateMeta('counter', (v) => ((v as bigint) ?? 0n) + 1n));
    await Promise.all(incs);
    await reopen();
    expect(store.getMeta('autoId')).toBe(1677721600001n);
    expect(store.getMeta('settings')).toEqual({ auto_schema: true, n: 1.25 });
    expect(store.getMeta('counter')).toBe(30n);
    await store.setMeta('counter', undefined);
    expect(store.getMeta('counter')).toBeUndefined();
  });
});
