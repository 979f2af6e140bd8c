import { describe, expect, it } from 'vitest';
import { describeRows, showCreateTable, showFieldsRows, tableSettingsText } from '../../../src/engine/schema-text.js';
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
  // Manticore's settings formatters print a setting only when it differs from the default, so a table
  // created with min_infix_len='0' or ALTERed to exceptions='' shows neither (SHOW CREATE TABLE, SETTINGS)
  it('leaves out settings at their default value and empty ones', () => {
    const s: TableSchema = { name: 't', columns: [{ name: 'title', type: 'text', indexed: true, stored: true }], settings: {
      min_prefix_len: '0', min_infix_len: '0', index_exact_words: '0', html_strip: '0', charset_table: 'non_cont',
      min_word_len: '1', morphology: '', stopwords: '', exceptions: '', dict: 'keywords', ngram_len: '0', blend_chars: '',
    } };
    expect(showCreateTable(s)).toBe('CREATE TABLE t (\nid bigint,\ntitle text\n)');
    expect(tableSettingsText(s)).toBe('');
    const set: TableSchema = { ...s, settings: { ...s.settings, min_infix_len: '2', html_strip: '1', min_word_len: '2', morphology: 'stem_en' } };
    expect(showCreateTable(set)).toBe("CREATE TABLE t (\nid bigint,\ntitle text\n) min_infix_len='2' html_strip='1' min_word_len='2' morphology='stem_en'");
    expect(tableSettingsText(set)).toBe('min_infix_len = 2\nhtml_strip = 1\nmin_word_len = 2\nmorphology = stem_en');
  });
});
