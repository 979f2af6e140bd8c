/**
 * Group-commit rounds that are durable in the write-ahead log (wal.ts) and not yet in lmdb: their lmdb
 * writes (documents, op records, the generation's last sequence) held in memory, where the store's
 * reads look first, until a flush commits them to lmdb. A round's record is the list of those writes
 * with its generation and last sequence, so recovery applies it again only when that generation is
 * live and lmdb's (or an earlier record's) sequence is below it: replaying a record twice, or one of a
 * generation TRUNCATE or DROP ended since, changes nothing.
 */
import { genKey, u64Of } from './keys.js';
import type { StoreDbs } from './lmdb-env.js';

export type DbName = 'docs' | 'ops' | 'seq';
const DB_NAMES: DbName[] = ['docs', 'ops', 'seq'];

/** One lmdb write: `value` null removes the key. */
export interface PendingEntry { db: DbName; key: Buffer; value: Buffer | null }

/** A round's record: its writes, the generation they belong to and the last sequence they assign. */
export interface RoundRecord { gen: number; last: bigint; entries: PendingEntry[] }

const REMOVED = 0xffffffff;

export function encodeRecord(rec: RoundRecord): Buffer {
  let size = 16;
  for (const e of rec.entries) size += 9 + e.key.length + (e.value?.length ?? 0);
  const b = Buffer.allocUnsafe(size);
  b.writeUInt32LE(rec.gen, 0);
  b.writeBigUInt64LE(rec.last, 4);
  b.writeUInt32LE(rec.entries.length, 12);
  let at = 16;
  for (const e of rec.entries) {
    b[at++] = DB_NAMES.indexOf(e.db);
    at = b.writeUInt32LE(e.key.length, at);
    at += e.key.copy(b, at);
    at = b.writeUInt32LE(e.value ? e.value.length : REMOVED, at);
    if (e.value) at += e.value.copy(b, at);
  }
  return b;
}

export function decodeRecord(b: Buffer): RoundRecord {
  let at = 0;
  const u32 = () => { const v = b.readUInt32LE(at); at += 4; return v; };
  const take = (n: number) => { const v = Buffer.from(b.subarray(at, at + n)); at += n; return v; };
  const gen = u32();
  const last = b.readBigUInt64LE(at);
  at += 8;
  const entries: PendingEntry[] = [];
  for (let n = u32(); n > 0; n--) {
    const db = DB_NAMES[b[at++]!]!;
    const key = take(u32());
    const len = u32();
    entries.push({ db, key, value: len === REMOVED ? null : take(len) });
  }
  return { gen, last, entries };
}

export class PendingWrites {
  readonly #entries = new Map<string, PendingEntry>();
  /** gen -> the last sequence the pending rounds assigned. */
  readonly #seq = new Map<number, bigint>();
  #bytes = 0;

  get size(): number {
    return this.#entries.size;
  }

  /** Bytes of the documents and records held (the flush threshold's measure). */
  get bytes(): number {
    return this.#bytes;
  }

  /** Takes a durable round's writes. */
  apply(rec: RoundRecord): void {
    for (const e of rec.entries) {
      this.#entries.set(mapKey(e.db, e.key), e);
      this.#bytes += e.key.length + (e.value?.length ?? 0);
    }
    this.#seq.set(rec.gen, rec.last);
  }

  /**
   * Whether replaying `rec` (recovery) changes anything: its generation is live and its last sequence
   * is above the one committed so far (in lmdb or by an earlier record).
   */
  replays(dbs: StoreDbs, rec: RoundRecord): boolean {
    const raw = dbs.seq.get(genKey(rec.gen));
    const seq = this.#seq.get(rec.gen) ?? (raw ? u64Of(raw) : undefined);
    return seq !== undefined && rec.last > seq;
  }

  get(db: DbName, key: Buffer): PendingEntry | undefined {
    return this.#entries.size ? this.#entries.get(mapKey(db, key)) : undefined;
  }

  lastSeq(gen: number): bigint | undefined {
    return this.#seq.get(gen);
  }

  /** Every pending write of `db` with `start <= key < end`, in key order. */
  range(db: DbName, start: Buffer, end: Buffer): PendingEntry[] {
    const out: PendingEntry[] = [];
    for (const e of this.#entries.values()) {
      if (e.db === db && Buffer.compare(e.key, start) >= 0 && Buffer.compare(e.key, end) < 0) out.push(e);
    }
    return out.sort((a, b) => Buffer.compare(a.key, b.key));
  }

  /** What a flush commits: the writes held now (a later round's may replace them meanwhile). */
  snapshot(): { entries: PendingEntry[]; seq: Map<number, bigint> } {
    return { entries: [...this.#entries.values()], seq: new Map(this.#seq) };
  }

  /** Drops the writes of a snapshot now durable in lmdb, except those a later round replaced. */
  forget(snap: { entries: PendingEntry[]; seq: Map<number, bigint> }): void {
    for (const e of snap.entries) {
      const k = mapKey(e.db, e.key);
      if (this.#entries.get(k) !== e) continue;
      this.#entries.delete(k);
      this.#bytes -= e.key.length + (e.value?.length ?? 0);
    }
    for (const [gen, last] of snap.seq) if (this.#seq.get(gen) === last) this.#seq.delete(gen);
    if (!this.#entries.size) this.#bytes = 0;
  }
}

function mapKey(db: DbName, key: Buffer): string {
  return db[0] + key.toString('latin1');
}

/** Puts a snapshot's writes into lmdb's queue (inside an lmdb batch or transaction). */
export function putEntries(dbs: StoreDbs, entries: PendingEntry[]): void {
  for (const e of entries) {
    const db = dbs[e.db];
    void (e.value ? db.put(e.key, e.value) : db.remove(e.key));
  }
}
