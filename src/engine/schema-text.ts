/** DESCRIBE rows and SHOW CREATE TABLE text, as Manticore prints them (spec sections 9 and 14). */
import type { Column, TableSchema } from '../schema/types.js';
import { settingFileNames } from '../text/setting-texts.js';
import { resolveStopwordFile } from '../text/stopwords.js';
import { textFiles } from '../text/text-files.js';

/** Settings SHOW CREATE TABLE prints, in Manticore's dump order; unknown ones follow sorted. */
const SETTINGS_ORDER = [
  'engine', 'access_plain_attrs', 'access_blob_attrs', 'access_doclists', 'access_hitlists',
  'attr_update_reserve', 'docstore_block_size', 'docstore_compression', 'docstore_compression_level',
  'min_prefix_len', 'min_infix_len', 'max_substring_len', 'index_exact_words', 'index_field_lengths',
  'index_sp', 'index_zones', 'html_strip', 'html_index_attrs', 'html_remove_elements',
  'charset_table', 'ignore_chars', 'blend_chars', 'blend_mode', 'ngram_len', 'ngram_chars',
  // exceptions is a tokenizer setting: searchd prints it before the dictionary's (morphology, stopwords, wordforms)
  'phrase_boundary', 'phrase_boundary_step', 'min_word_len', 'exceptions', 'exceptions_list', 'morphology',
  'stopwords', 'stopwords_list', 'wordforms', 'wordforms_list', 'expand_keywords', 'dict', 'rt_mem_limit',
];

/** Columns as Manticore lists them: full-text fields first, then attributes, each in declaration order. */
export function orderedColumns(schema: TableSchema): Column[] {
  const fields = schema.columns.filter((c) => c.type === 'text' || (c.type === 'string' && c.indexed));
  const attrs = schema.columns.filter((c) => !fields.includes(c));
  return [...fields, ...attrs];
}

function descType(c: Column): string {
  if (c.tokenCount) return 'tokencount';
  if (c.type === 'uint' && c.bits && c.bits !== 32) return `uint:${c.bits}`;
  return c.type;
}

function descProperties(c: Column): string {
  if (c.type === 'text') return [c.indexed ? 'indexed' : '', c.stored ? 'stored' : ''].filter(Boolean).join(' ');
  if (c.type === 'string' && c.indexed) return 'indexed attribute';
  return '';
}

/** DESCRIBE t: rows of (Field, Type, Properties), id first. */
export function describeRows(schema: TableSchema): string[][] {
  return [['id', 'bigint', ''], ...orderedColumns(schema).map((c) => [c.name, descType(c), descProperties(c)])];
}

/** SHOW FIELDS FROM t: MySQL's column shape (Field, Type, Null, Key, Default, Extra). */
export function showFieldsRows(schema: TableSchema): string[][] {
  return describeRows(schema).map(([f, t]) => [f, t, 'NO', '', '', '']);
}

const CREATE_TYPE_NAMES: Record<string, string> = {
  uint: 'integer', bigint: 'bigint', float: 'float', bool: 'bool', timestamp: 'timestamp',
  json: 'json', mva: 'multi', mva64: 'multi64', string: 'string attribute',
};

function createColumn(c: Column, q: (name: string) => string): string {
  if (c.type === 'text') {
    const flags = c.indexed && c.stored ? '' : `${c.indexed ? ' indexed' : ''}${c.stored ? ' stored' : ''}`;
    return `${q(c.name)} text${flags}`;
  }
  if (c.type === 'string' && c.indexed) return `${q(c.name)} string indexed attribute`;
  if (c.type === 'uint' && c.bits && c.bits !== 32) return `${q(c.name)} bit(${c.bits})`;
  return `${q(c.name)} ${CREATE_TYPE_NAMES[c.type]}`;
}

/**
 * Values Manticore's settings formatters (CSphIndexSettings, tokenizer and dictionary Format) leave out as
 * the default: a setting given or ALTERed back to its default is not printed, nor an empty one (`exceptions=''`).
 */
const DEFAULT_VALUES: Record<string, readonly string[]> = {
  min_prefix_len: ['0'], min_infix_len: ['0'], max_substring_len: ['0'], phrase_boundary_step: ['0'], ngram_len: ['0'],
  index_exact_words: ['0'], html_strip: ['0'], index_field_lengths: ['0'], index_sp: ['0'],
  min_word_len: ['0', '1'], min_stemming_len: ['0', '1'], stopword_step: ['1'], overshort_step: ['1'],
  charset_table: ['non_cont'], dict: ['keywords'], bigram_index: ['none'], binlog: ['1'],
};

function isDefault(key: string, value: string): boolean {
  return value === '' || (DEFAULT_VALUES[key]?.includes(value.trim().toLowerCase()) ?? false);
}

function settingKeys(schema: TableSchema): string[] {
  const keys = Object.keys(schema.settings).filter((k) => !isDefault(k, schema.settings[k]));
  const known = SETTINGS_ORDER.filter((k) => keys.includes(k));
  return [...known, ...keys.filter((k) => !SETTINGS_ORDER.includes(k)).sort()];
}

/**
 * SHOW CREATE TABLE's `output_words`: 'list' (searchd's default) prints what the stopwords, wordforms
 * and exceptions files hold as `*_list` settings, so the statement recreates the table with no file;
 * 'file' prints the settings' paths (the table's copies, table-files.ts).
 */
export type OutputWords = 'list' | 'file';

function settingsText(schema: TableSchema, words: OutputWords): string {
  const settings = words === 'list' ? withListedFiles(schema.settings) : schema.settings;
  return settingKeys({ ...schema, settings }).map((k) => `${k}='${settings[k].replace(/'/g, "\\'")}'`).join(' ');
}

/**
 * searchd's FormatFileContent: each file's non-empty lines as entries joined by '; ' (`;` escaped),
 * stopwords split further into their words; a file that cannot be read adds nothing.
 */
function withListedFiles(settings: TableSchema['settings']): TableSchema['settings'] {
  const out = { ...settings };
  for (const key of ['exceptions', 'stopwords', 'wordforms']) {
    const value = out[key];
    if (value === undefined) continue;
    delete out[key];
    if ((out[`${key}_list`] ?? '') !== '') continue;
    const entries: string[] = [];
    for (const name of settingFileNames(value)) {
      let text: string;
      try {
        text = textFiles().read(key === 'stopwords' ? resolveStopwordFile(name) : name);
      } catch {
        continue;
      }
      for (const line of text.replace(/;/g, '\\;').split(/[\r\n]+/)) {
        if (key === 'stopwords') entries.push(...line.split(/[ \t]+/).filter(Boolean));
        else if (line !== '') entries.push(line);
      }
    }
    if (entries.length > 0) out[`${key}_list`] = entries.join('; ');
  }
  return out;
}

/** SHOW TABLE t SETTINGS' one value: the settings as config-file lines (`name = value`), CREATE TABLE's order. */
export function tableSettingsText(schema: TableSchema): string {
  return settingKeys(schema).map((k) => `${k} = ${schema.settings[k]}`).join('\n');
}

/**
 * SHOW CREATE TABLE t: `CREATE TABLE t (\nid bigint,\n...\n) setting='v' ...`; with `quote` (the session's
 * sql_quote_show_create, which mysqldump sets) names are backquoted, as Manticore's BuildCreateTable does.
 */
export function showCreateTable(schema: TableSchema, quote = false, words: OutputWords = 'list'): string {
  const q = quote ? (name: string) => `\`${name}\`` : (name: string) => name;
  // index_field_lengths' attributes come back with the setting, as Manticore's dump skips them
  const lines = [`${q('id')} bigint`, ...orderedColumns(schema).filter((c) => !c.tokenCount).map((c) => createColumn(c, q))];
  const settings = settingsText(schema, words);
  return `CREATE TABLE ${q(schema.name)} (\n${lines.join(',\n')}\n)${settings ? ' ' + settings : ''}`;
}
