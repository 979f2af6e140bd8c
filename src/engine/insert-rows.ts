/**
 * What every INSERT path shares (SQL, SQL in a transaction, JSON /insert and /bulk): the target table
 * (made by auto schema when missing), rows as column -> literal maps with their statement positions,
 * ids taken from the row or generated, and a WHERE as a SELECT over every match.
 */
import type { DeleteStatement, SelectStatement, UpdateStatement } from '../sql/ast.js';
import { SearchError } from '../util/errors.js';
import { checkDocId } from '../store/keys.js';
import { inferSchema } from './auto-schema.js';
import type { Catalog } from './catalog.js';
import type { IdSource } from './id-generator.js';
import type { Literal } from './values/literal.js';
import { orderedColumns } from './schema-text.js';
import type { RowInput, Table } from './table.js';
import { twiceError, twiceNamed } from './json/json-value.js';
import { mapPacked } from '../util/packed-map.js';

/**
 * An existing table, or one created by auto schema (spec section 7) from the statement's columns and
 * rows. Creating it is DDL: never part of a transaction.
 */
export async function tableForInsert(
  ctx: { catalog: Catalog; autoSchema: boolean }, table: string, columns: string[] | undefined, rows: Literal[][],
): Promise<Table> {
  const existing = ctx.catalog.get(table);
  if (existing) return existing;
  const name = table.toLowerCase();
  if (!ctx.autoSchema || !columns) throw new SearchError('UNKNOWN_TABLE', `table '${name}' absent`);
  try {
    return await ctx.catalog.create(inferSchema(name, columns, rows));
  } catch (e) {
    const t = ctx.catalog.get(name); // another INSERT created it meanwhile: use that one
    if (t) return t;
    throw e;
  }
}

/**
 * The id a row gives: undefined (or 0) means "generate one". A negative id is refused with Manticore's
 * text (searchd's SQL insert, StrToDocID): stored, it broke the MySQL OK packet's last insert id.
 */
export function idOf(l: Literal | undefined): bigint | undefined {
  if (!l || l.t === 'null') return undefined;
  let id: bigint;
  if (l.t === 'int') id = l.v;
  else if (l.t === 'string' && /^-?\d+$/.test(l.v.trim())) id = BigInt(l.v.trim());
  else throw new SearchError('BAD_VALUE', 'id must be an integer');
  if (id < 0n) throw new SearchError('BAD_VALUE', 'Negative document ids are not allowed');
  // the store refuses it too, but only when it writes the key: with no row named (a bulk load's
  // bad line could not be skipped) and, in a multi-row INSERT, after the rows were prepared
  checkDocId(id);
  return id === 0n ? undefined : id;
}

/** A statement's column keys (lower-cased) and their 1-based positions, as rowInputs reads them. */
interface ColumnKeys { keys: string[]; colNos: Map<string, number> }

/**
 * Per table, the column keys of its last INSERT's column list, while its schema is the same: a client
 * sends the same list in every statement, and the keys, the Map and the lower-cased names were built
 * per statement (garbage on every INSERT). Read only once made (colNos is shared by the statements).
 */
const lastColumns = new WeakMap<Table, { schema: Table['schema']; columns: string[] | undefined; keys: ColumnKeys }>();

function sameColumns(a: string[] | undefined, b: string[] | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The keys of `columns` (the schema's order, id first, when none), checked against the table's columns. */
function columnKeys(table: Table, columns: string[] | undefined): ColumnKeys {
  const last = lastColumns.get(table);
  if (last && last.schema === table.schema && sameColumns(last.columns, columns)) return last.keys;
  const names = columns ?? ['id', ...orderedColumns(table.schema).map((c) => c.name)];
  const colNos = new Map<string, number>();
  const keys: string[] = [];
  for (let i = 0; i < names.length; i++) {
    const key = names[i]!.toLowerCase();
    if (key !== 'id' && !table.column(key)) throw new SearchError('UNKNOWN_COLUMN', `unknown column: '${names[i]}'`);
    colNos.set(key, i + 1);
    keys.push(key);
  }
  // after every name is known a column, as searchd checks them
  if (colNos.size < keys.length) throw twiceError(twiceNamed(keys)!);
  const made = { keys, colNos };
  lastColumns.set(table, { schema: table.schema, columns: columns && [...columns], keys: made });
  return made;
}

/**
 * Rows of an INSERT as RowInputs; without a column list, values follow the schema order (id first).
 * `colNos` may be shared with other statements of the same columns: read only.
 */
export function rowInputs(table: Table, columns: string[] | undefined, rows: Literal[][]): { inputs: RowInput[]; colNos: ReadonlyMap<string, number> } {
  // plain loops (packed arrays): this runs for every INSERT; its closures and second name list were per-statement garbage
  const { keys, colNos } = columnKeys(table, columns);
  const inputs: RowInput[] = [];
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    if (row.length !== keys.length) {
      throw new SearchError('PARSE_ERROR', `column count does not match value count (expected ${keys.length}, got ${row.length})`);
    }
    const values = new Map<string, Literal>();
    for (let i = 0; i < keys.length; i++) values.set(keys[i]!, row[i]!);
    inputs.push({ id: idOf(values.get('id')), values });
  }
  return { inputs, colNos };
}

/** Each row's id: its own, or a generated one (all generated ids of a statement taken at once). */
export async function assignIds(ids: IdSource, inputs: RowInput[]): Promise<bigint[]> {
  const missing = inputs.filter((r) => r.id === undefined).length;
  const fresh = missing ? await ids.take(missing) : [];
  let k = 0;
  return mapPacked(inputs, (r) => r.id ?? fresh[k++]!);
}

/** The WHERE of an UPDATE/DELETE as a SELECT over every match. */
export function whereAsSelect(table: Table, st: UpdateStatement | DeleteStatement): SelectStatement {
  const all = Math.max(1, table.index.count());
  return {
    kind: 'select', text: st.text, items: [], tables: [table.name], match: st.match, where: st.where,
    options: [...st.options, { name: 'max_matches', value: { kind: 'int', value: all, text: String(all) } }],
    limit: all, offset: 0,
  };
}
