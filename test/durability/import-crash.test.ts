/**
 * Kill -9 `quarry import --data` (the direct load path) in the middle of a load, several times, then
 * check the data directory: every document the import had reported (its progress lines count only
 * acknowledged batches) is there, a batch is all or nothing (the ids present are exactly 1..C, C a whole
 * number of batches), the table is searchable, and the next import finishes the file with every row once.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dataDirRows } from '../helpers/data-dir-rows.js';
import { runQuarry, startQuarry } from '../helpers/run-quarry.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-import-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ROWS = 30_000;
const BATCH = 1_000;
const KILLS = 3;
const data = join(dir, 'data');

/** Rows from..ROWS of the file: `id,title,n` with n = id * 7. */
function csv(from: number): string {
  const f = join(dir, `from-${from}.csv`);
  const lines = ['id,title,n'];
  for (let id = from; id <= ROWS; id++) lines.push(`${id},word${id % 97} common text of row ${id},${id * 7}`);
  writeFileSync(f, `${lines.join('\n')}\n`);
  return f;
}

/** The highest acknowledged count the progress lines reported. */
function reported(stderr: string): number {
  let max = 0;
  for (const m of stderr.matchAll(/ ([\d,]+) docs /g)) max = Math.max(max, Number(m[1]!.replace(/,/g, '')));
  return max;
}

describe('quarry import --data under kill -9', () => {
  it(`keeps every reported batch, whole, over ${KILLS} kills, then completes`, async () => {
    const args = (file: string) => ['import', '--table', 't', '--data', data, '--batch', String(BATCH), file];
    const env = { QUARRY_PROGRESS_MS: '1' };
    let have = 0;
    for (let round = 0; round < KILLS; round++) {
      const run = startQuarry(args(csv(have + 1)), { env });
      // kill once a few batches are in, at a moment that varies from round to round
      const target = have + BATCH * (2 + round);
      while (reported(run.output().stderr) < target - have && run.proc.exitCode === null) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, 13 * round));
      run.proc.kill('SIGKILL');
      const done = await run.done;
      const acked = have + reported(done.stderr);
      const [[count, min, max]] = (await dataDirRows(data, 'SELECT COUNT(*), MIN(id), MAX(id) FROM t')) as number[][];
      expect(count).toBeGreaterThanOrEqual(acked);
      expect(count! % BATCH).toBe(0);
      if (count) expect([min, max]).toEqual([1, count]);
      // every row's values whole: n = id * 7 summed over ids 1..count
      expect(await dataDirRows(data, 'SELECT SUM(n) FROM t')).toEqual([[(7 * count! * (count! + 1)) / 2]]);
      expect(await dataDirRows(data, "SELECT COUNT(*) FROM t WHERE MATCH('common')")).toEqual([[count]]);
      have = count!;
    }
    expect(have).toBeLessThan(ROWS);
    const last = await runQuarry(args(csv(have + 1)), { env });
    expect(last.code, last.stderr).toBe(0);
    expect(await dataDirRows(data, 'SELECT COUNT(*), COUNT(DISTINCT id), MIN(id), MAX(id) FROM t')).toEqual([[ROWS, ROWS, 1, ROWS]]);
    expect(await dataDirRows(data, "SELECT COUNT(*) FROM t WHERE MATCH('word5')")).toEqual([[Math.floor((ROWS - 5) / 97) + 1]]);
  }, 180_000);
});
