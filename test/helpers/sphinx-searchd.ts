/** Sphinx 2.2.11's searchd (Debian `sphinxsearch`, installed by .ci/run) on loopback, for interop tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SEARCHD = '/usr/bin/searchd';
export const hasSphinx = existsSync(SEARCHD);

export interface SphinxProcess {
  mysqlPort: number;
  apiPort: number;
  stop(): Promise<void>;
}

/** A port the OS just handed out and released (raced only by other processes, retried by callers). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    const up = await new Promise<boolean>((resolve) => {
      const c = connect(port, '127.0.0.1', () => { c.destroy(); resolve(true); });
      c.once('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`searchd did not listen on ${port}`);
}

/** Starts searchd with `indexSections` (config text of its indexes) in the foreground. */
export async function startSphinx(indexSections: string): Promise<SphinxProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-sphinx-'));
  const [mysqlPort, apiPort] = [await freePort(), await freePort()];
  const conf = join(dir, 'sphinx.conf');
  writeFileSync(conf, `${indexSections}
searchd
{
  listen = 127.0.0.1:${mysqlPort}:mysql41
  listen = 127.0.0.1:${apiPort}
  log = ${join(dir, 'searchd.log')}
  pid_file = ${join(dir, 'searchd.pid')}
  binlog_path =
  workers = threads
}
`);
  const proc: ChildProcess = spawn(SEARCHD, ['--config', conf, '--nodetach'], { cwd: dir, stdio: 'ignore' });
  await waitForPort(mysqlPort, Date.now() + 15_000);
  return {
    mysqlPort,
    apiPort,
    stop: async () => {
      if (proc.exitCode === null) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
