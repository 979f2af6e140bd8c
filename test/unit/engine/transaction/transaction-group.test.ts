// Group commit: concurrent INSERT/REPLACE statements share store commits, each acknowledged only after its
// own store write is durable and applied; a failing statement fails alone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Store } from '../../../../src/store/index.js';
import { Catalog } from '../../../../src/engine/catalog.js';
import { Table } from '../../../../src/engine/table.js';
import type { TableStore, WriteOp } from '../../../../src/engine/durability/table-store.js';
import type { Literal } from '../../../../src/engine/values/literal.js';
import { commitGrouped } from '../../../../src/engine/transaction/transaction-group.js';
import { req, t } from '../../index/helpers.js';

/** The real table store, watched: each commit's calls (their doc ids), commits in flight, what became durable. */
interface Watch { inFlight: number; maxInFlight: number; commits: bigint[][][]; durable: Set<bigint>; failWith?: bigint; commitMs?: number }

function watched(inner: TableStore, w: Watch): TableStore {
  return {
    getDocs: (ids) => inner.getDocs(ids),
    write: (ops) => inner.write(ops),
    writeTogether(calls: WriteOp[][]) {
      w.commits.push(calls.map((ops) => ops.map((o) => o.docId)));
      w.maxInFlight = Math.max(w.maxInFlight, ++w.inFlight);
      // the store refusing one statement's write (a value it cannot encode), the others queued; the
      // refusal comes late, so the round stays in flight a while
      const refused = calls.map((ops) => w.failWith !== undefined && ops.some((o) => o.docId === w.failWith));
      const queued = inner.writeTogether(calls.filter((_, k) => !refused[k]));
      const late = new Promise((r) => setTimeout(r, refused.some(Boolean) ? 30 : 0));
      const done = Promise.allSettled([...queued, late]).then(() => { w.inFlight--; });
      // a slow disk (a loaded machine's fsyncs): every call settles commitMs after it was queued
      if (w.commitMs) {
        const slow = new Promise((r) => setTimeout(r, w.commitMs));
        return queued.map((q, k) => slow.then(() => q).then((r) => {
          for (const o of calls[k]!) w.durable.add(o.docId);
          return r;
        }));
      }
      let next = 0;
      return calls.map((ops, k) => (refused[k] ? done.then(() => { throw new Error('write refused'); }) : queued[next++].then((r) => {
        for (const o of ops) w.durable.add(o.docId);
        return r;
      })));
    },
  };
}

let dir = '';
let store: Store;
let table: Table;
let watch: Watch;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-group-'));
  store = Store.open(dir);
  const catalog = Catalog.open(store);
  const t = await catalog.create({
    name: 't', settings: {},
    columns: [{ name: 'title', type: 'text', indexed: true, stored: true }, { name: 'n', type: 'uint', indexed: false, stored: false }],
  });
  watch = { inFlight: 0, maxInFlight: 0, commits: [], durable: new Set() };
  table = new Table(t.schema, t.pipeline, t.index, watched(t.store, watch));
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const colNos = new Map([['id', 1], ['title', 2], ['n', 3]]);

/** Commits one statement of rows [id, title, n]; `replace` for REPLACE. */
function put(rows: [number, string, number][], replace = false): Promise<number> {
  const ids = rows.map(([id]) => BigInt(id));
  const inputs = rows.map(([id, title, n]) => ({
    id: BigInt(id),
    values: new Map<string, Literal>([['title', { t: 'string', v: title }], ['n', { t: 'int', v: BigInt(n) }]]),
  }));
  return commitGrouped(table, () => ({ ids, ...table.prepare(inputs, ids, colNos), replace }));
}

function search(word: string): bigint[] {
  return table.search(req(t(word))).hits.map((h) => h.docId).sort((a, b) => Number(a - b));
}

describe('commitGrouped', () => {
  it('lets concurrent statements share commits and acknowledges each after its write is durable', async () => {
    const ack = (i: number) => put([[i + 1, `apple doc ${i}`, i]]).then((n) => {
      expect(watch.durable.has(BigInt(i + 1))).toBe(true);
      expect(table.index.has(BigInt(i + 1))).toBe(true);
      return n;
    });
    const turn = () => new Promise((r) => setImmediate(r));
    const acks = [ack(0)];
    await turn(); // the mutex taken, the round's issue asked for
    await turn(); // the first round is issued alone; what arrives while it commits forms the next ones
    for (let i = 1; i < 24; i++) {
      acks.push(ack(i));
      if (i % 8 === 0) await turn();
    }
    expect(await Promise.all(acks)).toEqual(Array(24).fill(1));
    expect(watch.commits.flat().length).toBe(24);
    expect(watch.commits[0].length).toBe(1);
    expect(watch.commits.length).toBeLessThan(24);
    expect(watch.commits.slice(1).some((c) => c.length > 1)).toBe(true);
    expect(watch.maxInFlight).toBe(1); // one round commits at a time; the next gathers what arrives meanwhile
    expect(table.index.count()).toBe(24);
    expect(store.getDocs('t', [1n, 24n]).map((d) => d?.title)).toEqual(['apple doc 0', 'apple doc 23']);
  });

  it('waits for the statements the last round acknowledged: each client\'s next statement joins the next round', async () => {
    // 8 clients, each sending its next statement a few event-loop turns after its acknowledgement (as a
    // reply goes out and the next statement is read): a round issued one turn after it was asked for
    // would take only the statements read by then
    const turn = () => new Promise((r) => setImmediate(r));
    const clients = Array.from({ length: 8 }, async (_, c) => {
      for (let k = 0; k < 6; k++) {
        await put([[c * 100 + k + 1, `client ${c}`, k]]);
        for (let j = 0; j < c % 4; j++) await turn();
      }
    });
    await Promise.all(clients);
    expect(watch.commits.flat().length).toBe(48);
    // the first round may catch only some clients; from then on a round holds all 8, unless a busy
    // machine delays a client past the gather's wait (then that round is short and the next catches up):
    // 48 statements in at most 8 rounds, most of them full
    expect(watch.commits.length).toBeLessThanOrEqual(8);
    expect(watch.commits.filter((c) => c.length === 8).length).toBeGreaterThanOrEqual(4);
  });

  it('waits for a late client as long as the last round took: with slow commits it joins the round', async () => {
    // 4 clients, three of them sending their next statement 2 ms after its acknowledgement; commits take
    // 6 ms. A fixed 1 ms gather issued rounds of the prompt client alone and then the three (rounds
    // 4,1,4,1,4,1,3,3,3 here); waiting up to the last round's time, each round holds all four (4 x 6)
    watch.commitMs = 6;
    const clients = Array.from({ length: 4 }, async (_, c) => {
      for (let k = 0; k < 6; k++) {
        await put([[c * 100 + k + 1, `client ${c}`, k]]);
        if (c > 0) await new Promise((r) => setTimeout(r, 2));
      }
    });
    await Promise.all(clients);
    expect(watch.commits.flat().length).toBe(24);
    expect(watch.commits.length).toBeLessThanOrEqual(7);
  });

  it('fails only the statement whose id is taken, in the index or earlier in the same round', async () => {
    await put([[1, 'first', 1]]);
    const results = await Promise.allSettled([
      put([[2, 'second', 2]]),
      put([[1, 'again', 3]]),
      put([[2, 'dup of a concurrent one', 4]]),
      put([[3, 'third', 5], [3, 'twice in one', 6]]),
      put([[4, 'fourth', 7]]),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason.message).toBe("duplicate id '1'");
    expect((results[2] as PromiseRejectedResult).reason.message).toBe("duplicate id '2'");
    expect(table.index.count()).toBe(3);
    expect(store.getDocs('t', [1n, 2n, 3n]).map((d) => d?.title)).toEqual(['first', 'second', undefined]);
  });

  it('leaves nothing of a round the index cannot take: its durable rows are deleted again, every statement fails', async () => {
    await put([[1, 'apple', 1]]);
    const prepare = table.index.prepareBatch;
    table.index.prepareBatch = () => { throw new Error('core out of memory'); };
    const results = await Promise.allSettled([put([[2, 'kiwi two', 2]]), put([[3, 'kiwi three', 3]])]);
    table.index.prepareBatch = prepare;
    expect(results.map((r) => r.status === 'rejected' && r.reason.message)).toEqual(['core out of memory', 'core out of memory']);
    expect(store.getDocs('t', [1n, 2n, 3n]).map((d) => d?.title)).toEqual(['apple', undefined, undefined]);
    expect(search('kiwi')).toEqual([]);
    expect(await put([[2, 'kiwi again', 4]])).toBe(1); // the ids are free again
    expect(search('kiwi')).toEqual([2n]);
  });

  it('applies concurrent REPLACEs of one id in arrival order: the last one wins', async () => {
    await put([[7, 'orig', 0]]);
    await Promise.all([put([[7, 'pear one', 1]], true), put([[7, 'pear two', 2], [8, 'plum', 3]], true), put([[7, 'pear three', 3]], true)]);
    expect(table.index.count()).toBe(2);
    expect(store.getDocs('t', [7n])[0]?.title).toBe('pear three');
    expect(table.index.getAttrs(7n)?.[0]).toBe(3);
    expect(search('pear')).toEqual([7n]);
    expect(search('orig')).toEqual([]);
  });

  it('a statement whose store write fails leaves nothing visible; the round\'s others stand, also for the same id', async () => {
    await put([[7, 'orig', 0], [8, 'eight', 0]]);
    watch.failWith = 9n;
    const results = await Promise.allSettled([
      put([[20, 'filler', 0]]), // the four share one round
      put([[7, 'pear one', 1]], true), put([[7, 'pear two', 2], [9, 'nine', 2], [8, 'eight two', 2]], true), put([[10, 'ten', 3]]),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    // the failed statement's rows are neither stored nor shown, and the rows it would have replaced stay
    expect(store.getDocs('t', [7n, 8n, 9n, 10n]).map((d) => d?.title)).toEqual(['pear one', 'eight', undefined, 'ten']);
    expect(search('pear')).toEqual([7n]);
    expect(table.index.getAttrs(7n)?.[0]).toBe(1);
    expect(search('eight')).toEqual([8n]);
    expect(search('two')).toEqual([]);
    expect(search('nine')).toEqual([]);
    expect(search('ten')).toEqual([10n]);
    expect(table.index.count()).toBe(4);
  });

  it('queues an INSERT of an id a round in flight writes until that round settles: its failure lets the INSERT in', async () => {
    const turn = () => new Promise((r) => setImmediate(r));
    watch.failWith = 30n;
    const first = put([[30, 'refused', 1]], true);
    first.catch(() => undefined); // settled below
    await turn();
    await turn(); // the REPLACE's round is committing
    watch.failWith = undefined;
    const again = put([[30, 'inserted', 2]]);
    const other = put([[31, 'other', 3]]);
    await turn();
    await turn();
    expect(watch.commits).toEqual([[[30n]]]); // one round at a time: 30 and 31 wait for it
    const results = await Promise.allSettled([first, again, other]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(store.getDocs('t', [30n])[0]?.title).toBe('inserted');
    expect(search('inserted')).toEqual([30n]);
    // the INSERT of 30 went once the round writing 30 had settled, with 31 in the same round
    expect(watch.commits).toEqual([[[30n]], [[30n], [31n]]]);
  });

  it('lets another user of the table\'s mutex in between rounds: the statements after it wait for it', async () => {
    const turn = () => new Promise((r) => setImmediate(r));
    const order: string[] = [];
    const first = put([[40, 'forty', 1]]).then(() => order.push('insert 40'));
    await turn();
    await turn(); // its round is in flight
    const other = table.mutex.run(async () => { order.push('other holder'); });
    const second = put([[41, 'forty one', 1]]).then(() => order.push('insert 41'));
    await Promise.all([first, other, second]);
    expect(order).toEqual(['insert 40', 'other holder', 'insert 41']);
    expect(table.index.count()).toBe(2);
  });

  it('a round the index cannot take stores nothing', async () => {
    await put([[7, 'orig', 0]]);
    const { sharedCore } = await import('../../../../src/wasm/core.js');
    const core = sharedCore();
    const held: number[] = [];
    for (let size = 256 << 20; size >= 16; size >>>= 2) for (;;) { try { held.push(core.alloc(size)); } catch { break; } }
    const results = await Promise.allSettled([put([[7, 'pear', 1]], true), put([[11, 'eleven', 1]])]);
    for (const p of held) core.free(p);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(store.getDocs('t', [7n, 11n]).map((d) => d?.title)).toEqual(['orig', undefined]);
    expect(search('orig')).toEqual([7n]);
    expect(await put([[11, 'eleven', 1]])).toBe(1);
  });

  it('builds a round of INSERTs while its commit is in flight', async () => {
    const inFlightAtBuild: number[] = [];
    const prepare = table.index.prepareBatch.bind(table.index);
    table.index.prepareBatch = (docs) => { inFlightAtBuild.push(watch.inFlight); return prepare(docs); };
    await put([[1, 'apple', 1]]);
    // the watch counts a round out a timer tick after its statements are acknowledged: wait for it, so
    // the REPLACE's round meets no earlier round in flight
    while (watch.inFlight) await new Promise((r) => setTimeout(r, 1));
    await put([[2, 'pear', 2]], true);
    expect(inFlightAtBuild).toEqual([1, 0]); // a round with a REPLACE is built before its commit
    expect(search('apple')).toEqual([1n]);
  });

  it('a round of INSERTs the index cannot take, its commit queued first, leaves nothing stored', async () => {
    await put([[7, 'orig', 0]]);
    const { sharedCore } = await import('../../../../src/wasm/core.js');
    const core = sharedCore();
    const held: number[] = [];
    for (let size = 256 << 20; size >= 16; size >>>= 2) for (;;) { try { held.push(core.alloc(size)); } catch { break; } }
    const results = await Promise.allSettled([put([[11, 'eleven', 1]]), put([[12, 'twelve', 1], [13, 'thirteen', 1]])]);
    for (const p of held) core.free(p);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(watch.commits.slice(1)).toEqual([[[11n], [12n, 13n]]]); // committed, then deleted again
    expect(store.getDocs('t', [7n, 11n, 12n, 13n]).map((d) => d?.title)).toEqual(['orig', undefined, undefined, undefined]);
    expect(search('eleven')).toEqual([]);
    expect(await put([[11, 'eleven', 1]])).toBe(1);
    expect(search('eleven')).toEqual([11n]);
    expect(table.index.count()).toBe(2);
  });

  it('reports a bad value of one statement to it alone', async () => {
    const bad = commitGrouped(table, () => { throw new Error('bad row'); });
    await expect(bad).rejects.toThrow('bad row');
    expect(await put([[9, 'fine', 1]])).toBe(1);
  });
});
