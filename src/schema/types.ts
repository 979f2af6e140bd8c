/** Column types and table definitions: the words of Manticore's DESCRIBE output. */

/** Attribute and field types as DESCRIBE prints them (`mva` = multi, `mva64` = multi64). */
export type ColumnType =
  | 'text' | 'string' | 'uint' | 'bigint' | 'float' | 'bool' | 'timestamp' | 'json' | 'mva' | 'mva64';

/**
 * One column of a table. `id` is implicit and never listed here.
 * - text: `indexed` and/or `stored` (plain `text` = both).
 * - string: `indexed` = `string attribute indexed` (also full-text indexed).
 */
export interface Column {
  name: string;
  type: ColumnType;
  indexed: boolean;
  stored: boolean;
  /** `bit(N)`: a uint of N bits (DESC shows `uint:N`). */
  bits?: number;
  /**
   * index_field_lengths=1: the `<field>_len` uint Manticore adds per full-text field, the field's
   * token count (DESC shows `tokencount`; SHOW CREATE TABLE leaves it out).
   */
  tokenCount?: boolean;
}

/** Table-level settings as given after the column list (`morphology='stem_en'`), raw strings. */
export type TableSettings = Record<string, string>;

export interface TableSchema {
  name: string;
  columns: Column[];
  settings: TableSettings;
  /**
   * Copies of the stopwords/wordforms/exceptions files the settings name, by searchd's copy names
   * (`stopwords_chunk0_0.txt`), taken at CREATE TABLE or ALTER (src/engine/table-files.ts). Absent on
   * tables created before copies were taken: those read their original paths.
   */
  files?: Record<string, string>;
}

/** Full-text fields in declaration order: text columns and `string attribute indexed`. */
export function fullTextFields(schema: TableSchema): Column[] {
  return schema.columns.filter((c) => c.indexed && (c.type === 'text' || c.type === 'string'));
}

/** The token-count attribute name of a full-text field (index_field_lengths). */
export function fieldLengthName(field: string): string {
  return `${field}_len`;
}

/** Attribute columns (everything but text), in declaration order. */
export function attributeColumns(schema: TableSchema): Column[] {
  return schema.columns.filter((c) => c.type !== 'text');
}
