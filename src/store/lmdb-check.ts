/**
 * The open-time check of the store's lmdb file (store/data.mdb). lmdb keeps no page checksums and maps
 * the file: a damaged page is followed as it is, and a pointer past the end of the file or into garbage
 * kills the server with SIGBUS / SIGSEGV at the first read that meets it. Before lmdb opens the file:
 *
 * 1. Always (two page reads): both meta pages must carry lmdb's magic and version, each its own parity of
 *    transaction ids (lmdb writes meta page txnid % 2), and the newest one's last page, database roots and
 *    depths must lie inside the file as it is on disk. Catches a truncated file and a damaged meta page.
 * 2. When the file may have changed since a clean close (no `clean-close` marker, or the file's size or
 *    mtime differ from the marker's: an unclean stop, or damage done while the server was down): the page
 *    map is read with plain reads (lmdb-pages.ts: every tree's pages claimed once, and the free list, which
 *    lmdb reads only when a write needs a page, must name only pages inside the file and not in use), then
 *    every page in use is read in a child process (lmdb-walk.ts's script). A damaged B-tree page kills the
 *    child, not the server, and the server refuses to start with the reason. A clean start pays one stat.
 *
 * What it cannot see: a bit that rots in a value's bytes with the mtime unchanged. Documents carry their
 * own checksums (record-check.ts) for that, and are never served wrong.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, readSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { WALK_SCRIPT } from './lmdb-walk.js';
import { checkPageMap, DB_RECORD as DB, P_INVALID } from './lmdb-pages.js';

const MAGIC = 0xbeefc0de;
/** lmdb-js 3's file format (its mdb.master3 fork: a txnid in every page header). */
const VERSIONS = [1, 2];
/** Offsets in a meta page (page header of 24 bytes, then MDB_meta, whose two MDB_db records lmdb-pages.ts lays out). */
const META = { magic: 0x18, version: 0x1c, dbs: 0x30, lastPage: 0x90, txnid: 0x98 } as const;

export const CLEAN_CLOSE_FILE = 'clean-close';
const DATA_FILE = 'data.mdb';

export class StoreFileDamaged extends Error {}

interface Meta { pageSize: number; lastPage: bigint; txnid: bigint; roots: bigint[]; depths: number[] }

function readAt(fd: number, at: number, length: number): Buffer {
  const b = Buffer.alloc(length);
  const n = readSync(fd, b, 0, length, at);
  return b.subarray(0, n);
}

/** The meta page at `at`, or the reason it is not one. */
function parseMeta(page: Buffer): Meta | string {
  if (page.length < META.txnid + 8) return 'cut short';
  if (page.readUInt32LE(META.magic) !== MAGIC) return 'no lmdb magic';
  if (!VERSIONS.includes(page.readUInt32LE(META.version))) return `unknown version ${page.readUInt32LE(META.version)}`;
  const pageSize = page.readUInt32LE(META.dbs + DB.pad);
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return `page size ${pageSize}`;
  const dbs = [0, 1].map((i) => META.dbs + i * DB.size);
  return {
    pageSize,
    lastPage: page.readBigUInt64LE(META.lastPage),
    txnid: page.readBigUInt64LE(META.txnid),
    roots: dbs.map((o) => page.readBigUInt64LE(o + DB.root)),
    depths: dbs.map((o) => page.readUInt16LE(o + DB.depth)),
  };
}

/** Step 1 above; throws StoreFileDamaged with the reason. The newest meta page (undefined: an empty file). */
export function checkMetaPages(file: string): Meta | undefined {
  const size = statSync(file).size;
  const damaged = (why: string) => new StoreFileDamaged(`store file ${file} is damaged: ${why}`);
  if (size === 0) return undefined; // made but never written: lmdb initializes it
  const fd = openSync(file, 'r');
  try {
    const first = parseMeta(readAt(fd, 0, 256));
    if (typeof first === 'string') throw damaged(`meta page 0: ${first}`);
    if (size < 2 * first.pageSize) throw damaged(`${size} bytes, shorter than its two meta pages`);
    const second = parseMeta(readAt(fd, first.pageSize, 256));
    if (typeof second === 'string') throw damaged(`meta page 1: ${second}`);
    const metas = [first, second];
    metas.forEach((m, i) => {
      if (m.pageSize !== first.pageSize) throw damaged(`meta page ${i}: page size ${m.pageSize}, meta page 0 says ${first.pageSize}`);
      // lmdb writes transaction N into meta page N % 2 (a fresh file has 0 in both)
      if (m.txnid > 0n && Number(m.txnid % 2n) !== i) throw damaged(`meta page ${i}: transaction id ${m.txnid} belongs in meta page ${Number(m.txnid % 2n)}`);
    });
    if (first.txnid > 0n && second.txnid > 0n && (first.txnid > second.txnid ? first.txnid - second.txnid : second.txnid - first.txnid) !== 1n) {
      throw damaged(`meta pages hold transactions ${first.txnid} and ${second.txnid}, not consecutive`);
    }
    const current = first.txnid >= second.txnid ? first : second;
    const pages = BigInt(size) / BigInt(current.pageSize);
    if (current.lastPage + 1n > pages) throw damaged(`${size} bytes (${pages} pages), its newest meta page uses ${current.lastPage + 1n} (truncated)`);
    current.roots.forEach((root, i) => {
      if (root === P_INVALID) return;
      if (root < 2n || root > current.lastPage) throw damaged(`database ${i}'s root page ${root} lies outside pages 2..${current.lastPage}`);
      if (current.depths[i]! < 1 || current.depths[i]! > 64) throw damaged(`database ${i}'s depth ${current.depths[i]}`);
    });
    return current;
  } finally {
    closeSync(fd);
  }
}

interface CloseMark { size: number; mtimeMs: number }

/** Whether the file is as a clean close left it (size and mtime as the marker says). */
function closedCleanly(dir: string): boolean {
  try {
    const mark = JSON.parse(readFileSync(join(dir, CLEAN_CLOSE_FILE), 'utf8')) as CloseMark;
    const st = statSync(join(dir, DATA_FILE));
    return st.size === mark.size && st.mtimeMs === mark.mtimeMs;
  } catch {
    return false;
  }
}

/** Step 2 above, its first half: the page map and the free list (lmdb-pages.ts). */
export function checkPages(file: string, meta: Meta): void {
  const fd = openSync(file, 'r');
  try {
    checkPageMap(fd, meta, (why) => new StoreFileDamaged(`store file ${file} is damaged: ${why}`));
  } finally {
    closeSync(fd);
  }
}

/** Step 2 above: every page in use read by a child process. Throws StoreFileDamaged when it fails. */
export function walkInChild(dir: string): void {
  // the lmdb package as this process resolves it: the child's cwd may have no node_modules
  const lmdbPath = createRequire(import.meta.url).resolve('lmdb');
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', WALK_SCRIPT, lmdbPath, dir], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status === 0) return;
  const how = r.signal ? `the walk of its pages died with ${r.signal}` : r.error ? `its pages could not be walked (${r.error.message})` : `its pages fail lmdb's walk (${(r.stderr || r.stdout).trim().split('\n').pop()?.slice(0, 300) || `exit ${r.status}`})`;
  throw new StoreFileDamaged(`store file ${join(dir, DATA_FILE)} is damaged: ${how}`);
}

/**
 * Before the store opens `dir` (the lmdb environment's directory): the checks above. The marker of a
 * clean close is removed once read (not read-only), so a crash from here on leaves none.
 */
export function checkStoreFile(dir: string, readOnly: boolean): void {
  const file = join(dir, DATA_FILE);
  if (!existsSync(file)) return;
  const meta = checkMetaPages(file);
  if (!closedCleanly(dir)) {
    if (meta) checkPages(file, meta);
    walkInChild(dir);
  }
  if (!readOnly) rmSync(join(dir, CLEAN_CLOSE_FILE), { force: true });
}

/** After the environment closed cleanly: the file's size and mtime, for the next open to compare. */
export function markCleanClose(dir: string): void {
  const file = join(dir, DATA_FILE);
  if (!existsSync(file)) return;
  const st = statSync(file);
  const mark: CloseMark = { size: st.size, mtimeMs: st.mtimeMs };
  writeFileSync(join(dir, CLEAN_CLOSE_FILE), JSON.stringify(mark));
}
