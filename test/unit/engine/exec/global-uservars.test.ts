// SET GLOBAL @name = (list) and `WHERE x [NOT] IN @name` (searchd: SetLocalUserVar, SPH_FILTER_USERVAR):
// quarry took the SET and kept nothing, and `IN @name` was a syntax error.
import { expect, it } from 'vitest';
import type { Result } from '../../../../src/engine/index.js';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('uservars', async (t) => {
  await t.exec('CREATE TABLE t (title TEXT, a INT)');
  await t.exec("INSERT INTO t (id, title, a) VALUES (1, 'a', 5), (2, 'b', 6), (3, 'c', 7)");
});

const sql = (text: string): Promise<Result> => t.last(text);
async function ids(text: string): Promise<unknown[]> {
  const r = await sql(text);
  if (r.kind !== 'rows') throw new Error(JSON.stringify(r));
  return r.rows.map((x) => x[0]);
}

it('filters SELECT, UPDATE and DELETE by a global list, in any session', async () => {
  expect(await sql('SELECT id FROM t WHERE id IN @ids')).toMatchObject({ kind: 'error', message: "table t: undefined global variable '@ids'" });
  expect(await sql('SET GLOBAL @ids = (3, 1)')).toMatchObject({ kind: 'ok' });
  expect(await ids('SELECT id FROM t WHERE id IN @IDS')).toEqual([1n, 3n]);
  expect(await ids('SELECT id FROM t WHERE id NOT IN @ids')).toEqual([2n]);
  expect(await ids('SELECT id FROM t WHERE a = 6 OR id IN @ids ORDER BY id ASC')).toEqual([1n, 2n, 3n]);
  expect(await sql('UPDATE t SET a = 9 WHERE id IN @ids')).toMatchObject({ kind: 'ok', affected: 2 });
  expect(await ids('SELECT id FROM t WHERE a = 9')).toEqual([1n, 3n]);
  // a new SET replaces the list for the statements after it
  await sql('SET GLOBAL @ids = (2)');
  expect(await sql('DELETE FROM t WHERE id IN @ids')).toMatchObject({ kind: 'ok', affected: 1 });
  expect(await ids('SELECT id FROM t')).toEqual([1n, 3n]);
});

it('a missing table is the error before an undefined variable, as searchd makes the filter only with the table', async () => {
  expect(await sql('SELECT id FROM nosuch WHERE id IN @undefined_list')).toMatchObject({ kind: 'error', message: "unknown local table(s) 'nosuch' in search request" });
  const del = await sql('DELETE FROM nosuch WHERE id IN @undefined_list');
  expect(del.kind === 'error' && del.message).toMatch(/nosuch/);
  expect(await sql('SELECT id FROM t WHERE id IN @undefined_list')).toMatchObject({ kind: 'error', message: "table t: undefined global variable '@undefined_list'" });
});

it('SHOW GLOBAL VARIABLES lists each with its value count; the bare form does not', async () => {
  await sql('SET GLOBAL @ids = (1, 2, 3)');
  const g = await sql("SHOW GLOBAL VARIABLES LIKE '@%'");
  expect(g.kind === 'rows' && g.rows).toEqual([['@ids', '3']]);
  const s = await sql("SHOW VARIABLES LIKE '@%'");
  expect(s.kind === 'rows' && s.rows).toEqual([]);
});

// qa27's fuzzer: SET GLOBAL @x = (1e309) was an internal RangeError (BigInt of Infinity), logged as one
it('a value that is not a finite number is refused, and the list it would replace is kept', async () => {
  await sql('SET GLOBAL @inf = (4, 5)');
  for (const v of ['1e309', '-1e309', '1, 2e400']) {
    expect(await sql(`SET GLOBAL @inf = (${v})`)).toMatchObject({ kind: 'error', message: 'SET GLOBAL @inf takes a list of numbers, as (1, 2, 3)' });
  }
  expect(await ids('SELECT id FROM t WHERE a IN @inf')).toEqual([1n]);
});

it('HAVING ... IN @name filters the groups by the list (was no group at all)', async () => {
  await sql("INSERT INTO t (id, title, a) VALUES (4, 'd', 6)");
  await sql('SET GLOBAL @counts = (2)');
  const r = await sql('SELECT a, COUNT(*) c FROM t GROUP BY a HAVING c IN @counts');
  expect(r.kind === 'rows' && r.rows).toEqual([[6, 2n]]);
  const n = await sql('SELECT a, COUNT(*) c FROM t GROUP BY a HAVING c NOT IN @counts ORDER BY a ASC');
  expect(n.kind === 'rows' && n.rows).toEqual([[5, 1n], [7, 1n]]);
  expect(await sql('SELECT a, COUNT(*) c FROM t GROUP BY a HAVING c IN @nope')).toMatchObject({ kind: 'error', message: "table t: undefined global variable '@nope'" });
});

it('a user variable without GLOBAL, or GLOBAL with one value, is searchd\'s error (was accepted and dropped)', async () => {
  expect(await sql('SET @ids = 5')).toMatchObject({ kind: 'error', message: "Unknown session variable '@ids' in SET statement" });
  expect(await sql("SET SESSION @ids = 'x'")).toMatchObject({ kind: 'error', message: "Unknown session variable '@ids' in SET statement" });
  expect(await sql('SET @ids = (1, 2)')).toMatchObject({ kind: 'error', message: "P01: syntax error, unexpected '(' near '(1, 2)'" });
  expect(await sql('SET GLOBAL @ids = 5')).toMatchObject({ kind: 'error', message: "Unknown system variable '@ids'" });
  // none of them set the list
  expect(await sql('SELECT id FROM t WHERE id IN @ids')).toMatchObject({ kind: 'error', message: "table t: undefined global variable '@ids'" });
});

it('a bare name is the same form (searchd reads @x as an identifier): SET GLOBAL ids = (...) and IN ids', async () => {
  expect(await sql('SET GLOBAL picked = (3, 1)')).toMatchObject({ kind: 'ok' });
  expect(await ids('SELECT id FROM t WHERE id IN picked')).toEqual([1n, 3n]);
  expect(await ids('SELECT id FROM t WHERE id NOT IN picked')).toEqual([2n]);
  expect(await sql('SELECT id FROM t WHERE id IN nope')).toMatchObject({ kind: 'error', message: "table t: undefined global variable 'nope'" });
  // the @ form is another name
  expect(await sql('SELECT id FROM t WHERE id IN @picked')).toMatchObject({ kind: 'error', message: "table t: undefined global variable '@picked'" });
  expect(await sql('SET GLOBAL picked = 5')).toMatchObject({ kind: 'error', message: "Unknown system variable 'picked'" });
});
