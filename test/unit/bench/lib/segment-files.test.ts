// bench/lib/segment-files.ts: the same rows bulk-loaded with checkpoint passes at other times (a batch whose next
// one is built already starts no pass: engine-target.ts) give segment files of other names (the pass's
// seq and number are in them) but the same bytes at each place in the table, and the same answers; the md5
// is the same. Hashed in name order it was not: imp19a's 1 in 30 gcide imports with another md5.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { open } from '../../../../src/index.js';
import { EngineTarget } from '../../../../src/import/engine-target.js';
import { buildOfJob, setBuildRunner } from '../../../../src/engine/background/build-job.js';
import { createTextPipeline } from '../../../../src/text/text-pipeline.js';
import type { Literal } from '../../../../src/engine/values/literal.js';
import { segmentFiles, segmentsMd5 } from '../../../../bench/lib/segment-files.js';

const root = mkdtempSync(join(tmpdir(), 'quarry-bench-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta'];
const rows = (from: number, n: number): Literal[][] => Array.from({ length: n }, (_, i) => [
  { t: 'int', v: BigInt(from + i) }, { t: 'string', v: `${words[i % 6]} ${words[(from + i) % 6]}` },
]);

/**
 * Two batches of 6 rows (seq 6, then 12: names of one and two digits) through the import's target, the
 * second built before the first commits (`overlap`: the first batch's pass skipped, one pass writes both)
 * or prepared after it (a pass each); then the table's answer to a query from a fresh open.
 */
async function load(name: string, overlap: boolean): Promise<{ dir: string; answer: unknown }> {
  const dir = join(root, name);
  const target = await EngineTarget.open(dir);
  const held: (() => void)[] = [];
  setBuildRunner((job) => new Promise((resolve) => { held.push(() => resolve(buildOfJob(createTextPipeline(job.settings), job))); }));
  const letGo = async () => { for (const go of held.splice(0)) go(); await new Promise((r) => setTimeout(r, 20)); };
  try {
    await target.sql("CREATE TABLE t (body text) morphology='stem_en'");
    const columns = ['id', 'body'];
    const first = await target.prepareRows('t', { columns, rows: rows(1, 6) });
    const second = overlap ? await target.prepareRows('t', { columns, rows: rows(7, 6) }) : undefined;
    await letGo();
    expect(await first.commit()).toEqual({ ok: true });
    await new Promise((r) => setTimeout(r, 200)); // the first batch's pass, when it starts one
    const last = second ?? await target.prepareRows('t', { columns, rows: rows(7, 6) });
    await letGo();
    expect(await last.commit()).toEqual({ ok: true });
  } finally {
    setBuildRunner(null);
    await target.close();
  }
  const db = await open(dir, { threads: 1 });
  try {
    const r = await db.sql("SELECT id, WEIGHT() FROM t WHERE MATCH('beta | zeta') ORDER BY id ASC");
    // ids, weights, totals and keyword stats; not the time taken
    return { dir, answer: JSON.parse(JSON.stringify(r, (k, v) => (k === 'timeMs' ? undefined : typeof v === 'bigint' ? String(v) : v))) };
  } finally {
    await db.close();
  }
}

/** The check as import-ab made it before: files in name order. */
function nameOrderMd5(dir: string): string {
  const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]));
  const md5 = createHash('md5');
  for (const f of walk(dir).filter((p) => /seg/i.test(basename(p))).sort()) md5.update(readFileSync(f));
  return md5.digest('hex');
}

describe('segmentsMd5', () => {
  it('is the same for the same segments written by other checkpoint passes', async () => {
    const each = await load('each', false);
    const both = await load('both', true);
    const a = segmentFiles(each.dir);
    const b = segmentFiles(both.dir);
    expect(a.map((f) => basename(f))).toEqual(['seg-6-1-0.bin', 'seg-12-2-1.bin']);
    expect(b.map((f) => basename(f))).toEqual(['seg-12-1-0.bin', 'seg-12-1-1.bin']);
    a.forEach((f, i) => expect(readFileSync(f).equals(readFileSync(b[i]!))).toBe(true));
    expect(segmentsMd5(each.dir)).toBe(segmentsMd5(both.dir));
    expect(nameOrderMd5(each.dir)).not.toBe(nameOrderMd5(both.dir)); // seg-12-2-1 sorted before seg-6-1-0
    expect(each.answer).toEqual(both.answer);
    expect(JSON.stringify(each.answer)).toMatch(/"total":8\b/);
  });
});
