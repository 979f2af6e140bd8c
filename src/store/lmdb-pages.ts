/**
 * The page map of the store's lmdb file, read with plain reads (never mapped, so a damaged page is a
 * thrown StoreFileDamaged here, never a crash signal). lmdb-check.ts runs it on an unclean start, before
 * the child's walk (lmdb-walk.ts), and throws its StoreFileDamaged.
 *
 * Why: the child's walk reads every key and value of every named database, but never the free list
 * (lmdb's database 0: transaction id -> the pages that transaction freed), which lmdb reads only when a
 * write needs a page. A damaged free list let the server start and then, at its first writes (measured
 * on a copy of a store with deleted rows): a zeroed or mis-flagged free-list page failed every write
 * with a bare MDB_BAD_TXN, forever; a free page number past the end of the file was handed out and the
 * next start found the main root at page 100000 (the store lost); a free page that is also in use was
 * handed out again and lmdb aborted the server (SIGABRT, 'mp->mp_pgno != pgno').
 *
 * So every page of every tree is claimed once (the main database, each named database, their overflow
 * pages, the free list's own pages), then every page number the free list holds must lie inside the file
 * and be neither in use nor free twice.
 */
import { readSync } from 'node:fs';

/** lmdb-js 3's page header (mdb.master3): pgno u64, txnid u64, pad u16, flags u16, lower u16, upper u16. */
const HDR = 24;
const PAGE = { pgno: 0, flags: 18, lower: 20, upper: 22, overflowPages: 20 } as const;
const P_BRANCH = 0x01;
const P_LEAF = 0x02;
const P_OVERFLOW = 0x04;
/** A node's flags: data on overflow pages, data is a database record (MDB_db), data has duplicates. */
const F_BIGDATA = 0x01;
const F_SUBDATA = 0x02;
const F_DUPDATA = 0x04;
/** An MDB_db record (48 bytes): md_pad at 0 (the free db's holds the page size), md_depth at 6, md_root at 40. */
export const DB_RECORD = { size: 48, pad: 0, depth: 6, root: 40 } as const;
/** An empty tree's root. */
export const P_INVALID = 0xffffffffffffffffn;
/** Deeper than any tree a file of 2^64 bytes can hold: a loop of branch pages ends here. */
const MAX_DEPTH = 64;

export interface PageMapMeta { pageSize: number; lastPage: bigint; txnid: bigint; roots: bigint[]; depths: number[] }

/** What one leaf node holds: its flags, its key, and where its data lies (in `page`, or `big` pages). */
interface LeafNode { flags: number; key: Buffer; data: Buffer }

const IN_USE = 1;
const FREE = 2;

/** Checks the page map of the file open as `fd`, as `meta` (its newest meta page) describes it; throws `damaged(why)`. */
export function checkPageMap(fd: number, meta: PageMapMeta, damaged: (why: string) => Error): void {
  const { pageSize, txnid } = meta;
  const last = Number(meta.lastPage);
  const owner = new Uint8Array(last + 1);
  owner[0] = owner[1] = IN_USE; // the meta pages

  const pageNumber = (n: bigint, what: string): number => {
    if (n < 2n || n > meta.lastPage) throw damaged(`${what} points at page ${n}, outside pages 2..${last}`);
    return Number(n);
  };
  const read = (pgno: number, pages: number): Buffer => {
    const b = Buffer.alloc(pages * pageSize);
    const n = readSync(fd, b, 0, b.length, pgno * pageSize);
    if (n < b.length) throw damaged(`page ${pgno} lies past the end of the file`);
    return b;
  };
  const claim = (pgno: number, what: string, as = IN_USE) => {
    if (owner[pgno] === IN_USE) throw damaged(`page ${pgno} (${what}) is also in use elsewhere`);
    if (owner[pgno] === FREE) throw damaged(`page ${pgno} (${what}) is also on the free list`);
    owner[pgno] = as;
  };

  /** The overflow pages a big value starts at: claimed, and the value's bytes. */
  const overflow = (start: bigint, size: number, what: string): Buffer => {
    const pgno = pageNumber(start, what);
    const head = read(pgno, 1);
    if (!(head.readUInt16LE(PAGE.flags) & P_OVERFLOW)) throw damaged(`page ${pgno} (${what}) is not an overflow page`);
    const pages = head.readUInt32LE(PAGE.overflowPages);
    if (pages < 1 || pgno + pages - 1 > last) throw damaged(`overflow page ${pgno} (${what}) spans ${pages} pages, past page ${last}`);
    if (HDR + size > pages * pageSize) throw damaged(`overflow page ${pgno} (${what}) holds ${pages} pages, too few for ${size} bytes`);
    for (let p = pgno; p < pgno + pages; p++) claim(p, what);
    return read(pgno, pages).subarray(HDR, HDR + size);
  };

  /** Every page of the tree at `root`, claimed; each leaf node handed to `onLeaf`. */
  const walk = (root: bigint, depth: number, name: string, onLeaf: (n: LeafNode) => void): void => {
    if (root === P_INVALID) return;
    if (depth < 1 || depth > MAX_DEPTH) throw damaged(`${name}'s depth ${depth}`);
    const visit = (pgno: number, level: number): void => {
      claim(pgno, name);
      const page = read(pgno, 1);
      const said = page.readBigUInt64LE(PAGE.pgno);
      if (said !== BigInt(pgno)) throw damaged(`page ${pgno} of ${name} says it is page ${said}`);
      const flags = page.readUInt16LE(PAGE.flags);
      const want = level === depth ? P_LEAF : P_BRANCH;
      if ((flags & (P_BRANCH | P_LEAF | P_OVERFLOW)) !== want) {
        throw damaged(`page ${pgno} of ${name} has flags 0x${flags.toString(16)}, a ${want === P_LEAF ? 'leaf' : 'branch'} page belongs at level ${level} of ${depth}`);
      }
      const lower = page.readUInt16LE(PAGE.lower);
      const upper = page.readUInt16LE(PAGE.upper);
      if (lower % 2 !== 0 || lower > upper || HDR + upper > pageSize) throw damaged(`page ${pgno} of ${name} has free space ${lower}..${upper}`);
      for (let i = 0; i < lower >> 1; i++) {
        const at = HDR + page.readUInt16LE(HDR + 2 * i);
        if (at < HDR + upper || at + 8 > pageSize) throw damaged(`page ${pgno} of ${name}: node ${i} at ${at} lies outside its nodes`);
        const lo = page.readUInt16LE(at);
        const hi = page.readUInt16LE(at + 2);
        const nodeFlags = page.readUInt16LE(at + 4);
        const ksize = page.readUInt16LE(at + 6);
        const keyEnd = at + 8 + ksize;
        if (keyEnd > pageSize) throw damaged(`page ${pgno} of ${name}: node ${i}'s key runs past the page`);
        if (want === P_BRANCH) {
          const child = BigInt(lo) | (BigInt(hi) << 16n) | (BigInt(nodeFlags) << 32n);
          visit(pageNumber(child, `a branch of ${name} on page ${pgno}`), level + 1);
          continue;
        }
        const size = lo | (hi << 16);
        const key = page.subarray(at + 8, keyEnd);
        if (nodeFlags & F_BIGDATA) {
          if (keyEnd + 8 > pageSize) throw damaged(`page ${pgno} of ${name}: node ${i}'s overflow page number runs past the page`);
          onLeaf({ flags: nodeFlags, key, data: overflow(page.readBigUInt64LE(keyEnd), size, `a value of ${name}`) });
        } else {
          if (keyEnd + size > pageSize) throw damaged(`page ${pgno} of ${name}: node ${i}'s value runs past the page`);
          onLeaf({ flags: nodeFlags, key, data: page.subarray(keyEnd, keyEnd + size) });
        }
      }
    };
    visit(pageNumber(root, `${name}'s root`), 1);
  };

  /** A database record's tree (a named database, or a sorted-duplicates sub-database). */
  const walkRecord = (record: Buffer, name: string) => {
    if (record.length < DB_RECORD.size) throw damaged(`${name}'s record is ${record.length} bytes`);
    walk(record.readBigUInt64LE(DB_RECORD.root), record.readUInt16LE(DB_RECORD.depth), name, (n) => {
      if ((n.flags & (F_DUPDATA | F_SUBDATA)) === (F_DUPDATA | F_SUBDATA)) walkRecord(n.data, `${name}'s duplicates`);
    });
  };

  walk(meta.roots[1]!, meta.depths[1]!, 'the main database', (n) => {
    if (n.flags & F_SUBDATA) walkRecord(n.data, `database '${n.key.toString('latin1').replace(/\0+$/, '').replace(/[^\x20-\x7e]/g, '?')}'`);
  });
  const lists: { txn: bigint; ids: Buffer }[] = [];
  walk(meta.roots[0]!, meta.depths[0]!, 'the free list', (n) => {
    if (n.key.length !== 8) throw damaged(`a free-list key of ${n.key.length} bytes`);
    lists.push({ txn: n.key.readBigUInt64LE(0), ids: n.data });
  });
  for (const { txn, ids } of lists) {
    const what = `freed by transaction ${txn}`;
    if (txn > txnid) throw damaged(`the free list holds pages of transaction ${txn}, past the newest ${txnid}`);
    if (ids.length < 8) throw damaged(`the free list of transaction ${txn} is ${ids.length} bytes`);
    const count = ids.readBigUInt64LE(0);
    if ((count + 1n) * 8n > BigInt(ids.length)) throw damaged(`the free list of transaction ${txn} counts ${count} pages in ${ids.length} bytes`);
    // lmdb-js's lists: 0 is an empty slot, -k followed by p is the run p..p+k-1, p alone is one page
    for (let i = 1; i <= Number(count); i++) {
      const e = ids.readBigInt64LE(8 * i);
      if (e === 0n) continue;
      let run = 1n;
      let first = e;
      if (e < 0n) {
        if (i === Number(count)) throw damaged(`the free list of transaction ${txn} ends in a run without its page`);
        run = -e;
        first = ids.readBigInt64LE(8 * ++i);
      }
      const start = pageNumber(first, `the free list of transaction ${txn}`);
      pageNumber(first + run - 1n, `the free list of transaction ${txn}`);
      for (let p = start; p < start + Number(run); p++) claim(p, what, FREE);
    }
  }
}
