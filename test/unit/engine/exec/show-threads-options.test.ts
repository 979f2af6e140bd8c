// SHOW THREADS OPTION format / columns as searchd's HandleShowThreads reads them: format=all adds the
// Chain column before Info, columns=N cuts Info to N characters (a negative N to nothing); only SHOW
// THREADS and SHOW PLAN take these options (searchdsql.cpp CheckOption), other SHOWs none.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { newSession, openEngine, type Engine, type Result } from '../../../../src/engine/index.js';
import { metrics } from '../../../../src/metrics/metrics.js';

let dir: string;
let engine: Engine;
let conns: number[] = [];
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-show-threads-'));
  engine = await openEngine({ dataDir: dir });
  // two client connections as the servers register them: one running a search, one idle
  const busy = metrics.open('mysql', '127.0.0.1:4001');
  metrics.begin(busy, 'SELECT * FROM t WHERE MATCH(\'abcdefghij\')');
  conns = [busy, metrics.open('http', '127.0.0.1:4002')];
});
afterEach(async () => {
  for (const c of conns) metrics.close(c);
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

async function last(text: string): Promise<Result> {
  const out = await engine.execute(text, newSession());
  return out[out.length - 1]!;
}
async function table(text: string): Promise<{ names: string[]; rows: unknown[][] }> {
  const r = await last(text);
  if (r.kind !== 'rows') throw new Error(JSON.stringify(r));
  return { names: r.columns.map((c) => c.name), rows: r.rows };
}

it('format=all adds Chain before Info: "Conn " and "Conn Query " while a search runs', async () => {
  const plain = await table('SHOW THREADS');
  expect(plain.names).not.toContain('Chain');
  const all = await table('SHOW THREADS OPTION format=all');
  expect(all.names.slice(-3)).toEqual(['Thread status', 'Chain', 'Info']);
  expect(all.rows.map((r) => r.slice(-2))).toEqual([['Conn Query ', "SELECT * FROM t WHERE MATCH('abcdefghij')"], ['Conn ', '']]);
});

it('columns=N cuts Info to N characters, a negative N to none, and combines with format', async () => {
  expect((await table('SHOW THREADS OPTION columns=8')).rows.map((r) => r.at(-1))).toEqual(['SELECT *', '']);
  expect((await table('SHOW THREADS OPTION columns=-3')).rows.map((r) => r.at(-1))).toEqual(['', '']);
  const both = await table('SHOW THREADS OPTION columns=6, format=all');
  expect(both.rows[0]!.slice(-2)).toEqual(['Conn Query ', 'SELECT']);
});

it('refuses a non-number columns, and these options on other SHOWs, with searchd errors', async () => {
  expect(await last("SHOW THREADS OPTION columns='wide'")).toMatchObject({ kind: 'error', message: "columns value should be a number: 'wide'" });
  expect(await last('SHOW STATUS OPTION format=all')).toMatchObject({ kind: 'error', message: "unknown option 'format'" });
  expect(await last('SHOW TABLES OPTION columns=5')).toMatchObject({ kind: 'error', message: "unknown option 'columns'" });
});

it('DESC takes searchd options force and topology (nothing to reveal in quarry) and refuses any other', async () => {
  await last('CREATE TABLE d (title TEXT)');
  expect(await last('DESC d OPTION force=1')).toMatchObject({ kind: 'rows' });
  expect(await last('DESC d OPTION topology=1')).toMatchObject({ kind: 'rows' });
  expect(await last('DESC d OPTION foo=1')).toMatchObject({ kind: 'error', message: "unknown option 'foo'" });
  expect(await last('DESC nosuch OPTION columns=1')).toMatchObject({ kind: 'error', message: "unknown option 'columns'" });
});
