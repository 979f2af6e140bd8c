/** CALL AUTOCOMPLETE as Manticore's manual (Searching/Autocomplete.md) and Buddy's errors show it. */
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('autocomplete', async (e) => {
  await e.exec(`CREATE TABLE comment(content text) min_infix_len='2'`);
  await e.exec(`INSERT INTO comment(id,content) VALUES (1,'hello'),(2,'helio'),(3,'hell'),(4,'shell'),(5,'nushell'),
    (6,'powershell'),(7,'well'),(8,'help'),(9,'hello world'),(10,'hello wrld')`);
  await e.exec(`CREATE TABLE products(name text) min_infix_len='2'`);
  await e.exec(`INSERT INTO products(id,name) VALUES (1,'iphone')`);
  await e.exec(`CREATE TABLE plain(content text)`);
  await e.exec(`CREATE TABLE long(content text) min_infix_len='2'`);
  await e.exec(`INSERT INTO long(id,content) VALUES (1,'${LONG42}')`);
});

/** A word of searchd's longest token: 42 code points (SPH_MAX_WORD_LEN). */
const LONG42 = 'abcdefghij'.repeat(4) + 'kl';

const error = async (sql: string) => {
  const out = await t.exec(sql);
  return (out[0] as { message?: string }).message;
};
const words = async (sql: string) => (await t.rows(sql)).map((r) => r[0]);

describe('CALL AUTOCOMPLETE', () => {
  it('completes and corrects a word: the manual example, the word itself first', async () => {
    const got = await words(`CALL AUTOCOMPLETE('hello', 'comment')`);
    expect(got[0]).toBe('hello');
    expect([...got].sort()).toEqual(['helio', 'hell', 'hello', 'help', 'nushell', 'powershell', 'shell', 'well']);
  });

  it('0 as fuzziness: completions only', async () => {
    expect(await words(`CALL AUTOCOMPLETE('hello', 'comment', 0 as fuzziness)`)).toEqual(['hello']);
  });

  it('preserve keeps a word without a match beside the corrected phrase', async () => {
    // the manual lists these two; quarry's SUGGEST also offers hell/helio for 'hello' (2 edits allowed), ranked after them
    const got = await words(`CALL AUTOCOMPLETE('hello wrld', 'comment', 1 as preserve)`);
    expect(got.slice(0, 2)).toEqual(['hello wrld', 'hello world']);
    // without preserve a word with no document and no correction leaves the phrase
    expect(await words(`CALL AUTOCOMPLETE('iphone qqqqqq', 'products', 1 as preserve, '' as layouts)`)).toEqual(['iphone qqqqqq']);
    expect(await words(`CALL AUTOCOMPLETE('iphone qqqqqq', 'products')`)).toEqual([]);
  });

  it('force_bigrams finds a transposition', async () => {
    expect(await words(`CALL AUTOCOMPLETE('ipohne', 'products', 1 as force_bigrams)`)).toEqual(['iphone']);
  });

  it('a prefix completes with append', async () => {
    const got = await words(`CALL AUTOCOMPLETE('pow', 'comment', 0 as fuzziness, 0 as prepend)`);
    expect(got).toEqual(['powershell']);
  });

  it('a word typed in another layout', async () => {
    await t.exec(`CREATE TABLE ru(content text) min_infix_len='2'`);
    await t.exec(`INSERT INTO ru VALUES (1,'привет')`);
    expect(await words(`CALL AUTOCOMPLETE('ghbdtn', 'ru', 'us,ru' as layouts)`)).toContain('привет');
  });

  it('a suggestion reached through the stars of *word* (test-fuzzy-search-sharded-table.rec)', async () => {
    await t.exec(`CREATE TABLE tbl_fz(username text) min_infix_len='2' expand_keywords='1'`);
    await t.exec(`INSERT INTO tbl_fz (id, username) VALUES (1,'RICHARD'),(2,'RICARDO'),(3,'MARIA'),(4,'MARINA'),(5,'JOHN')`);
    expect(await words(`CALL AUTOCOMPLETE('RICH', 'tbl_fz', 1 AS fuzziness)`)).toEqual(['richard', 'ricardo']);
    // CALL SUGGEST keeps a wildcard word's stars: '*rich*' is 6 code points, 'richard' 4 edits from it
    expect(await t.rows(`CALL SUGGEST('*rich*', 'tbl_fz')`)).toEqual([['richard', '4', '1']]);
  });

  it("Buddy's errors: infixes, layouts, arguments, options, tables", async () => {
    expect(await error(`CALL AUTOCOMPLETE('jo', 'plain', 'us,ru' AS layouts)`)).toBe('Autocomplete requires min_infix_len to be set');
    expect(await error(`CALL AUTOCOMPLETE('jo', 'plain', 'us' AS layouts)`)).toBe('At least two languages are required in layouts');
    expect(await error(`CALL AUTOCOMPLETE('jo', 'plain', 123 AS layouts)`)).toBe('At least two languages are required in layouts');
    expect(await error(`CALL AUTOCOMPLETE(123, 'plain')`)).toBe('Failed to parse query');
    expect(await error(`CALL AUTOCOMPLETE('jo', 'nope')`)).toBe("no such table 'nope'");
    expect(await error(`CALL AUTOCOMPLETE('jo', 'comment', 1 as foo_bar)`)).toBe("Unknown option 'fooBar'");
    expect(await error(`CALL AUTOCOMPLETE('jo', 'comment', 3 as fuzziness)`)).toBe('Fuzziness must be greater than 0 and lower than 3');
    expect(await error(`CALL AUTOCOMPLETE('jo', 'comment', 21 as expansion_len)`)).toBe('Expansion limit must be greater than 0 and lower than 20');
  });

  it("a word past 42 code points is its first 42, as searchd's tokenizer keeps them (a 140,000-character word cost seconds)", async () => {
    expect(await words(`CALL AUTOCOMPLETE('${LONG42}zz', 'long', 0 as fuzziness)`)).toEqual([LONG42]);
    expect(await words(`CALL AUTOCOMPLETE('${LONG42}${'z'.repeat(140_000)}', 'long', '' as layouts)`)).toEqual([LONG42]);
  });

  it('a run of words joined by punctuation past 42 code points keeps its later words whole', async () => {
    // 'x,' x 30 is 60 characters without a space: cut as one word, 'hello' after it was lost
    expect(await words(`CALL AUTOCOMPLETE('${'x,'.repeat(30)}hello', 'comment', 0 as fuzziness)`)).toContain('hello');
  });
});
