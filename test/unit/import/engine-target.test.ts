// quarry import --data's target (engine-target.ts): each committed batch's segment is written to its
// checkpoint file while the load goes on (not all at close, after the last build), and a batch that
// failed writes nothing; a batch whose next one is built already starts no pass (it would hold the
// table's lock in that batch's way; never two in a row), and close writes both.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EngineTarget } from '../../../src/import/engine-target.js';
import { buildOfJob, setBuildRunner } from '../../../src/engine/background/build-job.js';
import { createTextPipeline } from '../../../src/text/text-pipeline.js';
import type { Literal } from '../../../src/engine/values/literal.js';

let dir = '';
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'quarry-engine-target-')); });
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Segment files of the table's checkpoint(s) in the data directory. */
function segmentFiles(): string[] {
  const tables = join(dir, 'tables');
  if (!existsSync(tables)) return [];
  return readdirSync(tables).flatMap((t) => readdirSync(join(tables, t)).filter((f) => f.startsWith('seg-')));
}

const rows = (from: number, n: number): Literal[][] => Array.from({ length: n }, (_, i) => [
  { t: 'int', v: BigInt(from + i) }, { t: 'string', v: `title ${from + i}` }, { t: 'string', v: `body of row ${from + i}` },
]);

describe('EngineTarget', () => {
  it('writes each committed batch\'s segment file during the load', async () => {
    const target = await EngineTarget.open(dir);
    try {
      await target.sql('CREATE TABLE t (title text, body text)');
      const columns = ['id', 'title', 'body'];
      expect(await target.loadRows('t', { columns, rows: rows(1, 50) })).toEqual({ ok: true });
      // the timer's pass is 10 s away: the file comes from the pass the commit started
      await vi.waitFor(() => expect(segmentFiles()).toHaveLength(1), { timeout: 5000 });
      expect(await target.loadRows('t', { columns, rows: rows(51, 50) })).toEqual({ ok: true });
      await vi.waitFor(() => expect(segmentFiles()).toHaveLength(2), { timeout: 5000 });
      const bad = await target.loadRows('t', { columns, rows: [[{ t: 'string', v: 'x' }, { t: 'string', v: 'a' }, { t: 'string', v: 'b' }]] });
      expect(bad.ok).toBe(false);
      await new Promise((r) => setTimeout(r, 200));
      expect(segmentFiles()).toHaveLength(2);
    } finally {
      await target.close();
    }
    expect(segmentFiles().length).toBeGreaterThanOrEqual(1);
  });

  it('starts no pass after a batch whose next batch is built already or short; close writes them', async () => {
    const target = await EngineTarget.open(dir);
    // a build "thread" in this process: a job resolves with buildOfJob's segment once let go
    const held: (() => void)[] = [];
    setBuildRunner((job) => new Promise((resolve) => { held.push(() => resolve(buildOfJob(createTextPipeline(job.settings), job))); }));
    const letGo = async () => { for (const go of held.splice(0)) go(); await new Promise((r) => setTimeout(r, 20)); };
    try {
      await target.sql('CREATE TABLE t (title text, body text)');
      const columns = ['id', 'title', 'body'];
      const first = await target.prepareRows('t', { columns, rows: rows(1, 50) });
      await letGo();
      expect(await first.commit()).toEqual({ ok: true }); // nothing prepared after it: a pass
      await vi.waitFor(() => expect(segmentFiles()).toHaveLength(1), { timeout: 5000 });
      // as an import does: the next batch prepared before this one commits; built by then: no pass
      const second = await target.prepareRows('t', { columns, rows: rows(51, 50) });
      const third = await target.prepareRows('t', { columns, rows: rows(101, 40) });
      await letGo();
      expect(await second.commit()).toEqual({ ok: true });
      await new Promise((r) => setTimeout(r, 200));
      expect(segmentFiles()).toHaveLength(1);
      // never two batches in a row: after one that skipped, a pass whatever comes next
      const fourth = await target.prepareRows('t', { columns, rows: rows(141, 40) });
      await letGo();
      expect(await third.commit()).toEqual({ ok: true });
      await vi.waitFor(() => expect(segmentFiles()).toHaveLength(3), { timeout: 5000 });
      // the next one not built but short (a quarter of this one's rows or fewer): no pass either
      const fifth = await target.prepareRows('t', { columns, rows: rows(181, 10) });
      expect(await fourth.commit()).toEqual({ ok: true });
      await new Promise((r) => setTimeout(r, 200));
      expect(segmentFiles()).toHaveLength(3);
      await letGo();
      expect(await fifth.commit()).toEqual({ ok: true }); // the last prepared: its pass writes all
      await vi.waitFor(() => expect(segmentFiles()).toHaveLength(5), { timeout: 5000 });
    } finally {
      setBuildRunner(null);
      await target.close();
    }
    expect(segmentFiles()).toHaveLength(5);
  });
});
