/**
 * A throwaway MariaDB server for the indexer's mysql source tests: Debian's mariadb-server
 * (`mariadb-install-db` + `mariadbd`) in a temp directory, on a loopback port, no grant tables.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { createConnection, type Connection } from 'mysql2/promise';

export const MARIADBD = '/usr/sbin/mariadbd';
const INSTALL_DB = '/usr/bin/mariadb-install-db';

export function mariadbAvailable(): boolean {
  return existsSync(MARIADBD) && existsSync(INSTALL_DB);
}

export interface MariaDb { port: number; connect(database?: string): Promise<Connection>; stop(): Promise<void> }

/** A free loopback port (closed again before it is returned). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export async function startMariadb(dir: string): Promise<MariaDb> {
  const datadir = join(dir, 'db');
  mkdirSync(datadir, { recursive: true });
  const init = spawnSync(INSTALL_DB, ['--no-defaults', `--datadir=${datadir}`, '--user=root', '--skip-test-db', '--auth-root-authentication-method=normal'], { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`mariadb-install-db failed: ${init.stderr}`);
  const port = await freePort();
  const proc: ChildProcess = spawn(MARIADBD, [
    '--no-defaults', `--datadir=${datadir}`, `--socket=${join(dir, 'mysqld.sock')}`, `--pid-file=${join(dir, 'mysqld.pid')}`,
    `--port=${port}`, '--bind-address=127.0.0.1', '--skip-grant-tables', '--user=root', `--log-error=${join(dir, 'error.log')}`,
    '--innodb-buffer-pool-size=16M', '--skip-log-bin', '--default-time-zone=+00:00',
  ], { stdio: 'ignore' });
  const connect = (database?: string) => createConnection({ host: '127.0.0.1', port, user: 'root', database });
  for (let i = 0; ; i++) {
    try {
      await (await connect()).end();
      break;
    } catch (e) {
      if (i > 300 || proc.exitCode !== null) { proc.kill('SIGKILL'); throw new Error(`mariadbd did not start: ${(e as Error).message}`); }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const exited = new Promise<void>((r) => (proc.exitCode !== null ? r() : proc.once('exit', () => r())));
  return {
    port, connect,
    async stop() {
      proc.kill('SIGTERM');
      const t = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(t);
    },
  };
}
