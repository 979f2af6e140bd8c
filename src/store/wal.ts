/**
 * The store's write-ahead log for group-commit rounds: each round's lmdb writes framed as one record
 * (`u32 length | u32 CRC-32 | payload`, little-endian) appended to `<store>/wal-<n>.log`, opened with
 * O_DSYNC so the write returns once the record is on disk: one synchronous write a round (on libuv's
 * thread pool), instead of lmdb's two fsyncs and its write-thread hand-overs. Writes are issued one at
 * a time, in order; records appended while one is in flight go out together in the next (group commit
 * of the log itself), so a record is durable only once every record before it is, and a failed write
 * (disk full, I/O error) fails its records and leaves the next write at the same offset.
 *
 * The log is cut into files: rotate() starts a new file for later records and resolves once the old
 * one's writes are done; the store then commits what the old files hold into lmdb (durably) and
 * deletes them (`discard`). Recovery reads every file in order and stops at the first frame that is
 * short or fails its checksum: a torn tail, whose round was never acknowledged.
 */
import { closeSync, constants, fdatasyncSync, ftruncateSync, openSync, readdirSync, readFileSync, unlinkSync, write } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';

const FRAME_HEADER = 8;
const FILE_RE = /^wal-(\d{8})\.log$/;

/** The file name of log number `n`. */
function fileName(n: number): string {
  return `wal-${String(n).padStart(8, '0')}.log`;
}

/** The log files in `dir`, oldest first, with their numbers. */
export function walFiles(dir: string): { n: number; path: string }[] {
  return readdirSync(dir)
    .map((f) => FILE_RE.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ n: Number(m[1]), path: join(dir, m[0]) }))
    .sort((a, b) => a.n - b.n);
}

/** `payload` framed as one log record. */
export function frame(payload: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(FRAME_HEADER + payload.length);
  out.writeUInt32LE(payload.length, 0);
  out.writeUInt32LE(crc32(payload), 4);
  out.set(payload, FRAME_HEADER);
  return out;
}

/** The payloads of the whole frames at the start of `bytes`, up to the first torn or damaged one. */
export function unframe(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let at = 0;
  while (at + FRAME_HEADER <= bytes.length) {
    const len = bytes.readUInt32LE(at);
    const end = at + FRAME_HEADER + len;
    if (len === 0 || end > bytes.length) break;
    const payload = bytes.subarray(at + FRAME_HEADER, end);
    if (crc32(payload) !== bytes.readUInt32LE(at + 4)) break;
    out.push(payload);
    at = end;
  }
  return out;
}

/** Every record the log files in `dir` hold, oldest first. */
export function readWal(dir: string): Buffer[] {
  return walFiles(dir).flatMap((f) => unframe(readFileSync(f.path)));
}

interface Pending { bytes: Buffer; onDurable: () => void; resolve: () => void; reject: (e: unknown) => void }

export class WalWriter {
  readonly #dir: string;
  #n: number;
  #fd: number;
  #offset = 0;
  #queue: Pending[] = [];
  #writing = false;
  /** Callers of rotate() waiting for the writes in flight to end. */
  #drained: (() => void)[] = [];
  /** Set when a failed write's bytes could not be cut off: every later append fails with it. */
  #broken?: unknown;

  /** Appends go to a new file numbered after every file in `dir`. */
  constructor(dir: string) {
    this.#dir = dir;
    const files = walFiles(dir);
    this.#n = (files.at(-1)?.n ?? 0) + 1;
    this.#fd = this.#open(this.#n);
  }

  /**
   * Appends `payload` as one record; `onDurable` runs once it is on disk, before the promise resolves
   * and before any rotate() called meanwhile resolves. Rejects (onDurable never runs) when the write fails.
   */
  append(payload: Uint8Array, onDurable: () => void): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.#broken) return reject(this.#broken);
      this.#queue.push({ bytes: frame(payload), onDurable, resolve, reject });
      this.#next();
    });
  }

  /**
   * Later records go to a new file; resolves, once every record already appended is durable (or
   * failed), with the numbers of the files before it (to discard once their records are in lmdb).
   */
  async rotate(): Promise<number> {
    const old = this.#n;
    if (this.#writing || this.#queue.length) await new Promise<void>((r) => this.#drained.push(r));
    closeSync(this.#fd);
    this.#n = old + 1;
    this.#offset = 0;
    this.#fd = this.#open(this.#n);
    return old;
  }

  /** Deletes the log files numbered up to `upto` but the current one (their records are durable in lmdb). */
  discard(upto: number): void {
    for (const f of walFiles(this.#dir)) if (f.n <= upto && f.n !== this.#n) unlinkSync(f.path);
  }

  /** Closes the current file (every write settled: the store's writes are idle). */
  close(): void {
    closeSync(this.#fd);
  }

  #open(n: number): number {
    return openSync(join(this.#dir, fileName(n)), constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_DSYNC, 0o644);
  }

  #next(): void {
    if (this.#writing) return;
    if (!this.#queue.length) {
      for (const r of this.#drained.splice(0)) r();
      return;
    }
    const batch = this.#queue.splice(0);
    const bytes = batch.length === 1 ? batch[0]!.bytes : Buffer.concat(batch.map((p) => p.bytes));
    this.#writing = true;
    write(this.#fd, bytes, 0, bytes.length, this.#offset, (err, written) => {
      this.#writing = false;
      if (!err && written === bytes.length) {
        this.#offset += written;
        for (const p of batch) p.onDurable();
        for (const p of batch) p.resolve();
      } else {
        // nothing of the batch counts: whole frames of it on disk are cut off (recovery would replay
        // them), and the next write starts at the same offset
        const e = err ?? new Error(`short write to the write-ahead log (${written} of ${bytes.length} bytes)`);
        try {
          ftruncateSync(this.#fd, this.#offset);
          fdatasyncSync(this.#fd);
        } catch (cut) {
          this.#broken = cut;
        }
        for (const p of batch) p.reject(e);
      }
      this.#next();
    });
  }
}
