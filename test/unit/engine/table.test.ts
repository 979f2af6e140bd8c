// Table.write: an INSERT's segment is built while its store commit is in flight, and a write the index
// cannot take leaves nothing, neither in the store nor in the index.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Store } from '../../../src/store/index.js';
import { Catalog } from '../../../src/engine/catalog.js';
import { Table } from '../../../src/engine/table.js';
import type { TableStore, WriteOp } from '../../../src/engine/durability/table-store.js';
import type { Literal } from '../../../src/engine/values/literal.js';
import { req, t } from '../index/helpers.js';

/** What the store saw: each call's kind and doc ids, and how many writes were in flight at each segment build. */
interface Watch { calls: string[]; inFlight: number; inFlightAtBuild: number[] }

let dir = '';
let store: Store;
let table: Table;
let watch: Watch;

function watched(inner: TableStore, w: Watch): TableStore {
  const track = <T>(p: Promise<T>) => { w.inFlight++; return p.finally(() => { w.inFlight--; }); };
  return {
    getDocs: (ids) => inner.getDocs(ids),
    write: (ops: WriteOp[]) => { w.calls.push(`write ${ops.map((o) => `${o.op} ${o.docId}`).join(',')}`); return track(inner.write(ops)); },
    writeTogether: (calls: WriteOp[][]) => {
      w.calls.push(`together ${calls.flat().map((o) => `${o.op} ${o.docId}`).join(',')}`);
      return inner.writeTogether(calls).map(track);
    },
  };
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-table-'));
  store = Store.open(dir);
  const made = await Catalog.open(store).create({
    name: 't', settings: {},
    columns: [{ name: 'title', type: 'text', indexed: true, stored: true }, { name: 'n', type: 'uint', indexed: false, stored: false }],
  });
  watch = { calls: [], inFlight: 0, inFlightAtBuild: [] };
  table = new Table(made.schema, made.pipeline, made.index, watched(made.store, watch));
  const prepare = table.index.prepareBatch.bind(table.index);
  table.index.prepareBatch = (docs) => { watch.inFlightAtBuild.push(watch.inFlight); return prepare(docs); };
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const colNos = new Map([['id', 1], ['title', 2], ['n', 3]]);

/** Writes rows [id, title, n] as one INSERT (or REPLACE) under the table's mutex. */
function write(rows: [number, string, number][], replace = false): Promise<number> {
  const ids = rows.map(([id]) => BigInt(id));
  const inputs = rows.map(([id, title, n]) => ({
    id: BigInt(id),
    values: new Map<string, Literal>([['title', { t: 'string', v: title }], ['n', { t: 'int', v: BigInt(n) }]]),
  }));
  const { docs, inputs: docInputs } = table.prepare(inputs, ids, colNos);
  return table.mutex.run(() => table.write(ids, docs, docInputs, replace));
}

const search = (word: string) => table.search(req(t(word))).hits.map((h) => h.docId).sort((a, b) => Number(a - b));

describe('Table.write', () => {
  it('builds an INSERT\'s segment while its store commit is in flight, then makes it durable and visible', async () => {
    expect(await write([[1, 'apple one', 1], [2, 'apple two', 2]])).toBe(2);
    expect(watch.calls).toEqual(['together put 1,put 2']);
    expect(watch.inFlightAtBuild).toEqual([1]);
    expect(search('apple')).toEqual([1n, 2n]);
    expect(store.getDocs('t', [1n, 2n]).map((d) => d?.title)).toEqual(['apple one', 'apple two']);
  });

  it('keeps the build before the commit for REPLACE', async () => {
    await write([[1, 'apple', 1]]);
    await write([[1, 'pear', 2], [3, 'plum', 3]], true);
    expect(watch.calls).toEqual(['together put 1', 'write put 1,put 3']);
    expect(watch.inFlightAtBuild).toEqual([1, 0]);
    expect(search('apple')).toEqual([]);
    expect(search('pear')).toEqual([1n]);
  });

  it('rejects a duplicate id before anything is written', async () => {
    await write([[1, 'apple', 1]]);
    await expect(write([[2, 'kiwi', 2], [1, 'again', 3]])).rejects.toThrow("duplicate id '1'");
    expect(watch.calls).toEqual(['together put 1']);
    expect(store.getDocs('t', [2n])).toEqual([undefined]);
  });

  it('leaves nothing of an INSERT the index cannot take: the rows it stored are deleted again before the error', async () => {
    await write([[1, 'apple', 1]]);
    const prepare = table.index.prepareBatch;
    table.index.prepareBatch = () => { throw new Error('core out of memory'); };
    await expect(write([[2, 'kiwi two', 2], [3, 'kiwi three', 3]])).rejects.toThrow('core out of memory');
    table.index.prepareBatch = prepare;
    expect(watch.calls).toEqual(['together put 1', 'together put 2,put 3', 'write delete 2,delete 3']);
    expect(store.getDocs('t', [1n, 2n, 3n]).map((d) => d?.title)).toEqual(['apple', undefined, undefined]);
    expect(search('kiwi')).toEqual([]);
    // the ids are free again, and the table takes writes as before
    expect(await write([[2, 'kiwi again', 4]])).toBe(1);
    expect(search('kiwi')).toEqual([2n]);
    expect(table.index.count()).toBe(2);
  });

  it('frees the built segment when the store refuses the commit', async () => {
    const refusing: TableStore = { ...table.store, writeTogether: (calls) => calls.map(() => Promise.reject(new Error('disk full'))) };
    const t2 = new Table(table.schema, table.pipeline, table.index, refusing);
    const ids = [5n];
    const { docs, inputs } = t2.prepareDocs([{ title: 'fig', n: 1 }], ids);
    await expect(t2.mutex.run(() => t2.write(ids, docs, inputs, false))).rejects.toThrow('disk full');
    expect(search('fig')).toEqual([]);
    expect(table.index.count()).toBe(0);
  });
});

describe('Table.writeBuilding', () => {
  it('keeps a store write that fails while the build thread builds for the caller (not an unhandled rejection), and applies nothing', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => { unhandled.push(reason); };
    process.on('unhandledRejection', onUnhandled);
    try {
      const refusing: TableStore = { ...table.store, write: () => Promise.reject(new Error('disk full')) };
      const t2 = new Table(table.schema, table.pipeline, table.index, refusing);
      const ids = [5n];
      const { docs } = t2.prepareDocs([{ title: 'fig', n: 1 }], ids);
      // the build thread fails some time after the store write did: the rows build here, then are dropped
      const building = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('build thread gone')), 20));
      await expect(t2.mutex.run(() => t2.writeBuilding(ids, docs, building))).rejects.toThrow('disk full');
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
      expect(search('fig')).toEqual([]);
      expect(table.index.count()).toBe(0);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
