import { describe, expect, it } from 'vitest';
import { parseSql } from '../../../src/sql/index.js';

const one = (q: string) => parseSql(q)[0];

describe('LOCK TABLES / UNLOCK TABLES', () => {
  it('reads mysqldump\'s forms, comments included', () => {
    expect(one('LOCK TABLES `t` READ /*!32311 LOCAL */,`T2` READ /*!32311 LOCAL */')).toMatchObject({ kind: 'lock_tables', tables: ['t', 't2'], write: false });
    expect(one('LOCK TABLES t READ LOCAL, u WRITE')).toMatchObject({ tables: ['t', 'u'], write: true });
    expect(one('UNLOCK TABLES;')).toMatchObject({ kind: 'unlock_tables' });
  });

  it('fails without a lock type or TABLES', () => {
    // searchd's extra grammar rejects them, so it reports the second grammar's error at the first word,
    // quoting the statement without its ';' (CLT expected-errors/test-lock-tables-errors)
    expect(() => parseSql('LOCK TABLES t')).toThrow("P02: syntax error, unexpected identifier near 'LOCK TABLES t'");
    expect(() => parseSql('UNLOCK t')).toThrow("P02: syntax error, unexpected identifier near 'UNLOCK t'");
    expect(() => parseSql('LOCK TABLES;')).toThrow("P02: syntax error, unexpected identifier near 'LOCK TABLES'");
    expect(() => parseSql('LOCK TABLE t READ')).toThrow("P02: syntax error, unexpected identifier near 'LOCK TABLE t READ'");
    expect(() => parseSql('LOCK TABLES t READ WRITE;')).toThrow("P02: syntax error, unexpected identifier near 'LOCK TABLES t READ WRITE'");
    expect(() => parseSql('UNLOCK TABLES t;')).toThrow("P02: syntax error, unexpected identifier near 'UNLOCK TABLES t'");
  });
});

describe('SELECT over INFORMATION_SCHEMA', () => {
  it('keeps the selected columns and the string conditions, subqueries and all', () => {
    const st = one("SELECT LOGFILE_GROUP_NAME, FILE_NAME, ENGINE FROM INFORMATION_SCHEMA.FILES WHERE FILE_TYPE = 'UNDO LOG' AND LOGFILE_GROUP_NAME IN (SELECT DISTINCT LOGFILE_GROUP_NAME FROM INFORMATION_SCHEMA.FILES WHERE TABLESPACE_NAME IN (SELECT DISTINCT TABLESPACE_NAME FROM INFORMATION_SCHEMA.PARTITIONS WHERE TABLE_SCHEMA IN ('manticore', 'b'))) GROUP BY LOGFILE_GROUP_NAME ORDER BY LOGFILE_GROUP_NAME");
    expect(st).toMatchObject({ kind: 'information_schema', table: 'FILES', columns: ['LOGFILE_GROUP_NAME', 'FILE_NAME', 'ENGINE'] });
    expect((st as { where: Map<string, string[]> }).where).toEqual(new Map([['FILE_TYPE', ['UNDO LOG']], ['TABLE_SCHEMA', ['manticore', 'b']]]));
    const t = one("select column_name, c.data_type from information_schema.columns c where table_schema=database() and table_name='t' order by ordinal_position");
    expect(t).toMatchObject({ table: 'COLUMNS', columns: ['COLUMN_NAME', 'DATA_TYPE'] });
    expect((t as { where: Map<string, string[]> }).where).toEqual(new Map([['TABLE_SCHEMA', ['Manticore']], ['TABLE_NAME', ['t']]]));
    expect(one('SELECT COUNT(*) FROM `information_schema`.`TABLES`')).toMatchObject({ table: 'TABLES', columns: ['COUNT(*)'] });
  });

  it('leaves every other SELECT to the SphinxQL grammar', () => {
    expect(one('SELECT * FROM information_schema')).toMatchObject({ kind: 'select' });
    expect(() => parseSql('SELECT * FROM t.information_schema.x')).toThrow(/syntax error/);
  });
});

describe('SQL_NO_CACHE and savepoints', () => {
  it('marks a SELECT whose leading comment names SQL_NO_CACHE as asking for every row', () => {
    expect(one('SELECT /*!40001 SQL_NO_CACHE */ * FROM `t`')).toMatchObject({ kind: 'select', allRows: true });
    expect(one('SELECT * FROM t /* SQL_NO_CACHE */')).not.toHaveProperty('allRows');
  });

  it('reads SAVEPOINT, ROLLBACK TO [SAVEPOINT] and RELEASE SAVEPOINT', () => {
    expect(one('SAVEPOINT sp')).toMatchObject({ kind: 'savepoint', action: 'set', name: 'sp' });
    expect(one('ROLLBACK TO SAVEPOINT sp')).toMatchObject({ action: 'rollback', name: 'sp' });
    expect(one('ROLLBACK TO Sp')).toMatchObject({ action: 'rollback', name: 'sp' });
    expect(one('RELEASE SAVEPOINT sp')).toMatchObject({ action: 'release', name: 'sp' });
    expect(one('ROLLBACK')).toMatchObject({ kind: 'rollback' });
    expect(() => parseSql('SAVEPOINT')).toThrow(/syntax error/);
  });
});
