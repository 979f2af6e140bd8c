import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newSession, openEngine } from '../../../src/engine/index.js';

// A table's stopwords, wordforms and exceptions stay files outside the data directory (quarry does not
// copy them in as Manticore's CREATE TABLE does). When one is deleted later, the next start used to
// fail as a whole ("'stopwords' file missed /x/stop.txt", no table named): the server, `quarry import`
// and open() refused every table of the data directory over one table's file.
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
    let engine = await openEngine({ dataDir: data });
    const one = async (q: string) => (await engine.execute(q, s))[0];
    expect(await one(`CREATE TABLE a (title text) stopwords='${stop}'`)).toMatchObject({ kind: 'ok' });
    expect(await one(`CREATE TABLE w (title text) wordforms='${forms}'`)).toMatchObject({ kind: 'ok' });
    await one('CREATE TABLE b (title text)');
    await one("INSERT INTO a (id, title) VALUES (1, 'the cat')");
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
