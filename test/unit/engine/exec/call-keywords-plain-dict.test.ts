// CALL KEYWORDS on a table without min_prefix_len/min_infix_len: searchd's keywords tokenizer gets its
// wildcard specials only for a star dictionary (sphinxrt.cpp RtIndex_c::DoGetKeywords), so '*', '?' and
// '%' split words like any character outside charset_table: 'hel*' is the keyword 'hel', with its own
// (here zero) counts, not an expansion and not an empty answer (quarry gave no row before).
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('call-keywords-plain', async (t) => {
  await t.exec('create table t (title text)');
  await t.exec("insert into t (id, title) values (1, 'hello world'), (2, 'help me'), (3, 'hel')");
});

describe('CALL KEYWORDS without prefix or infix settings', () => {
  it('takes a wildcard keyword as its letters, without and with stats', async () => {
    expect(await t.rows("call keywords('hel*', 't')")).toEqual([['1', 'hel', 'hel']]);
    expect(await t.rows("call keywords('hel*', 't', 1)")).toEqual([['1', 'hel', 'hel', '1', '1']]);
    expect(await t.rows("call keywords('hel* help', 't', 1 as stats, 1 as fold_wildcards)")).toEqual([
      ['1', 'hel', 'hel', '1', '1'], ['2', 'help', 'help', '1', '1'],
    ]);
  });
  it('splits at a wildcard inside or before a word', async () => {
    expect(await t.rows("call keywords('wor*ld *llo he?p', 't', 1)")).toEqual([
      ['1', 'wor', 'wor', '0', '0'], ['2', 'ld', 'ld', '0', '0'], ['3', 'llo', 'llo', '0', '0'],
      ['4', 'he', 'he', '0', '0'], ['5', 'p', 'p', '0', '0'],
    ]);
  });
});
