/**
 * The query-operator benchmark's Sphinx 2.2.11 peer: an RT index with the synthetic corpus's two
 * fields, dict=keywords and min_infix_len=2 (so prefix and infix wildcards expand), no morphology.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createConnection, type Connection } from 'mysql2/promise';

export const SEARCHD = '/usr/bin/searchd';
/** Connection attempts while searchd starts, 100 ms apart. */
const START_TRIES = 100;

export interface OpsPeer { connect(): Promise<Connection>; stop(): void }

function config(dir: string, port: number): string {
  return `
index ops {
  type = rt
  path = ${dir}/ops
  rt_field = title
  rt_field = body
  rt_attr_uint = gid
  dict = keywords
  min_infix_len = 2
  rt_mem_limit = 2047M
}
searchd {
  listen = 127.0.0.1:${port}:mysql41
  log = ${dir}/searchd.log
  query_log = ${dir}/query.log
  pid_file = ${dir}/searchd.pid
  binlog_path =
  workers = threads
  max_matches = 1000
}
`;
}

export async function startOpsSphinx(dir: string, port: number): Promise<OpsPeer | null> {
  if (!existsSync(SEARCHD)) return null;
  mkdirSync(dir, { recursive: true });
  const conf = join(dir, 'sphinx.conf');
  writeFileSync(conf, config(dir, port));
  const proc: ChildProcess = spawn(SEARCHD, ['--config', conf, '--nodetach'], { stdio: 'ignore' });
  const connect = () => createConnection({ host: '127.0.0.1', port });
  for (let i = 0; ; i++) {
    try {
      await (await connect()).end();
      break;
    } catch (e) {
      if (i > START_TRIES) { proc.kill('SIGKILL'); throw e; }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    connect,
    stop() {
      spawnSync(SEARCHD, ['--config', conf, '--stopwait'], { stdio: 'ignore' });
      if (proc.exitCode === null) proc.kill('SIGKILL');
    },
  };
}
