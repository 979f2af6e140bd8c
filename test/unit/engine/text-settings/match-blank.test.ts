// MATCH('') and MATCH('   ') both run as a full scan in searchd (the query text yields no token, so
// the parsed query is not full-text: sphinxrt.cpp bParsedFullscan); a query whose words all vanish
// (too short, '()') is full-text and matches nothing.
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('match-blank', async (t) => {
  for (const sql of ["CREATE TABLE t (title text) min_word_len='4'", "INSERT INTO t VALUES (1, 'red apple'), (2, 'green pear'), (3, 'the end')"]) {
    expect((await t.exec(sql))[0]?.kind).toBe('ok');
  }
});

describe('blank MATCH text', () => {
  it('matches every row, as the empty string does', async () => {
    expect(await t.rows("SELECT COUNT(*) FROM t WHERE MATCH('')")).toEqual([[3n]]);
    expect(await t.rows("SELECT COUNT(*) FROM t WHERE MATCH('   ')")).toEqual([[3n]]);
    expect(await t.rows("SELECT id FROM t WHERE MATCH(' \\t ') ORDER BY id ASC")).toEqual([[1n], [2n], [3n]]);
  });

  it('a query whose words all vanish still matches nothing', async () => {
    expect(await t.rows("SELECT COUNT(*) FROM t WHERE MATCH('end')")).toEqual([[0n]]);
    expect(await t.rows("SELECT COUNT(*) FROM t WHERE MATCH('()')")).toEqual([[0n]]);
  });
});
