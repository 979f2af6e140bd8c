// min_prefix_len / min_infix_len / max_substring_len as searchd reads them (indexsettings.cpp
// `Max ( hIndex.GetInt ( "min_infix_len" ), 0 )`, CSphVariant's atoi; SHOW CREATE TABLE lists them only
// when not 0): 'x' is 0 and so no setting, '3x' is 3. quarry stored and showed min_infix_len='x'.
import { expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('int-table-settings');
const create = async () => String((await t.rows('SHOW CREATE TABLE t'))[0]![1]);

it('CREATE TABLE reads them as C integers: a word is no setting, a number leading a word is the number', async () => {
  await t.exec("CREATE TABLE t (title TEXT) min_infix_len='x' min_prefix_len='3x' max_substring_len='-4'");
  const text = await create();
  expect(text).toContain("min_prefix_len='3'");
  expect(text).not.toContain('min_infix_len');
  expect(text).not.toContain('max_substring_len');
});

it('ALTER TABLE too: a word drops the earlier value', async () => {
  await t.exec("CREATE TABLE t (title TEXT) min_infix_len='2'");
  await t.exec("ALTER TABLE t min_infix_len='y'");
  expect(await create()).not.toContain('min_infix_len');
  await t.exec("ALTER TABLE t min_infix_len=' 3'");
  expect(await create()).toContain("min_infix_len='3'");
});
