// SELECT @@name without a table as Manticore answers it with Buddy running (its default install): searchd
// answers its own names, Buddy the MySQL server variables connectors probe (Connector/J's start-up query),
// and a name neither knows fails with searchd's `unknown sysvar @@name`, every unknown item's error joined
// with '; '; a bare @uservar is the expression parser's syntax error (CLT
// expected-errors/test-system-variables-error-handling.rec).
import { expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('select-sysvars');

async function error(sql: string): Promise<string> {
  try {
    const r = await t.last(sql);
    return r.kind === 'error' ? r.message : `no error: ${JSON.stringify(r, (_k, v) => typeof v === 'bigint' ? String(v) : v)}`;
  } catch (e) {
    return (e as Error).message;
  }
}

it('refuses a system variable nobody knows, alone or among known ones, naming it as written', async () => {
  expect(await error('SELECT @@nonexistent_variable')).toBe('unknown sysvar @@nonexistent_variable');
  expect(await error('SELECT @@autocomm')).toBe('unknown sysvar @@autocomm');
  expect(await error('SELECT @@autocommit, @@nonexistent_variable')).toBe('unknown sysvar @@nonexistent_variable');
  expect(await error('SELECT @@character_set_client, @@tx_isolation_fake, @@max_allowed_packet')).toBe('unknown sysvar @@tx_isolation_fake');
  expect(await error('SELECT @@`quoted_name`')).toBe('unknown sysvar @@`quoted_name`');
  expect(await error('SELECT @@a, @@b')).toBe('unknown sysvar @@a; unknown sysvar @@b');
});

it('refuses a bare user variable with the expression parser error', async () => {
  expect(await error('SELECT @user_variable')).toBe("P09: syntax error, unexpected TOK_USERVAR near ''");
});

it("answers Connector/J's start-up variables with the values Manticore gives", async () => {
  const names = ['session.auto_increment_increment', 'character_set_client', 'character_set_connection', 'character_set_results',
    'character_set_server', 'collation_server', 'collation_connection', 'init_connect', 'interactive_timeout', 'license',
    'lower_case_table_names', 'max_allowed_packet', 'net_write_timeout', 'performance_schema', 'sql_mode', 'system_time_zone',
    'time_zone', 'transaction_isolation', 'wait_timeout', 'query_cache_size'];
  const rows = await t.rows(`SELECT ${names.map((n) => `@@${n} AS ${n.replace('session.', '')}`).join(', ')}`);
  expect(rows[0]!.map(String)).toEqual(['1', 'utf8', 'utf8', 'utf8mb4', 'utf8mb4', 'utf8mb4_0900_ai_ci', 'utf8mb4_0900_ai_ci', '',
    '900', 'GPL', '1', '134217728', '60', '1',
    'ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION',
    'UTC', 'SYSTEM', 'REPEATABLE-READ', '28800', '0']);
});

it("types the values as Buddy does when a name searchd lacks sends the statement to Buddy; searchd's own alone are numbers", async () => {
  // Connector/J's query has names searchd lacks: Buddy answers all, '1' and '60' as text, 900 and 0 as numbers
  const buddy = await t.last('SELECT @@session.auto_increment_increment AS a, @@interactive_timeout AS b, @@license AS c, ' +
    '@@lower_case_table_names AS d, @@net_write_timeout AS e, @@performance_schema AS f, @@query_cache_size AS g');
  expect(buddy.kind === 'rows' && buddy.rows[0]).toEqual(['1', 900, 'GPL', '1', '60', '1', 0]);
  const own = await t.last('SELECT @@session.auto_increment_increment, @@lower_case_table_names');
  expect(own.kind === 'rows' && own.rows[0]).toEqual([1, 1]);
  // searchd has no @@version: Buddy answers with its MySQL version
  expect(await t.rows('SELECT @@version')).toEqual([['8.0.43']]);
});

it('names a variable spelled in capitals in lower case, as Buddy answers it; an alias stays', async () => {
  for (const sql of ['SELECT @@AUTOCOMMIT', 'SELECT @@AutoCommit']) {
    const r = await t.last(sql);
    expect(r.kind === 'rows' && [r.columns.map((c) => c.name), r.rows]).toEqual([['@@autocommit'], [[1]]]);
  }
  const r = await t.last('SELECT @@AUTOCOMMIT AS ac_x');
  expect(r.kind === 'rows' && r.columns.map((c) => c.name)).toEqual(['ac_x']);
});
