/**
 * A damaged lmdb file (store/data.mdb, the store of record) under the real server. lmdb keeps no page
 * checksums and follows a damaged page as it is: before lmdb-check.ts the server died with SIGBUS or
 * SIGSEGV at the first read that met one. Now the start is refused with exit 1 and the reason (never a
 * crash signal, never wrong rows), and an intact file left by a kill -9 is walked and served.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../helpers/server-process.js';

const root = mkdtempSync(join(tmpdir(), 'quarry-lmdb-damage-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ROWS = 3000;
const PAGE = 16384; // LMDB_OPTIONS.pageSize
/** The meta page fields lmdb-check.ts reads: database 1's root, the last page, the transaction id. */
const MAIN_ROOT = 0x88;
const TXNID = 0x98;

let clean: string;

async function fill(data: string): Promise<Awaited<ReturnType<typeof startServer>>> {
  const server = await startServer(data);
  await server.sql('CREATE TABLE t (title text, n int)');
  for (let b = 0; b < ROWS; b += 500) {
    const values = Array.from({ length: 500 }, (_, i) => `(${b + i + 1}, 'row ${b + i + 1} canary${b + i + 1}x ${'filler words '.repeat(8)}', ${b + i})`);
    await server.sql(`INSERT INTO t (id, title, n) VALUES ${values.join(',')}`);
  }
  return server;
}

beforeAll(async () => {
  clean = join(root, 'clean');
  const server = await fill(clean);
  await server.stop();
}, 120_000);

function copy(name: string): { data: string; file: string } {
  const data = join(root, name);
  cpSync(clean, data, { recursive: true });
  return { data, file: join(data, 'store', 'data.mdb') };
}

/** The newest meta page's offset (lmdb uses the one with the higher transaction id). */
function newestMeta(b: Buffer): number {
  return b.readBigUInt64LE(TXNID) >= b.readBigUInt64LE(PAGE + TXNID) ? 0 : PAGE;
}

/** The page holding a document's text (a leaf of the docs database). */
function pageHolding(b: Buffer, text: string): number {
  const at = b.indexOf(Buffer.from(text));
  expect(at).toBeGreaterThan(2 * PAGE);
  return Math.floor(at / PAGE);
}

function edit(file: string, fn: (b: Buffer) => void): void {
  const b = readFileSync(file);
  fn(b);
  writeFileSync(file, b);
}

/** What the start-up check says of a damaged B-tree page: the page map's reason (lmdb-pages.ts) or the child walk's. */
const WALKED = /page \d+ of (the main database|database '\w+')|its pages fail lmdb's walk|died with SIG/;

const damages: [string, (file: string) => void, RegExp][] = [
  ['a file truncated to half its pages', (file) => truncateSync(file, Math.floor(readFileSync(file).length / PAGE / 2) * PAGE), /its newest meta page uses \d+ \(truncated\)/],
  ['a zeroed leaf page', (file) => edit(file, (b) => b.fill(0, pageHolding(b, 'canary1500x') * PAGE, (pageHolding(b, 'canary1500x') + 1) * PAGE)), WALKED],
  ['a zeroed root page of the named databases', (file) => edit(file, (b) => {
    const p = Number(b.readBigUInt64LE(newestMeta(b) + MAIN_ROOT));
    b.fill(0, p * PAGE, (p + 1) * PAGE);
  }), WALKED],
  ['flipped bits in a leaf page header (its key count)', (file) => edit(file, (b) => { b[pageHolding(b, 'canary2500x') * PAGE + 21] ^= 0x7f; }), WALKED],
  ['flipped bits in a leaf page key pointer', (file) => edit(file, (b) => { b[pageHolding(b, 'canary700x') * PAGE + 25] ^= 0xf0; }), WALKED],
  ['flipped bits in the meta pages (the main root)', (file) => edit(file, (b) => { b[MAIN_ROOT] ^= 0x40; b[PAGE + MAIN_ROOT] ^= 0x40; }), /database 1's root page \d+ lies outside pages/],
  ['flipped bits in a meta page (its magic)', (file) => edit(file, (b) => { b[newestMeta(b) + 0x19] ^= 0x01; }), /meta page [01]: no lmdb magic/],
  ['a flipped bit in a meta page (its transaction id)', (file) => edit(file, (b) => { b[newestMeta(b) + TXNID] ^= 0x01; }), /transaction id \d+ belongs in meta page|not consecutive/],
];

describe('a damaged lmdb data file', () => {
  it.each(damages)('%s: the start is refused with exit 1 and the reason, not a crash', async (_what, damage, reason) => {
    const { data, file } = copy(`d${damages.findIndex((d) => d[1] === damage)}`);
    damage(file);
    const err = await startServer(data).then(async (s) => {
      // not refused: it must then serve every row right (never wrong rows), and this damage is a finding
      const rows = await s.sql('SELECT COUNT(*) AS c, SUM(n) AS s FROM t');
      await s.stop();
      return new Error(`started and answered ${JSON.stringify(rows)}`);
    }, (e: Error) => e);
    // exit 1 (a crash signal shows as 'exited null'), with the file named and the reason
    expect(err.message).toMatch(/^server exited 1: /);
    expect(err.message).toMatch(new RegExp(`store file \\S+data\\.mdb is damaged: .*(${reason.source})`));
  }, 60_000);

  it('an intact file after kill -9 is walked and served whole; a clean stop leaves the marker that skips the walk', async () => {
    const data = join(root, 'killed');
    const server = await fill(data);
    await server.stop('SIGKILL');
    expect(existsSync(join(data, 'store', 'clean-close'))).toBe(false);
    const again = await startServer(data);
    expect(await again.sql('SELECT COUNT(*) AS c, SUM(n) AS s FROM t')).toEqual([expect.objectContaining({ data: [{ c: ROWS, s: (ROWS * (ROWS - 1)) / 2 }] })]);
    // the marker is read and removed at start: a crash from now on leaves none
    expect(existsSync(join(data, 'store', 'clean-close'))).toBe(false);
    await again.stop();
    expect(existsSync(join(data, 'store', 'clean-close'))).toBe(true);
  }, 120_000);
});
