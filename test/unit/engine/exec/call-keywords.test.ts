// CALL KEYWORDS' options (Manticore's manual, "CALL KEYWORDS"): stats adds docs and hits, a wildcard
// keyword expands over the dictionary, sort_mode orders by docs or hits; an unknown option is an error.
// Before, every option was ignored (no docs/hits columns) and 'c*' came back as the keyword 'c'.
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('call-keywords', async (t) => {
  await t.exec("create table t (title text) min_infix_len='2'");
  await t.exec("insert into t (id, title) values (1, 'my cat is a carnivorous mammal'), (2, 'my dog and my cat'), (3, 'catus')");
  await t.exec('flush ramchunk t'); // a second segment: counts are summed over both
  await t.exec("insert into t (id, title) values (4, 'cat cat')");
});
const err = async (sql: string) => JSON.stringify(await t.exec(sql));

describe('CALL KEYWORDS', () => {
  it('1 AS stats (and the legacy third argument) adds docs and hits', async () => {
    const want = [['1', 'my', 'my', '2', '3'], ['2', 'cat', 'cat', '3', '4']];
    expect(await t.rows("call keywords('my cat', 't', 1 as stats)")).toEqual(want);
    expect(await t.rows("call keywords('my cat', 't', 1)")).toEqual(want);
    expect(await t.rows("call keywords('my cat', 't', 0 as stats)")).toEqual([['1', 'my', 'my'], ['2', 'cat', 'cat']]);
  });
  it('a wildcard expands over the dictionary; sort_mode and fold_wildcards', async () => {
    expect(await t.rows("call keywords('ca*', 't')")).toEqual([['1', 'ca*', 'carnivorous'], ['1', 'ca*', 'cat'], ['1', 'ca*', 'catus']]);
    expect(await t.rows("call keywords('ca*', 't', 1 as stats, 'hits' as sort_mode)")).toEqual([
      ['1', 'ca*', 'cat', '3', '4'], ['1', 'ca*', 'carnivorous', '1', '1'], ['1', 'ca*', 'catus', '1', '1'],
    ]);
    expect(await t.rows("call keywords('my ca*', 't', 1 as stats, 1 as fold_wildcards)")).toEqual([
      ['1', 'my', 'my', '2', '3'], ['2', 'ca*', 'ca*', '5', '6'],
    ]);
    expect(await t.rows("call keywords('*atu*', 't')")).toEqual([['1', '*atu*', 'catus']]);
  });
  it('an unknown option or a bad sort_mode is an error', async () => {
    expect(await err("call keywords('cat', 't', 1 as nosuch)")).toContain('unknown option nosuch');
    expect(await err("call keywords('cat', 't', 'x' as sort_mode)")).toContain('sort_mode');
  });
});
