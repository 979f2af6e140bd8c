/**
 * The store's write-ahead log of group-commit rounds (`<dataDir>/write-log`): a round is durable, and
 * acknowledged, once its record is in this file (one positioned write on a file opened O_DSYNC: one
 * flush), while lmdb, which flushes twice a commit (data pages, then its meta page), gets the rounds
 * later in fewer, bigger commits (logged-rounds.ts). Records that lmdb holds durably are dead; once
 * every logged record is, the next one is written at offset 0 again (reset), so the file stays small
 * and is overwritten in place (no size change for the flush to journal).
 *
 *   record: | bodyLen u32 | crc32(body) u32 | lsn u64 | body |
 *   body:   | gen u32 | lastSeq u64 | n u32 | n x (| db u8 | keyLen u16 | valLen i32, -1: removal | key | value |) |
 *
 * Records carry consecutive log sequence numbers (lsn) that never restart within a process, so a read
 * from offset 0 stops at the first record that is torn (length or checksum wrong) or stale (left from
 * before a reset: its lsn is not the next one). Opening the log reads the live records, and the caller
 * applies them to lmdb and truncates the file (Store.open) before writing again.
 */
import { closeSync, constants, fstatSync, ftruncateSync, openSync, readSync, write, writeSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { SearchError } from '../../util/errors.js';
import { roundTracing, writeEnded, writeStarted } from '../../util/round-trace.js';

/** The log's file name in the data directory. */
export const WRITE_LOG_FILE = 'write-log';

/** Which lmdb database a logged put goes to. */
export const enum LogDb { DOCS = 0, OPS = 1, SEQ = 2 }

/** One lmdb write of a round: `value` null removes the key. */
export interface LoggedPut { db: LogDb; key: Buffer; value: Buffer | null }

/** A group-commit round as logged: the table generation, its last sequence number, its lmdb writes in order. */
export interface LogRound { gen: number; lastSeq: bigint; puts: LoggedPut[] }

const HEADER_BYTES = 16;
const BODY_HEAD_BYTES = 16;
const PUT_HEAD_BYTES = 7;

/** The record of `round`, its lsn still to be set (setLsn) when it is written. */
export function encodeRound(round: LogRound): Buffer {
  const out = Buffer.allocUnsafe(recordBytes(round));
  encodeRoundAt(out, 0, round);
  return out;
}

/** The bytes of `round`'s record. */
function recordBytes(round: LogRound): number {
  let len = HEADER_BYTES + BODY_HEAD_BYTES;
  for (const p of round.puts) len += PUT_HEAD_BYTES + p.key.length + (p.value?.length ?? 0);
  return len;
}

/** Writes `round`'s record (recordBytes long, lsn still to be set) into `out` at `start`. */
function encodeRoundAt(out: Buffer, start: number, round: LogRound): void {
  const end = start + recordBytes(round);
  out.writeUInt32LE(end - start - HEADER_BYTES, start);
  let at = start + HEADER_BYTES;
  out.writeUInt32LE(round.gen, at);
  out.writeBigUInt64LE(round.lastSeq, at + 4);
  out.writeUInt32LE(round.puts.length, at + 12);
  at += BODY_HEAD_BYTES;
  for (const p of round.puts) {
    out[at] = p.db;
    out.writeUInt16LE(p.key.length, at + 1);
    out.writeInt32LE(p.value ? p.value.length : -1, at + 3);
    at += PUT_HEAD_BYTES;
    at += p.key.copy(out, at);
    if (p.value) at += p.value.copy(out, at);
  }
  out.writeUInt32LE(crc32(out.subarray(start + HEADER_BYTES, end)), start + 4);
}

/** Sets the log sequence number of the record at `start` (at write time: a failed write's numbers are given again). */
export function setLsn(record: Buffer, lsn: bigint, start = 0): void {
  record.writeBigUInt64LE(lsn, start + 8);
}

/**
 * The live records of a log's bytes, in order, with the last one's lsn: reading stops at the first
 * torn, damaged or stale record (see the file header), which is where a crash cut the log.
 */
export function decodeRounds(buf: Buffer): { rounds: LogRound[]; lastLsn: bigint | undefined; end: number } {
  const rounds: LogRound[] = [];
  let lastLsn: bigint | undefined;
  let at = 0;
  while (at + HEADER_BYTES <= buf.length) {
    const len = buf.readUInt32LE(at);
    const end = at + HEADER_BYTES + len;
    if (len < BODY_HEAD_BYTES || end > buf.length) break;
    const lsn = buf.readBigUInt64LE(at + 8);
    if (lastLsn !== undefined && lsn !== lastLsn + 1n) break;
    if (crc32(buf.subarray(at + HEADER_BYTES, end)) !== buf.readUInt32LE(at + 4)) break;
    const round = readBody(buf.subarray(at + HEADER_BYTES, end));
    if (!round) break;
    rounds.push(round);
    lastLsn = lsn;
    at = end;
  }
  return { rounds, lastLsn, end: at };
}

/**
 * Whole records past `end` (where decodeRounds stopped) that a crash cannot explain: a record is only
 * written once the one before it is durable, so a later record with a higher lsn than every live one
 * means the record at `end` was damaged after it was written (a flipped bit, a bad sector), not torn.
 * Stale records (left from before a reset) have lower lsns and do not count. With no live record the
 * bound is the lsn in the header at offset 0 (a torn header of zeros: nothing to compare, none counted).
 * Returns how many such records follow, in order.
 */
export function wholeRecordsAfter(buf: Buffer, end: number, lastLsn: bigint | undefined): number {
  let bound = lastLsn;
  if (bound === undefined) {
    if (buf.length < HEADER_BYTES || buf.readUInt32LE(0) < BODY_HEAD_BYTES) return 0;
    bound = buf.readBigUInt64LE(8);
  }
  // a byte-by-byte search (a flipped length hides where the next record starts), in plain numbers:
  // lsn - bound from the two 32-bit halves, only a candidate within 2^32 records past the bound decoded
  const hi = Number(bound >> 32n);
  const lo = Number(bound & 0xffffffffn);
  for (let at = end + 1; at + HEADER_BYTES + BODY_HEAD_BYTES <= buf.length; at++) {
    const ahead = (buf.readUInt32LE(at + 12) - hi) * 4294967296 + (buf.readUInt32LE(at + 8) - lo);
    if (ahead <= 0 || ahead > 4294967296) continue;
    const { rounds } = decodeRounds(buf.subarray(at));
    if (rounds.length) return rounds.length;
  }
  return 0;
}

function readBody(b: Buffer): LogRound | undefined {
  const gen = b.readUInt32LE(0);
  const lastSeq = b.readBigUInt64LE(4);
  const n = b.readUInt32LE(12);
  const puts: LoggedPut[] = [];
  let at = BODY_HEAD_BYTES;
  for (let i = 0; i < n; i++) {
    if (at + PUT_HEAD_BYTES > b.length) return undefined;
    const db = b[at] as LogDb;
    const keyLen = b.readUInt16LE(at + 1);
    const valLen = b.readInt32LE(at + 3);
    at += PUT_HEAD_BYTES;
    const valEnd = at + keyLen + Math.max(valLen, 0);
    if (db > LogDb.SEQ || valEnd > b.length) return undefined;
    // copies: the records outlive the file's buffer (a read-only store keeps them)
    const key = Buffer.from(b.subarray(at, at + keyLen));
    puts.push({ db, key, value: valLen < 0 ? null : Buffer.from(b.subarray(at + keyLen, valEnd)) });
    at = valEnd;
  }
  return at === b.length ? { gen, lastSeq, puts } : undefined;
}

/** A record waiting to be written: where it starts in the staging buffer. */
interface Append { at: number; resolve(): void; reject(e: unknown): void }

/**
 * The staging buffers' size: records are encoded into one while the other is being written (a buffer of
 * each round's size, and a Buffer.concat of the rounds queued behind a write, were an allocation each);
 * one grown past STAGE_KEEP_BYTES for a big round is dropped after its write.
 */
const STAGE_BYTES = 64 << 10;
const STAGE_KEEP_BYTES = 256 << 10;

export class WriteLog {
  readonly #fd: number;
  /** Where the next record goes. */
  #offset = 0;
  /** The next record's log sequence number. */
  #lsn: bigint;
  /** Records waiting for the write in flight; they go together in the next one. */
  #queued: Append[] = [];
  #writing = false;
  /** The queued records' bytes (#staged of them), and the buffer of the write in flight, reused once it ends. */
  #stage: Buffer = Buffer.allocUnsafe(STAGE_BYTES);
  #staged = 0;
  #spare: Buffer | undefined;

  private constructor(fd: number, nextLsn: bigint) {
    this.#fd = fd;
    this.#lsn = nextLsn;
  }

  /** Opens (creating) the log at `path` with the rounds it holds; `readOnly` opens it for reading only. */
  static open(path: string, readOnly = false): { log: WriteLog | undefined; rounds: LogRound[]; damage?: { at: number; lost: number } } {
    let fd: number;
    try {
      fd = openSync(path, readOnly ? constants.O_RDONLY : constants.O_RDWR | constants.O_CREAT | constants.O_DSYNC, 0o644);
    } catch (e) {
      if (readOnly && (e as NodeJS.ErrnoException).code === 'ENOENT') return { log: undefined, rounds: [] };
      throw e;
    }
    const size = fstatSync(fd).size;
    const buf = Buffer.allocUnsafe(size);
    let got = 0;
    while (got < size) {
      const n = readSync(fd, buf, got, size - got, got);
      if (n === 0) break;
      got += n;
    }
    const { rounds, lastLsn, end } = decodeRounds(buf.subarray(0, got));
    const lost = end < got ? wholeRecordsAfter(buf.subarray(0, got), end, lastLsn) : 0;
    const damage = lost ? { at: end, lost } : undefined;
    if (readOnly) {
      closeSync(fd);
      return { log: undefined, rounds, damage };
    }
    return { log: new WriteLog(fd, (lastLsn ?? 0n) + 1n), rounds, damage };
  }

  /**
   * Appends `round`'s record; resolves once it is on disk. Records appended while a write is in flight
   * go together in the next write (one flush for all). A failed write rejects every record in it (what
   * a short write got onto disk first is zeroed: blank), and the next write goes where it went.
   */
  append(round: LogRound): Promise<void> {
    const len = recordBytes(round);
    if (this.#staged + len > this.#stage.length) {
      const grown = Buffer.allocUnsafe(Math.max(2 * this.#stage.length, this.#staged + len));
      this.#stage.copy(grown, 0, 0, this.#staged);
      this.#stage = grown;
    }
    const at = this.#staged;
    encodeRoundAt(this.#stage, at, round);
    this.#staged += len;
    return new Promise((resolve, reject) => {
      this.#queued.push({ at, resolve, reject });
      if (!this.#writing) this.#writeQueued();
    });
  }

  /** Where the next record goes: the bytes written since the last reset. */
  get offset(): number {
    return this.#offset;
  }

  /** Whether no record is queued or being written. */
  idle(): boolean {
    return !this.#writing && this.#queued.length === 0;
  }

  /**
   * The next record goes to offset 0: every record so far is durable in lmdb (the caller knows) and
   * none is in flight. The lsn goes on, so the records left after the new ones read as stale.
   */
  reset(): void {
    if (!this.idle()) throw new SearchError('INTERNAL', 'write log: reset while a record is being written');
    this.#offset = 0;
  }

  /** Empties the file (its records all applied to lmdb durably), synchronously; the next record goes to offset 0. */
  truncate(): void {
    this.reset();
    ftruncateSync(this.#fd, 0); // O_DSYNC: the size change is flushed before this returns
  }

  close(): void {
    closeSync(this.#fd);
  }

  #writeQueued(): void {
    const batch = this.#queued;
    this.#queued = [];
    this.#writing = true;
    // the queued records are written from this buffer; records appended meanwhile go to the other
    const stage = this.#stage;
    const bytes = stage.subarray(0, this.#staged);
    this.#stage = this.#spare ?? Buffer.allocUnsafe(STAGE_BYTES);
    this.#spare = undefined;
    this.#staged = 0;
    const lsn = this.#lsn;
    for (let i = 0; i < batch.length; i++) setLsn(stage, lsn + BigInt(i), batch[i]!.at);
    const at = this.#offset;
    const startedAt = roundTracing ? writeStarted(batch.length) : 0;
    const done = (err: unknown, written: number) => {
      if (roundTracing) writeEnded(startedAt);
      if (stage.length <= STAGE_KEEP_BYTES) this.#spare = stage;
      if (err) {
        if (written > 0) blank(this.#fd, at, written);
        for (const a of batch) a.reject(logFailure(err));
      } else {
        this.#offset = at + bytes.length;
        this.#lsn = lsn + BigInt(batch.length);
        for (const a of batch) a.resolve();
      }
      this.#writing = false;
      if (this.#queued.length) this.#writeQueued();
    };
    writeAll(this.#fd, bytes, at, done);
  }
}

/** A positioned write of all of `bytes` (a short write is continued), then `done` with the bytes written. */
function writeAll(fd: number, bytes: Buffer, at: number, done: (err: unknown, written: number) => void, from = 0): void {
  write(fd, bytes, from, bytes.length - from, at + from, (err, n) => {
    if (err) return done(err, from);
    if (from + n < bytes.length) return writeAll(fd, bytes, at, done, from + n);
    done(null, bytes.length);
  });
}

/**
 * Zeroes the `n` bytes at `at` that a failed write got onto disk before its error (a short write, then
 * ENOSPC): whole records among them would be replayed after a crash, though their rounds are reported
 * failed, and a later write of fewer bytes at the same offset (same lsns) could leave them in line.
 * Overwrites blocks already allocated; should that fail too, nothing more can be done here.
 */
function blank(fd: number, at: number, n: number): void {
  try {
    writeSync(fd, Buffer.alloc(n), 0, n, at);
  } catch {
    // the rounds are still reported failed
  }
}

function logFailure(cause: unknown): SearchError {
  const code = (cause as NodeJS.ErrnoException).code;
  const why = code === 'ENOSPC' || code === 'EIO' ? 'no space left on device (or I/O error) in the data directory' : 'the write log could not be written';
  return new SearchError('STORAGE_ERROR', `write failed: ${why}; nothing of this write was stored`, { cause });
}
