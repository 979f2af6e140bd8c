// RAND() as a WHERE/HAVING filter or a GROUP BY key: searchd's grammar (sphinxql.y expr_ident) takes RAND
// there as a column name and fails at its '('; through a select-list alias it filters and groups.
import { expect, it } from 'vitest';
import type { Result } from '../../../src/engine/index.js';
import { useTempEngine } from '../../helpers/temp-engine.js';

const t = useTempEngine('rand-key', async (t) => {
  await t.exec('CREATE TABLE t (title TEXT, a INT)');
  await t.exec("INSERT INTO t (id, title, a) VALUES (1, 'x', 1), (2, 'y', 2), (3, 'z', 3)");
});

const sql = (text: string): Promise<Result> => t.last(text);

it.each([
  ['SELECT id FROM t WHERE RAND() < 0.5', "P01: syntax error, unexpected '(' near '() < 0.5'"],
  ['SELECT id FROM t WHERE a = 1 AND rand(5) > 0', "P01: syntax error, unexpected '(' near '(5) > 0'"],
  ['SELECT COUNT(*) FROM t GROUP BY RAND()', "P01: syntax error, unexpected '(' near '()'"],
  ['SELECT COUNT(*) FROM t GROUP BY a, RAND() LIMIT 1', "P01: syntax error, unexpected '(' near '() LIMIT 1'"],
  ['SELECT a, COUNT(*) FROM t GROUP BY a HAVING RAND() > 0', "P01: syntax error, unexpected '(' near '() > 0'"],
])('%s is searchd parse error', async (text, message) => {
  expect(await sql(text)).toMatchObject({ kind: 'error', code: 'PARSE_ERROR', message });
});

it('filters and groups by a RAND() alias', async () => {
  const r = await sql('SELECT id, RAND() r FROM t WHERE r < 2 OPTION rand_seed=7');
  expect(r.kind === 'rows' && r.rows.map((x) => x[0])).toEqual([1n, 2n, 3n]);
  // a + RAND() keeps each a apart (0 <= RAND() < 1): one group per row
  const g = await sql('SELECT COUNT(*) c, a + RAND() k FROM t GROUP BY k');
  expect(g.kind === 'rows' && g.rows.map((x) => x[0])).toEqual([1n, 1n, 1n]);
});
