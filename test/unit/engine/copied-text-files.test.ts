// CREATE TABLE and ALTER TABLE copy the stopwords, wordforms and exceptions files a table names into the
// table, as searchd's CopyExternalFiles does for RT tables (`<key>_chunk<N>_<i>.txt` in the table's
// folder; test/clt-tests/core/test-external-files-handling.rec): the table keeps its lists when the
// originals are deleted, and a backup restored into another directory carries them.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newSession, openEngine, type ConfigTable, type Engine, type Result } from '../../../src/engine/index.js';
import { restoreBackup } from '../../../src/engine/backup/backup.js';

let dir: string;
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'quarry-copied-files-')); });
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function one(engine: Engine, q: string): Promise<Result> {
  return (await engine.execute(q, newSession()))[0]!;
}

/** The originals: a stopword, a wordform, an exception, each in its own file under the test folder. */
function originals(): { stop: string; forms: string; exc: string } {
  const stop = join(dir, 'stop.txt');
  const forms = join(dir, 'forms.txt');
  const exc = join(dir, 'exc.txt');
  writeFileSync(stop, 'the\n');
  writeFileSync(forms, 'kitty > cat\n');
  writeFileSync(exc, 'c++ => cplusplus\n');
  return { stop, forms, exc };
}

describe('stopwords/wordforms/exceptions files copied into the table', () => {
  it('keeps serving with the originals deleted, across a restart; SHOW CREATE TABLE names the copies', async () => {
    const data = join(dir, 'data');
    const { stop, forms, exc } = originals();
    let engine = await openEngine({ dataDir: data });
    expect(await one(engine, `CREATE TABLE a (title text) stopwords='${stop}' wordforms='${forms}' exceptions='${exc}'`)).toMatchObject({ kind: 'ok' });
    await one(engine, "INSERT INTO a (id, title) VALUES (1, 'the kitty likes c++')");
    const copies = join(data, 'files', 'a');
    // searchd's default output_words='list' prints what the files hold; 'file' the copies' paths
    expect(await one(engine, 'SHOW CREATE TABLE a')).toMatchObject({
      rows: [['a', "CREATE TABLE a (\nid bigint,\ntitle text\n) exceptions_list='c++ => cplusplus' stopwords_list='the' wordforms_list='kitty > cat'"]],
    });
    expect(await one(engine, "SHOW CREATE TABLE a OPTION output_words='file'")).toMatchObject({
      rows: [['a', `CREATE TABLE a (\nid bigint,\ntitle text\n) exceptions='${copies}/exceptions_chunk0_0.txt' stopwords='${copies}/stopwords_chunk0_0.txt' wordforms='${copies}/wordforms_chunk0_0.txt'`]],
    });
    await engine.close();

    unlinkSync(stop);
    unlinkSync(forms);
    unlinkSync(exc);
    engine = await openEngine({ dataDir: data });
    expect(await one(engine, "SELECT id FROM a WHERE MATCH('cat')")).toMatchObject({ rows: [[1n]] });
    expect(await one(engine, "SELECT id FROM a WHERE MATCH('cplusplus')")).toMatchObject({ rows: [[1n]] });
    // a new row goes through the copied lists too
    await one(engine, "INSERT INTO a (id, title) VALUES (2, 'the kitty')");
    expect(await one(engine, "SELECT id FROM a WHERE MATCH('the')")).toMatchObject({ rows: [] });
    expect(await one(engine, "SELECT id FROM a WHERE MATCH('cat') ORDER BY id ASC")).toMatchObject({ rows: [[1n], [2n]] });
    expect(await one(engine, 'DROP TABLE a')).toMatchObject({ kind: 'ok' });
    expect(existsSync(copies)).toBe(false);
    await engine.close();
  }, 30_000);

  it('copies the bundled list a name stands for, one copy a name, as searchd does', async () => {
    const data = join(dir, 'data');
    const { stop } = originals();
    const engine = await openEngine({ dataDir: data });
    try {
      expect(await one(engine, `CREATE TABLE a (title text) stopwords='en, ${stop}'`)).toMatchObject({ kind: 'ok' });
      expect(readdirSync(join(data, 'files', 'a')).sort()).toEqual(['stopwords_chunk0_0.txt', 'stopwords_chunk0_1.txt']);
      await one(engine, "INSERT INTO a (id, title) VALUES (1, 'about the cat')");
      expect(await one(engine, "SELECT id FROM a WHERE MATCH('about')")).toMatchObject({ rows: [] });
    } finally {
      await engine.close();
    }
  }, 30_000);

  it('ALTER TABLE copies the new file (the next chunk number) and drops the replaced copy', async () => {
    const data = join(dir, 'data');
    const { stop } = originals();
    const other = join(dir, 'other.txt');
    writeFileSync(other, 'dog\n');
    let engine = await openEngine({ dataDir: data });
    await one(engine, `CREATE TABLE a (title text) stopwords='${stop}'`);
    expect(await one(engine, `ALTER TABLE a stopwords='${other}'`)).toMatchObject({ kind: 'ok' });
    const copies = join(data, 'files', 'a');
    expect(await one(engine, 'SHOW TABLE a SETTINGS')).toMatchObject({ rows: [['settings', `stopwords = ${copies}/stopwords_chunk1_0.txt`]] });
    await engine.close();
    unlinkSync(other);
    engine = await openEngine({ dataDir: data });
    await one(engine, "INSERT INTO a (id, title) VALUES (1, 'the dog')");
    expect(await one(engine, "SELECT id FROM a WHERE MATCH('dog')")).toMatchObject({ rows: [] });
    expect(await one(engine, "SELECT id FROM a WHERE MATCH('the')")).toMatchObject({ rows: [[1n]] });
    expect(readdirSync(copies)).toEqual(['stopwords_chunk1_0.txt']);
    await engine.close();
  }, 30_000);

  it('a backup restored into another directory carries the copies; the settings name them there', async () => {
    const data = join(dir, 'data');
    const { stop, forms } = originals();
    let engine = await openEngine({ dataDir: data });
    await one(engine, `CREATE TABLE a (title text) stopwords='${stop}' wordforms='${forms}'`);
    await one(engine, "INSERT INTO a (id, title) VALUES (1, 'the kitty')");
    const backups = join(dir, 'backups');
    mkdirSync(backups);
    expect(await one(engine, `BACKUP TO '${backups}'`)).toMatchObject({ kind: 'rows' });
    await engine.close();
    // the originals and the whole first data directory are gone
    rmSync(data, { recursive: true });
    unlinkSync(stop);
    unlinkSync(forms);
    const [copy] = readdirSync(backups);
    const moved = join(dir, 'elsewhere');
    await restoreBackup(join(backups, copy!), moved);
    engine = await openEngine({ dataDir: moved });
    try {
      expect(await one(engine, "SELECT id FROM a WHERE MATCH('cat')")).toMatchObject({ rows: [[1n]] });
      await one(engine, "INSERT INTO a (id, title) VALUES (2, 'the kitty')");
      expect(await one(engine, "SELECT id FROM a WHERE MATCH('cat') ORDER BY id ASC")).toMatchObject({ rows: [[1n], [2n]] });
      expect(await one(engine, 'SHOW TABLE a SETTINGS')).toMatchObject({
        rows: [['settings', `stopwords = ${moved}/files/a/stopwords_chunk0_0.txt\nwordforms = ${moved}/files/a/wordforms_chunk0_0.txt`]],
      });
    } finally {
      await engine.close();
    }
  }, 30_000);

  it('ALTER TABLE RENAME moves the copies with the table', async () => {
    const data = join(dir, 'data');
    const { stop } = originals();
    let engine = await openEngine({ dataDir: data });
    await one(engine, `CREATE TABLE a (title text) stopwords='${stop}'`);
    await one(engine, "INSERT INTO a (id, title) VALUES (1, 'the cat')");
    expect(await one(engine, 'ALTER TABLE a RENAME b')).toMatchObject({ kind: 'ok' });
    expect(existsSync(join(data, 'files', 'a'))).toBe(false);
    expect(await one(engine, 'SHOW TABLE b SETTINGS')).toMatchObject({ rows: [['settings', `stopwords = ${data}/files/b/stopwords_chunk0_0.txt`]] });
    await engine.close();
    unlinkSync(stop);
    engine = await openEngine({ dataDir: data });
    await one(engine, "INSERT INTO b (id, title) VALUES (2, 'the cat')");
    expect(await one(engine, "SELECT id FROM b WHERE MATCH('the')")).toMatchObject({ rows: [] });
    expect(await one(engine, "SELECT id FROM b WHERE MATCH('cat') ORDER BY id ASC")).toMatchObject({ rows: [[1n], [2n]] });
    await engine.close();
  }, 30_000);

  it('CREATE TABLE LIKE takes its own copies (chunk 0): the source dropped, the new table keeps its lists', async () => {
    const data = join(dir, 'data');
    const { stop } = originals();
    let engine = await openEngine({ dataDir: data });
    await one(engine, `CREATE TABLE a (title text) stopwords='${stop}'`);
    expect(await one(engine, 'CREATE TABLE b LIKE a')).toMatchObject({ kind: 'ok' });
    expect(readdirSync(join(data, 'files', 'b'))).toEqual(['stopwords_chunk0_0.txt']);
    await one(engine, 'DROP TABLE a');
    await engine.close();
    unlinkSync(stop);
    engine = await openEngine({ dataDir: data });
    await one(engine, "INSERT INTO b (id, title) VALUES (1, 'the cat')");
    expect(await one(engine, "SELECT id FROM b WHERE MATCH('the')")).toMatchObject({ rows: [] });
    expect(await one(engine, "SELECT id FROM b WHERE MATCH('cat')")).toMatchObject({ rows: [[1n]] });
    await engine.close();
  }, 30_000);

  it('a table declared in the config file reads its files where the config says (searchd copies only for CREATE TABLE)', async () => {
    const data = join(dir, 'data');
    const { stop } = originals();
    const configured: ConfigTable = {
      schema: { name: 'c', settings: { stopwords: stop }, columns: [{ name: 'title', type: 'text', indexed: true, stored: true }] },
    };
    const engine = await openEngine({ dataDir: data, configTables: new Map([['c', configured]]) });
    try {
      expect(await one(engine, "SHOW CREATE TABLE c OPTION output_words='file'")).toMatchObject({ rows: [['c', `CREATE TABLE c (\nid bigint,\ntitle text\n) stopwords='${stop}'`]] });
      expect(existsSync(join(data, 'files', 'c'))).toBe(false);
    } finally {
      await engine.close();
    }
  }, 30_000);
});
