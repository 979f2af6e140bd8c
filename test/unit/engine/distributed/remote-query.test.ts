import { describe, expect, it } from 'vitest';
import { remoteQuery } from '../../../../src/engine/distributed/remote-query.js';
import { planShards } from '../../../../src/engine/distributed/shard-plan.js';
import { parseSql } from '../../../../src/sql/parse-sql.js';
import type { SelectStatement } from '../../../../src/sql/ast.js';

const shardOf = (sql: string) => planShards(parseSql(sql)[0] as SelectStatement).shard;

describe('a shard statement as a binary-API query', () => {
  it('sends filters the protocol has, and computes the others on the agent', () => {
    const q = remoteQuery(shardOf("SELECT id FROM d WHERE MATCH('a b') AND gid IN (1,2) AND price <= 2.5 AND id > 10 AND s = 'x' AND (gid = 1 OR price < 2) ORDER BY price DESC LIMIT 5, 10 OPTION ranker=wordcount"), 'shard');
    expect(q).toMatchObject({ indexes: 'shard', query: 'a b', offset: 0, limit: 15, ranker: 3, sort: 4, sortBy: '__o0 DESC' });
    expect(q.filters).toEqual([
      { attr: 'gid', type: 0, values: [1n, 2n], exclude: false },
      { attr: 'price', type: 2, fmin: -Infinity, fmax: 2.5, exclude: false },
      { attr: '@id', type: 1, min: 11n, max: 2n ** 63n - 1n, exclude: false },
      { attr: 's', type: 3, strings: ['x'], exclude: false },
      { attr: '__w0', type: 0, values: [1n], exclude: false },
    ]);
    expect(q.select).toBe('id AS __c0, id AS __id, price AS __o0, ((gid = 1) OR (price < 2)) AS __w0');
  });

  it('sends GROUP BY as the group attribute list and the group order', () => {
    const q = remoteQuery(shardOf('SELECT gid, COUNT(*) c FROM d GROUP BY gid ORDER BY c DESC'), 'shard');
    expect(q).toMatchObject({ groupBy: 'gid', groupSort: '__c1 DESC', limit: 1000 });
    expect(q.select).toBe('gid AS __c0, COUNT(*) AS __c1, id AS __id, count(*) AS __cnt, groupby() AS __g0');
  });

  it('groups by an expression (named by its alias) through a select item the agent computes', () => {
    const q = remoteQuery(shardOf('SELECT HISTOGRAM(price, {hist_interval=2}) h, COUNT(*) c FROM d GROUP BY h ORDER BY h ASC'), 'shard');
    expect(q).toMatchObject({ groupBy: '__k0', groupSort: '__c0 ASC' });
    expect(q.select).toBe('HISTOGRAM(price, {hist_interval=2}) AS __c0, COUNT(*) AS __c1, id AS __id, count(*) AS __cnt, groupby() AS __g0, HISTOGRAM(price, {hist_interval=2}) AS __k0');
  });

  it('sends ANY(mva) = v as a value filter and refuses the quantified forms it cannot send', () => {
    expect(remoteQuery(shardOf('SELECT id FROM d WHERE ANY(tags) IN (2,3)'), 's').filters).toEqual([{ attr: 'tags', type: 0, values: [2n, 3n], exclude: false }]);
    expect(() => remoteQuery(shardOf('SELECT id FROM d WHERE ALL(tags) > 2'), 's')).toThrow(/ALL\(\) filter 'tags' over remote agents/);
    expect(() => remoteQuery(shardOf('SELECT id FROM d WHERE gid = 1 OR ANY(tags) = 2'), 's')).toThrow(/ANY\(tags\) inside OR or NOT/);
  });

  it('refuses options the protocol does not carry', () => {
    expect(() => remoteQuery(shardOf("SELECT id FROM d WHERE MATCH('a') OPTION boolean_simplify=1"), 's')).toThrow(/OPTION boolean_simplify cannot be sent/);
  });

  it('sends OPTION idf in the query flags and expand_keywords as QueryOption_e', () => {
    const q = remoteQuery(shardOf("SELECT id FROM d WHERE MATCH('a') OPTION idf='plain,tfidf_unnormalized', expand_keywords=1"), 's');
    expect(q).toMatchObject({ plainIdf: true, normalizedTf: false, expandKeywords: 2 });
    expect(remoteQuery(shardOf("SELECT id FROM d WHERE MATCH('a') OPTION idf='tfidf_normalized', expand_keywords=0"), 's')).toMatchObject({ plainIdf: false, normalizedTf: true, expandKeywords: 1 });
  });
});
