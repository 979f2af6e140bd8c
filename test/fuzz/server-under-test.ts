/** The real server binary on loopback for fuzzing: its ports, liveness, RSS and internal-error log lines. */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnQuarry } from '../helpers/spawn-quarry.js';
import type { Ports } from './targets.js';

/** The repository root (this file runs as test/fuzz/*.ts under vitest or dist/test/fuzz/*.js). */
// compiled copies live in dist/test/fuzz/; a checkout may itself sit under a folder named dist
const ROOT = fileURLToPath(new URL(import.meta.url.endsWith('/dist/test/fuzz/server-under-test.js') ? '../../..' : '../..', import.meta.url));

/** Log lines that mean a request reached code that did not expect it. */
const INTERNAL = /quarry: (http:|mysql connection error|unhandled rejection)|TypeError|ReferenceError|RangeError/;

export interface ServerUnderTest {
  ports: Ports;
  proc: ChildProcess;
  /** Internal-error lines the server printed so far. */
  internalErrors: string[];
  /** Resident memory of the server process in bytes. */
  rss(): number;
  alive(): boolean;
  /** Runs SQL over /sql?mode=raw within 15 s; throws when the server does not answer. */
  sql(query: string): Promise<unknown>;
  /** The server's directory (config and data). */
  dir: string;
  /** SIGTERM, wait for the exit; the directory is removed unless `keep`. */
  stop(keep?: boolean): Promise<void>;
}

/**
 * Starts the server on a fresh directory, or on `dir` (a stopped server's, with `keep`), whose data
 * then survives stop() for a restart.
 */
export async function startServerUnderTest(reuse?: string): Promise<ServerUnderTest> {
  const dir = reuse ?? await mkdtemp(join(tmpdir(), 'quarry-fuzz-'));
  // client_timeout bounds what a truncated request holds; small packets keep huge inputs cheap
  await writeFile(join(dir, 'q.conf'), 'searchd {\n  client_timeout = 5s\n  max_packet_size = 8M\n}\n');
  const { proc, http, mysql, exited } = await spawnQuarry(ROOT, ['--config', join(dir, 'q.conf'), '--data', join(dir, 'data')]);
  const ports: Ports = { http, mysql };
  const internalErrors: string[] = [];
  let errText = '';
  let stackLeft = 0;
  proc.stderr!.on('data', (c: Buffer) => {
    errText += c.toString();
    const lines = errText.split('\n');
    errText = lines.pop()!;
    for (const line of lines) {
      // the first stack frames of an internal error say where it came from: kept with its line
      if (/^\s+at /.test(line) && stackLeft > 0 && internalErrors.length) {
        stackLeft--;
        internalErrors[internalErrors.length - 1] += ` | ${line.trim()}`;
      } else if (INTERNAL.test(line) && internalErrors.length < 1000) {
        internalErrors.push(line);
        stackLeft = 3;
      } else stackLeft = 0;
    }
  });
  return {
    ports, proc, internalErrors,
    rss: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'))?.[1] ?? 0) * 1024,
    alive: () => proc.exitCode === null && proc.signalCode === null,
    async sql(query) {
      const res = await fetch(`http://127.0.0.1:${ports.http}/sql?mode=raw`, { method: 'POST', body: query, signal: AbortSignal.timeout(15_000) });
      return JSON.parse(await res.text());
    },
    dir,
    async stop(keep = false) {
      if (proc.exitCode === null) proc.kill('SIGTERM');
      await exited;
      if (!keep) await rm(dir, { recursive: true, force: true });
    },
  };
}
