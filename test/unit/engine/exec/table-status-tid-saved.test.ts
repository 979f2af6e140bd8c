// SHOW TABLE t STATUS' tid_saved as searchd's m_iSavedTID (searchd.cpp AddDiskIndexStatus): the write
// sequence the table's own saved files cover, the log replayed past it at startup. quarry left the row out.
import { expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('tid-saved', async (t) => {
  await t.exec('CREATE TABLE t (title TEXT)');
  await t.exec("INSERT INTO t (id, title) VALUES (1, 'a')");
  await t.exec("INSERT INTO t (id, title) VALUES (2, 'b')");
});

const status = async () => new Map((await t.rows('SHOW TABLE t STATUS')) as [string, string][]);

it('is behind tid until a checkpoint saves the table, then equal to it', async () => {
  const before = await status();
  expect(BigInt(before.get('tid_saved')!)).toBeLessThan(BigInt(before.get('tid')!));
  await t.engine.checkpointNow!(); // the checkpoint pass the timer runs
  const after = await status();
  expect(after.get('tid_saved')).toBe(after.get('tid'));
  await t.exec("INSERT INTO t (id, title) VALUES (3, 'c')");
  const later = await status();
  expect(later.get('tid_saved')).toBe(after.get('tid'));
  expect(BigInt(later.get('tid')!)).toBeGreaterThan(BigInt(after.get('tid')!));
});
