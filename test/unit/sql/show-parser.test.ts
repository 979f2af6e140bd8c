import { describe, expect, it } from 'vitest';
import { errorOf, one } from './helpers.js';

describe('SHOW', () => {
  it.each([
    ['SHOW TABLES', { what: 'tables' }],
    ['SHOW AGENT STATUS', { what: 'agent_status' }],
    ["SHOW AGENT d STATUS LIKE 'dstindex%'", { what: 'agent_status', table: 'd', like: 'dstindex%' }],
    ["SHOW AGENT '127.0.0.1:9312' STATUS", { what: 'agent_status', table: '127.0.0.1:9312' }],
    ["show tables like 'te%'", { what: 'tables', like: 'te%' }],
    ['SHOW FULL TABLES', { what: 'tables', full: true }],
    ['SHOW FULL PROCESSLIST', { what: 'processlist', full: true }],
    ['show full processlist;', { what: 'processlist', full: true }],
    ['SHOW META', { what: 'meta' }],
    ["SHOW META LIKE 'total%'", { what: 'meta', like: 'total%' }],
    ['SHOW WARNINGS', { what: 'warnings' }],
    ["SHOW STATUS LIKE 'uptime'", { what: 'status', like: 'uptime' }],
    ['SHOW VARIABLES', { what: 'variables' }],
    ["SHOW GLOBAL VARIABLES LIKE 'auto%'", { what: 'variables', scope: 'global', like: 'auto%' }],
    ['show session variables', { what: 'variables', scope: 'session' }],
    ['SHOW DATABASES', { what: 'databases' }],
    ['SHOW THREADS OPTION format=all', { what: 'threads', options: [{ name: 'format', value: { kind: 'ident', name: 'all' } }] }],
    ['SHOW PLUGINS', { what: 'plugins' }],
    ['SHOW COLLATION', { what: 'collation' }],
    ['SHOW CHARACTER SET', { what: 'character_set' }],
    ['SHOW TABLE STATUS', { what: 'table_status' }],
    ["SHOW TABLE STATUS LIKE 'x'", { what: 'table_status', like: 'x' }],
    ['SHOW TABLE t STATUS', { what: 'table_status', table: 't' }],
    ['SHOW INDEX t STATUS', { what: 'table_status', table: 't' }],
    ['SHOW TABLE t SETTINGS', { what: 'table_settings', table: 't' }],
    ['show create table Test1', { what: 'create_table', table: 'Test1' }],
    ['SHOW FIELDS FROM t', { what: 'columns', table: 't' }],
    ["SHOW COLUMNS FROM `t` LIKE 'a%'", { what: 'columns', table: 't', like: 'a%' }],
    ['SHOW PROFILE', { what: 'profile' }],
    ['SHOW PLAN', { what: 'plan' }],
    ['SHOW SETTINGS', { what: 'settings' }],
  ])('%s', (sql, expected) => {
    expect(one(sql, 'show')).toMatchObject(expected);
  });

  it('reports unknown SHOW forms as Manticore does', () => {
    expect(errorOf('SHOW SCHEMAS')).toBe("P01: syntax error, unexpected identifier, expecting VARIABLES near 'SCHEMAS'");
    expect(errorOf('SHOW GLOBAL STATUS')).toBe("P01: syntax error, unexpected STATUS, expecting VARIABLES near 'STATUS'");
    expect(errorOf('SHOW TABLES LIKE x')).toBe("P01: syntax error, unexpected identifier, expecting string near 'x'");
  });

  // sphinxql.y: after `index_or_table one_index_opt_chunk` the state shifts TOK_INDEXES, TOK_SETTINGS and
  // TOK_STATUS only (the table name's states reduce by default), listed in %token order; quarry left out INDEXES
  it('SHOW TABLE t followed by anything else expects INDEXES, SETTINGS or STATUS', () => {
    expect(errorOf('SHOW TABLE t junk')).toBe("P01: syntax error, unexpected identifier, expecting INDEXES or SETTINGS or STATUS near 'junk'");
    expect(errorOf('SHOW INDEX t')).toBe("P01: syntax error, unexpected $end, expecting INDEXES or SETTINGS or STATUS near ''");
  });
});

describe('DESC / DESCRIBE', () => {
  it('reads the table and an optional LIKE pattern', () => {
    expect(one('DESCRIBE test', 'describe')).toEqual({ kind: 'describe', text: 'DESCRIBE test', table: 'test', options: [] });
    expect(one("desc t like 'ti%'", 'describe')).toMatchObject({ table: 't', like: 'ti%' });
    expect(one('DESC Manticore.t TABLE', 'describe').table).toBe('t');
  });
  // the OPTION clause was read and dropped: searchd checks it (force, topology; any other name is an error)
  it('keeps its OPTION clause for the executor to check', () => {
    expect(one('DESC t OPTION force=1', 'describe').options).toMatchObject([{ name: 'force' }]);
  });
});
