/**
 * Built-in stopword lists over the real server: `stopwords = 'en'` (and other codes, several at once,
 * mixed with files) resolves to share/stopwords/<code> as searchd's share directory, in CREATE TABLE
 * and in a config file's table; an unknown code is searchd's `'stopwords' file missed <name>`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startServer, type ServerProcess } from '../../helpers/server-process.js';

type Raw = Array<{ data?: Array<Record<string, unknown>>; error?: string; total?: number }>;

let dir: string;
let srv: ServerProcess;
const own = (): string => join(dir, 'own-stop.txt');
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-builtin-stop-'));
  writeFileSync(own(), 'zebra\n');
  writeFileSync(join(dir, 'q.conf'), `searchd {\n  data_dir = ${join(dir, 'data')}\n}\ntable conf {\n  type = rt\n  path = ${join(dir, 'conf')}\n  rt_field = title\n  stopwords = en ru\n}\n`);
  srv = await startServer(join(dir, 'data'), {}, ['--config', join(dir, 'q.conf')]);
});
afterAll(async () => {
  await srv?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function sql(q: string): Promise<Raw[number]> {
  const r = (await srv.sql(q)) as Raw | Raw[number];
  return Array.isArray(r) ? r[0]! : r; // an error is one object, not an array
}
async function ids(table: string, query: string): Promise<number[]> {
  const r = await sql(`SELECT id FROM ${table} WHERE MATCH('${query}') ORDER BY id ASC`);
  expect(r.error ?? '').toBe('');
  return (r.data ?? []).map((row) => Number(row.id));
}

describe('built-in stopword lists', () => {
  it('ships Manticore\'s 50 codes, each with words, and the licences beside them', () => {
    const codes = readdirSync(join(ROOT, 'share/stopwords')).sort();
    expect(codes).toHaveLength(50);
    expect(codes).toEqual(expect.arrayContaining(['en', 'de', 'ru', 'cz', 'ckb', 'zh', 'ja', 'lt']));
    for (const c of codes) expect(readFileSync(join(ROOT, 'share/stopwords', c), 'utf8').trim().length).toBeGreaterThan(0);
    expect(readdirSync(join(ROOT, 'share/licenses')).length).toBe(3);
  });

  it("drops the words of stopwords='en' at index and query time, keeping their positions", async () => {
    expect((await sql("CREATE TABLE en1 (title text) stopwords='en'")).error).toBe('');
    await sql("INSERT INTO en1 (id, title) VALUES (1, 'the quick fox'), (2, 'quick brown fox'), (3, 'they would run')");
    // `the`, `they`, `would` are in the English list: a query of stopwords only matches nothing
    expect(await ids('en1', 'the')).toEqual([]);
    expect(await ids('en1', 'would')).toEqual([]);
    expect(await ids('en1', 'quick fox')).toEqual([1, 2]);
    expect(await ids('en1', 'run')).toEqual([3]);
    // the stopword keeps its position: "the quick" is quick one position after a stopword
    expect(await ids('en1', '"quick fox"')).toEqual([1]);
    const kw = await sql("CALL KEYWORDS('the quick', 'en1')");
    expect((kw.data ?? []).map((r) => r.normalized)).toEqual(['quick']);
  });

  it('takes several codes at once, mixed with a file, comma- or space-separated', async () => {
    const r = await sql(`CREATE TABLE mix (title text) stopwords='en, de ${own()}'`);
    expect(r.error).toBe('');
    await sql("INSERT INTO mix (id, title) VALUES (1, 'und the zebra'), (2, 'apfel')");
    expect(await ids('mix', 'und')).toEqual([]);
    expect(await ids('mix', 'zebra')).toEqual([]);
    expect(await ids('mix', 'apfel')).toEqual([2]);
    // a path whose file does not exist resolves by its last component, as searchd's StripPath
    expect((await sql("CREATE TABLE stripped (title text) stopwords='/no/such/dir/fr'")).error).toBe('');
    await sql("INSERT INTO stripped (id, title) VALUES (1, 'avec le chat')");
    expect(await ids('stripped', 'avec')).toEqual([]);
    expect(await ids('stripped', 'chat')).toEqual([1]);
  });

  it("answers an unknown code with searchd's error and creates nothing", async () => {
    expect((await sql("CREATE TABLE bad (title text) stopwords='en, xx'")).error).toBe("'stopwords' file missed xx");
    expect((await sql("CREATE TABLE bad (title text) stopwords='/no/such/dir/qq'")).error).toBe("'stopwords' file missed /no/such/dir/qq");
    expect((await sql('SELECT * FROM bad')).error).toMatch(/unknown local table/);
  });

  it('shows the bundled lists copied into the table: words inline in SHOW CREATE TABLE, the copies in SHOW TABLE SETTINGS', async () => {
    // searchd 29 copies a bundled list as it copies a file (indexsettings.cpp reads it from the share
    // folder, CopyExternalFiles); SHOW CREATE TABLE prints a copied file's words inline
    const create = String((await sql('SHOW CREATE TABLE en1')).data![0]!['Create Table']);
    expect(create).toMatch(/\) stopwords_list='i; me; my; myself; we; /);
    expect(create).not.toContain("stopwords='en'");
    const settings = await sql('SHOW TABLE mix SETTINGS');
    // the copies' paths, one a list or file given, as searchd shows a table's copied files
    const copies = [0, 1, 2].map((i) => join(dir, 'data', 'files', 'mix', `stopwords_chunk0_${i}.txt`));
    expect(settings.data).toEqual([{ Variable_name: 'settings', Value: `stopwords = ${copies.join(' ')}` }]);
  });

  it('resolves codes in a config file table (`stopwords = en ru`)', async () => {
    await sql("INSERT INTO conf (id, title) VALUES (1, 'the cat'), (2, 'и кот')");
    expect(await ids('conf', 'the')).toEqual([]);
    expect(await ids('conf', 'и')).toEqual([]);
    expect(await ids('conf', 'cat')).toEqual([1]);
    expect(await ids('conf', 'кот')).toEqual([2]);
  });
});
