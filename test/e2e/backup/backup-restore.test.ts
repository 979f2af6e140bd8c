// BACKUP while writers go on, then `quarry restore` and a fresh server on the restored folder: every
// write acknowledged before BACKUP was sent is there, nothing that was never written is.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runQuarry } from '../../helpers/run-quarry.js';
import { startServer, type ServerProcess } from '../../helpers/server-process.js';

let dir = '';
const servers: ServerProcess[] = [];
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'quarry-backup-')); });
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function serve(data: string): Promise<ServerProcess> {
  const s = await startServer(data);
  servers.push(s);
  return s;
}

/** One statement's raw answer; throws on an error answer. */
async function sql(s: ServerProcess, q: string): Promise<Record<string, unknown>[]> {
  type Raw = { error?: string; data?: Record<string, unknown>[] };
  const answer = (await s.sql(q)) as Raw[] | Raw;
  const r = Array.isArray(answer) ? answer[0] : answer;
  if (r?.error) throw new Error(`${q}: ${r.error}`);
  return r?.data ?? [];
}

async function ids(s: ServerProcess, table: string): Promise<Set<string>> {
  const rows = await sql(s, `SELECT id FROM ${table} ORDER BY id ASC LIMIT 1000000 OPTION max_matches=1000000`);
  return new Set(rows.map((r) => String(r.id)));
}

describe('BACKUP and quarry restore', () => {
  it('keeps every write acknowledged before the backup while 4 writers and checkpoints go on', async () => {
    const s = await serve(join(dir, 'data'));
    await sql(s, 'CREATE TABLE t (title text, writer int, n bigint)');
    const acked = new Set<string>();
    const sent = new Set<string>();
    let stop = false;
    const writer = async (w: number) => {
      for (let n = 1; !stop; n++) {
        const id = String(BigInt(w) * 1_000_000_000_000n + BigInt(n)); // 64-bit ids
        sent.add(id);
        await sql(s, `INSERT INTO t (id, title, writer, n) VALUES (${id}, 'doc ${w} ${n} apple', ${w}, ${n})`);
        acked.add(id);
      }
    };
    // checkpoints and op pruning go on too: the backup must hold them off, not copy half of one
    const flusher = async () => {
      while (!stop) {
        await sql(s, 'FLUSH RAMCHUNK t');
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const loops = [1, 2, 3, 4].map(writer).concat(flusher());
    while (acked.size < 40) await new Promise((r) => setTimeout(r, 20));
    const before = new Set(acked);
    const out = join(dir, 'backups');
    mkdirSync(out);
    const [row] = await sql(s, `BACKUP TO '${out}'`);
    const path = String(row!.Path);
    expect(path).toMatch(/backups\/backup-\d{14}$/);
    await new Promise((r) => setTimeout(r, 200)); // writes after the backup: may be absent
    stop = true;
    await Promise.all(loops);
    expect(before.size).toBeGreaterThan(20);

    const restored = join(dir, 'restored');
    const r = await runQuarry(['restore', '--from', path, '--data', restored]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('restored 1 table(s) (t)');
    const s2 = await serve(restored);
    const got = await ids(s2, 't');
    const lost = [...before].filter((id) => !got.has(id));
    expect(lost).toEqual([]);
    expect([...got].filter((id) => !sent.has(id))).toEqual([]);
    // the restored full-text index answers, not only the documents
    const [count] = await sql(s2, "SELECT COUNT(*) AS c FROM t WHERE MATCH('apple')");
    expect(Number(count!.c)).toBe(got.size);
  }, 60_000);

  it('backs up only the tables named, refuses bad requests with clear errors', async () => {
    const s = await serve(join(dir, 'data'));
    await sql(s, 'CREATE TABLE a (title text)');
    await sql(s, 'CREATE TABLE b (title text, k int)');
    await sql(s, "INSERT INTO b (id, title, k) VALUES (1, 'it\\'s b', 7)");
    const out = join(dir, 'out');
    mkdirSync(out);
    const [row] = await sql(s, `BACKUP TABLE b TO ${out}`);
    expect(readdirSync(out)).toHaveLength(1);
    await expect(sql(s, `BACKUP TABLES a, nope TO '${out}'`)).rejects.toThrow(/BACKUP failed: unknown table\(s\): nope/);
    await expect(sql(s, `BACKUP TO '${join(dir, 'missing')}'`)).rejects.toThrow(/does not exist/);
    await expect(sql(s, `BACKUP TO '${out}' OPTION compress = 1`)).rejects.toThrow(/compress is not supported/);
    await expect(sql(s, `BACKUP TO '${out}' OPTION speed = 1`)).rejects.toThrow(/unknown option 'speed'/);
    const s2 = await serve(String(row!.Path)); // the backup itself is a data directory
    expect((await sql(s2, 'SHOW TABLES')).map((t) => t.Table ?? t.Index)).toEqual(['b']);
    expect(await sql(s2, 'SELECT * FROM b')).toEqual([{ id: 1, title: "it's b", k: 7 }]);
  }, 60_000);

  it('quarry backup --url asks a running server, --data copies a stopped one; restore refuses a used folder', async () => {
    const data = join(dir, 'data');
    const s = await serve(data);
    await sql(s, 'CREATE TABLE t (title text)');
    await sql(s, "INSERT INTO t (id, title) VALUES (1, 'one'), (2, 'two')");
    const out = join(dir, 'out');
    mkdirSync(out);
    const viaUrl = await runQuarry(['backup', '--url', `http://127.0.0.1:${s.httpPort}`, '--to', out]);
    expect(viaUrl.stderr).toBe('');
    expect(viaUrl.code).toBe(0);
    await servers.pop()!.stop();
    const viaData = await runQuarry(['backup', '--data', data, '--to', out, '--tables', 't']);
    expect(viaData.code).toBe(0);
    const made = readdirSync(out).map((n) => join(out, n));
    expect(made).toHaveLength(2);
    for (const [i, path] of made.entries()) {
      const target = join(dir, `r${i}`);
      expect((await runQuarry(['restore', '--from', path, '--data', target])).code).toBe(0);
      const s2 = await serve(target);
      expect([...(await ids(s2, 't'))].sort()).toEqual(['1', '2']);
      await servers.pop()!.stop();
    }
    const again = await runQuarry(['restore', '--from', made[0]!, '--data', join(dir, 'r0')]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/is not empty/);
    // the options go through the loop every command shares: unknown and valueless options are named
    expect(await runQuarry(['backup', '--bogus', 'x'])).toMatchObject({ code: 1, stderr: expect.stringMatching(/unknown option '--bogus'/) });
    expect(await runQuarry(['restore', '--from'])).toMatchObject({ code: 1, stderr: expect.stringMatching(/option '--from' needs a value/) });
    const notBackup = await runQuarry(['restore', '--from', out, '--data', join(dir, 'x')]);
    expect(notBackup.stderr).toMatch(/is not a quarry backup/);
    expect(existsSync(join(dir, 'x'))).toBe(false);
  }, 60_000);
});
