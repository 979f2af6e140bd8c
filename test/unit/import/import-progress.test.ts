// ImportRun's progress (import-run.ts state()): the share of the input shown done (the bar, its
// percent, the bytes and the ETA drawn from them) follows the lines sent, not the 1 MiB chunks read
// ahead of them, so a line never shows a file a third done while its first batch is still on the way.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ImportRun } from '../../../src/import/import-run.js';
import { Progress } from '../../../src/import/progress.js';
import { memoryTarget } from './memory-target.js';

let dir = '';
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'quarry-import-progress-')); });
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('ImportRun progress', () => {
  it('shows the share of the file whose lines were sent, not the share read ahead', async () => {
    const n = 6000;
    const batch = 500;
    const body = 'x'.repeat(400); // ~420 bytes a row: a 1 MiB chunk read holds ~2,500 rows, five batches
    writeFileSync(join(dir, 'rows.tsv'), Array.from({ length: n }, (_, i) => `${i + 1}\ttitle ${i + 1}\t${body}\n`).join(''));
    const lines: string[] = [];
    const out = new Writable({ write(chunk, _enc, cb) { lines.push(...String(chunk).split('\n').filter(Boolean)); cb(); } });
    const loaded: string[] = [];
    const run = new ImportRun(memoryTarget(loaded), {
      table: 't', files: [join(dir, 'rows.tsv')], format: 'tsv', batch, skipErrors: false, noHeader: true,
      columns: ['id', 'title', 'body'], replace: false,
    }, new Progress('plain', 'import t', out, 0), () => false);
    const summary = await run.run();
    expect(summary.imported).toBe(n);
    expect(loaded).toHaveLength(n);
    const shown = lines.map((l) => {
      const m = /^import t (\d+)% ([\d,]+) docs /.exec(l);
      expect(m, l).not.toBeNull();
      return { pct: Number(m![1]), docs: Number(m![2]!.replace(/,/g, '')) };
    });
    expect(shown.length).toBeGreaterThan(n / batch / 2);
    // acknowledged documents, plus the one batch that may be on its way, bound the share shown
    for (const s of shown) expect(s.pct, JSON.stringify(s)).toBeLessThanOrEqual(Math.ceil(((s.docs + batch) / n) * 100));
    expect(shown.at(-1)).toEqual({ pct: 100, docs: n });
  });
});

describe('Progress', () => {
  it('draws a bar, percent and ETA from a share when no byte total is known (a ranged SQL source)', () => {
    const p = new Progress('tty', 'indexing t', new Writable({ write(_c, _e, cb) { cb(); } }), 0);
    const line = p.line({ docs: 500, bytes: 0, share: 0.25 }, true);
    expect(line).toMatch(/^indexing t \[#{6}-{18}\] 25% 500 docs [\d,]+ docs\/s ETA \d+:\d\d$/);
    expect(p.line({ docs: 500, bytes: 0 }, true)).toMatch(/^indexing t 500 docs [\d,]+ docs\/s$/);
  });
});
