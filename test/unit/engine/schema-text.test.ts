import { describe, expect, it } from 'vitest';
import { describeRows, showCreateTable, showFieldsRows } from '../../../src/engine/schema-text.js';
import type { TableSchema } from '../../../src/schema/types.js';

const test2: TableSchema = {
  name: 'test2',
  columns: [
    { name: 'title', type: 'text', indexed: true, stored: false },
    { name: 'body', type: 'text', indexed: true, stored: true },
    { name: 'tag', type: 'uint', indexed: false, stored: false },
    { name: 'weight', type: 'float', indexed: false, stored: false },
    { name: 'flags', type: 'uint', indexed: false, stored: false, bits: 2 },
  ],
  settings: {},
};

describe('schema text', () => {
  it('DESCRIBE lists id, fields, then attributes with Manticore properties', () => {
    expect(describeRows(test2)).toEqual([
      ['id', 'bigint', ''], ['title', 'text', 'indexed'], ['body', 'text', 'indexed stored'],
      ['tag', 'uint', ''], ['weight', 'float', ''], ['flags', 'uint:2', ''],
    ]);
  });

  it('fields come before attributes whatever the declaration order', () => {
    const s: TableSchema = { name: 't', settings: {}, columns: [
      { name: 'a', type: 'uint', indexed: false, stored: false },
      { name: 'b', type: 'text', indexed: true, stored: true },
      { name: 'c', type: 'string', indexed: true, stored: false },
    ] };
    expect(describeRows(s).map((r) => r[0])).toEqual(['id', 'b', 'c', 'a']);
    expect(describeRows(s)[2]).toEqual(['c', 'string', 'indexed attribute']);
  });

  it('SHOW CREATE TABLE prints create-time type names and non-default settings', () => {
    expect(showCreateTable(test2)).toBe(
      'CREATE TABLE test2 (\nid bigint,\ntitle text indexed,\nbody text,\ntag integer,\nweight float,\nflags bit(2)\n)');
    const morph = { ...test2, settings: { morphology: 'stem_en', min_prefix_len: '3' } };
    expect(showCreateTable(morph).endsWith("\n) min_prefix_len='3' morphology='stem_en'")).toBe(true);
  });

  it('SHOW FIELDS has MySQL columns', () => {
    expect(showFieldsRows(test2)[0]).toEqual(['id', 'bigint', 'NO', '', '', '']);
  });
});
