/**
 * A damaged free list in the lmdb file (store/data.mdb) under the real server. lmdb reads its free list
 * (database 0: transaction id -> pages that transaction freed) only when a write needs a page, and the
 * start-up walk of lmdb-check.ts read only the named databases: the server started and then, at the first
 * writes, failed every write with a bare MDB_BAD_TXN (zeroed page), lost the whole store (a free page past
 * the end: the next start found the main root at page 100000) or aborted with SIGABRT (a free page also in
 * use). Now lmdb-pages.ts reads the page map first and the start is refused with exit 1 and the reason.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../helpers/server-process.js';

const root = mkdtempSync(join(tmpdir(), 'quarry-lmdb-free-list-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ROWS = 3000;
const PAGE = 16384; // LMDB_OPTIONS.pageSize
/** Meta page fields: the transaction id, the free list's root and depth, the main database's root. */
const META = { txnid: 0x98, freeDepth: 0x30 + 6, freeRoot: 0x30 + 40, mainRoot: 0x30 + 48 + 40 } as const;
const HDR = 24; // lmdb-js 3's page header

let clean: string;

beforeAll(async () => {
  clean = join(root, 'clean');
  const server = await startServer(clean);
  await server.sql('CREATE TABLE t (title text, n int)');
  for (let b = 0; b < ROWS; b += 500) {
    const values = Array.from({ length: 500 }, (_, i) => `(${b + i + 1}, 'row ${b + i + 1} ${'filler words '.repeat(8)}', ${b + i})`);
    await server.sql(`INSERT INTO t (id, title, n) VALUES ${values.join(',')}`);
  }
  // deleted rows free pages: the free list then holds page numbers of several transactions
  await server.sql(`DELETE FROM t WHERE id <= ${ROWS / 2}`);
  await server.stop();
}, 120_000);

interface FreeList { meta: number; rootPage: number; ids: number[] }

/** The newest meta page, the free list's root (a leaf here) and the offsets of its page-number lists. */
function freeList(b: Buffer): FreeList {
  const meta = b.readBigUInt64LE(META.txnid) >= b.readBigUInt64LE(PAGE + META.txnid) ? 0 : PAGE;
  expect(b.readUInt16LE(meta + META.freeDepth)).toBe(1);
  const rootPage = Number(b.readBigUInt64LE(meta + META.freeRoot));
  const at = rootPage * PAGE;
  const ids: number[] = [];
  for (let i = 0; i < b.readUInt16LE(at + 20) >> 1; i++) {
    const node = at + HDR + b.readUInt16LE(at + HDR + 2 * i);
    ids.push(node + 8 + b.readUInt16LE(node + 6)); // node header, then the key (a transaction id), then the list
  }
  return { meta, rootPage, ids };
}

/** The offset of the first list's first page number that is a single page (not a run's length). */
function firstSinglePage(b: Buffer, fl: FreeList): number {
  for (const list of fl.ids) {
    for (let i = 1; i <= Number(b.readBigUInt64LE(list)); i++) if (b.readBigInt64LE(list + 8 * i) > 0n) return list + 8 * i;
  }
  throw new Error('no single free page');
}

function copyAndEdit(name: string, fn: (b: Buffer, fl: FreeList) => void): string {
  const data = join(root, name);
  cpSync(clean, data, { recursive: true });
  const file = join(data, 'store', 'data.mdb');
  const b = readFileSync(file);
  fn(b, freeList(b));
  writeFileSync(file, b);
  return data;
}

const damages: [string, (b: Buffer, fl: FreeList) => void, RegExp][] = [
  ['a zeroed free-list page', (b, fl) => b.fill(0, fl.rootPage * PAGE, (fl.rootPage + 1) * PAGE), /page \d+ of the free list says it is page 0/],
  ['a free-list page flagged as a branch', (b, fl) => { b[fl.rootPage * PAGE + 18] = 0x01; }, /page \d+ of the free list has flags 0x1/],
  ['a free page number past the end of the file', (b, fl) => b.writeBigInt64LE(100000n, firstSinglePage(b, fl)), /the free list of transaction \d+ points at page 100000, outside pages 2\.\.\d+/],
  ['a free page that is in use (the main root)', (b, fl) => b.writeBigInt64LE(b.readBigInt64LE(fl.meta + META.mainRoot), firstSinglePage(b, fl)), /page \d+ \(freed by transaction \d+\) is also in use elsewhere/],
  ['a free-list count larger than its list', (b, fl) => b.writeBigUInt64LE(5000n, fl.ids[0]!), /the free list of transaction \d+ counts 5000 pages in \d+ bytes/],
];

describe('a damaged lmdb free list', () => {
  it('the clean copy has a free list with single free pages to damage', () => {
    const b = readFileSync(join(clean, 'store', 'data.mdb'));
    expect(firstSinglePage(b, freeList(b))).toBeGreaterThan(0);
  });

  it.each(damages)('%s: the start is refused with exit 1 and the reason, not a failed write or a crash', async (what, damage, reason) => {
    const data = copyAndEdit(`d${damages.findIndex((d) => d[0] === what)}`, damage);
    const err = await startServer(data).then(async (s) => {
      // not refused: writes then reach the free list (the damage this test is about)
      const values = Array.from({ length: 300 }, (_, i) => `(${10_000 + i}, 'new ${'more words '.repeat(10)}', ${i})`);
      const wrote = await s.sql(`INSERT INTO t (id, title, n) VALUES ${values.join(',')}`).catch((e: Error) => e.message);
      await s.stop();
      return new Error(`started, and a write answered ${JSON.stringify(wrote)}`);
    }, (e: Error) => e);
    expect(err.message).toMatch(/^server exited 1: /);
    expect(err.message).toMatch(new RegExp(`store file \\S+data\\.mdb is damaged: .*${reason.source}`));
  }, 60_000);
});
