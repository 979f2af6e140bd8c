import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newSession, openEngine, type ConfigTable } from '../../../src/engine/index.js';

const configured: ConfigTable = {
  schema: {
    name: 'products', settings: { morphology: 'stem_en' },
    columns: [
      { name: 'title', type: 'text', indexed: true, stored: true },
      { name: 'price', type: 'float', indexed: false, stored: false },
    ],
  },
};

describe('TRUNCATE ... WITH RECONFIGURE', () => {
  it('creates config tables on first start and re-applies their settings atomically with the emptying', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-reconf-'));
    const s = newSession();
    try {
      const engine = await openEngine({ dataDir: dir, configTables: new Map([['products', configured]]) });
      const one = async (q: string) => (await engine.execute(q, s))[0];
      // Created from the config with stem_en: 'walking' is found by 'walk'.
      await one("INSERT INTO products (id, title, price) VALUES (1, 'walking shoes', 10)");
      expect(await one("SELECT id FROM products WHERE MATCH('walk')")).toMatchObject({ rows: [[1n]] });
      // Change the table's settings by hand, then RECONFIGURE brings the config's back and empties it.
      await one('DROP TABLE products');
      await one('CREATE TABLE products (title text, price float)');
      await one("INSERT INTO products (id, title, price) VALUES (2, 'walking boots', 20)");
      expect(await one("SELECT id FROM products WHERE MATCH('walk')")).toMatchObject({ rows: [] });
      expect(await one('TRUNCATE TABLE products WITH RECONFIGURE')).toEqual({ kind: 'ok', affected: 0 });
      expect(await one('SELECT COUNT(*) FROM products')).toMatchObject({ rows: [[0n]] });
      await one("INSERT INTO products (id, title, price) VALUES (3, 'walking poles', 30)");
      expect(await one("SELECT id FROM products WHERE MATCH('walk')")).toMatchObject({ rows: [[3n]] });
      expect(await one('SHOW CREATE TABLE products')).toMatchObject({ rows: [['products', expect.stringContaining("morphology='stem_en'")]] });
      // A table without a config section is simply emptied.
      await one('CREATE TABLE other (title text)');
      await one("INSERT INTO other (id, title) VALUES (1, 'x')");
      expect(await one('TRUNCATE TABLE other WITH RECONFIGURE')).toEqual({ kind: 'ok', affected: 0 });
      expect(await one('SELECT COUNT(*) FROM other')).toMatchObject({ rows: [[0n]] });
      await engine.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
