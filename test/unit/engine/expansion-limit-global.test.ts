// SET GLOBAL expansion_limit: searchd's limit on expansions per wildcard keyword, for SQL and JSON;
// a query's OPTION expansion_limit still wins.
import { describe, expect, it } from 'vitest';
import { newSession } from '../../../src/engine/index.js';
import { useTempEngine } from '../../helpers/temp-engine.js';

const t = useTempEngine('expansion-limit-global', async (t) => {
  await t.exec("create table p (title text) min_prefix_len='3'");
  await t.exec("insert into p (id, title) values (1, 'running'), (2, 'runner'), (3, 'run'), (4, 'prune'), (5, 'runner runs')");
});
const ids = async (sql: string) => (await t.rows(sql)).map((r) => Number(r[0])).sort((a, b) => a - b);

describe('SET GLOBAL expansion_limit', () => {
  it('limits every wildcard until set back to 0; OPTION overrides it', async () => {
    expect(await ids("select id from p where match('run*')")).toEqual([1, 2, 3, 5]);
    await t.exec('set global expansion_limit=1');
    expect((await t.rows('select @@expansion_limit')).map((r) => Number(r[0]))).toEqual([1]);
    expect(await ids("select id from p where match('run*')")).toEqual([3]);
    expect(await ids("select id from p where match('run*') option expansion_limit=2")).toEqual([2, 3, 5]);
    const json = await t.engine.json!.search(JSON.parse('{"table":"p","query":{"query_string":"run*"}}'), newSession());
    expect(json.rows.map((r) => Number(r[0]))).toEqual([3]);
    await t.exec('set global expansion_limit=0');
    expect(await ids("select id from p where match('run*')")).toEqual([1, 2, 3, 5]);
  });
  it('a negative or non-numeric value is an error', async () => {
    const out = JSON.stringify(await t.exec("set global expansion_limit='x'").catch((e: Error) => e.message));
    expect(out).toContain("Unknown value for 'expansion_limit'");
  });
});
