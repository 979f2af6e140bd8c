/** SELECT ... OPTION fuzzy=1 and /search options.fuzzy, as Manticore's manual (Spell_correction.md) and Buddy's errors show them. */
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';
import { parse } from 'lossless-json';
import { newSession, type JsonValue } from '../../../../src/engine/index.js';

const t = useTempEngine('fuzzy', async (e) => {
  await e.exec(`CREATE TABLE mytable(content text) min_infix_len='2'`);
  await e.exec(`INSERT INTO mytable VALUES (1,'something'),(2,'some thing'),(3,'hello world'),(4,'hello wrld'),(5,'привет мир')`);
  await e.exec(`CREATE TABLE t(f text) min_infix_len='2'`);
  await e.exec(`INSERT INTO t VALUES (1,'30W'),(2,'hello world')`);
  await e.exec(`CREATE TABLE plain(content text)`);
});

const ids = async (sql: string) => (await t.rows(sql)).map((r) => Number(r[0]));
const error = async (sql: string) => ((await t.exec(sql))[0] as { message?: string }).message;

describe('OPTION fuzzy', () => {
  it('finds a misspelt word; without fuzzy nothing', async () => {
    expect(await ids(`SELECT id FROM mytable WHERE MATCH('someting') ORDER BY id ASC`)).toEqual([]);
    expect(await ids(`SELECT id FROM mytable WHERE MATCH('someting') ORDER BY id ASC OPTION fuzzy=1`)).toEqual([1]);
    expect(await ids(`SELECT id FROM mytable WHERE MATCH('someting') ORDER BY id ASC OPTION fuzzy=0`)).toEqual([]);
  });

  it('distance bounds the edits', async () => {
    expect(await ids(`SELECT id FROM mytable WHERE MATCH('smethinng') ORDER BY id ASC OPTION fuzzy=1, distance=1`)).toEqual([]);
    expect(await ids(`SELECT id FROM mytable WHERE MATCH('smethinng') ORDER BY id ASC OPTION fuzzy=1, distance=2`)).toEqual([1]);
  });

  it('preserve keeps a word nothing stands for', async () => {
    // 'zzzzz' has no document nor correction: left out, the query is 'hello' alone; kept, it matches nothing
    expect(await ids(`SELECT id FROM mytable WHERE MATCH('helo zzzzz') ORDER BY id ASC OPTION fuzzy=1`)).toEqual([3, 4]);
    expect(await ids(`SELECT id FROM mytable WHERE MATCH('helo zzzzz') ORDER BY id ASC OPTION fuzzy=1, preserve=1`)).toEqual([]);
    expect(await ids(`SELECT id FROM mytable WHERE MATCH('hello wrld') ORDER BY id ASC OPTION fuzzy=1, preserve=1`)).toEqual([3, 4]);
  });

  it('a word typed in the wrong layout', async () => {
    expect(await ids(`SELECT id FROM mytable WHERE MATCH('ghbdtn') OPTION fuzzy=1, layouts='us,ru'`)).toEqual([5]);
  });

  it('a single letter glued to the word before it (Buddy #569)', async () => {
    expect(await ids(`SELECT id FROM t WHERE MATCH('30 W') OPTION fuzzy=1`)).toEqual([1]);
    expect(await ids(`SELECT id FROM t WHERE MATCH('hello world') OPTION fuzzy=1`)).toEqual([2]);
  });

  it('a word the dictionary has is not glued to the next (fuzzy-preserve-distance-exact-words.rec)', async () => {
    await t.exec(`CREATE TABLE fuzz (id bigint, title text) dict='keywords' min_infix_len='3' index_exact_words='1' expand_keywords='1'`);
    await t.exec(`INSERT INTO fuzz (id, title) VALUES (1, 'how to survive'), (2, 'owto'), (3, 'hosto'), (4, 'howo')`);
    expect(await ids(`SELECT id FROM fuzz WHERE MATCH('how to survive') OPTION fuzzy=1, distance=2, preserve=1`)).toEqual([1]);
  });

  it('force_bigrams finds a transposition (core/call-autocomplete-force-bigrams.rec)', async () => {
    await t.exec(`INSERT INTO t VALUES (3,'iphone george planet letter')`);
    expect(await ids(`SELECT id FROM t WHERE MATCH('ipohne') OPTION fuzzy=1, force_bigrams=1`)).toEqual([3]);
    expect(await ids(`SELECT id FROM t WHERE MATCH('ipohne') OPTION fuzzy=1, force_bigrams=0`)).toEqual([]);
  });

  it('a text of no words matches nothing rather than failing as query syntax (test-fuzzy-search.rec)', async () => {
    expect(await ids(`SELECT id FROM mytable WHERE MATCH('$#@!') OPTION fuzzy=1`)).toEqual([]);
  });

  it("Buddy's errors", async () => {
    expect(await error(`SELECT * FROM plain WHERE MATCH('x') OPTION fuzzy=1`)).toBe('Fuzzy search requires min_infix_len to be set');
    expect(await error(`SELECT * FROM mytable WHERE MATCH('x') OPTION fuzzy='1'`)).toBe("Invalid value for option 'fuzzy'");
    expect(await error(`SELECT * FROM mytable WHERE MATCH('x') OPTION fuzzy=a`)).toBe("Invalid value for option 'fuzzy'");
    expect(await error(`SELECT * FROM mytable OPTION fuzzy=1`)).toMatch(/^The 'fuzzy' option requires a full-text query/);
    expect(await error(`SELECT * FROM mytable WHERE MATCH('x') OPTION fuzzy=1, layouts='us'`)).toBe('At least two languages are required in layouts');
    expect(await error(`SELECT * FROM mytable WHERE MATCH('x') OPTION distance=1`)).toBe("unknown option 'distance'");
  });

  it('/search options.fuzzy rewrites match and query_string', async () => {
    const search = async (body: string) => {
      const r = await t.engine.json!.search(parse(body) as JsonValue, newSession());
      return r.rows.map((row) => Number(row[0])).sort((a, b) => a - b);
    };
    expect(await search(`{"table":"mytable","query":{"match":{"*":"someting"}}}`)).toEqual([]);
    expect(await search(`{"table":"mytable","query":{"match":{"*":"someting"}},"options":{"fuzzy":true}}`)).toEqual([1]);
    expect(await search(`{"table":"mytable","query":{"bool":{"must":[{"match":{"*":"ghbdtn"}}]}},"options":{"fuzzy":true,"layouts":["us","ru"],"distance":2}}`)).toEqual([5]);
    expect(await search(`{"table":"mytable","query":{"query_string":"someting"},"options":{"fuzzy":1}}`)).toEqual([1]);
    await expect(search(`{"table":"mytable","query":{"match":{"*":"x"}},"options":{"fuzzy":true,"layouts":{"us":1}}}`))
      .rejects.toThrow(/options.layouts: an array of layout names/);
  });
});
