// CALL SUGGEST / CALL QSUGGEST (Manticore's manual, "Spell correction"): dictionary words within
// max_edits edits and under delta_len characters of length difference, closest first then most docs.
// Before, both answered 'no such built-in procedure'.
import { describe, expect, it } from 'vitest';
import { editDistance } from '../../../../src/util/edit-distance.js';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('call-suggest', async (t) => {
  await t.exec("create table s (title text) min_infix_len='2'");
  await t.exec("insert into s (id, title) values (1, 'crossbody bag'), (2, 'crossbow bags'), (3, 'bag'), (4, 'baggage')");
  await t.exec('flush ramchunk s');
  await t.exec("insert into s (id, title) values (5, 'bags bag')");
  await t.exec("create table plain (title text)");
});
const err = async (sql: string) => JSON.stringify(await t.exec(sql));

describe('CALL SUGGEST / QSUGGEST', () => {
  it('Levenshtein distance with an early stop', () => {
    expect(editDistance([...'kitten'], [...'sitting'], 4)).toBe(3);
    expect(editDistance([...'a'], [...'abcdef'], 2)).toBe(3);
  });
  it('closest first, then most documents (summed over segments); SUGGEST takes the first word, QSUGGEST the last', async () => {
    expect(await t.rows("call suggest('bagz', 's')")).toEqual([['bag', '1', '3'], ['bags', '1', '2']]);
    expect(await t.rows("call qsuggest('crossbow bagz', 's', 1 as limit)")).toEqual([['bag', '1', '3']]);
    expect(await t.rows("call suggest('crosbody', 's', 0 as result_stats)")).toEqual([['crossbody'], ['crossbow']]);
    expect(await t.rows("call suggest('bag', 's', 1 as max_edits, 5 as delta_len)")).toEqual([['bag', '0', '3'], ['bags', '1', '2']]);
  });
  it('a table without infixes, an unknown option and an unknown table are errors', async () => {
    expect(await err("call suggest('bag', 'plain')")).toContain('infix enabled');
    expect(await err("call suggest('bag', 's', 1 as nosuch)")).toContain('unknown option nosuch');
    expect(await err("call qsuggest('bag', 'nosuch')")).toContain("no such table 'nosuch'");
    expect(await err("call qsuggest('bag', 's', 'x' as limit)")).toContain("CALL QSUGGEST: option 'limit' expects an integer");
  });
});

describe('CALL SUGGEST limits', () => {
  it('the same first rows whatever the limit (a short page or a sort of all)', async () => {
    const all = await t.rows("call suggest('bagz', 's', 100 as limit, 4 as max_edits, 9 as delta_len)");
    expect(all.map((r) => r[0])).toEqual(['bag', 'bags', 'baggage']);
    for (const k of [1, 2, 3]) expect(await t.rows(`call suggest('bagz', 's', ${k} as limit, 4 as max_edits, 9 as delta_len)`)).toEqual(all.slice(0, k));
    expect(await t.rows("call suggest('bagz', 's', 0 as limit)")).toEqual([]);
  });
});

// searchd's candidate search (sphinx.cpp SuggestMatchWords, CLT core/call-suggest-force-bigrams):
// a dictionary word must share an n-gram with the word (trigrams from 6 code points, bigrams below or
// with force_bigrams) and hold letters only unless non_char. Before, force_bigrams was an unknown
// option, non_char an unsupported one, and every word within max_edits was suggested.
const g = useTempEngine('call-suggest-grams', async (t) => {
  await t.exec("create table w (title text) min_infix_len='2'");
  await t.exec("insert into w (id, title) values (1, 'market harbor window'), (2, 'market5 garden')");
});

describe('CALL SUGGEST n-gram candidates', () => {
  it('no trigram in common: nothing, unless force_bigrams', async () => {
    expect(await g.rows("call suggest('mkraet', 'w')")).toEqual([]);
    expect(await g.rows("call suggest('mkraet', 'w', 0 as force_bigrams)")).toEqual([]);
    expect(await g.rows("call suggest('mkraet', 'w', 1 as force_bigrams)")).toEqual([['market', '2', '1']]);
  });
  it('a word with a digit only with non_char; a one-letter word has no n-grams', async () => {
    expect(await g.rows("call suggest('markte', 'w')")).toEqual([['market', '2', '1']]);
    expect(await g.rows("call suggest('markte', 'w', 1 as non_char)")).toEqual([['market', '2', '1'], ['market5', '2', '1']]);
    expect(await g.rows("call suggest('m', 'w', 9 as delta_len)")).toEqual([]);
  });
});
