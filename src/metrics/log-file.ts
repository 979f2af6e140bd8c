/** An append-only log file that can be reopened (after logrotate moved it away, on SIGUSR1). */
import { closeSync, openSync, writeSync } from 'node:fs';

export class LogFile {
  #fd: number;

  constructor(readonly path: string) {
    this.#fd = openSync(path, 'a');
  }

  write(line: string): void {
    writeSync(this.#fd, line);
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
