// CREATE / JOIN / ALTER / DELETE CLUSTER as Manticore's manual writes them, and the c:t write names.
import { describe, expect, it } from 'vitest';
import { parseSql } from '../../../src/sql/parse-sql.js';

const one = (sql: string) => {
  const [st] = parseSql(sql);
  const { text: _t, ...rest } = st as { text: string };
  return rest;
};

describe('cluster statements', () => {
  it('reads CREATE CLUSTER with and without options', () => {
    expect(one('CREATE CLUSTER posts')).toEqual({ kind: 'create_cluster', cluster: 'posts', options: [] });
    expect(one("CREATE CLUSTER click_query '/var/data/click_query/' as path, 'a:9312,b:9312' as nodes")).toEqual({
      kind: 'create_cluster', cluster: 'click_query',
      options: [{ name: 'path', value: '/var/data/click_query/' }, { name: 'nodes', value: 'a:9312,b:9312' }],
    });
  });

  it('reads JOIN CLUSTER ... AT and the nodes form', () => {
    expect(one("JOIN CLUSTER posts AT '10.12.1.35:9312'")).toEqual({ kind: 'join_cluster', cluster: 'posts', at: '10.12.1.35:9312', options: [] });
    expect(one("JOIN CLUSTER c2 at '127.0.0.1:10201' 'c2' as path")).toMatchObject({ at: '127.0.0.1:10201', options: [{ name: 'path', value: 'c2' }] });
    expect(one("JOIN CLUSTER q 'a:9312;b:9312' as nodes")).toMatchObject({ at: undefined, options: [{ name: 'nodes', value: 'a:9312;b:9312' }] });
  });

  it('reads ALTER CLUSTER ADD / DROP (table lists lower-cased) and UPDATE nodes', () => {
    expect(one('ALTER CLUSTER posts ADD Weekly, daily')).toEqual({ kind: 'alter_cluster', cluster: 'posts', op: 'add', tables: ['weekly', 'daily'] });
    expect(one('ALTER CLUSTER posts DROP weekly_index')).toEqual({ kind: 'alter_cluster', cluster: 'posts', op: 'drop', tables: ['weekly_index'] });
    expect(one('ALTER CLUSTER posts UPDATE nodes')).toMatchObject({ op: 'update', tables: ['nodes'] });
  });

  it('reads DELETE CLUSTER beside DELETE FROM', () => {
    expect(one('DELETE CLUSTER click_query')).toEqual({ kind: 'delete_cluster', cluster: 'click_query' });
    expect(one('DELETE FROM c:t WHERE id = 1')).toMatchObject({ kind: 'delete', table: 'c:t' });
  });

  it('keeps the cluster prefix of write targets', () => {
    expect(one("INSERT INTO c:t (id, title) VALUES (1, 'x')")).toMatchObject({ kind: 'insert', table: 'c:t' });
    expect(one('UPDATE c:t SET n = 1 WHERE id = 1')).toMatchObject({ kind: 'update', table: 'c:t' });
  });

  it('fails on a malformed cluster statement with a syntax error', () => {
    expect(() => parseSql('ALTER CLUSTER c RENAME t')).toThrow(/syntax error/);
    expect(() => parseSql('JOIN CLUSTER c AT 12')).toThrow(/syntax error/);
    expect(() => parseSql('CREATE CLUSTER')).toThrow(/syntax error/);
  });
});
