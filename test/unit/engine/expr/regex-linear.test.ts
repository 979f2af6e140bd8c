// REGEX() runs in linear time, as RE2 does (found by qa27's fuzzing: REGEX(s, '(a+)+$') over a 28-character
// value held the event loop, so every connection of the server, for minutes). Case folding spelled out for
// the linear engine must keep RE2's (?i) meaning; what RE2 refuses (backreferences, lookaround) is invalid.
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';
import type { RowsResult } from '../../../../src/engine/index.js';
import { foldCase, re2Pattern } from '../../../../src/engine/expr/re2-pattern.js';

const t = useTempEngine('regex-linear', async (t) => {
  await t.exec('create table r (title text, s string)');
  await t.exec(`insert into r (id, s) values (1, '${'a'.repeat(60)}!'), (2, 'Straße ÄB x-Y'), (3, 'aaa')`);
});

async function column(sql: string): Promise<unknown[]> {
  const out = await t.exec(sql);
  const r = out[out.length - 1] as RowsResult;
  if (r.kind !== 'rows') throw new Error(JSON.stringify(r));
  return r.rows.map((row) => row[1]);
}

describe('REGEX() in linear time', () => {
  it('a pattern that backtracks exponentially answers (and the server with it)', async () => {
    expect(await column("select id, regex(s, '(a+)+$') as m from r order by id asc")).toEqual([0, 0, 1]);
    expect(await column("select id, regex(s, '(?i)(A|a)*$') as m from r order by id asc")).toEqual([1, 1, 1]);
    expect(await column("select id, regex(s, '(?i)^(a+)+B') as m from r order by id asc")).toEqual([0, 0, 0]);
  });

  it('Unicode property classes under nested quantifiers answer too, with their meaning (qa29 fuzz: held the event loop for ever)', async () => {
    expect(await column("select id, regex(s, '(\\\\p{L}+)+$') as m from r order by id asc")).toEqual([0, 1, 1]);
    expect(await column("select id, regex(s, '(?i)(\\\\p{Ll}+)+!$') as m from r order by id asc")).toEqual([1, 0, 0]);
    expect(await column("select id, regex(s, '^[^\\\\p{Z}]+$') as m from r order by id asc")).toEqual([1, 0, 1]);
    expect(await column("select id, regex(s, '\\\\P{L}') as m from r order by id asc")).toEqual([1, 1, 0]);
    expect(re2Pattern('^\\p{Lu}\\p{Ll}+$').test('Élan')).toBe(true);
    expect(re2Pattern('^\\p{Lu}\\p{Ll}+$').test('élan')).toBe(false);
    expect(re2Pattern('(?i)^\\p{Lu}+$').test('élan')).toBe(true);
    // astral code points as surrogate pairs: one emoji is one \p{So}, a CJK extension B letter one \p{L}
    expect(re2Pattern('^\\p{So}$').test('\u{1F600}')).toBe(true);
    expect(re2Pattern('^\\p{L}{2}$').test('x\u{20000}')).toBe(true);
    expect(re2Pattern('^[\\p{N}x]+$').test('x1\u0663\u{1D7CE}')).toBe(true);
    expect(re2Pattern('\\\\p').test('\\p')).toBe(true); // an escaped backslash, then a plain p
    const out = await t.exec("select regex(s, '\\\\p{nosuch}') from r");
    expect(out[out.length - 1]).toMatchObject({ kind: 'error' });
  });

  it('(?i) folds letters, classes and ranges, and leaves escapes, counts and group names alone', async () => {
    expect(await column("select id, regex(s, '(?i)STRASSE|straße') as m from r order by id asc")).toEqual([0, 1, 0]);
    expect(await column("select id, regex(s, '(?i)äb\\\\s[W-Z]-[^a-x]$') as m from r order by id asc")).toEqual([0, 1, 0]);
    expect(await column("select id, regex(s, '(?i)äb\\\\s[W-Z]-[^a-y]$') as m from r order by id asc")).toEqual([0, 0, 0]);
    expect(await column("select id, regex(s, '(?i)äb [w-z]-[^a-x]$') as m from r order by id asc")).toEqual([0, 1, 0]);
    expect(await column("select id, regex(s, '(?i)^A{3}$') as m from r order by id asc")).toEqual([0, 0, 1]);
    expect(foldCase('a\\d[b-c\\]]{2,3}(?<nm>x)')).toBe('[aA]\\d[b-c\\]B-C]{2,3}(?<nm>[xX])');
    expect(re2Pattern('(?is)x.y').test('X\nY')).toBe(true);
    // several leading groups in a row, as RE2 takes them (was 'pattern is invalid')
    expect(re2Pattern('(?i)(?s)x.y').test('X\nY')).toBe(true);
  });

  it('what RE2 cannot run either is an invalid pattern', async () => {
    for (const p of ['(a)\\\\1', '(?=a)', '(?<!a)b']) {
      const out = await t.exec(`select regex(s, '${p}') from r`);
      expect(out[out.length - 1]).toMatchObject({ kind: 'error', message: expect.stringContaining('is invalid') });
    }
  });
});
