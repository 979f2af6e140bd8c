// Wildcard options through SQL and JSON: OPTION expand_keywords overriding the table setting,
// OPTION expansion_limit, and Manticore's warning for a wildcard under min_prefix_len / min_infix_len.
import { parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import type { JsonValue, RowsResult } from '../../../src/engine/index.js';
import { newSession } from '../../../src/engine/index.js';
import { useTempEngine } from '../../helpers/temp-engine.js';

const t = useTempEngine('wildcard-sql', async (t) => {
  await t.exec("create table p (title text) min_prefix_len='3'");
  await t.exec("create table i (title text) min_infix_len='3'");
  await t.exec("create table k (title text) min_infix_len='2' expand_keywords='1'");
  for (const name of ['p', 'i', 'k']) {
    await t.exec(`insert into ${name} (id, title) values (1, 'running'), (2, 'runner'), (3, 'run'), (4, 'prune'), (5, 'runner runs')`);
  }
});

const ids = async (sql: string) => (await t.rows(sql)).map((r) => Number(r[0])).sort((a, b) => a - b);
const last = async (sql: string) => {
  const out = await t.exec(sql);
  return out[out.length - 1] as RowsResult;
};
const meta = async () => new Map((await t.rows('show meta')).map((r) => [String(r[0]), String(r[1])]));

describe('OPTION expand_keywords', () => {
  it('1 expands plain words on a table without expand_keywords, 0 turns the table setting off', async () => {
    expect(await ids("select id from i where match('run')")).toEqual([3]);
    expect(await ids("select id from i where match('run') option expand_keywords=1")).toEqual([1, 2, 3, 4, 5]);
    expect(await ids("select id from k where match('run')")).toEqual([1, 2, 3, 4, 5]);
    expect(await ids("select id from k where match('run') option expand_keywords=0")).toEqual([3]);
  });
  it('the JSON options take it too', async () => {
    const body = (extra: string) => parse(`{"table":"i","query":{"query_string":"run"}${extra}}`) as JsonValue;
    const search = async (extra: string) =>
      (await t.engine.json!.search(body(extra), newSession())).rows.map((r) => Number(r[0])).sort((a, b) => a - b);
    expect(await search('')).toEqual([3]);
    expect(await search(',"options":{"expand_keywords":1}')).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('too-short wildcards', () => {
  it('match nothing, with the warning in SHOW META, SHOW WARNINGS and the result', async () => {
    const r = await last("select id from p where match('ru*')");
    expect(r.rows).toEqual([]);
    const text = "Query word length is less than min prefix length. word: 'ru*' ";
    expect(r.warning).toBe(text);
    expect((await meta()).get('warning')).toBe(text);
    expect(await t.rows('show warnings')).toEqual([['warning', '1000', text]]);
  });
  it('name infix on tables with min_infix_len, and go away on the next query', async () => {
    const r = await last("select id from i where match('*un* | run')");
    expect(r.rows.map((x) => Number(x[0]))).toEqual([3]);
    expect(r.warning).toBe("Query word length is less than min infix length. word: '*un*' ");
    const ok = await last("select id from i where match('*unn*')");
    expect(ok.rows.map((x) => Number(x[0])).sort()).toEqual([1, 2, 5]);
    expect(ok.warning).toBeUndefined();
    expect((await meta()).has('warning')).toBe(false);
  });
  it('reach the JSON reply', async () => {
    const body = parse('{"table":"p","query":{"query_string":"ru*"}}') as JsonValue;
    const r = await t.engine.json!.search(body, newSession());
    expect(r.warning).toBe("Query word length is less than min prefix length. word: 'ru*' ");
  });
});

describe('OPTION expansion_limit', () => {
  it('keeps the most frequent expansions of each wildcard', async () => {
    // run* expands to run, runner, running, runs; each in at most 256 hits, so all rank alike and
    // the first in dictionary order are kept
    expect(await ids("select id from p where match('run*')")).toEqual([1, 2, 3, 5]);
    expect(await ids("select id from p where match('run*') option expansion_limit=1")).toEqual([3]);
    expect(await ids("select id from p where match('run*') option expansion_limit=2")).toEqual([2, 3, 5]);
  });
});
