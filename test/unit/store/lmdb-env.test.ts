// commitTxn: writers sharing one lmdb commit stay all-or-nothing each, against a real lmdb env.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { statfsSync } from 'node:fs';
import { checkWriteSpace, commitTxn, LMDB_OPTIONS, openDbs, type StoreDbs } from '../../../src/store/lmdb-env.js';

let dir: string;
let dbs: StoreDbs;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-lmdb-env-'));
  dbs = openDbs(join(dir, 'store'));
});
afterEach(async () => {
  await dbs.env.close();
  rmSync(dir, { recursive: true, force: true });
});

const key = (s: string) => Buffer.from(s);

describe('commitTxn', () => {
  it('a writer that throws after some puts leaves none of them in the commit it shared', async () => {
    // all three are queued in one event turn: lmdb-js runs them inside one write transaction
    const results = await Promise.allSettled([
      commitTxn(dbs, () => dbs.docs.putSync(key('a'), key('1'))),
      commitTxn(dbs, () => {
        dbs.docs.putSync(key('b'), key('2'));
        dbs.ops.putSync(key('b'), key('2'));
        throw new Error('second put of the batch failed');
      }),
      commitTxn(dbs, () => dbs.docs.putSync(key('c'), key('3'))),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason.message).toBe('second put of the batch failed');
    expect(dbs.docs.get(key('a'))?.toString()).toBe('1');
    expect(dbs.docs.get(key('b'))).toBeUndefined();
    expect(dbs.ops.get(key('b'))).toBeUndefined();
    expect(dbs.docs.get(key('c'))?.toString()).toBe('3');
  });

  it('resolves with the callback value once durable', async () => {
    expect(await commitTxn(dbs, () => { dbs.meta.putSync('k', Buffer.from('v')); return 7; })).toBe(7);
    expect(dbs.meta.get('k')?.toString()).toBe('v');
  });
});

describe('page size', () => {
  it('a new environment has 16 KiB pages; one made with 4 KiB pages (data dirs before) keeps them, reads and writes', async () => {
    expect(dbs.env.getStats()).toMatchObject({ pageSize: 16384 });
    const old = join(dir, 'old');
    const made = open({ path: old, ...LMDB_OPTIONS, pageSize: 4096 });
    const docs = made.openDB<Buffer, Buffer>('docs', { encoding: 'binary', keyEncoding: 'binary' });
    // values of a few bytes to over a page (overflow pages at either size)
    const value = (i: number) => Buffer.alloc(1 + ((i * 977) % 20_000), i % 251);
    await made.transaction(() => { for (let i = 0; i < 300; i++) docs.put(key(`d${i}`), value(i)); });
    await made.close();
    const reopened = openDbs(old);
    try {
      expect(reopened.env.getStats()).toMatchObject({ pageSize: 4096 });
      await commitTxn(reopened, () => { for (let i = 300; i < 400; i++) reopened.docs.putSync(key(`d${i}`), value(i)); });
      const wrong = [...Array(400).keys()].filter((i) => !reopened.docs.getBinary(key(`d${i}`))?.equals(value(i)));
      expect(wrong).toEqual([]);
    } finally {
      await reopened.env.close();
    }
  });
});

describe('checkWriteSpace', () => {
  it('refuses a round bigger than the free space right after an answer it may reuse for small rounds', () => {
    const fs = statfsSync(dir);
    const free = fs.bavail * fs.bsize;
    for (let i = 0; i < 3; i++) checkWriteSpace(dbs, 5000); // the first asks, the next may answer from it
    // twice a round's bytes go to disk (log, then lmdb): a round of all the free space cannot fit
    expect(() => checkWriteSpace(dbs, free)).toThrow(/no space left on device/);
    expect(() => checkWriteSpace(dbs, 5000)).not.toThrow();
  });
});
