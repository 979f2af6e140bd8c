// STRING attributes and JSON strings under searchd's collations (src/collation.cpp; sphinxfilter.cpp string
// filters, queuecreator.cpp SetupCollation for sorting, grouper.cpp string hashes for GROUP BY): libc_ci by
// default, SET collation_connection per session.
import { afterEach, describe, expect, it } from 'vitest';
import { binaryCompare, collation, libcCiCompare } from '../../../../src/util/collation.js';
import { coreFoldSwitch } from '../../../../src/engine/group/core-fold.js';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('string-collation', async (t) => {
  await t.exec('create table s (title text, s string, j json, n int, g int)');
  await t.exec(`insert into s (id, title, s, j, n, g) values
    (1, 'x', 'apple', '{"k":"apple"}', 1, 1), (2, 'x', 'Banana', '{"k":"Banana"}', 2, 1), (3, 'x', 'APPLE', '{"k":"APPLE"}', 3, 1),
    (4, 'x', 'cherry', '{"k":"cherry"}', 4, 1), (5, 'x', '_under', '{"k":"_under"}', 5, 1), (6, 'x', 'école', '{"k":"école"}', 6, 1),
    (7, 'x', 'Ecole', '{"k":"Ecole"}', 7, 1)`);
});

afterEach(async () => { coreFoldSwitch.enabled = true; await t.exec("set collation_connection = 'libc_ci'"); });

const col = async (sql: string, i = 0) => (await t.rows(sql)).map((r) => (typeof r[i] === 'bigint' ? Number(r[i]) : r[i]));

describe('the collations themselves', () => {
  it('libc_ci folds ASCII only and puts the shorter first on a tie', () => {
    expect(libcCiCompare('APPLE', 'apple')).toBe(0);
    expect(libcCiCompare('_', 'a')).toBeLessThan(0); // tolower: 'A' is 0x61, above '_' (0x5f)
    expect(binaryCompare('_', 'A')).toBeGreaterThan(0);
    expect(libcCiCompare('ab', 'AB c')).toBeLessThan(0);
    expect(libcCiCompare('é', 'É')).not.toBe(0);
  });

  it('utf8_general_ci drops accents and case; binary is code point (UTF-8 byte) order', () => {
    const u = collation('utf8_general_ci');
    expect(u.compare('école', 'ECOLE')).toBe(0);
    expect(u.compare('straße', 'STRASE')).toBe(0); // ß weighs S, one letter
    expect(u.compare('ё', 'Е')).toBe(0);
    expect(u.compare('й', 'и')).not.toBe(0);
    expect(u.fold('Ａｂ')).toBe(u.fold('ａＢ')); // fullwidth letters
    // a surrogate pair (U+1F600) sorts above U+FF01 in UTF-8 bytes, below it in UTF-16 units
    expect(binaryCompare('\u{1F600}', '\uFF01')).toBeGreaterThan(0);
    expect(collation('libc_ci').compare('\u{1F600}', '\uFF01')).toBeGreaterThan(0);
  });

  it('fold agrees with compare (the sort keys and group keys are the comparison)', () => {
    const words = ['apple', 'APPLE', 'Apple ', 'b', '_', 'école', 'Ecole', 'ÉCOLE', 'ß', 'ss', 'S', '\u{1F600}', '\uFF01', ''];
    for (const name of ['libc_ci', 'libc_cs', 'utf8_general_ci', 'binary'] as const) {
      const c = collation(name);
      for (const a of words) for (const b of words) {
        expect(Math.sign(c.compare(a, b)), `${name} ${a} ${b}`).toBe(Math.sign(binaryCompare(c.fold(a), c.fold(b))));
      }
    }
  });
});

describe('STRING attributes under libc_ci (the default)', () => {
  it('filters =, !=, IN, <, >=, <= with ASCII case folded', async () => {
    expect(await col("select id from s where s = 'apple'")).toEqual([1, 3]);
    expect(await col("select id from s where s != 'APPLE' order by id asc")).toEqual([2, 4, 5, 6, 7]);
    expect(await col("select id from s where s in ('BANANA', 'Cherry')")).toEqual([2, 4]);
    expect(await col("select id from s where s < 'b' order by id asc")).toEqual([1, 3, 5]);
    expect(await col("select id from s where s >= 'APPLE' and s <= 'banana' order by id asc")).toEqual([1, 2, 3]);
    expect(await col("select id from s where s = 'apple' or n = 4")).toEqual([1, 3, 4]);
  });

  it('a long IN list (past the short-list loop) folds the same', async () => {
    const list = Array.from({ length: 30 }, (_, i) => `'w${i}'`).concat(["'ECOLE'", "'CHERRY'"]).join(',');
    expect(await col(`select id from s where s in (${list})`)).toEqual([4, 7]);
  });

  it('ORDER BY sorts case-insensitively (ties by id), DESC too', async () => {
    expect(await col('select id from s order by s asc')).toEqual([5, 1, 3, 2, 4, 7, 6]);
    expect(await col('select id from s order by s desc')).toEqual([6, 7, 4, 2, 1, 3, 5]);
  });

  it('GROUP BY puts strings equal under the collation in one group, shown as its representative', async () => {
    const rows = await t.rows('select s, count(*) c from s group by s order by s asc');
    expect(rows.map((r) => [r[0], Number(r[1])])).toEqual([['_under', 1], ['apple', 2], ['Banana', 1], ['cherry', 1], ['Ecole', 1], ['école', 1]]);
    coreFoldSwitch.enabled = false;
    const host = await t.rows('select s, count(*) c from s group by s order by s asc');
    expect(host.map((r) => [r[0], Number(r[1])])).toEqual(rows.map((r) => [r[0], Number(r[1])]));
  });

  it('WITHIN GROUP ORDER BY a string follows the collation', async () => {
    const rows = await t.rows('select n, s from s group by g within group order by s desc');
    expect(rows[0]![1]).toBe('école');
  });

  it('FACET on a string groups under the collation', async () => {
    const res = await t.exec('select id from s facet s order by s asc');
    const facet = (res as { rows: unknown[][] }[])[1]!;
    expect(facet.rows.map((r) => [r[0], Number(r[1])])).toEqual([['_under', 1], ['apple', 2], ['Banana', 1], ['cherry', 1], ['Ecole', 1], ['école', 1]]);
  });
});

describe('JSON strings', () => {
  it('ORDER BY and GROUP BY a JSON string take the collation', async () => {
    expect(await col('select id from s order by j.k asc')).toEqual([5, 1, 3, 2, 4, 7, 6]);
    const rows = await t.rows('select j.k, count(*) c from s group by j.k order by c desc, j.k asc limit 1');
    expect([String(rows[0]![0]).toLowerCase(), Number(rows[0]![1])]).toEqual(['apple', 2]);
  });
});

describe('SET collation_connection', () => {
  it('binary: byte order and exact equality; utf8_general_ci: accents dropped', async () => {
    await t.exec('set collation_connection = binary');
    expect(await col("select id from s where s = 'apple'")).toEqual([1]);
    expect(await col('select id from s order by s asc')).toEqual([3, 2, 7, 5, 1, 4, 6]);
    expect((await t.rows('select s, count(*) from s group by s')).length).toBe(7);
    await t.exec('set collation_connection = utf8_general_ci');
    expect(await col("select id from s where s = 'ECOLE' order by id asc")).toEqual([6, 7]);
    expect(await col("select id from s where j.k = 'ecole' order by id asc")).toEqual([6, 7]);
    expect((await t.rows('select s, count(*) from s group by s')).length).toBe(5);
    const vars = await t.rows("show variables like 'collation_connection'");
    expect(vars).toEqual([['collation_connection', 'utf8_general_ci']]);
  });

  it('an unknown name falls back to libc_ci, as searchd', async () => {
    await t.exec("set collation_connection = 'no_such'");
    expect(await t.rows("show variables like 'collation_connection'")).toEqual([['collation_connection', 'libc_ci']]);
    expect(await col("select id from s where s = 'APPLE'")).toEqual([1, 3]);
  });
});

describe('string comparisons in expressions', () => {
  it('take the statement\'s collation in the select list and WHERE, as searchd\'s Expr_StrCmp_c', async () => {
    expect(await col("select id, s = 'APPLE' as x from s order by id asc limit 3", 1)).toEqual([1, 0, 1]);
    expect(await col("select id, s in ('APPLE', 'x') as x from s order by id asc limit 3", 1)).toEqual([1, 0, 1]);
    expect(await col("select id from s where concat(s, '') = 'APPLE' or n = 2 order by id asc")).toEqual([1, 2, 3]);
    await t.exec('set collation_connection = binary');
    expect(await col("select id from s where concat(s, '') = 'APPLE' or n = 2 order by id asc")).toEqual([2, 3]);
    // the select list too (queuecreator.cpp ParseQueryItem passes the query's collation to the parser)
    expect(await col("select id, s = 'APPLE' as x, s < 'b' as l, if(s = 'APPLE', 1, 2) as f from s order by id asc limit 3", 1)).toEqual([0, 0, 1]);
    expect(await col("select id, s < 'B' as l, if(s < 'B', 7, 8) as f from s order by id asc limit 3", 2)).toEqual([8, 8, 7]); // libc_ci: 7, 8, 7
    expect(await col("select id, s in ('APPLE', 'x') as x from s order by id asc limit 3", 1)).toEqual([0, 0, 1]);
    expect(await col("select n, s = 'APPLE' as x from s group by n order by n asc limit 3", 1)).toEqual([0, 0, 1]);
  });
});

describe('string comparisons in ORDER BY and GROUP BY expressions', () => {
  // searchd parses sort keys, group keys and aggregate arguments with the query's collation as it does the
  // select list (queuecreator.cpp: tExprParseArgs.m_eCollation); these were fixed at libc_ci
  const order = (e: string) => col(`select id from s order by ${e}, id asc`);
  it('ORDER BY IF()/IN() over strings and an alias of a comparison follow the collation', async () => {
    expect(await order("if(s = 'APPLE', 0, 1) asc")).toEqual([1, 3, 2, 4, 5, 6, 7]);
    expect(await order("if(s in ('APPLE', 'x'), 0, 1) asc")).toEqual([1, 3, 2, 4, 5, 6, 7]);
    expect(await order("if(s < 'b', 0, 1) asc")).toEqual([1, 3, 5, 2, 4, 6, 7]);
    await t.exec('set collation_connection = binary');
    expect(await order("if(s = 'APPLE', 0, 1) asc")).toEqual([3, 1, 2, 4, 5, 6, 7]);
    expect(await order("if(s in ('APPLE', 'x'), 0, 1) asc")).toEqual([3, 1, 2, 4, 5, 6, 7]);
    expect(await order("if(s < 'b', 0, 1) asc")).toEqual([1, 2, 3, 5, 7, 4, 6]);
    // the shown value and the order agree: ORDER BY the alias sorts what the select list shows
    const rows = await t.rows("select id, s = 'APPLE' as x from s order by x desc, id asc");
    expect(rows.map((r) => [Number(r[0]), Number(r[1])])).toEqual([[3, 1], [1, 0], [2, 0], [4, 0], [5, 0], [6, 0], [7, 0]]);
  });

  it('GROUP BY an expression alias and an aggregate over an expression follow the collation', async () => {
    const groups = async () => (await t.rows("select if(s = 'APPLE', 1, 0) as k, count(*) c from s group by k order by k desc"))
      .map((r) => [Number(r[0]), Number(r[1])]);
    const sum = async () => Number((await t.rows("select sum(if(s in ('APPLE'), 1, 0)) as n from s"))[0]![0]);
    expect(await groups()).toEqual([[1, 2], [0, 5]]);
    expect(await sum()).toBe(2);
    await t.exec('set collation_connection = binary');
    expect(await groups()).toEqual([[1, 1], [0, 6]]);
    expect(await sum()).toBe(1);
  });
});

describe('a distributed table of local shards', () => {
  it('merges ORDER BY and GROUP BY on a string under the collation', async () => {
    await t.exec('create table d1 (title text, s string)');
    await t.exec('create table d2 (title text, s string)');
    await t.exec("insert into d1 (id, title, s) values (1, 'x', 'apple'), (2, 'x', 'Banana')");
    await t.exec("insert into d2 (id, title, s) values (3, 'x', 'APPLE'), (4, 'x', '_under')");
    await t.exec("create table dd type='distributed' local='d1' local='d2'");
    expect(await col('select id from dd order by s asc')).toEqual([4, 1, 3, 2]);
    const groups = await t.rows('select s, count(*) from dd group by s order by s asc');
    expect(groups.map((r) => [String(r[0]).toLowerCase(), Number(r[1])])).toEqual([['_under', 1], ['apple', 2], ['banana', 1]]);
    await t.exec('set collation_connection = binary');
    expect(await col('select id from dd order by s asc')).toEqual([3, 2, 4, 1]);
    expect((await t.rows('select s, count(*) from dd group by s')).length).toBe(4);
  });
});
