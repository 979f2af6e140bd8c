/** CREATE / DROP / TRUNCATE / DESCRIBE / SHOW CREATE TABLE: the table definitions. */
import { fieldLengthName, fullTextFields, type Column, type TableSchema } from '../../schema/types.js';
import type {
  AttachStatement, ColumnDef, CreateTableLikeStatement, CreateTableStatement, DescribeStatement, DropTableStatement,
  TruncateStatement,
} from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import { checkOptimizeCutoff } from '../index-factory.js';
import type { Catalog } from '../catalog.js';
import { likeMatcher } from '../like.js';
import { ok, rows, stringColumns, type OkResult, type RowsResult } from '../result.js';
import { describeRows, showCreateTable, showFieldsRows, type OutputWords } from '../schema-text.js';
import { checkTruncatable } from './table-locks.js';
import { normalizeIntSettings } from '../int-settings.js';

/** Table settings CREATE TABLE accepts (Manticore's RT settings that make sense here). */
export const TABLE_SETTINGS = new Set([
  'morphology', 'charset_table', 'ignore_chars', 'min_word_len', 'stopwords', 'html_strip',
  'html_index_attrs', 'html_remove_elements', 'min_prefix_len', 'min_infix_len', 'max_substring_len',
  'index_exact_words', 'index_sp', 'index_zones', 'phrase_boundary', 'phrase_boundary_step',
  'blend_chars', 'blend_mode', 'expand_keywords', 'dict', 'wordforms', 'exceptions',
  'stopwords_list', 'wordforms_list', 'exceptions_list',
  'rt_mem_limit', 'index_field_lengths', 'engine', 'docstore_block_size', 'docstore_compression',
  'docstore_compression_level', 'stopwords_unstemmed', 'min_stemming_len', 'ngram_len', 'ngram_chars',
  'overshort_step', 'stopword_step', 'bigram_index', 'bigram_freq_words', 'type', 'access_plain_attrs',
  'access_blob_attrs', 'access_doclists', 'access_hitlists', 'attr_update_reserve', 'preopen',
  'optimize_cutoff', 'killlist_target',
]);

/**
 * Manticore settings quarry knows and does not implement, each refused with why (rather than the bare
 * 'setting not allowed' of a setting nobody has). hitless_words keeps no positions for the listed words,
 * which changes what phrase and proximity queries over them match; quarry's index stores every word's
 * positions and its core's phrase matching has no position-less postings to handle.
 */
const UNSUPPORTED_SETTINGS: Record<string, string> = {
  hitless_words: 'quarry stores the positions of every word',
  hitless_words_list: 'quarry stores the positions of every word',
};

/** The refusal text of a setting CREATE / ALTER TABLE does not take. */
export function settingNotAllowed(k: string, v: string): string {
  const why = UNSUPPORTED_SETTINGS[k];
  return why ? `${k} is not supported: ${why}` : `setting not allowed: ${k}='${v}'`;
}

export interface ConfigTable {
  /** Text settings and schema of the table's section in the config file. */
  schema: TableSchema;
}

function toColumn(d: ColumnDef): Column {
  if (d.type === 'float_vector') throw new SearchError('UNSUPPORTED', `column '${d.name}': float_vector is not supported`);
  const col: Column = { name: d.name.toLowerCase(), type: d.type, indexed: d.indexed, stored: d.stored };
  if (d.bits) col.bits = d.bits;
  return col;
}

export function schemaOf(st: CreateTableStatement): TableSchema {
  const name = st.table.toLowerCase();
  for (const [k, v] of Object.entries(st.settings)) {
    if (!TABLE_SETTINGS.has(k)) throw new SearchError('BAD_SETTING', `error adding table '${name}': ${settingNotAllowed(k, v)}`);
  }
  const columns = st.columns.map(toColumn);
  const seen = new Set<string>();
  for (const c of columns) {
    if (seen.has(c.name)) throw new SearchError('PARSE_ERROR', `duplicate attribute name '${c.name}'`);
    seen.add(c.name);
  }
  checkTableType(name, st.settings.type);
  checkOptimizeCutoff(name, st.settings);
  const settings = { ...normalizeIntSettings(st.settings) };
  delete settings.type;
  if (Number.parseInt(settings.index_field_lengths ?? '0', 10) > 0) columns.push(...fieldLengthColumns(name, columns));
  return { name, columns, settings };
}

/**
 * `type='rt'` (the default) is what this path creates; distributed tables take their own path before
 * it. Percolate tables are not built: refused by name rather than created as a plain RT table.
 */
function checkTableType(name: string, type: string | undefined): void {
  const t = (type ?? 'rt').toLowerCase();
  if (t === 'rt') return;
  if (t === 'pq' || t === 'percolate') {
    throw new SearchError('UNSUPPORTED', `error adding table '${name}': percolate tables (type='${type}') are not supported`);
  }
  throw new SearchError('BAD_SETTING', `error adding table '${name}': unknown table type '${type}'`);
}

/** index_field_lengths=1: one `<field>_len` token-count attribute per full-text field (Manticore's AddFieldLens). */
function fieldLengthColumns(table: string, columns: Column[]): Column[] {
  const fields = fullTextFields({ name: table, columns, settings: {} });
  return fields.map((f) => {
    const name = fieldLengthName(f.name);
    if (columns.some((c) => c.name === name)) {
      throw new SearchError('BAD_SETTING', `error adding table '${table}': attribute ${name} conflicts with index_field_lengths=1; remove it`);
    }
    return { name, type: 'uint', indexed: false, stored: false, tokenCount: true };
  });
}

export async function execCreate(catalog: Catalog, st: CreateTableStatement): Promise<OkResult> {
  if (st.ifNotExists && catalog.get(st.table)) return ok(0);
  await catalog.create(schemaOf(st));
  return ok(0);
}

export async function execCreateLike(catalog: Catalog, st: CreateTableLikeStatement): Promise<OkResult> {
  const src = catalog.get(st.like);
  if (!src) throw new SearchError('UNKNOWN_TABLE', `table '${st.like.toLowerCase()}' absent`);
  if (st.ifNotExists && catalog.get(st.table)) return ok(0);
  const table = await catalog.create({ ...src.schema, name: st.table.toLowerCase() });
  if (st.withData) {
    const docs = [...catalog.store.docs(src.name)];
    if (docs.length) {
      await table.mutex.run(() => table.write(docs.map(([id]) => id), docs.map(([, d]) => d as never),
        docs.map(([id, d]) => table.docInput(id, d as never)), false));
    }
  }
  return ok(0);
}

export async function execDrop(catalog: Catalog, st: DropTableStatement): Promise<OkResult> {
  if (st.ifExists && !catalog.get(st.table)) return ok(0);
  await catalog.drop(st.table);
  return ok(0);
}

export async function execTruncate(catalog: Catalog, st: TruncateStatement, config: Map<string, ConfigTable>): Promise<OkResult> {
  const section = st.reconfigure ? config.get(st.table.toLowerCase()) : undefined;
  checkTruncatable(catalog.get(st.table));
  await catalog.truncate(st.table, section?.schema);
  return ok(0);
}

/**
 * ATTACH ... WITH TRUNCATE: the target takes the source's documents and schema atomically (Manticore
 * moves a plain table's files into an RT table; quarry's tables are all RT). Without WITH TRUNCATE
 * Manticore appends; that is not implemented and says so.
 */
/** ATTACH ... WITH TRUNCATE's warning: `table 't' replaced at tid N`. */
export function replacedTidWarning(table: string, tid: bigint): string {
  return `table '${table.toLowerCase()}' replaced at tid ${tid}`;
}

/** The tid a replacedTidWarning names, if `warning` is one. */
export function replacedTidOf(warning: string | undefined): string | undefined {
  return /^table '[^']*' replaced at tid (\d+)$/.exec(warning ?? '')?.[1];
}

export async function execAttach(catalog: Catalog, st: AttachStatement): Promise<OkResult> {
  if (!st.truncate) throw new SearchError('UNSUPPORTED', 'ATTACH without WITH TRUNCATE is not supported (only replacing the target)');
  const tid = await catalog.replaceWith(st.target, st.source);
  // what the target held up to the swap is gone: its tid then lets a caller (quarry indexer --rotate)
  // tell whether writes it did not make were replaced, with no window between its check and the swap
  return { ...ok(0), warning: replacedTidWarning(st.target, tid) };
}

function tableOrError(catalog: Catalog, name: string) {
  const t = catalog.get(name);
  if (!t) throw new SearchError('UNKNOWN_TABLE', `no such table '${name.toLowerCase()}'`);
  return t;
}

export function execDescribe(catalog: Catalog, st: DescribeStatement): RowsResult {
  const t = tableOrError(catalog, st.table);
  const match = likeMatcher(st.like);
  return rows(stringColumns('Field', 'Type', 'Properties'), describeRows(t.schema).filter((r) => match(r[0])));
}

export function execShowFields(catalog: Catalog, table: string): RowsResult {
  return rows(stringColumns('Field', 'Type', 'Null', 'Key', 'Default', 'Extra'), showFieldsRows(tableOrError(catalog, table).schema));
}

export function execShowCreate(catalog: Catalog, table: string, quoteNames = false, words: OutputWords = 'list'): RowsResult {
  const t = tableOrError(catalog, table);
  return rows(stringColumns('Table', 'Create Table'), [[t.name, showCreateTable(t.schema, quoteNames, words)]]);
}
