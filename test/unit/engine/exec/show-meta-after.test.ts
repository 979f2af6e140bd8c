// SHOW META as searchd keeps a session's last meta (searchd.cpp BuildMeta, FreezeLastMeta,
// ClientSession_c::Execute): quarry printed nothing before the first search, kept describing the last
// good search after a failed one, a parse error or a write, put `warning` last and listed the keywords
// in query order (searchd: error and warning first, keywords in byte order, MakeSortedWordStat).
import { expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('show-meta-after', async (t) => {
  await t.exec('CREATE TABLE t (title TEXT, a INT)');
  await t.exec("INSERT INTO t (id, title, a) VALUES (1, 'hello world', 1), (2, 'hello there', 2)");
});

const meta = async () => (await t.rows('SHOW META')).map((r) => `${r[0]}=${r[1]}`);
const EMPTY = ['total=0', 'total_found=0', 'total_relation=eq', 'time=0.000'];

it('a session that has not searched: the empty meta\'s four rows', async () => {
  expect(await meta()).toEqual(EMPTY);
});

it('keywords in byte order, whatever the query\'s order', async () => {
  await t.exec("SELECT * FROM t WHERE MATCH('world hello')");
  const rows = await meta();
  expect(rows.filter((r) => r.startsWith('keyword'))).toEqual(['keyword[0]=hello', 'keyword[1]=world']);
  expect(rows).toContain('docs[0]=2');
});

it('a failed search or a statement that does not parse: its error first, zero totals', async () => {
  await t.exec("SELECT * FROM t WHERE MATCH('hello')");
  await t.exec('SELECT * FROM nope');
  expect(await meta()).toEqual(["error=unknown local table(s) 'nope' in search request", ...EMPTY]);
  await t.exec('SELEKT 1');
  expect(await meta()).toEqual(["error=P02: syntax error, unexpected identifier near 'SELEKT 1'", ...EMPTY]);
});

it('a write starts an empty meta; other statements keep it', async () => {
  await t.exec("SELECT * FROM t WHERE MATCH('hello')");
  await t.exec('SHOW TABLES');
  expect(await meta()).toContain('keyword[0]=hello');
  await t.exec("INSERT INTO t (id, title) VALUES (3, 'x')");
  expect(await meta()).toEqual(EMPTY);
  await t.exec("SELECT * FROM t WHERE MATCH('hello')");
  await t.exec('UPDATE t SET a = 5 WHERE id = 1');
  expect(await meta()).toEqual(EMPTY);
});

it('after FACET: the main query\'s meta with every query\'s time added (searchd bUseFirstMeta)', async () => {
  const out = await t.exec("SELECT * FROM t WHERE MATCH('hello') FACET a FACET id");
  const times = out.map((r) => (r.kind === 'rows' ? r.meta?.timeMs ?? 0 : 0));
  expect(times.length).toBe(3);
  const rows = await meta();
  expect(rows.slice(0, 3)).toEqual(['total=2', 'total_found=2', 'total_relation=eq']);
  expect(rows[3]).toBe(`time=${(times.reduce((a, b) => a + b, 0) / 1000).toFixed(3)}`);
});
