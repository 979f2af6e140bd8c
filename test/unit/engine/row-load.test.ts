// The direct load path (Engine.loadRows, engine/row-load.ts): rows of literals become the same table an
// INSERT of the same values gives; a bad row is named and nothing of its batch is written; durable.
import { describe, expect, it } from 'vitest';
import { openEngine, newSession, type Engine } from '../../../src/engine/index.js';
import type { Literal } from '../../../src/engine/values/literal.js';
import { useTempEngine } from '../../helpers/temp-engine.js';

const CREATE = (name: string) =>
  `create table ${name} (title text, tag string, n uint, big bigint, f float, b bool, m multi, m64 multi64, j json) index_field_lengths=1`;
const COLUMNS = ['id', 'title', 'tag', 'n', 'big', 'f', 'b', 'm', 'm64', 'j'];

const int = (v: bigint | number): Literal => ({ t: 'int', v: BigInt(v) });
const str = (v: string): Literal => ({ t: 'string', v });
const NULL: Literal = { t: 'null' };

const ROWS: Literal[][] = [
  [int(1), str('hello big world'), str('a'), int(7), int(9223372036854775807n), { t: 'float', v: 1.5 }, int(1),
    { t: 'tuple', v: [int(3), int(1)] }, { t: 'tuple', v: [int(-1n)] }, { t: 'json', v: '{"k":[1,2]}' }],
  [int(2), str('second row'), NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL],
];

const t = useTempEngine('row-load', async (t) => {
  await t.exec(CREATE('a'));
  await t.exec(CREATE('b'));
});

const SELECT = (name: string) => `select id, title, tag, n, big, f, b, m, m64, j, title_len from ${name} order by id asc`;

describe('Engine.loadRows', () => {
  it('gives the rows an INSERT of the same values gives, token counts included', async () => {
    expect(await t.engine.loadRows!('a', { columns: COLUMNS, rows: ROWS }, false)).toEqual({ ok: true, written: 2 });
    await t.exec(`insert into b (id, title, tag, n, big, f, b, m, m64, j) values
      (1, 'hello big world', 'a', 7, 9223372036854775807, 1.5, 1, (3,1), (-1), '{"k":[1,2]}'), (2, 'second row', '', 0, 0, 0, 0, (), (), NULL)`);
    const got = await t.rows(SELECT('a'));
    expect(got).toEqual(await t.rows(SELECT('b')));
    expect(got[0]![10]).toBe(3);
    expect(await t.rows("select id from a where match('big')")).toEqual([[1n]]);
  });

  it('generates missing ids, takes columns in any order and case, replaces with replace', async () => {
    const r = await t.engine.loadRows!('a', { columns: ['TITLE', 'ID'], rows: [[str('x'), NULL], [str('y'), int(0)], [str('z'), int(5)]] }, false);
    expect(r).toEqual({ ok: true, written: 3 });
    const rows = (await t.rows('select id, title from a')).sort((x, y) => String(x[1]).localeCompare(String(y[1])));
    expect(rows.map((x) => x[1])).toEqual(['x', 'y', 'z']);
    expect(rows[2]![0]).toBe(5n);
    expect(rows[0]![0]).not.toBe(rows[1]![0]);
    expect(await t.engine.loadRows!('a', { columns: ['id', 'title'], rows: [[int(5), str('zz')]] }, true)).toEqual({ ok: true, written: 1 });
    expect(await t.rows('select title from a where id = 5')).toEqual([['zz']]);
  });

  it('names the row that stops a batch and writes nothing of it', async () => {
    await t.engine.loadRows!('a', { columns: ['id', 'title'], rows: [[int(1), str('one')]] }, false);
    const dup = await t.engine.loadRows!('a', { columns: ['id', 'title'], rows: [[int(2), str('two')], [int(1), str('again')]] }, false);
    expect(dup).toEqual({ ok: false, failedIndex: 1, error: "duplicate id '1'" });
    const twice = await t.engine.loadRows!('a', { columns: ['id', 'title'], rows: [[int(3), str('c')], [int(4), str('d')], [int(3), str('e')]] }, false);
    expect(twice).toMatchObject({ ok: false, failedIndex: 2 });
    // ascending ids (a file's usual order) against ids already in the table
    await t.engine.loadRows!('b', { columns: ['id', 'title'], rows: [[int(10), str('ten')]] }, false);
    const later = await t.engine.loadRows!('b', { columns: ['id', 'title'], rows: [[int(8), str('h')], [int(10), str('j')], [int(11), str('k')]] }, false);
    expect(later).toEqual({ ok: false, failedIndex: 1, error: "duplicate id '10'" });
    // a value no conversion takes ('x' is 0 in a uint: strtoul's, as searchd's INSERT reads it)
    const bad = await t.engine.loadRows!('a', { columns: ['id', 'n'], rows: [[int(6), int(1)], [int(7), { t: 'tuple', v: [int(1)] }]] }, false);
    expect(bad).toMatchObject({ ok: false, failedIndex: 1 });
    expect(bad.ok || bad.error).toContain('row 1, column 2');
    const neg = await t.engine.loadRows!('a', { columns: ['id', 'title'], rows: [[int(-3), str('x')]] }, false);
    expect(neg).toEqual({ ok: false, failedIndex: 0, error: 'Negative document ids are not allowed' });
    // past 2^63-1 the row is named too (it was found when the store wrote the key: a throw without a
    // row, which stopped `quarry import --data --skip-errors` instead of skipping the line)
    const over = await t.engine.loadRows!('a', { columns: ['id', 'title'], rows: [[int(5), str('x')], [int(9223372036854775808n), str('y')]] }, false);
    expect(over).toEqual({ ok: false, failedIndex: 1, error: 'document id out of range: 9223372036854775808' });
    expect(await t.engine.loadRows!('a', { columns: ['id', 'nope'], rows: [[int(9), str('x')]] }, false))
      .toEqual({ ok: false, failedIndex: 0, error: "unknown column: 'nope'" });
    expect(await t.engine.loadRows!('zz', { columns: ['id'], rows: [[int(9)]] }, false)).toEqual({ ok: false, failedIndex: 0, error: "table 'zz' absent" });
    expect(await t.rows('select id from a order by id asc')).toEqual([[1n]]);
  });

  it('is durable: the rows are there after a reopen', async () => {
    await t.engine.loadRows!('a', { columns: COLUMNS, rows: ROWS }, false);
    const before = await t.rows(SELECT('a'));
    await t.engine.close();
    let reopened: Engine | undefined;
    try {
      reopened = await openEngine({ dataDir: `${t.dir}/data` });
      const [r] = await reopened.execute(SELECT('a'), newSession());
      expect(r?.kind === 'rows' && r.rows).toEqual(before);
    } finally {
      await reopened?.close();
    }
  });
});
