// SHOW VARIABLES as searchd's HandleMysqlShowVariables lists them: its names in its order (those that
// mean something in quarry), `user` only without GLOBAL/SESSION, LIKE over the names; SET autocommit
// takes 0 or 1 only (HandleSetLocal).
import { expect, it } from 'vitest';
import { newSession, type Result } from '../../../../src/engine/index.js';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('show-variables');

async function last(text: string, session = newSession()): Promise<Result> {
  const out = await t.engine.execute(text, session);
  return out[out.length - 1]!;
}
async function vars(text: string, session = newSession()): Promise<string[][]> {
  const r = await last(text, session);
  if (r.kind !== 'rows') throw new Error(JSON.stringify(r));
  return r.rows as string[][];
}

it('lists searchd names in searchd order, then quarry own settings; user only in the bare form', async () => {
  const names = (await vars('SHOW VARIABLES')).map((r) => r[0]);
  expect(names).toEqual(['autocommit', 'auto_optimize', 'optimize_cutoff', 'collation_connection', 'max_allowed_packet',
    'character_set_client', 'character_set_connection', 'last_insert_id', 'user',
    'auto_schema', 'not_terms_only_allowed', 'expansion_limit']);
  for (const scope of ['GLOBAL', 'SESSION']) expect((await vars(`SHOW ${scope} VARIABLES`)).map((r) => r[0])).not.toContain('user');
});

it('answers the values searchd gives a fresh session, and LIKE filters the names', async () => {
  expect(await vars("SHOW VARIABLES LIKE 'character_set%'")).toEqual([['character_set_client', 'utf8'], ['character_set_connection', 'utf8']]);
  expect(await vars("SHOW VARIABLES LIKE 'last_insert_id'")).toEqual([['last_insert_id', '0']]);
  expect(await vars("SHOW VARIABLES LIKE 'user'")).toEqual([['user', 'root']]);
  expect(await vars("SHOW VARIABLES LIKE 'auto_optimize'")).toEqual([['auto_optimize', '1']]);
});

it('follows the session: autocommit, collation_connection and last_insert_id', async () => {
  const s = newSession();
  await t.engine.execute('CREATE TABLE t (title TEXT)', s);
  await t.engine.execute("INSERT INTO t (id, title) VALUES (7, 'a'), (9, 'b')", s);
  await t.engine.execute('SET autocommit=0', s);
  await t.engine.execute("SET collation_connection='utf8_general_ci'", s);
  const got = Object.fromEntries(await vars('SHOW VARIABLES', s));
  expect([got.autocommit, got.collation_connection, got.last_insert_id]).toEqual(['0', 'utf8_general_ci', '7,9']);
});

it('refuses SET autocommit to anything but 0 or 1 with searchd error, and keeps the value', async () => {
  const s = newSession();
  expect(await last('SET autocommit=2', s)).toMatchObject({ kind: 'error', message: "sphinxql: only 0 and 1 could be used as boolean values near '2'" });
  expect(await vars("SHOW VARIABLES LIKE 'autocommit'", s)).toEqual([['autocommit', '1']]);
});

it('refuses WHERE as searchd grammar does (LIKE is its only filter)', async () => {
  expect(await last("SHOW VARIABLES WHERE variable_name='autocommit'")).toMatchObject({ kind: 'error' });
});

it('refuses a SET of a name searchd does not know, as searchd does, and changes nothing', async () => {
  const s = newSession();
  expect(await last('SET foo=1', s)).toMatchObject({ kind: 'error', message: "Unknown session variable 'foo' in SET statement" });
  expect(await last('SET GLOBAL foo=1', s)).toMatchObject({ kind: 'error', message: "Unknown system variable 'foo'" });
  // autocommit is a session variable only (HandleSetGlobal does not know it)
  expect(await last('SET GLOBAL autocommit=0', s)).toMatchObject({ kind: 'error', message: "Unknown system variable 'autocommit'" });
  expect(await last('SET autocommit=0, foo=2', s)).toMatchObject({ kind: 'error' });
  expect(await vars("SHOW VARIABLES LIKE 'autocommit'", s)).toEqual([['autocommit', '1']]);
  // what searchd takes without an effect, @@names (its no-op statement) and quarry's own settings pass
  for (const ok of ["SET sql_mode=''", 'SET character_set_results=NULL', 'SET SESSION net_write_timeout=600', 'SET GLOBAL query_log_min_msec=5',
    'SET @@foo=1', 'SET GLOBAL auto_schema=1', 'SET profiling=1']) {
    expect(await last(ok, s)).toMatchObject({ kind: 'ok' });
  }
});

it('checks the query_log_format and log_level values as searchd HandleSetGlobal does', async () => {
  expect(await last('SET GLOBAL query_log_format=json')).toMatchObject({ kind: 'error', message: 'Unknown query_log_format value (must be plain or sphinxql)' });
  expect(await last('SET GLOBAL log_level=verbose')).toMatchObject({
    kind: 'error', message: 'Unknown log_level value (must be one of info, debug, debugv, debugvv, replication)',
  });
  expect(await last('SET GLOBAL log_level=httpx')).toMatchObject({ kind: 'error', message: 'Unknown log_level value (http_on, http_off, http_bad_req_on, http_bad_req_off)' });
  for (const ok of ["SET GLOBAL query_log_format='sphinxql'", 'SET GLOBAL log_level=debugv', 'SET GLOBAL log_level=http_on']) {
    expect(await last(ok)).toMatchObject({ kind: 'ok' });
  }
});

it('SELECT @@character_set_client/connection and @@interactive_timeout answer as searchd (HandleMysqlSelectColumns)', async () => {
  const r = await last('SELECT @@character_set_client, @@character_set_connection, @@interactive_timeout');
  expect(r.kind === 'rows' && r.rows).toEqual([['utf8', 'utf8', 900]]);
});

it('a SET with one bad value sets none of its names (no half-applied SET)', async () => {
  const s = newSession();
  expect(await last('SET SESSION autocommit=0, SESSION sql_quote_show_create=5', s)).toMatchObject({
    kind: 'error', message: "sphinxql: only 0 and 1 could be used as boolean values near '5'",
  });
  expect(await vars("SHOW VARIABLES LIKE 'autocommit'", s)).toEqual([['autocommit', '1']]);
  expect(await last("SET GLOBAL auto_schema=0, GLOBAL expansion_limit='x'")).toMatchObject({ kind: 'error' });
  expect(await vars("SHOW VARIABLES LIKE 'auto_schema'")).toEqual([['auto_schema', '1']]);
  // a user variable named like a setting is not the setting (without GLOBAL, searchd's unknown session name)
  expect(await last('SET @autocommit=0', s)).toMatchObject({ kind: 'error', message: "Unknown session variable '@autocommit' in SET statement" });
  expect(await vars("SHOW VARIABLES LIKE 'autocommit'", s)).toEqual([['autocommit', '1']]);
});
