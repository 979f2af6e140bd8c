/**
 * `/insert` (`/create`), `/replace` (`/index`), `/update` and `/delete` on the engine: the same
 * Table calls as SQL INSERT/REPLACE (validate, then one durable write) and the SQL UPDATE/DELETE
 * executors, with Manticore's JSON request checks and texts (src/sphinxjsonquery.cpp).
 */
import type { Assignment, Condition, Literal as SqlLiteral, NumberLiteral, SelectStatement } from '../sql/ast.js';
import { SearchError } from '../util/errors.js';
import { inferSchema } from './auto-schema.js';
import { buildRequest } from './exec-select.js';
import { execDelete, execUpdate, type WriteContext } from './exec-write.js';
import { jsonFullText, lookupTable } from './json-search.js';
import {
  docLiteral, isJsonInt, isJsonObject, jsonTypeName, requestObject, tableName,
  type JsonObject, type JsonValue,
} from './json-value.js';
import type { Literal } from './literal.js';
import type { RowInput, Table } from './table.js';

const parseError = (msg: string): SearchError => new SearchError('PARSE_ERROR', msg);

export interface InsertReply { table: string; id: bigint; replace: boolean }
/** By id: `id` set (`affected` 0 or 1); by query: `id` undefined. */
export interface UpdateReply { table: string; id?: bigint; affected: number }
export interface DeleteReply { table: string; id?: bigint; affected: number }

/**
 * The `id` of a request (Manticore's ParseIndexId): a non-negative integer, 0 or absent for "none".
 * `arrays` allows an id list (`/delete`); a string id is returned as a string.
 */
export function requestIds(obj: JsonObject, arrays: boolean): bigint[] | string[] | undefined {
  const v = obj.id;
  if (v === undefined) return undefined;
  const one = (x: JsonValue): bigint | string => {
    if (typeof x === 'string') return x;
    if (!isJsonInt(x)) throw parseError(arrays ? 'Document ids should be integer or string' : 'Document ids should be integer, string, or array of integers/strings');
    const id = BigInt(x.value);
    if (id < 0n) throw parseError('Negative document ids are not allowed');
    return id;
  };
  if (!Array.isArray(v)) return [one(v)] as bigint[] | string[];
  if (!arrays) throw parseError('Document ids should be integer or string');
  const ids = v.map(one);
  const strings = ids.filter((x) => typeof x === 'string').length;
  if (strings && strings !== ids.length) throw parseError('Document ids should be integer');
  return ids as bigint[] | string[];
}

/** The document's columns (lower-cased names, `id` left out) in the order given. */
export function docEntries(obj: JsonObject): [string, JsonValue][] {
  const doc = obj.doc;
  if (doc === undefined) return [];
  if (!isJsonObject(doc)) throw parseError('"doc" property value should be an object');
  return Object.entries(doc).map(([k, v]) => [k.toLowerCase(), v] as [string, JsonValue]).filter(([k]) => k !== 'id');
}

/** An existing table, or one made by auto schema from this document (spec section 7). */
async function tableForInsert(ctx: WriteContext, name: string, entries: [string, JsonValue][]): Promise<Table> {
  const existing = ctx.catalog.get(name);
  if (existing) return existing;
  if (!ctx.autoSchema) throw new SearchError('UNKNOWN_TABLE', `table '${name}' absent`);
  const schema = inferSchema(name, entries.map(([k]) => k), [entries.map(([, v]) => docLiteral(v))]);
  try {
    return await ctx.catalog.create(schema);
  } catch (e) {
    const t = ctx.catalog.get(name);
    if (t) return t;
    throw e;
  }
}

/** One document as a row: values by column, and each column's 1-based position (id is column 1). */
export function docRow(table: Table, id: bigint | undefined, entries: [string, JsonValue][]): { row: RowInput; colNos: Map<string, number> } {
  const values = new Map<string, Literal>();
  const colNos = new Map<string, number>([['id', 1]]);
  entries.forEach(([name, v], i) => {
    const col = table.column(name);
    if (!col) throw new SearchError('UNKNOWN_COLUMN', `unknown column: '${name}'`);
    values.set(name, docLiteral(v, col.type === 'json'));
    colNos.set(name, i + 2);
  });
  return { row: { id, values }, colNos };
}

/** The id of an insert: absent, 0 or a string mean a generated one. */
export function insertId(obj: JsonObject): bigint | undefined {
  const ids = requestIds(obj, false);
  const id = ids?.[0];
  return typeof id === 'bigint' && id !== 0n ? id : undefined;
}

/** `/insert` and `/replace`: one document, one durable write. */
export async function execJsonInsert(ctx: WriteContext, body: JsonValue, replace: boolean): Promise<InsertReply> {
  const obj = requestObject(body);
  const name = tableName(obj);
  const given = insertId(obj);
  const entries = docEntries(obj);
  const table = await tableForInsert(ctx, name, entries);
  const { row, colNos } = docRow(table, given, entries);
  return table.mutex.run(async () => {
    const id = given ?? (await ctx.ids.take(1))[0]!;
    const { docs, inputs } = table.prepare([row], [id], colNos);
    await table.write([id], docs, inputs, replace);
    return { table: table.name, id, replace };
  });
}

/** A document literal as the SQL literal an UPDATE assignment takes (JSON text as a string). */
function sqlLiteral(l: Literal): SqlLiteral {
  switch (l.t) {
    case 'int': return { kind: 'int', value: l.v, text: l.v.toString() };
    case 'float': return { kind: 'float', value: l.v, text: String(l.v) };
    case 'bool': return { kind: 'int', value: l.v ? 1 : 0, text: l.v ? '1' : '0' };
    case 'string': case 'json': return { kind: 'string', value: l.v };
    case 'tuple': return { kind: 'tuple', items: l.v.map(sqlLiteral) as NumberLiteral[] };
    case 'null': return { kind: 'null' };
  }
}

/** `doc` of `/update` as assignments; `col.path` keys update inside a JSON attribute. */
function assignments(table: Table, obj: JsonObject): Assignment[] {
  const doc = obj.doc;
  if (doc === undefined) throw parseError('"doc" property missing');
  if (!isJsonObject(doc)) throw parseError('"doc" property value should be an object');
  return Object.entries(doc).map(([key, v]) => {
    if (v === null) throw parseError(`unsupported value type '${jsonTypeName(v)}' in field '${key}'`);
    const [column, ...path] = key.toLowerCase().split('.');
    const col = table.column(column!);
    return { column: column!, path, value: sqlLiteral(docLiteral(v, col?.type === 'json' || path.length > 0)) };
  });
}

/** Ids of the documents a `query` (or none: all documents) selects now. */
function queryIds(ctx: WriteContext, table: Table, query: JsonValue | undefined): bigint[] {
  const all = Math.max(1, table.index.count());
  const st: SelectStatement = {
    kind: 'select', text: '', items: [], tables: [table.name], limit: all, offset: 0,
    options: [{ name: 'max_matches', value: { kind: 'int', value: all, text: String(all) } }],
  };
  const { fullText, where } = jsonFullText(table, query, ctx.flags);
  st.where = where;
  const req = buildRequest(table, st, ctx.flags, fullText);
  return req === 'none' ? [] : table.search(req).hits.map((h) => h.docId);
}

const idIn = (ids: bigint[]): Condition => ({
  kind: 'in', negate: false, target: { expr: { kind: 'column', name: 'id', path: [], text: 'id' } },
  values: ids.map((id) => ({ kind: 'int', value: id, text: id.toString() })),
});

/** The target of an update or delete: ids given, or ids a query selects. */
function targetIds(ctx: WriteContext, table: Table, obj: JsonObject, arrays: boolean): { ids: bigint[]; byId?: bigint } {
  const given = requestIds(obj, arrays);
  if (given !== undefined && obj.query !== undefined) throw parseError('both "id" and "query" specified');
  if (given === undefined) {
    if (obj.query === undefined) throw parseError('"id" or "query" property missing');
    return { ids: queryIds(ctx, table, obj.query) };
  }
  if (typeof given[0] === 'string') {
    throw new SearchError('QUERY_ERROR', `table ${table.name}: table ${table.name}: unsupported filter type 'string' on attribute 'id'`);
  }
  const ids = given as bigint[];
  return { ids, byId: ids[0] === 0n ? undefined : ids[0] };
}

export async function execJsonUpdate(ctx: WriteContext, body: JsonValue): Promise<UpdateReply> {
  const obj = requestObject(body);
  const table = lookupTable(ctx.catalog, tableName(obj));
  const assigns = assignments(table, obj);
  const { ids, byId } = targetIds(ctx, table, obj, false);
  const res = await execUpdate(ctx, { kind: 'update', text: '', table: table.name, assignments: assigns, where: idIn(ids), options: [] });
  return { table: table.name, id: byId, affected: res.affected };
}

export async function execJsonDelete(ctx: WriteContext, body: JsonValue): Promise<DeleteReply> {
  const obj = requestObject(body);
  const table = lookupTable(ctx.catalog, tableName(obj));
  const { ids, byId } = targetIds(ctx, table, obj, true);
  const res = await execDelete(ctx, { kind: 'delete', text: '', table: table.name, where: idIn(ids), options: [] });
  return { table: table.name, id: byId, affected: res.affected };
}
