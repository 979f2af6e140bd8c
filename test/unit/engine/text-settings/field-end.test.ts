// `word$` (a field's end) through SQL where the field's last hits are not simply its last word:
// a final blended token, whose start Manticore's indexer takes as the field end (ProcessCollectedHits:
// the tail run may start at the blended token's position, so its forms and all its parts end the field),
// and exact forms, which the index appends after the text's words at their words' positions.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('field-end');
const ids = async (q: string) => (await t.rows(`select id from t where match('${q}') order by id asc`)).map((r) => Number(r[0]));

async function table(settings: string, docs: string[]): Promise<void> {
  await t.exec(`create table t (title text, body text) ${settings}`);
  const values = docs.map((d, i) => `(${i + 1}, '${d}', 'x')`).join(', ');
  await t.exec(`insert into t (id, title, body) values ${values}`);
}

describe('field end', () => {
  it('a field ending in a blended token ends at its start: its whole form and every part match word$', async () => {
    await table("blend_chars='-'", ['the well-known', 'well-known dog', 'the well known', 'well-known-ish']);
    expect(await ids('well$')).toEqual([1, 4]);
    expect(await ids('known$')).toEqual([1, 3, 4]);
    expect(await ids('well-known$')).toEqual([1]);
    expect(await ids('ish$')).toEqual([4]);
    expect(await ids('@title well$')).toEqual([1, 4]);
    // a plain word after the blended token ends the field alone; nothing before the blended token ends it
    expect(await ids('dog$')).toEqual([2]);
    expect(await ids('the$')).toEqual([]);
    expect(await ids('^well-known')).toEqual([2]);
  });

  it('blend_mode variants end the field with the parts', async () => {
    await table("blend_chars='-, @' blend_mode='trim_none, trim_both'", ['mail @dude-bro@', 'dude-bro']);
    expect(await ids('dude$')).toEqual([1, 2]);
    expect(await ids('bro$')).toEqual([1, 2]);
    expect(await ids('mail$')).toEqual([]);
  });

  it('a stopword after the blended token does not clear it (it adds no hit), a plain word does', async () => {
    const stop = join(t.dir, 'stop.txt');
    writeFileSync(stop, 'the\n');
    await table(`blend_chars='-' stopwords='${stop}'`, ['well-known the', 'well-known a the']);
    expect(await ids('well$')).toEqual([1]);
    expect(await ids('a$')).toEqual([2]);
  });

  it('exact forms appended after the words leave the last word the field end', async () => {
    await table("morphology='stem_en' index_exact_words='1'", ['the dogs', 'dogs run', 'running dogs']);
    expect(await ids('dogs$')).toEqual([1, 3]);
    expect(await ids('=dogs$')).toEqual([1, 3]);
    expect(await ids('run$')).toEqual([2]);
    expect(await ids('=run$')).toEqual([2]);
    expect(await ids('=running$')).toEqual([]);
  });
});
