/** E2E helper: the real server binary with its HTTP and MySQL ports, and real-client runners. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnQuarry } from '../helpers/spawn-quarry.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Debian's python3 (python3-pymysql and python3-mysqldb are installed for it by .ci/run). */
export const PYTHON = '/usr/bin/python3';

export interface QuarryProcess {
  proc: ChildProcess;
  httpPort: number;
  mysqlPort: number;
  /** Runs SQL over /sql?mode=raw; resolves with the parsed JSON. */
  sql(query: string): Promise<unknown>;
  stop(): Promise<void>;
}

export async function startQuarry(): Promise<QuarryProcess> {
  const dir = await mkdtemp(join(tmpdir(), 'quarry-e2e-mysql-'));
  const { proc, http, mysql, exited } = await spawnQuarry(ROOT, ['--data', join(dir, 'data')]);
  return {
    proc, httpPort: http, mysqlPort: mysql,
    async sql(query) {
      const res = await fetch(`http://127.0.0.1:${http}/sql?mode=raw`, { method: 'POST', body: query });
      return JSON.parse(await res.text());
    },
    async stop() {
      if (proc.exitCode === null) proc.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export function hasCommand(cmd: string, args: string[]): boolean {
  return spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
}

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a client process to completion (async, so the server in this process keeps serving). */
export function run(cmd: string, args: string[], input?: string): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (c: Buffer) => { stdout += c.toString(); });
    p.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    p.on('error', reject);
    p.on('close', (status) => resolve({ status, stdout, stderr }));
    // a client that exits before reading its input (a refused login) closes the pipe: its status and
    // output are the result, not an EPIPE on a write nobody reads
    p.stdin.on('error', () => {});
    p.stdin.end(input ?? '');
  });
}
