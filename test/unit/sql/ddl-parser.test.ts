import { describe, expect, it } from 'vitest';
import type { ColumnDef } from '../../../src/sql/ast.js';
import { parseSql } from '../../../src/sql/parse-sql.js';
import { errorOf, one } from './helpers.js';

const cols = (sql: string): Partial<ColumnDef>[] => one(sql, 'create_table').columns;
const col = (name: string, type: string, indexed = false, stored = false, extra: Partial<ColumnDef> = {}) =>
  ({ name, type, indexed, stored, options: {}, ...extra });

describe('CREATE TABLE', () => {
  it('reads text flags: plain = indexed+stored, or exactly the flags given', () => {
    expect(cols('create table t (a text, b text indexed, c text stored, d text stored indexed, e text indexed stored)')).toEqual([
      col('a', 'text', true, true), col('b', 'text', true, false), col('c', 'text', false, true),
      col('d', 'text', true, true), col('e', 'text', true, true),
    ]);
  });

  it('reads string attributes, string attribute indexed, and string used as a field', () => {
    expect(cols('create table t (a string, b string attribute, c string attribute indexed, d string indexed, e string stored, f text attribute)')).toEqual([
      col('a', 'string'), col('b', 'string'), col('c', 'string', true), col('d', 'text', true, false),
      col('e', 'text', false, true), col('f', 'string'),
    ]);
  });

  it('maps every attribute type to its DESCRIBE word', () => {
    const types = cols('CREATE TABLE t (a int, b integer, c uint, d bigint, e float, f bool, g timestamp, h json, i multi, j mva, k multi64, l mva64, m float_vector)')
      .map((c) => c.type);
    expect(types).toEqual(['uint', 'uint', 'uint', 'bigint', 'float', 'bool', 'timestamp', 'json', 'mva', 'mva', 'mva64', 'mva64', 'float_vector']);
  });

  it('reads bit(N) and per-column options', () => {
    expect(cols("create table t (flags bit(2), p float engine='columnar' fast_fetch='0', s string hash='crc32')")).toEqual([
      col('flags', 'uint', false, false, { bits: 2 }),
      col('p', 'float', false, false, { options: { engine: 'columnar', fast_fetch: '0' } }),
      col('s', 'string', false, false, { options: { hash: 'crc32' } }),
    ]);
  });

  it('accepts and drops an id column (id bigint, id int, bare id); keeps name case', () => {
    expect(cols('CREATE TABLE t (id INT, Value TEXT)')).toEqual([col('Value', 'text', true, true)]);
    expect(cols('CREATE TABLE t (id bigint, v text)')).toHaveLength(1);
    expect(cols('CREATE TABLE t (id, v text)')).toHaveLength(1);
  });

  it('accepts any word as a column name, even a type word', () => {
    expect(cols('CREATE TABLE test(title text, text text)').map((c) => c.name)).toEqual(['title', 'text']);
  });

  it('reads IF NOT EXISTS, settings as strings or numbers, and no column list', () => {
    const s = one("create table if not exists T1 (title text) Morphology='stem_en' min_infix_len = 3 charset_table='non_cjk, U+002E'", 'create_table');
    expect(s).toMatchObject({ table: 'T1', ifNotExists: true });
    expect(s.settings).toEqual({ morphology: 'stem_en', min_infix_len: '3', charset_table: 'non_cjk, U+002E' });
    expect(one('create table bare', 'create_table')).toMatchObject({ table: 'bare', columns: [], settings: {} });
  });

  it("reports Manticore's P03 errors", () => {
    expect(errorOf('create table test1(title string attribute stored)')).toBe("P03: unable to create a stored attribute 'title' near ')'");
    expect(errorOf('create table t (Title text attribute stored, x int)')).toBe("P03: unable to create a stored attribute 'title' near ', x int)'");
    expect(errorOf('create table t (a foo)')).toBe("P03: unknown column type 'foo' near ')'");
    expect(errorOf('create table t (a, b text)')).toBe("P03: expected 'id', got 'a' near ', b text)'");
    expect(errorOf('create table t (a int indexed)')).toBe("P03: syntax error, unexpected INDEXED near 'indexed)'");
    expect(errorOf('create table t ()')).toBe("P03: syntax error, unexpected ')' near ')'");
    expect(errorOf("create table t (a text) x=y")).toBe("P03: syntax error, unexpected tablename, expecting string near 'y'");
  });
});

describe('CREATE TABLE LIKE, DROP TABLE', () => {
  it('reads LIKE with and without WITH DATA', () => {
    expect(one('create table test4b like test4', 'create_table_like')).toMatchObject({ table: 'test4b', like: 'test4', withData: false });
    expect(one('CREATE TABLE IF NOT EXISTS `table2` LIKE `table1` WITH DATA;', 'create_table_like')).toMatchObject({
      table: 'table2', like: 'table1', ifNotExists: true, withData: true,
    });
  });

  it('reports trailing words after LIKE at WITH, as the daemon does', () => {
    expect(errorOf('CREATE TABLE IF NOT EXISTS `table_5` LIKE `table3` WITH DATA abs')).toBe(
      "P03: syntax error, unexpected tablename, expecting $end near 'WITH DATA abs'",
    );
  });

  it('reads DROP TABLE [IF EXISTS]', () => {
    expect(one('drop table test1', 'drop_table')).toMatchObject({ table: 'test1', ifExists: false });
    expect(one('DROP TABLE IF EXISTS t OPTION force=1', 'drop_table')).toMatchObject({
      table: 't', ifExists: true, options: [{ name: 'force' }],
    });
  });
});

describe('ALTER TABLE', () => {
  it('adds, modifies and drops columns', () => {
    expect(one('ALTER TABLE t ADD COLUMN c bit(3)', 'alter_table').action).toEqual({ kind: 'add_column', column: col('c', 'uint', false, false, { bits: 3 }) });
    expect(one('alter table t add column s string attribute indexed', 'alter_table').action).toEqual({ kind: 'add_column', column: col('s', 'string', true) });
    expect(one('alter table t modify column n bigint', 'alter_table').action).toEqual({ kind: 'modify_column', column: col('n', 'bigint') });
    expect(one('ALTER TABLE t DROP COLUMN c', 'alter_table').action).toEqual({ kind: 'drop_column', column: 'c' });
  });

  it('changes settings and reconfigures', () => {
    expect(one("ALTER TABLE t morphology='stem_en' min_word_len='2'", 'alter_table').action).toEqual({
      kind: 'settings', settings: { morphology: 'stem_en', min_word_len: '2' }, all: { morphology: ['stem_en'], min_word_len: ['2'] },
    });
    expect(one("ALTER TABLE d local='a' local='b'", 'alter_table').action).toEqual({ kind: 'settings', settings: { local: 'a' }, all: { local: ['a', 'b'] } });
    expect(one('ALTER TABLE t REBUILD SECONDARY', 'alter_table').action).toEqual({ kind: 'rebuild_secondary' });
    expect(one('ALTER TABLE t RECONFIGURE', 'alter_table').action).toEqual({ kind: 'reconfigure' });
    expect(one('ALTER RTINDEX t RECONFIGURE', 'alter_table').action).toEqual({ kind: 'reconfigure' });
  });
});

// IMPORT TABLE (searchd adopts another searchd's files; CLT core/test-import-table): parsed with
// searchd's P03 syntax errors and refused by name. Before, every IMPORT was a P02 error at its first word.
describe('IMPORT TABLE', () => {
  it('is refused by name once it parses; its syntax errors are searchd\'s', () => {
    expect(() => parseSql("import table t2 from '/data/t/t'")).toThrow(/^IMPORT TABLE is not supported: quarry does not read Manticore's table files/);
    // searchd's lexer reads '-5' as one integer token; quarry's names the '-' (the rest of the text is the same)
    expect(errorOf("import table test-5 from '/data/t/t'")).toBe("P03: syntax error, unexpected '-', expecting FROM near '-5 from '/data/t/t''");
    // ddl.l passes a character the grammar does not use through, which bison names $undefined; after the
    // name of an ALTER only the end may follow (CLT core/test-alter-table-distributed.rec)
    expect(errorOf("ALTER TABLE invalid-name local='index201' local='index204'")).toBe("P03: syntax error, unexpected $undefined, expecting $end near '-name local='index201' local='index204''");
    expect(errorOf('import table t2 from x')).toMatch(/^P03: syntax error, unexpected .*, expecting string near 'x'/);
  });
});
