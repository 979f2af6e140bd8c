/**
 * Keeps the write log's file (write-log.ts) written with zeros, and flushed, ahead of where its records go,
 * so a round's O_DSYNC write overwrites blocks that are already allocated and leaves the file's size alone:
 * a write that extends the file makes its flush a journal commit too (about twice the flush of an overwrite
 * on the disks measured, bench/log-write-probe.ts). The zeros are written between rounds, through a second
 * descriptor without O_DSYNC and flushed once a step; a round's write waits for a step only when it would
 * reach past where the step started (blockedFrom). Zeros read as the end of the log (a record's length is
 * never 0), so a crash anywhere leaves a log that reads right.
 *
 * The zeros go in one 4 kB write each at 4 kB offsets: the page cache keeps a big write's pages as one
 * folio (ext4 on Linux 6.16+), and a round's write into part of it then writes the whole folio back (30 kB
 * rounds into 1 MiB zero writes cost ~1 MB of disk writes each).
 */
import { closeSync, constants, fdatasync, openSync, writeSync } from 'node:fs';

/** Zero bytes kept written past the end of the log's records; a step starts when fewer are. */
export const FILL_AHEAD_BYTES = 256 << 10;
/** Zero bytes one step writes (then flushes once). */
export const FILL_STEP_BYTES = 128 << 10;
/** Each zero write's size and alignment: one page, so one small folio (see the header). */
const PIECE_BYTES = 4096;
/** After a failed step (a full disk), how long before the next try: the rounds extend the file meanwhile. */
const RETRY_MS = 1000;

const ZEROS = Buffer.alloc(PIECE_BYTES);

export class ZeroFill {
  readonly #fd: number;
  /** Bytes [0, filled) of the file are written and flushed (records or zeros). */
  #filled = 0;
  /**
   * The step in flight: where the records (or the flushed bytes) ended when it started; its zeros start
   * at the next page boundary. Rounds must not write past it until it ends.
   */
  #from: number | undefined;
  #running: Promise<void> | undefined;
  #failedAt = -Infinity;
  #closed = false;
  /** Where the log's records end, those of its write in flight included. */
  readonly #end: () => number;
  /** Called when a step ends: the log's writes held at its start go on. */
  readonly #onEnd: () => void;

  /** Opens `path` (the log's file, already made) a second time, without O_DSYNC. */
  constructor(path: string, end: () => number, onEnd: () => void) {
    this.#fd = openSync(path, constants.O_RDWR);
    this.#end = end;
    this.#onEnd = onEnd;
  }

  /** Where the step in flight started, at or before its zeros (undefined: none): a write past it waits for the step. */
  get blockedFrom(): number | undefined {
    return this.#from;
  }

  /** The bytes written and flushed from the start of the file. */
  get filled(): number {
    return this.#filled;
  }

  /**
   * Starts a step when fewer than FILL_AHEAD_BYTES are filled past the end of the log's records and none is
   * running; its zeros start at or after that end, on a page boundary. A step that ends short of the mark
   * starts the next.
   */
  maybeStart(): void {
    const end = this.#end();
    if (this.#running || this.#closed || this.#filled - end >= FILL_AHEAD_BYTES) return;
    if (performance.now() - this.#failedAt < RETRY_MS) return;
    const from = Math.ceil(Math.max(this.#filled, end) / PIECE_BYTES) * PIECE_BYTES;
    const to = from + FILL_STEP_BYTES;
    this.#from = Math.max(this.#filled, end); // the bytes from here to `from` (part of a page) stay as they are
    this.#running = this.#step(from, to).then(() => {
      this.#filled = to;
    }, () => {
      this.#failedAt = performance.now(); // the rounds' writes extend the file themselves meanwhile
    }).finally(() => {
      this.#running = undefined;
      this.#from = undefined;
      if (this.#closed) return closeSync(this.#fd);
      this.#onEnd();
      this.maybeStart();
    });
  }

  /** The file was emptied (the log truncated): nothing is filled. Never with a step in flight. */
  truncated(): void {
    this.#filled = 0;
  }

  /** Whether a step is in flight. */
  running(): boolean {
    return this.#running !== undefined;
  }

  /** Settles once no step is in flight (before the log is truncated or closed). */
  async settle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  /** Closes the descriptor, once the step in flight (if any) stops: its number must not be reused under it. */
  close(): void {
    this.#closed = true;
    if (!this.#running) closeSync(this.#fd);
  }

  /**
   * Writes zeros over [from, to), one page a write, then flushes them and the file's new size. The page
   * writes only fill the page cache (a few us each), so they run here, after the replies of the round
   * that started the step went out (setImmediate), rather than as one pool job and callback each; the
   * flush goes to libuv's pool.
   */
  async #step(from: number, to: number): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (this.#closed) throw new Error('write log closed');
    for (let at = from; at < to; at += PIECE_BYTES) {
      if (writeSync(this.#fd, ZEROS, 0, PIECE_BYTES, at) < PIECE_BYTES) throw new Error('write log: short write of zeros');
    }
    await new Promise<void>((resolve, reject) => fdatasync(this.#fd, (err) => (err ? reject(err) : resolve())));
  }
}
