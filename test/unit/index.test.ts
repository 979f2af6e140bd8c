import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { open } from '../../src/index.js';

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
});
