import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newSession, openEngine } from '../../../src/engine/index.js';
import { Store } from '../../../src/store/index.js';
import type { TableSchema } from '../../../src/schema/types.js';

// Tables created before CREATE TABLE copied their stopwords, wordforms and exceptions files into the
// table (copied-text-files.test.ts) hold the original paths and no copies: they are not migrated and
// read their files where they are at each start. When one is deleted, the next start used to fail as
// a whole ("'stopwords' file missed /x/stop.txt", no table named): the server, `quarry import` and
// open() refused every table of the data directory over one table's file.

/** Catalog entries as CREATE TABLE wrote them before copies: the settings name the original paths. */
async function legacyTables(data: string, tables: TableSchema[]): Promise<void> {
  const store = Store.open(data);
  try {
    for (const t of tables) await store.createTable(t);
  } finally {
    await store.close();
  }
}

const title = [{ name: 'title', type: 'text', indexed: true, stored: true }] as TableSchema['columns'];

describe('a table whose stopwords/wordforms/exceptions file is gone at start', () => {
  let dir: string;
  beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'quarry-missing-file-')); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is refused by name with the file and the way out; the other tables serve; the file back serves it again', async () => {
    const data = join(dir, 'data');
    const stop = join(dir, 'stop.txt');
    const forms = join(dir, 'forms.txt');
    writeFileSync(stop, 'the\n');
    writeFileSync(forms, 'kitty > cat\n');
    const s = newSession();
    await legacyTables(data, [
      { name: 'a', columns: title, settings: { stopwords: stop } },
      { name: 'w', columns: title, settings: { wordforms: forms } },
    ]);
    let engine = await openEngine({ dataDir: data });
    const one = async (q: string) => (await engine.execute(q, s))[0];
    await one('CREATE TABLE b (title text)');
    await one("INSERT INTO a (id, title) VALUES (1, 'the cat')");
    // read at the original path, no copy made of it
    expect(await one("SHOW CREATE TABLE a OPTION output_words='file'")).toMatchObject({ rows: [['a', `CREATE TABLE a (\nid bigint,\ntitle text\n) stopwords='${stop}'`]] });
    await one("INSERT INTO w (id, title) VALUES (1, 'a kitty')");
    await one("INSERT INTO b (id, title) VALUES (7, 'the dog')");
    await engine.close();

    unlinkSync(stop);
    unlinkSync(forms);
    engine = await openEngine({ dataDir: data });
    expect(await one("SELECT id FROM b WHERE MATCH('dog')")).toMatchObject({ rows: [[7n]] });
    expect(await one("SELECT id FROM a WHERE MATCH('cat')")).toMatchObject({
      kind: 'error',
      message: `table 'a' is not served: 'stopwords' file missed ${stop} (put the file back and restart, or DROP TABLE it)`,
    });
    expect(await one("SELECT id FROM w WHERE MATCH('cat')")).toMatchObject({
      kind: 'error',
      message: `table 'w' is not served: file not found: '${forms}' (put the file back and restart, or DROP TABLE it)`,
    });
    // a write must not reach the store behind a table that is not served
    expect(await one("INSERT INTO a (id, title) VALUES (2, 'x')")).toMatchObject({ kind: 'error' });
    await engine.close();

    writeFileSync(stop, 'the\n');
    engine = await openEngine({ dataDir: data });
    expect(await one("SELECT id FROM a WHERE MATCH('cat')")).toMatchObject({ rows: [[1n]] });
    expect(await one("SELECT id FROM a WHERE MATCH('the')")).toMatchObject({ rows: [] });
    expect(await one('DROP TABLE w')).toMatchObject({ kind: 'ok' });
    await engine.close();
  }, 30_000);
});
