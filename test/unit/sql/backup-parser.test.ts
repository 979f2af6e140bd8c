import { describe, expect, it } from 'vitest';
import { parseSql } from '../../../src/sql/index.js';

const one = (q: string) => parseSql(q)[0];

describe('BACKUP', () => {
  it('reads tables, quoted and bare paths and options as the manual writes them', () => {
    expect(one("BACKUP TO '/path/with spaces'")).toMatchObject({ kind: 'backup', tables: [], path: '/path/with spaces', options: [] });
    expect(one('BACKUP TABLES a, B TO /tmp/backup-dir')).toMatchObject({ tables: ['a', 'b'], path: '/tmp/backup-dir' });
    expect(one('BACKUP TABLE a TO /tmp OPTION async = yes, compress = 0')).toMatchObject({
      tables: ['a'], path: '/tmp',
      options: [{ name: 'async', value: { kind: 'ident', name: 'yes' } }, { name: 'compress', value: { kind: 'int' } }],
    });
    expect(one('BACKUP TO /tmp/x OPTIONS async=1;')).toMatchObject({ path: '/tmp/x' });
  });

  it('fails on a missing path or TO', () => {
    expect(() => parseSql('BACKUP TO')).toThrow(/syntax error/);
    expect(() => parseSql('BACKUP TABLE a')).toThrow(/syntax error/);
    expect(() => parseSql('BACKUP TO /tmp OPTION')).toThrow(/syntax error/);
  });
});
