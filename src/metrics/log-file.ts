/** An append-only log file that can be reopened (after logrotate moved it away, on SIGUSR1). */
import { closeSync, openSync, writeSync } from 'node:fs';

export class LogFile {
  #fd: number;
  /** Lines lost since the last write that worked (a full disk); reported on stderr once per episode. */
  #dropped = 0;

  constructor(readonly path: string) {
    this.#fd = openSync(path, 'a');
  }

  /**
   * Appends `line`; never throws. A log write is called from request handlers, timers and the
   * checkpointer's error path: on a full disk (ENOSPC) or an I/O error a throw there would fail the
   * request or, from a timer, kill the server, for a line that could not be kept anyway. The line is
   * dropped with one notice on stderr, and a count of the lost lines once writes work again.
   */
  write(line: string): void {
    try {
      writeSync(this.#fd, line);
    } catch (e) {
      if (this.#dropped++ === 0) console.error(`quarry: log file ${this.path}: ${(e as Error).message}; its lines are dropped until a write works`);
      return;
    }
    if (this.#dropped) {
      console.error(`quarry: log file ${this.path} writes again; ${this.#dropped} line(s) were dropped`);
      this.#dropped = 0;
    }
  }

  reopen(): void {
    const fd = openSync(this.path, 'a');
    closeSync(this.#fd);
    this.#fd = fd;
  }

  close(): void {
    closeSync(this.#fd);
  }
}
