// SHOW TABLE t SETTINGS (Manticore's manual): one row, `settings`, the table's settings as config-file
// lines. Before, quarry parsed the statement and answered 'SHOW TABLE_SETTINGS is not supported'.
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('show-table-settings');

describe('SHOW TABLE t SETTINGS', () => {
  it('lists the settings CREATE TABLE gave, one per line', async () => {
    await t.exec("create table forum (f text) min_prefix_len='3' charset_table='0..9, A..Z->a..z, _, -, a..z'");
    expect(await t.rows('show table forum settings')).toEqual([
      ['settings', 'min_prefix_len = 3\ncharset_table = 0..9, A..Z->a..z, _, -, a..z'],
    ]);
    await t.exec('create table plain (f text)');
    expect(await t.rows('show table plain settings')).toEqual([['settings', '']]);
  });
  it('an unknown table is an error', async () => {
    expect(JSON.stringify(await t.exec('show table nosuch settings'))).toContain("no such table 'nosuch'");
  });
});
