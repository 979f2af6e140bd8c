// SET GLOBAL optimize_cutoff / auto_optimize: searchd's HandleSetGlobal changes the default cutoff and the
// auto_optimize multiplier for every table at once, and SHOW VARIABLES reads them back; a cutoff below 1
// is its error. quarry took both SETs and changed nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { open } from '../../../src/index.js';
import { IDLE_MERGE_MS } from '../../../src/index/merge-scheduler.js';

let dir: string;
let db: Awaited<ReturnType<typeof open>>;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-set-optimize-'));
  db = await open(dir, { threads: 1 });
});
afterEach(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

async function variable(name: string): Promise<unknown> {
  const [r] = await db.sql(`SHOW VARIABLES LIKE '${name}'`);
  return r.kind === 'rows' ? r.rows[0]?.[1] : r;
}
async function segments(): Promise<number> {
  const [r] = await db.sql('SHOW TABLE t STATUS');
  if (r.kind !== 'rows') throw new Error(JSON.stringify(r));
  return Number(r.rows.find((row) => row[0] === 'ram_chunk_segments_count')?.[1]);
}
async function nineSegments(): Promise<void> {
  // 9 INSERTs of 300 rows (over the RAM tail's 256): 9 segments the tiered policy leaves alone
  for (let b = 0; b < 9; b++) {
    const values = Array.from({ length: 300 }, (_, i) => `(${b * 300 + i + 1}, 'common w${i % 7}')`).join(',');
    expect((await db.sql(`INSERT INTO t (id, title) VALUES ${values}`))[0].kind).toBe('ok');
  }
}

it('SET GLOBAL optimize_cutoff is the idle compaction target of a table without its own, shown by SHOW VARIABLES', async () => {
  expect((await db.sql('CREATE TABLE t (title text)'))[0].kind).toBe('ok');
  expect((await db.sql('SET GLOBAL optimize_cutoff=3'))[0]).toMatchObject({ kind: 'ok' });
  expect(await variable('optimize_cutoff')).toBe('3');
  await nineSegments();
  const end = Date.now() + 40 * IDLE_MERGE_MS;
  while (await segments() > 3 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  expect(await segments()).toBe(3);
  expect((await db.sql('SET GLOBAL optimize_cutoff=0'))[0]).toMatchObject({ kind: 'error', message: 'optimize_cutoff should be greater than 0, got 0' });
  expect(await variable('optimize_cutoff')).toBe('3');
});

it('SET GLOBAL auto_optimize=0 stops idle compaction; it is no session variable', async () => {
  expect((await db.sql('CREATE TABLE t (title text)'))[0].kind).toBe('ok');
  expect((await db.sql('SET GLOBAL auto_optimize=0'))[0]).toMatchObject({ kind: 'ok' });
  expect(await variable('auto_optimize')).toBe('0');
  await nineSegments();
  await new Promise((r) => setTimeout(r, 3 * IDLE_MERGE_MS)); // a compaction would have run by now
  expect(await segments()).toBe(9);
  expect((await db.sql('SET auto_optimize=1'))[0]).toMatchObject({ kind: 'error', message: "Unknown session variable 'auto_optimize' in SET statement" });
  // back on: down to the default cutoff of 2
  expect((await db.sql('SET GLOBAL auto_optimize=1'))[0]).toMatchObject({ kind: 'ok' });
  await db.sql("INSERT INTO t (id, title) VALUES (99999, 'one more')");
  const end = Date.now() + 40 * IDLE_MERGE_MS;
  while (await segments() > 2 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  expect(await segments()).toBe(2);
});

// searchd keeps the value GetValueInt gives (int64, saturated) in the int m_iOptimizeCutoff: SHOW VARIABLES
// prints its low 32 bits signed, and the error prints the int64 through %d. quarry kept the whole number.
it('SET GLOBAL optimize_cutoff past 32 bits shows searchd\'s 32-bit value', async () => {
  for (const [given, shown] of [['4294967298', '2'], ['3000000000', '-1294967296'], ['9223372036854775808', '-1'], ['99999999999999999999', '-1'], ['4294967296', '0']]) {
    expect((await db.sql(`SET GLOBAL optimize_cutoff=${given}`))[0]).toMatchObject({ kind: 'ok' });
    expect(await variable('optimize_cutoff')).toBe(shown);
  }
  expect((await db.sql('SET GLOBAL optimize_cutoff=-4294967295'))[0]).toMatchObject({ kind: 'error', message: 'optimize_cutoff should be greater than 0, got 1' });
  expect((await db.sql('SET GLOBAL optimize_cutoff=-5'))[0]).toMatchObject({ kind: 'error', message: 'optimize_cutoff should be greater than 0, got -5' });
});
