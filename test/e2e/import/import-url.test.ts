// `quarry import --url` writes CSV rows as `/bulk` lines made straight from the values (bulk-lines.ts):
// the same file imported through a running server and into a data directory (the direct load path)
// gives the same table, every attribute type included; a bad row stops the load at its line.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { open } from '../../../src/index.js';
import { dataDirRows } from '../../helpers/data-dir-rows.js';
import { runQuarry } from '../../helpers/run-quarry.js';
import { ROOT } from '../../helpers/server-process.js';
import { spawnQuarry } from '../../helpers/spawn-quarry.js';

let dir = '';
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'quarry-import-url-')); });
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const CREATE = 'CREATE TABLE t (title text, tag string, n uint, big bigint, f float, b bool, m multi, j json)';
const CSV = [
  'id,title,tag,n,big,f,b,m,j',
  '1,"quoted ""text"", with comma",a,7,9223372036854775807,1.5,true,"3,1","{""k"":[1,2]}"',
  '2,Unicode é ☃ and \\ backslash,,,-5,,0,,',
  '3,third,c,+4,12,2e3,1,9,"[1,""x""]"',
  '',
].join('\n');
const SELECT = 'SELECT id, title, tag, n, big, f, b, m, j FROM t ORDER BY id ASC';

async function sql(port: number, statement: string): Promise<{ data?: unknown[]; error?: string }> {
  const res = await fetch(`http://127.0.0.1:${port}/sql?mode=raw`, { method: 'POST', body: 'query=' + encodeURIComponent(statement) });
  return ((await res.json()) as { data?: unknown[]; error?: string }[])[0]!;
}

describe('quarry import --url', () => {
  it('gives the table a --data import of the same file gives, and stops at a bad row', async () => {
    const csv = join(dir, 't.csv');
    writeFileSync(csv, CSV);
    // into a data directory (the direct load path), and through a server on another one
    const direct = join(dir, 'direct');
    const served = join(dir, 'served');
    for (const d of [direct, served]) {
      const db = await open(d, { threads: 1 });
      await db.sql(CREATE);
      await db.close();
    }
    expect((await runQuarry(['import', '--table', 't', '--data', direct, '--quiet', csv])).code).toBe(0);
    const server = await spawnQuarry(ROOT, ['--data', served]);
    try {
      const url = `http://127.0.0.1:${server.http}`;
      const r = await runQuarry(['import', '--table', 't', '--url', url, '--quiet', csv]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const bad = join(dir, 'bad.csv');
      writeFileSync(bad, 'id,title,n\n10,ok,1\n11,dup,2\n1,again,3\n12,after,4\n');
      const stop = await runQuarry(['import', '--table', 't', '--url', url, '--batch', '2', '--quiet', bad]);
      expect(stop.code).toBe(1);
      expect(stop.stderr).toContain("line 4: duplicate id '1'");
      expect((await sql(server.http, 'SELECT id FROM t WHERE id >= 10 ORDER BY id ASC')).data).toEqual([{ id: 10 }, { id: 11 }]);
      await sql(server.http, 'DELETE FROM t WHERE id >= 10');
    } finally {
      server.proc.kill('SIGTERM');
      await server.exited;
    }
    const got = await dataDirRows(served, SELECT);
    expect(got).toEqual(await dataDirRows(direct, SELECT));
    expect(got).toEqual([
      [1, 'quoted "text", with comma', 'a', 7, 9223372036854775807, 1.5, 1, [1, 3], '{"k":[1,2]}'],
      [2, 'Unicode é ☃ and \\ backslash', '', 0, -5, 0, 0, [], null],
      [3, 'third', 'c', 4, 12, 2000, 1, [9], '[1,"x"]'],
    ]);
  }, 90_000);
});

