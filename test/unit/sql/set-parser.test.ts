import { describe, expect, it } from 'vitest';
import { errorOf, one } from './helpers.js';

describe('SET', () => {
  it.each([
    ['SET autocommit=0', { name: 'autocommit', value: { kind: 'int', value: 0, text: '0' } }],
    ['SET GLOBAL auto_schema=1', { name: 'auto_schema', scope: 'global', value: { kind: 'int', value: 1, text: '1' } }],
    ['set session Profiling = ON', { name: 'profiling', scope: 'session', value: { kind: 'ident', name: 'ON' } }],
    ["SET sql_mode=''", { name: 'sql_mode', value: { kind: 'string', value: '' } }],
    ['SET @@session.autocommit = 1', { name: 'autocommit', scope: 'session', system: true }],
    ['SET @@global.max_threads_per_query=-1', { name: 'max_threads_per_query', scope: 'global', system: true, value: { kind: 'int', value: -1 } }],
    ['SET @@character_set_client=utf8', { name: 'character_set_client', system: true, value: { kind: 'ident', name: 'utf8' } }],
    ['SET GLOBAL @ids = (1, 2, 3)', { name: 'ids', user: true, scope: 'global', value: { kind: 'tuple' } }],
    ['SET x = NULL', { name: 'x', value: { kind: 'null' } }],
    ['SET x = TRUE', { name: 'x', value: { kind: 'int', value: 1 } }],
    ['SET x = 0.5', { name: 'x', value: { kind: 'float', value: 0.5 } }],
  ])('%s', (sql, expected) => {
    const s = one(sql, 'set');
    expect(s.assignments).toHaveLength(1);
    expect(s.assignments[0]).toMatchObject(expected);
  });

  it('reads lists of assignments, each with its own scope', () => {
    expect(one('SET a=1, GLOBAL b=2', 'set').assignments).toMatchObject([{ name: 'a' }, { name: 'b', scope: 'global' }]);
  });

  it('reads SET NAMES [COLLATE] and SET CHARACTER SET', () => {
    expect(one('SET NAMES utf8mb4', 'set_names')).toMatchObject({ charset: 'utf8mb4' });
    expect(one("SET NAMES 'utf8' COLLATE 'utf8_general_ci'", 'set_names')).toMatchObject({ charset: 'utf8', collate: 'utf8_general_ci' });
    expect(one('SET CHARACTER SET latin1', 'set_names')).toMatchObject({ charset: 'latin1' });
  });

  it.each([
    ['SET TRANSACTION ISOLATION LEVEL READ COMMITTED', 'read committed'],
    ['SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ', 'repeatable read'],
    ['set global transaction isolation level serializable', 'serializable'],
    ['SET TRANSACTION ISOLATION LEVEL READ UNCOMMITTED', 'read uncommitted'],
  ])('%s', (sql, level) => {
    expect(one(sql, 'set_transaction').level).toBe(level);
  });

  it('rejects a missing = or value', () => {
    expect(errorOf('SET autocommit')).toBe("P01: syntax error, unexpected $end near ''");
    expect(errorOf('SET a =')).toBe("P01: syntax error, unexpected $end near ''");
    expect(errorOf('SET TRANSACTION ISOLATION LEVEL READ WRITE')).toBe(
      "P01: syntax error, unexpected identifier, expecting UNCOMMITTED or COMMITTED near 'WRITE'",
    );
  });
});

describe('transactions', () => {
  it.each([
    ['BEGIN', 'begin'], ['START TRANSACTION', 'begin'], ['commit', 'commit'], ['ROLLBACK', 'rollback'],
  ] as const)('%s', (sql, kind) => {
    expect(one(sql, kind).kind).toBe(kind);
  });
});
