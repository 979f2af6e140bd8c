// ImportRun's priming (import-run.ts #prime): while the first batch of a CSV/TSV file is read, the rows
// read so far go to the target's prime() in order, and none after that batch was flushed; what is
// loaded does not depend on it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ImportFailure, ImportRun } from '../../../src/import/import-run.js';
import { Progress } from '../../../src/import/progress.js';
import type { ImportTarget } from '../../../src/import/target.js';
import { memoryTarget } from './memory-target.js';

let dir = '';
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'quarry-import-run-')); });
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A memory target that records what it was primed with. */
function fakeTarget() {
  const primed: string[][] = [];
  const loaded: string[] = [];
  const target = memoryTarget(loaded, (_t, columns, rows) => {
    expect(columns).toEqual(['id', 'title', 'body']);
    primed.push(...rows.map((r) => [...r])); // read during the call, as ImportTarget.prime says: the import converts them after
  });
  return { target, primed, loaded };
}

/** An ImportRun of dir/rows.tsv (id, title, body; no header) into table t, `batch` rows a batch, its lines logged into `logged`. */
function tsvRun(target: ImportTarget, batch: number, logged?: string[]): ImportRun {
  return new ImportRun(target, {
    table: 't', files: [join(dir, 'rows.tsv')], format: 'tsv', batch, skipErrors: false, noHeader: true,
    columns: ['id', 'title', 'body'], replace: false,
  }, new Progress('quiet', 'test'), () => false, logged ? (l) => logged.push(l) : undefined);
}

describe('ImportRun priming', () => {
  it('hands over the first batch\'s rows as they are read, and no later ones', async () => {
    const n = 6000;
    const body = 'x'.repeat(400); // 1 MiB input chunks hold ~2,600 rows: the first batch spans chunks
    writeFileSync(join(dir, 'rows.tsv'), Array.from({ length: n }, (_, i) => `${i + 1}\ttitle ${i + 1}\t${body}\n`).join(''));
    const { target, primed, loaded } = fakeTarget();
    const run = tsvRun(target, 5000);
    const summary = await run.run();
    expect(summary.imported).toBe(n);
    expect(loaded).toHaveLength(n);
    expect(primed.length).toBeGreaterThan(0);
    expect(primed.length).toBeLessThan(5000);
    expect(primed.map((r) => r[0])).toEqual(Array.from({ length: primed.length }, (_, i) => String(i + 1)));
  });
});

describe('ImportRun when the target fails', () => {
  it('says how many documents were acknowledged before a failure that is not a bad line', async () => {
    writeFileSync(join(dir, 'rows.tsv'), Array.from({ length: 1000 }, (_, i) => `${i + 1}\ttitle ${i + 1}\tbody\n`).join(''));
    const { target, loaded } = fakeTarget();
    const load = target.loadRows!;
    let calls = 0;
    target.loadRows = async (t, batch, replace) => {
      if (++calls === 4) throw new Error('cannot reach http://127.0.0.1:9308: connect ECONNREFUSED 127.0.0.1:9308');
      return load(t, batch, replace);
    };
    const run = tsvRun(target, 100);
    const failure = await run.run().then(() => undefined, (e: unknown) => e);
    expect(failure).toBeInstanceOf(ImportFailure);
    expect(failure).toMatchObject({ imported: 300, file: join(dir, 'rows.tsv'), message: expect.stringContaining('ECONNREFUSED') });
    expect(loaded).toHaveLength(300);
  });
});


describe('ImportRun stopping at a bad line', () => {
  it('names only the first bad line: one the target refuses before a line that could not be read', async () => {
    // line 3 is refused by the target (as a server refuses an id); line 4 is not a row of the header's width
    writeFileSync(join(dir, 'rows.tsv'), '1\ta\tb\n2\ta\tb\n3\ta\tb\n4\tonly two\n5\ta\tb\n');
    const { target, loaded } = fakeTarget();
    const load = target.loadRows!;
    target.loadRows = async (t, batch, replace) => {
      const i = batch.rows.findIndex((r) => (r[0] as { v: bigint }).v === 3n);
      return i >= 0 ? { ok: false, failedIndex: i, error: 'document id out of range: 3' } : load(t, batch, replace);
    };
    const logged: string[] = [];
    const run = tsvRun(target, 100, logged);
    const summary = await run.run();
    expect(summary).toMatchObject({ imported: 2, stoppedAt: { line: 3 } });
    expect(loaded).toEqual(['1', '2']);
    expect(logged).toEqual([`quarry import: ${join(dir, 'rows.tsv')}: line 3: document id out of range: 3`]);
  });

  it('names one line when the lines before a refused one are refused too (the table dropped during the import)', async () => {
    writeFileSync(join(dir, 'rows.tsv'), '1\ta\tb\n2\ta\tb\n3\ta\tb\n');
    const { target, loaded } = fakeTarget();
    let calls = 0;
    // a server whose table went away while the batch was on its way: the store's commit refused the
    // whole run (reported at its last line), and every send after that is refused at its first line
    target.loadRows = async (_t, batch) => (calls++ === 0
      ? { ok: false, failedIndex: batch.rows.length - 1, error: "table 't' absent" }
      : { ok: false, failedIndex: 0, error: "table 't' absent (at its first line)" });
    const logged: string[] = [];
    const run = tsvRun(target, 100, logged);
    const summary = await run.run();
    expect(summary).toMatchObject({ imported: 0, stoppedAt: { line: 1 } });
    expect(loaded).toEqual([]);
    expect(logged).toEqual([`quarry import: ${join(dir, 'rows.tsv')}: line 1: table 't' absent (at its first line)`]);
  });
});
