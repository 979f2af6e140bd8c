// CALL SNIPPETS on a blend_chars table: test_168's recorded highlights of whole blended words (Manticore's own run).
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('blend-snippets');
const IDX2 = "morphology='stem_en' charset_table='0..9, a..z, A..Z->a..z' blend_chars='U+0028, U+0029, U+002f, U+002b' "
  + "blend_mode='trim_none, trim_head, trim_tail, trim_both, skip_pure'";

async function snippet(doc: string, query: string, opts: string): Promise<unknown> {
  const rows = await t.rows(`CALL SNIPPETS ('${doc}', 'idx2', '${query}', ${opts})`);
  return rows[0]?.[0];
}

describe('snippets vs blended words (test_168)', () => {
  it('highlights a blended word typed whole, and not a word that is only its prefix', async () => {
    await t.exec(`create table idx2 (title text) ${IDX2}`);
    const o = '1 as query_mode, 0 as around, 0 as limit';
    expect(await snippet('abc +hashtag abc', '+hashtag', o)).toBe('abc <b>+hashtag</b> abc');
    expect(await snippet('abc +hashtag +hashtag abc', '+hashtag', o)).toBe('abc <b>+hashtag +hashtag</b> abc');
    expect(await snippet('abc +hashtag+bag abc', '+hashtag', o)).toBe('abc +hashtag+bag abc');
    expect(await snippet('abc +hashtag+bag abc', '+hashtag+bag', o)).toBe('abc <b>+hashtag+bag</b> abc');
    expect(await snippet('What are you need here+ (exactly)?', '\\\\(exactly\\\\)', o)).toBe('What are you need here+ <b>(exactly)</b>?');
  });

  it('highlights a blended word inside passages', async () => {
    await t.exec(`create table idx2 (title text) ${IDX2}`);
    expect(await snippet('hashtag+bag abc for me is not so long but who knows', 'hashtag+bag', '1 as query_mode, 40 as limit'))
      .toBe('<b>hashtag+bag</b> abc for me is not  ... ');
    expect(await snippet('+hashtag for me is not so long but who knows', '+hashtag', '1 as query_mode, 40 as limit'))
      .toBe('<b>+hashtag</b> for me is not so  ... ');
  });
});

describe('snippets vs blended parts (test_168)', () => {
  const doc = 'What are you need here (exactly)? are dude friendly? As I know this dude/buddy.';
  it('marks a blended word typed whole', async () => {
    await t.exec(`create table idx2 (title text) ${IDX2}`);
    expect(await snippet(doc, '\\\\(exactly\\\\) dude\\\\/buddy', '2 as around'))
      .toBe('What are you need here <b>(exactly)</b>? are dude friendly? As I know this <b>dude/buddy</b>.');
  });

  it('marks the part of a blended word a query keyword names', async () => {
    await t.exec(`create table idx2 (title text) ${IDX2}`);
    const want = 'What are you need here <b>(exactly)</b>? are dude friendly? As I know this dude/<b>buddy</b>.';
    expect(await snippet(doc, '\\\\(exactly\\\\) buddy', '2 as around')).toBe(want);
    expect(await snippet(doc, '\\\\(exactly\\\\) | buddy', '1 as query_mode, 2 as around')).toBe(want);
  });

  it('marks a blended form inside passages', async () => {
    await t.exec("create table idx (title text) blend_chars='.'");
    const rows = await t.rows("CALL SNIPPETS ('and here we go 2524460. 989561 as you said', 'idx', '2524460.', 1 as query_mode, 4 as limit_words, 2 as around)");
    expect(rows[0]?.[0]).toBe(' ...  we go <b>2524460.</b> 989561 ... ');
  });

  it('HIGHLIGHT() marks the part a query names', async () => {
    await t.exec(`create table idx2 (title text) ${IDX2}`);
    await t.exec(`insert into idx2 (id, title) values (1, '${doc}')`);
    const rows = await t.rows("select highlight() from idx2 where match('buddy')");
    expect(rows[0]?.[0]).toBe('What are you need here (exactly)? are dude friendly? As I know this dude/<b>buddy</b>.');
  });
});
