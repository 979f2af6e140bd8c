// Starts the real server (bin/quarry.js) on free ports with a temporary data directory, and stops it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** How long the server may take to print its ready line. */
export const START_TIMEOUT_MS = 60_000;
/** How long it may take to exit after SIGTERM before it is killed. */
export const STOP_TIMEOUT_MS = 15_000;

const READY = /quarry listening http=(\S+):(\d+)/;

export class ServerProcess {
  readonly dataDir = mkdtempSync(join(tmpdir(), 'quarry-conformance-'));
  #child?: ChildProcess;
  #log = '';
  host = '127.0.0.1';
  port = 0;

  constructor(readonly root: string) {}

  get alive(): boolean {
    return this.#child !== undefined && this.#child.exitCode === null && this.#child.signalCode === null;
  }

  /** The last lines the server printed, for failure reports. */
  tail(lines = 20): string {
    return this.#log.split('\n').slice(-lines).join('\n');
  }

  start(): Promise<void> {
    const args = ['bin/quarry.js', 'serve', '--data', this.dataDir, '--http', '127.0.0.1:0', '--mysql', '127.0.0.1:0'];
    const child = spawn(process.execPath, args, { cwd: this.root, stdio: ['ignore', 'pipe', 'pipe'] });
    this.#child = child;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server not ready in ${START_TIMEOUT_MS} ms:\n${this.tail()}`)), START_TIMEOUT_MS);
      const onData = (d: Buffer) => {
        this.#log = (this.#log + d.toString('utf8')).slice(-20_000);
        const m = READY.exec(this.#log);
        if (m && this.port === 0) {
          this.host = m[1]!;
          this.port = Number(m[2]);
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`server exited (${code}) before it was ready:\n${this.tail()}`));
      });
    });
  }

  /** SIGTERM, wait for the exit (SIGKILL after STOP_TIMEOUT_MS); resolves with the exit code. */
  async stop(): Promise<number | null> {
    const child = this.#child;
    if (!child || !this.alive) return child?.exitCode ?? null;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    const code = await exited;
    clearTimeout(timer);
    return code;
  }

  /** Removes the data directory (after stop). */
  cleanup(): void {
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
