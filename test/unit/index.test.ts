import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { open } from '../../src/index.js';
import { ROOT } from '../helpers/server-process.js';

describe('embedded API', () => {
  it('opens a data directory, runs SQL in process and keeps data across opens', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-embedded-'));
    try {
      const db = await open(dir);
      expect(await db.sql('CREATE TABLE docs (title text, price float)')).toEqual([{ kind: 'ok', affected: 0 }]);
      const [ins] = await db.sql("INSERT INTO docs (id, title, price) VALUES (1, 'hello world', 9.5)");
      expect(ins).toMatchObject({ kind: 'ok', affected: 1 });
      await db.close();
      const again = await open(dir);
      const [res] = await again.sql("SELECT id, price, weight() FROM docs WHERE MATCH('hello')");
      expect(res).toMatchObject({ kind: 'rows', rows: [[1n, 9.5, expect.any(BigInt)]] });
      const [bad] = await again.sql('SELECT * FROM missing');
      expect(bad).toMatchObject({ kind: 'error', message: "unknown local table(s) 'missing' in search request" });
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('close() lets the embedding process exit, also after queries ran on the worker threads', () => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-embedded-exit-'));
    try {
      const dist = (p: string) => pathToFileURL(join(ROOT, 'dist/src', p)).href;
      const script = join(dir, 'embed.mjs');
      writeFileSync(script, `
        const { open } = await import(${JSON.stringify(dist('index.js'))});
        const { setParallelMinCost } = await import(${JSON.stringify(dist('index/parallel/query-threads.js'))});
        setParallelMinCost(1); // every query to the threads
        const db = await open(${JSON.stringify(join(dir, 'data'))}, { threads: 2 });
        await db.sql('CREATE TABLE t (title text, cat uint)');
        for (let b = 0; b < 4; b++) {
          await db.sql('INSERT INTO t (id, title, cat) VALUES ' + Array.from({ length: 500 }, (_, i) => '(' + (b * 500 + i + 1) + ", 'w', " + (i % 7) + ')').join(','));
        }
        const [r] = await db.sql('SELECT cat, COUNT(*) FROM t GROUP BY cat ORDER BY cat ASC');
        await db.close();
        console.log('closed', r.rows.length);
      `);
      const run = spawnSync(process.execPath, [script], { timeout: 30_000, encoding: 'utf8' });
      expect(run.stderr).toBe('');
      expect(run.stdout.trim()).toBe('closed 7');
      expect(run.signal).toBeNull(); // not killed by the timeout: it exited on its own
      expect(run.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 40_000);
});
