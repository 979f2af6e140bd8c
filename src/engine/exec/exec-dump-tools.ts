/**
 * What mysqldump / mariadb-dump ask besides SELECT and SHOW, answered as Manticore (with its Buddy)
 * answers them: SELECTs over INFORMATION_SCHEMA (LOCK/UNLOCK TABLES: table-locks.ts). TABLES, COLUMNS and SCHEMATA
 * describe the real catalog; tablespace and statistics tables (FILES, PARTITIONS, COLUMN_STATISTICS, ...)
 * are empty, as quarry has none of those; any other INFORMATION_SCHEMA table is an error naming it.
 */
import type { InformationSchemaStatement } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import type { Catalog } from '../catalog.js';
import { rows, type Cell, type RowsResult } from '../result.js';
import { describeRows } from '../schema-text.js';

const SCHEMA = 'Manticore';

/** INFORMATION_SCHEMA tables that exist and are empty here: no tablespaces, partitions, statistics, routines. */
const EMPTY_TABLES = new Set([
  'FILES', 'PARTITIONS', 'COLUMN_STATISTICS', 'TRIGGERS', 'ROUTINES', 'EVENTS', 'VIEWS', 'PARAMETERS',
  'STATISTICS', 'KEY_COLUMN_USAGE', 'TABLE_CONSTRAINTS', 'REFERENTIAL_CONSTRAINTS', 'CHECK_CONSTRAINTS',
]);

/** The values a condition allows for `name`, or undefined when the statement does not constrain it. */
function allowed(st: InformationSchemaStatement, ...names: string[]): Set<string> | undefined {
  const vals = names.flatMap((n) => st.where.get(n) ?? []);
  return vals.length ? new Set(vals.map((v) => v.toLowerCase())) : undefined;
}

/** Tables the statement names (TABLE_NAME = / IN), all of them when it names none; none outside our schema. */
function selectedTables(catalog: Catalog, st: InformationSchemaStatement): string[] {
  const schemas = allowed(st, 'TABLE_SCHEMA', 'SCHEMA_NAME');
  if (schemas && !schemas.has(SCHEMA.toLowerCase())) return [];
  const names = allowed(st, 'TABLE_NAME');
  return catalog.names().filter((n) => !names || names.has(n.toLowerCase()));
}

function tableRow(catalog: Catalog, name: string): Record<string, Cell> {
  return {
    TABLE_CATALOG: 'def', TABLE_SCHEMA: SCHEMA, TABLE_NAME: name, TABLE_TYPE: 'BASE TABLE', ENGINE: 'ROWWISE',
    VERSION: '10', ROW_FORMAT: 'Dynamic', TABLE_ROWS: BigInt(catalog.get(name)?.index.count() ?? 0),
    TABLE_COLLATION: 'utf8mb4_general_ci', CREATE_OPTIONS: '', TABLE_COMMENT: '',
  };
}

function columnRows(catalog: Catalog, name: string): Record<string, Cell>[] {
  const t = catalog.get(name)!;
  return describeRows(t.schema).map(([field, type], i) => ({
    TABLE_CATALOG: 'def', TABLE_SCHEMA: SCHEMA, TABLE_NAME: name, COLUMN_NAME: field!, ORDINAL_POSITION: BigInt(i + 1),
    COLUMN_DEFAULT: null, IS_NULLABLE: 'NO', DATA_TYPE: type!, COLUMN_TYPE: type!, COLUMN_KEY: '', EXTRA: '',
    GENERATION_EXPRESSION: '', CHARACTER_SET_NAME: 'utf8mb4', COLLATION_NAME: 'utf8mb4_general_ci', COLUMN_COMMENT: '',
  }));
}

/** Columns `*` stands for, per table. */
const STAR: Record<string, string[]> = {
  TABLES: ['TABLE_SCHEMA', 'TABLE_NAME', 'TABLE_TYPE', 'ENGINE', 'TABLE_ROWS'],
  COLUMNS: ['TABLE_NAME', 'COLUMN_NAME', 'ORDINAL_POSITION', 'DATA_TYPE'],
  SCHEMATA: ['SCHEMA_NAME', 'DEFAULT_CHARACTER_SET_NAME', 'DEFAULT_COLLATION_NAME'],
};

export function execInformationSchema(catalog: Catalog, st: InformationSchemaStatement): RowsResult {
  if (st.columns.length === 1 && /^COUNT\(/.test(st.columns[0]!)) {
    const { rows: data } = execInformationSchema(catalog, { ...st, columns: ['*'] });
    return rows([{ name: st.columns[0]!.toLowerCase(), kind: 'bigint' }], [[BigInt(data.length)]]);
  }
  let records: Record<string, Cell>[];
  if (st.table === 'TABLES') records = selectedTables(catalog, st).map((n) => tableRow(catalog, n));
  else if (st.table === 'COLUMNS') records = selectedTables(catalog, st).flatMap((n) => columnRows(catalog, n));
  else if (st.table === 'SCHEMATA') {
    records = [{ CATALOG_NAME: 'def', SCHEMA_NAME: SCHEMA, DEFAULT_CHARACTER_SET_NAME: 'utf8mb4', DEFAULT_COLLATION_NAME: 'utf8mb4_general_ci' }];
  } else if (EMPTY_TABLES.has(st.table)) records = [];
  else throw new SearchError('UNKNOWN_TABLE', `no such table information_schema.${st.table}`);
  const names = st.columns.flatMap((c) => (c === '*' ? STAR[st.table] ?? ['*'] : [c]));
  const kinds = names.map((n) => (records.some((r) => typeof r[n] === 'bigint') ? 'bigint' as const : 'string' as const));
  return rows(names.map((name, i) => ({ name, kind: kinds[i]! })), records.map((r) => names.map((n) => r[n] ?? null)));
}
