/**
 * Sphinx 2.2.11 (Debian's sphinxsearch, the native ancestor of Manticore) as a benchmark peer: one RT
 * index section given by the benchmark, searchd on a loopback SphinxQL port, in a temp dir.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { createConnection, type Connection } from 'mysql2/promise';

export const SEARCHD = '/usr/bin/searchd';
/** Connection attempts while searchd starts, 100 ms apart. */
const START_TRIES = 100;

export function sphinxAvailable(): boolean {
  return existsSync(SEARCHD);
}

export interface SphinxPeer {
  port: number;
  /** searchd's process (--nodetach: the one spawned). */
  pid: number;
  connect(): Promise<Connection>;
  stop(): Promise<void>;
}

/** The gcide table of the side-by-side and insert benchmarks: the same fields as quarry's, stem_en. */
export function gcideIndex(dir: string): string {
  return `
index gcide {
  type = rt
  path = ${dir}/gcide
  rt_field = title
  rt_field = body
  rt_attr_uint = len
  morphology = stem_en
  dict = keywords
  rt_mem_limit = 1024M
}`;
}

/**
 * binlog_flush=1 asks for a flushed and fsynced binlog on every transaction, as quarry commits (a
 * benchmark that does not write passes `durable: false` and gets no binlog). Measured: Debian's 2.2.11
 * does not honour it here: `strace -f -tt -y` of searchd over 3,000 single-row INSERTs shows a write and
 * fsync of binlog.001 only each time its 256 kB buffer fills (about 380 gcide documents), none per
 * INSERT, so its INSERT figures are in-memory ones, quarry's fsynced. A large listen_backlog so that
 * many clients connecting at once are not refused.
 */
function searchdSection(dir: string, port: number, durable: boolean): string {
  return `
searchd {
  listen = 127.0.0.1:${port}:mysql41
  log = ${dir}/searchd.log
  query_log = ${dir}/query.log
  pid_file = ${dir}/searchd.pid
  binlog_path = ${durable ? dir : ''}
  ${durable ? 'binlog_flush = 1' : ''}
  workers = threads
  listen_backlog = 256
  max_matches = 1000
}
`;
}

/** A TCP port nothing listens on now (the OS picks it), for a searchd of this run alone. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts searchd with one index section and waits until it accepts SphinxQL connections. The port must
 * be free and our searchd the one answering: on a machine where several benchmarks run at once, another
 * run's searchd on the same port would otherwise be measured instead (its rows, its CPU).
 */
export async function startSphinx(dir: string, port: number, index = gcideIndex(dir), durable = true): Promise<SphinxPeer> {
  if (await createConnection({ host: '127.0.0.1', port }).then(async (c) => { await c.end(); return true; }, () => false)) {
    throw new Error(`port ${port} is taken by another server: start Sphinx on a free port (freePort())`);
  }
  mkdirSync(dir, { recursive: true });
  const conf = join(dir, 'sphinx.conf');
  writeFileSync(conf, index + searchdSection(dir, port, durable));
  const proc: ChildProcess = spawn(SEARCHD, ['--config', conf, '--nodetach'], { stdio: 'ignore' });
  const connect = () => createConnection({ host: '127.0.0.1', port });
  for (let i = 0; ; i++) {
    if (proc.exitCode !== null) throw new Error(`searchd exited with ${proc.exitCode} (port ${port} taken?)`);
    try {
      await (await connect()).end();
      break;
    } catch (e) {
      if (i > START_TRIES) { proc.kill('SIGKILL'); throw e; }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    port, connect, pid: proc.pid!,
    async stop() {
      spawnSync(SEARCHD, ['--config', conf, '--stopwait'], { stdio: 'ignore' });
      if (proc.exitCode === null) proc.kill('SIGKILL');
    },
  };
}
