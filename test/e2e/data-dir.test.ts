// Two real servers on one data directory, and a directory from another format version: the second
// start fails with a clear error and exit code 1, and nothing of the directory changes.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runQuarry } from '../helpers/run-quarry.js';
import { startServer } from '../helpers/server-process.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-two-servers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Path -> content hash of every file under `root` except the lock file and lmdb's reader table. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name !== 'quarry.lock' && name !== 'lock.mdb') out[p.slice(root.length)] = createHash('sha1').update(readFileSync(p)).digest('hex');
    }
  };
  walk(root);
  return out;
}

const count = async (s: Awaited<ReturnType<typeof startServer>>) =>
  ((await s.sql('SELECT COUNT(*) AS c FROM t')) as { data: { c: number }[] }[])[0]!.data[0]!.c;

describe('data directory ownership and format', () => {
  it('a second server on a directory in use exits with a clear error; the first keeps serving', async () => {
    const a = await startServer(dir);
    try {
      await a.sql('CREATE TABLE t (title text)');
      await a.sql("INSERT INTO t (id, title) VALUES (1, 'one'), (2, 'two')");
      await expect(startServer(dir)).rejects.toThrow(new RegExp(`server exited 1: quarry: data directory ${dir} is in use by another quarry \\(process ${a.proc.pid};`));
      expect(await count(a)).toBe(2);
      await a.sql("INSERT INTO t (id, title) VALUES (3, 'three')");
    } finally {
      await a.stop();
    }
    const b = await startServer(dir); // the lock went with the first server
    expect(await count(b)).toBe(3);
    await b.stop('SIGKILL');
    const c = await startServer(dir); // a lock left by a killed server is taken over
    expect(await count(c)).toBe(3);
    await c.stop();
  }, 60_000);

  it('writes the pid to searchd pid_file (else <data>/searchd.pid) and removes it at stop; the lock alone tells who holds the directory', async () => {
    const other = mkdtempSync(join(tmpdir(), 'quarry-pid-file-'));
    try {
      const pidFile = join(other, 'run', 'searchd.pid');
      mkdirSync(join(other, 'run'));
      const conf = join(other, 'searchd.conf');
      writeFileSync(conf, `searchd {\n  pid_file = ${pidFile}\n}\n`);
      const data = join(other, 'data');
      const a = await startServer(data, {}, ['--config', conf]);
      try {
        expect(readFileSync(pidFile, 'utf8')).toBe(`${a.proc.pid}\n`);
        expect(existsSync(join(data, 'searchd.pid'))).toBe(false);
        // no pid file in the data directory, or none at all: the lock still names the server
        rmSync(pidFile);
        writeFileSync(join(other, 'one.jsonl'), '{"id":1}\n');
        const held = await runQuarry(['import', '--table', 'x', '--data', data, join(other, 'one.jsonl')]);
        expect(held.code).toBe(1);
        expect(held.stderr).toContain(`data directory ${data} is in use by a running server (pid ${a.proc.pid})`);
        writeFileSync(pidFile, `${a.proc.pid}\n`);
      } finally {
        await a.stop();
      }
      expect(existsSync(pidFile)).toBe(false);
      const b = await startServer(data);
      try {
        expect(readFileSync(join(data, 'searchd.pid'), 'utf8')).toBe(`${b.proc.pid}\n`);
      } finally {
        await b.stop();
      }
      expect(existsSync(join(data, 'searchd.pid'))).toBe(false);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  }, 60_000);

  it('a directory stamped with another format is refused and left as it was', async () => {
    writeFileSync(join(dir, 'quarry-format.json'), JSON.stringify({ format: 2, writer: 'quarry 9.0.0' }));
    const before = snapshot(dir);
    await expect(startServer(dir)).rejects.toThrow(/server exited 1: quarry: data directory .* has data format 2 \(written by quarry 9\.0\.0\); this quarry reads format 1/);
    expect(snapshot(dir)).toEqual(before);
  }, 30_000);
});
