/**
 * Sphinx 2.2.11 (Debian's sphinxsearch, the native ancestor of Manticore) as a benchmark peer: an RT
 * index with the benchmark's fields and stem_en, searchd on a loopback SphinxQL port, in a temp dir.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createConnection, type Connection } from 'mysql2/promise';

export const SEARCHD = '/usr/bin/searchd';

export function sphinxAvailable(): boolean {
  return existsSync(SEARCHD);
}

export interface SphinxPeer {
  port: number;
  connect(): Promise<Connection>;
  stop(): Promise<void>;
}

/** binlog_flush=1: flush and fsync the binlog on every transaction, as quarry commits. */
function config(dir: string, port: number): string {
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
}
searchd {
  listen = 127.0.0.1:${port}:mysql41
  log = ${dir}/searchd.log
  query_log = ${dir}/query.log
  pid_file = ${dir}/searchd.pid
  binlog_path = ${dir}
  binlog_flush = 1
  workers = threads
  listen_backlog = 256
  max_matches = 1000
}
`;
}

export async function startSphinx(dir: string, port: number): Promise<SphinxPeer> {
  mkdirSync(dir, { recursive: true });
  const conf = join(dir, 'sphinx.conf');
  writeFileSync(conf, config(dir, port));
  const proc: ChildProcess = spawn(SEARCHD, ['--config', conf, '--nodetach'], { stdio: 'ignore' });
  const connect = () => createConnection({ host: '127.0.0.1', port });
  for (let i = 0; ; i++) {
    try {
      const c = await connect();
      await c.end();
      break;
    } catch (e) {
      if (i > 100) { proc.kill('SIGKILL'); throw e; }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    port, connect,
    async stop() {
      spawnSync(SEARCHD, ['--config', conf, '--stopwait'], { stdio: 'ignore' });
      if (proc.exitCode === null) proc.kill('SIGKILL');
    },
  };
}
